"""Yaxha as a JAX environment with Pgx's API: jit-compiled, vmapped, equal to the rules engine.

=====================  ===============================================================
Import                 ``from maya_envs.jax import Yaxha`` (the ``jax`` extra)
Class                  :class:`Yaxha`, a ``pgx.Env``: ``init(key)``, ``step(state,
                       action, key)``, ``observe(state, player_id)``; pure functions,
                       ``jax.jit`` / ``jax.vmap`` them
Players                2, 3 or 4 (``num_players``); ``state.current_player`` is the seat
                       to move (player id = seat, ``player_0`` = 0); 0 once over (Pgx
                       wants a non-negative id)
Actions                the ``N + 5C + 5`` ids of :mod:`maya_envs.yaxha.actions` (pick
                       tile, place colour on cell, discard colour; ``C`` = 126 cells
                       floating, 30 fixed)
Turn order             as the AEC env: each round the hidden tile picks one seat at a
                       time in seat order (sequential commits, revealed when the last
                       is in), pending picks after a clash in initiative order (the last
                       one forced), then building round-robin, one cube a turn
State                  :class:`State`: Pgx's six public fields (``current_player``,
                       ``observation``, ``rewards (N,) float32``, ``terminated``,
                       ``truncated``, ``legal_action_mask (A,) bool``) and the game in
                       ``state._x`` (:class:`Game`, the rules state's fields as arrays,
                       plus the bag's order)
Observation            the PettingZoo env's default vector, value for value
                       (:mod:`maya_envs.yaxha.observation`, without the optional
                       ``action_features``): ``(1326,)`` 2p floating ... ``(714,)`` 4p
                       fixed, ``float32``; ``state.observation`` is the current player's,
                       ``observe(state, seat)`` any seat's. A seat sees its own pick but
                       no other seat's before the reveal, no other seat's cubes placed
                       this round, the bag as colour counts only (never its order)
Rewards                paid on the step that ends the game (rules ``returns``: both
                       ``reward_scheme`` values; ``totals(state)`` gives the scores)
Termination            after round 10's building; never truncated. Pgx conventions: at
                       the end the mask is all ``True`` and a step on a finished state
                       changes nothing (zero rewards)
Illegal actions        the PettingZoo default ``illegal_action="terminate"``: the game
                       ends (the position unchanged), the offender gets -1, others 0
Options                every :class:`~maya_envs.yaxha.state.YaxhaConfig` field, every
                       value: ``num_players``, ``footprint``, ``bonus_cards`` (the three
                       pools or a list), ``bonus_zero_ties_score``, ``reward_scheme``,
                       ``cubes_per_colour``
Randomness             ``init(key)`` draws the bonus cards, the initiative and the order
                       of the whole bag (a uniform shuffle); every market is the next
                       ``3N`` cubes of that order, so ``step`` needs no key. The rules
                       engine draws its cubes one by one from its generator: the same
                       distribution, another stream
Equality               :func:`state_from_rules` / :func:`state_to_rules` convert a rules
                       state both ways, and :func:`arrange_draws` puts a given market at
                       the top of the bag (the rules engine's chance outcome): with the
                       same draws, the two engines give the same states, masks, every
                       seat's observation, rewards and endings (``tests/jax/test_yaxha.py``)
=====================  ===============================================================

Rule decisions and sources: :mod:`maya_envs.yaxha.rules` and :mod:`maya_envs.yaxha.scoring`
(this module repeats them as array operations, under the equality tests). Scores are computed
on the 30 cells of the fixed footprint: a floating pyramid's base fits a 4 x 4 window of its
7 x 7 grid, and visibility, groups and every bonus card are unchanged by moving the pyramid
into it. The config is static (one compilation per :class:`Yaxha` instance and batch shape).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core

from maya_envs.core.options import resolve_config
from maya_envs.jax.pgx_state import GameState, register_state
from maya_envs.yaxha.actions import NUM_COLOURS, NUM_LEVELS, Geometry
from maya_envs.yaxha.observation import observation_layout
from maya_envs.yaxha.rules import YaxhaRules
from maya_envs.yaxha.scoring import BONUS_POINTS, GROUP_POINTS, NUM_BONUS_CARDS
from maya_envs.yaxha.state import (
    BUILD,
    CUBES_PER_TILE,
    NUM_BONUS_IN_PLAY,
    NUM_ROUNDS,
    OVER,
    PENDING,
    SCORE_SCALE,
    SELECT,
    YaxhaConfig,
    YaxhaState,
)

ENV_ID = "yaxha"
"""``state.env_id`` and ``Yaxha.id`` (not one of Pgx's own ``pgx.EnvId`` games)."""

SCORE_CELLS = 30
"""Cells of the fixed footprint, where scores are computed (module docstring)."""
_MAX_TOTAL = 5 * GROUP_POINTS[-1] + NUM_BONUS_IN_PLAY * BONUS_POINTS  # a bound on any total score
_COMPETITIVE = (0, 1, 2, 3, 4, 10, 11, 12)


class Game(NamedTuple):
    """The rules state (:class:`~maya_envs.yaxha.state.YaxhaState`) as ``int32`` arrays, plus the
    bag's order; ``N`` = players, ``C`` = cells, ``T = 5 * cubes_per_colour``.

    Attributes:
        round, phase, build_step: as the rules (phase ints of :mod:`maya_envs.yaxha.state`).
        bag: ``(5,)`` cubes left per colour.
        order: ``(T,)`` colours of every cube in draw order; the first ``T - sum(bag)`` are
            drawn, the rest is the bag (hidden: no observation reads it).
        market: ``(N, 5)`` colour counts per tile.
        initiative, choices, owner, discarded: ``(N,)`` as the rules (-1 for none).
        pending: ``(N,)`` seats still to pick, in pick order, then -1.
        hands: ``(N, 5)`` cubes each seat still has to place.
        pyramids: ``(N, C)`` colour per cell, -1 empty.
        fresh: ``(N, 3)`` cells each seat placed this round, in order, then -1.
        bonus: ``(3,)`` the cards in play, sorted.
    """

    round: jax.Array
    phase: jax.Array
    build_step: jax.Array
    bag: jax.Array
    order: jax.Array
    market: jax.Array
    initiative: jax.Array
    choices: jax.Array
    owner: jax.Array
    pending: jax.Array
    hands: jax.Array
    pyramids: jax.Array
    fresh: jax.Array
    discarded: jax.Array
    bonus: jax.Array


@register_state
class State(GameState):
    """Pgx state of one Yaxha game (a pytree; batch it with ``jax.vmap``). Public fields are
    Pgx's; ``_x`` holds the :class:`Game`. Built by :meth:`Yaxha.init` or :func:`state_from_rules`."""

    @property
    def env_id(self) -> str:
        return ENV_ID

    def to_svg(self, *, color_theme: str | None = None, scale: float | None = None) -> str:
        """SVG of the table (the project's renderer, spectator view); of the first game for a
        batched state."""
        from maya_envs.yaxha.render_image import render_svg

        single = self.first()
        n, cells = single._x.pyramids.shape
        footprint = "fixed" if cells == SCORE_CELLS else "floating"
        return str(render_svg(YaxhaRules(num_players=int(n), footprint=footprint), state_to_rules(single)))


class _Tables:
    """Neighbour tables of one footprint as numpy arrays; a missing neighbour is ``C`` (the
    index of a padding cell that is always empty)."""

    def __init__(self, geometry: Geometry) -> None:
        c = geometry.num_cells

        def padded(rows, width):
            return np.array([list(r) + [c] * (width - len(r)) for r in rows], np.int32)

        self.cells = c
        self.level = np.array(geometry.level, np.int32)
        self.base = self.level == 0
        self.x = np.array([x for x, _, _ in geometry.coords], np.int32)
        self.y = np.array([y for _, y, _ in geometry.coords], np.int32)
        self.links = padded(geometry.links, 12)
        self.covers = padded(geometry.covers, 4)
        first = np.zeros(c, bool)  # where the first cube may go
        first[[geometry.anchor] if geometry.anchor is not None else list(geometry.base_cells)] = True
        self.first = first


_FIXED = _Tables(Geometry("fixed"))


def _side_order(geometry: Geometry) -> np.ndarray:
    """Card 15: ``(4, C, C) bool``, ``[side, i, j]``: cell ``j`` is in cell ``i``'s row seen from
    that side, nearer the edge (rules ``Geometry.side_rows``)."""
    rows = geometry.side_rows
    c = geometry.num_cells
    return np.array(
        [[[rows[i][side][0] == rows[j][side][0] and rows[j][side][1] < rows[i][side][1] for j in range(c)]
          for i in range(c)] for side in range(4)]
    )  # fmt: skip


_SIDE_ORDER = _side_order(Geometry("fixed"))


def _compact_index(geometry: Geometry) -> np.ndarray:
    """``(4, 4, 30)``: for a base window with origin ``(ox, oy)``, the ``geometry`` cell of each
    fixed-footprint cell ``(x, y, z)``, i.e. ``(x + ox, y + oy, z)`` (identity rows for the fixed
    footprint)."""
    fixed = Geometry("fixed")
    table = np.zeros((4, 4, SCORE_CELLS), np.int32)
    for ox in range(4):
        for oy in range(4):
            for k, (x, y, z) in enumerate(fixed.coords):
                shifted = (x + ox, y + oy, z) if geometry.footprint == "floating" else (x, y, z)
                table[ox, oy, k] = geometry.index[shifted]
    return table


def _when(pred: jax.Array, fn, like: jax.Array) -> jax.Array:
    """``fn()`` if ``pred`` else ``like``. A loop that runs at most once instead of ``lax.cond``:
    under ``vmap`` a ``cond`` computes both sides for every game, this runs ``fn`` only on the
    steps where some game of the batch needs it (the scores, once a game ends)."""
    _, out = jax.lax.while_loop(lambda c: pred & ~c[0], lambda c: (jnp.bool_(True), fn()), (jnp.bool_(False), like))
    return out


class Yaxha(pgx.core.Env):
    """Yaxha with Pgx's API for one config (module docstring).

    Args:
        config: a :class:`~maya_envs.yaxha.state.YaxhaConfig`, a mapping of its fields or
            ``None``; ``**options``: further fields as keywords (``Yaxha(num_players=3)``).
        observe_on_step: ``True`` (default, Pgx's API): ``init`` and ``step`` fill
            ``state.observation`` with the current player's observation; ``False``: it stays
            zeros (``observe(state, seat)`` still gives any seat's).

    Raises:
        ConfigError: an unknown option or a bad value (the rules' messages).
    """

    def __init__(
        self,
        config: YaxhaConfig | Mapping[str, Any] | None = None,
        observe_on_step: bool = True,
        **options: Any,
    ) -> None:
        super().__init__()
        self.observe_on_step = bool(observe_on_step)
        self.config = cfg = resolve_config(YaxhaConfig, config, options)
        self.rules = YaxhaRules(cfg)
        self._n = n = cfg.num_players
        self._t = _Tables(self.rules.geometry)
        self._cells = c = self.rules.geometry.num_cells
        self._side = self.rules.geometry.side
        self._place = n
        self._discard = n + NUM_COLOURS * c
        self._num_actions = self._discard + NUM_COLOURS
        self._layout = observation_layout(n, c)
        self._total_cubes = NUM_COLOURS * cfg.cubes_per_colour
        self._compact = _compact_index(self.rules.geometry)
        self._thirds = np.arange(CUBES_PER_TILE + 1, dtype=np.float32) / 3.0  # as observation.py divides
        self._bag_unit = np.arange(cfg.cubes_per_colour + 1, dtype=np.float32) / cfg.cubes_per_colour
        self._pool = np.array(cfg.bonus_pool() if isinstance(cfg.bonus_cards, str) else cfg.bonus_cards, np.int32)
        self._from_game = jax.jit(self._state_of_game)

    # -- Pgx protocol ------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return ENV_ID

    @property
    def version(self) -> str:
        return "v1"  # the version of the rules this engine was written for (tests/jax compare them)

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def num_actions(self) -> int:
        return self._num_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self._layout.size,)

    def observe(self, state: State, player_id: jax.Array | int | None = None) -> jax.Array:
        """``player_id``'s observation (default: the current player's), ``(obs size,) float32``;
        reads only what that seat may see (module docstring)."""
        if player_id is None and not self.observe_on_step:  # Pgx's init and step ask this way
            return jnp.zeros(self._layout.size, jnp.float32)
        seat = state.current_player if player_id is None else jnp.asarray(player_id, jnp.int32)
        return jax.lax.stop_gradient(self._observe(state, seat))

    def _init(self, key: jax.Array) -> State:
        n, cfg = self._n, self.config
        k_bonus, k_init, k_bag = jax.random.split(key, 3)
        if isinstance(cfg.bonus_cards, str):
            picked = jax.random.choice(k_bonus, len(self._pool), (NUM_BONUS_IN_PLAY,), replace=False)
            bonus = jnp.sort(jnp.asarray(self._pool)[picked])
        else:
            bonus = jnp.asarray(self._pool)
        initiative = jax.random.permutation(k_init, n).astype(jnp.int32) + 1
        cubes = np.repeat(np.arange(NUM_COLOURS, dtype=np.int32), cfg.cubes_per_colour)
        order = jax.random.permutation(k_bag, jnp.asarray(cubes))
        full = jnp.full(NUM_COLOURS, cfg.cubes_per_colour, jnp.int32)
        market, bag = self._draw(order, full)
        x = Game(
            round=jnp.int32(0),
            phase=jnp.int32(SELECT),
            build_step=jnp.int32(0),
            bag=bag,
            order=order,
            market=market,
            initiative=initiative,
            choices=jnp.full(n, -1, jnp.int32),
            owner=jnp.full(n, -1, jnp.int32),
            pending=jnp.full(n, -1, jnp.int32),
            hands=jnp.zeros((n, NUM_COLOURS), jnp.int32),
            pyramids=jnp.full((n, self._cells), -1, jnp.int32),
            fresh=jnp.full((n, CUBES_PER_TILE), -1, jnp.int32),
            discarded=jnp.zeros(n, jnp.int32),
            bonus=bonus.astype(jnp.int32),
        )
        return self._wrap(x, x)

    def step(self, state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        """Pgx's ``Env.step`` (its results: a finished state changes nothing and pays zero
        rewards, an illegal action ends the game, the mask of a finished state is all ``True``,
        ``state.observation`` the current player's), as selects on the game arrays.

        Args:
            state: a state of this env (batch it with ``jax.vmap``).
            action: ``int32`` action id.
            key: unused (the bag's order was drawn by ``init``); accepted for Pgx's API.
        """
        out, ended = self._advance(state, action)
        scores = _when(ended, lambda: self._returns(out._x), jnp.zeros(self._n, jnp.float32))
        return out.replace(rewards=out.rewards + scores)  # zero where a game ends: exact

    def step_batch(self, state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        """``jax.vmap(self.step)`` over a batch (leading axis ``B`` on every field), the same
        results, faster: the end-of-game scores are computed only for the games that end on
        this step, gathered ``B // 32`` (at least 8) at a time. Under ``vmap`` :meth:`step`
        scores the whole batch on every step where any game ends (at batch 1024 nearly all of
        them), most of a step's time.

        Args:
            state: a batched state of this env.
            action: ``(B,) int32`` action ids.
            key: unused, as in :meth:`step`.
        """
        out, ended = jax.vmap(self._advance)(state, jnp.asarray(action, jnp.int32))
        return out.replace(rewards=out.rewards + self._ended_returns(out._x, ended))

    def _ended_returns(self, x: Game, ended: jax.Array) -> jax.Array:
        """``(B, N) float32``: rules ``returns`` of the rows of the batched game ``x`` where
        ``ended`` (``(B,) bool``), zeros elsewhere; a loop over groups of the ended rows."""
        batch = ended.shape[0]
        group = min(batch, max(8, batch // 32))

        def score_group(carry):
            rewards, left = carry
            rows = jnp.nonzero(left, size=group, fill_value=batch)[0]  # batch: no row (dropped)
            sub = jax.tree_util.tree_map(lambda v: v[jnp.minimum(rows, batch - 1)], x)
            rewards = rewards.at[rows].set(jax.vmap(self._returns)(sub), mode="drop")
            return rewards, left.at[rows].set(False, mode="drop")

        zeros = jnp.zeros((batch, self._n), jnp.float32)
        rewards, _ = jax.lax.while_loop(lambda c: jnp.any(c[1]), score_group, (zeros, ended))
        return rewards

    def _advance(self, state: State, action: jax.Array) -> tuple[State, jax.Array]:
        """:meth:`step` without the end-of-game scores: the next state (rewards only the
        illegal-action penalty) and whether the game ended on this step, ``() bool``."""
        action = jnp.asarray(action, jnp.int32)
        done = state.terminated | state.truncated
        in_range = (action >= 0) & (action < self._num_actions)
        legal = in_range & state.legal_action_mask[jnp.clip(action, 0, self._num_actions - 1)]
        illegal = ~done & ~legal
        x = state._x
        moved = self._transition(x, jnp.clip(action, 0, self._num_actions - 1))
        new = jax.tree_util.tree_map(lambda old, nxt: jnp.where(done | illegal, old, nxt), x, moved)
        new = new._replace(phase=jnp.where(illegal, OVER, new.phase).astype(jnp.int32))
        # computed once: without the barrier XLA fused the transition into each of its users
        # (the mask, the scores' loop, the outputs), 2x the step's time at batch 1024
        new = jax.lax.optimization_barrier(new)
        terminated = new.phase == OVER
        ended = terminated & ~done & ~illegal
        seats = jnp.arange(self._n)
        rewards = jnp.where(illegal & (seats == state.current_player), -1.0, 0.0)
        out = State(
            current_player=self._current_player(new),
            observation=state.observation,
            rewards=rewards.astype(jnp.float32),
            terminated=terminated,
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.where(terminated, True, self._mask(new)),
            _step_count=state._step_count + (~done).astype(jnp.int32),
            _x=new,
        )
        if self.observe_on_step:
            out = out.replace(observation=self.observe(out))
        return out, ended

    def _step(self, state: State, action: jax.Array, key: jax.Array | None) -> State:
        """Pgx's ``_step`` (unused by :meth:`step`, which does its work with selects)."""
        return self._wrap(self._transition(state._x, jnp.asarray(action, jnp.int32)), state._x, state._step_count)

    def _observe(self, state: State, player_id: jax.Array) -> jax.Array:
        return self._observation(state._x, player_id)

    # -- transitions ---------------------------------------------------------------------------

    def _draw(self, order: jax.Array, bag: jax.Array) -> tuple[jax.Array, jax.Array]:
        """The next market (``(N, 5)``: tile ``t`` takes the next cubes ``3t .. 3t+2``) and the
        bag after it."""
        n = self._n
        drawn = self._total_cubes - jnp.sum(bag)
        cubes = jax.lax.dynamic_slice(order, (drawn,), (CUBES_PER_TILE * n,)).reshape(n, CUBES_PER_TILE)
        market = jnp.sum(cubes[:, :, None] == jnp.arange(NUM_COLOURS), axis=1).astype(jnp.int32)
        return market, bag - market.sum(axis=0)

    def _transition(self, x: Game, action: jax.Array) -> Game:
        """The game after ``action`` (a legal one): the branch of its phase."""
        branches = ((PENDING, self._pending_pick(x, action)), (BUILD, self._build(x, action)))
        new = self._pick(x, action)
        for phase, branch in branches:
            new = _select(x.phase == phase, branch, new)
        return new

    def _pick(self, x: Game, tile: jax.Array) -> Game:
        """A hidden pick (rules ``apply_action`` in ``SELECT``): the first seat without a choice
        commits; the last commit resolves the round's picks."""
        seats = jnp.arange(self._n)
        seat = jnp.argmax(x.choices < 0)
        choices = jnp.where(seats == seat, tile, x.choices)
        return _select(jnp.all(choices >= 0), self._resolve(x, choices), x._replace(choices=choices))

    def _resolve(self, x: Game, choices: jax.Array) -> Game:
        """Rules ``_resolve``: each tile to the lowest initiative that chose it; the others
        pending in initiative order."""
        init, seats = x.initiative, jnp.arange(self._n)
        same = choices[:, None] == choices[None, :]
        wins = ~jnp.any(same & (init[None, :] < init[:, None]), axis=1)
        takes = wins[None, :] & (choices[None, :] == seats[:, None])  # [tile, seat]
        owner = jnp.where(jnp.any(takes, axis=1), jnp.argmax(takes, axis=1), -1).astype(jnp.int32)
        rank = jnp.sum(~wins[None, :] & (init[None, :] < init[:, None]), axis=1)  # among the losers
        slot = ~wins[None, :] & (rank[None, :] == seats[:, None])  # [position, seat]
        pending = jnp.where(jnp.any(slot, axis=1), jnp.argmax(slot, axis=1), -1).astype(jnp.int32)
        return self._after_picks(x, choices, owner, pending)

    def _pending_pick(self, x: Game, tile: jax.Array) -> Game:
        owner = jnp.where(jnp.arange(self._n) == tile, x.pending[0], x.owner)
        pending = jnp.concatenate([x.pending[1:], jnp.full(1, -1, jnp.int32)])
        return self._after_picks(x, x.choices, owner, pending)

    def _after_picks(self, x: Game, choices: jax.Array, owner: jax.Array, pending: jax.Array) -> Game:
        """Rules ``_after_picks``: the last pending pick forced; once every tile is taken, the
        initiative swaps and building starts."""
        seats = jnp.arange(self._n)
        forced = jnp.sum(pending >= 0) == 1
        free = jnp.argmax(owner < 0)
        owner = jnp.where(forced & (seats == free), pending[0], owner)
        pending = jnp.where(forced, -1, pending)
        picking = x._replace(phase=jnp.int32(PENDING), choices=choices, owner=owner, pending=pending)
        hands = jnp.sum((owner[:, None] == seats[None, :])[:, :, None] * x.market[:, None, :], axis=0)
        building = x._replace(
            phase=jnp.int32(BUILD),
            choices=choices,
            owner=owner,
            pending=pending,
            initiative=_swap_initiative(x.initiative, choices),
            hands=hands.astype(jnp.int32),
            build_step=jnp.int32(0),
        )
        return _select(pending[0] >= 0, picking, building)

    def _build(self, x: Game, action: jax.Array) -> Game:
        """A cube placed or discarded (rules ``_after_build``); after the round's last one the
        next market, or the end after round 10."""
        n, c = self._n, self._cells
        seat = x.build_step % n
        discard = action >= self._discard
        colour = jnp.where(discard, action - self._discard, (action - self._place) // c)
        cell = (action - self._place) % c
        me = jnp.arange(n) == seat
        placed = me[:, None] & (jnp.arange(c) == cell)[None, :] & ~discard
        pyramids = jnp.where(placed, colour, x.pyramids)
        slot = jnp.sum(x.fresh >= 0, axis=1)  # (N,) where each seat's next fresh cell goes
        fresh = jnp.where(me[:, None] & (jnp.arange(CUBES_PER_TILE) == slot[:, None]) & ~discard, cell, x.fresh)
        hands = x.hands - (me[:, None] & (jnp.arange(NUM_COLOURS) == colour)[None, :])
        step = x.build_step + 1
        going = x._replace(
            pyramids=pyramids, fresh=fresh, hands=hands, build_step=step, discarded=x.discarded + (me & discard)
        )
        reset = dict(
            choices=jnp.full(n, -1, jnp.int32),
            owner=jnp.full(n, -1, jnp.int32),
            hands=jnp.zeros_like(x.hands),
            build_step=jnp.int32(0),
            fresh=jnp.full_like(x.fresh, -1),
        )
        over = going._replace(round=jnp.int32(NUM_ROUNDS), phase=jnp.int32(OVER), **reset)
        market, bag = self._draw(x.order, x.bag)
        next_round = going._replace(round=x.round + 1, phase=jnp.int32(SELECT), market=market, bag=bag, **reset)
        last = _select(x.round + 1 == NUM_ROUNDS, over, next_round)
        return _select(step < CUBES_PER_TILE * n, going, last)

    def _current_player(self, x: Game) -> jax.Array:
        """Rules ``current_player``; 0 once over."""
        seat = jnp.where(x.phase == SELECT, jnp.argmax(x.choices < 0), x.build_step % self._n)
        seat = jnp.where(x.phase == PENDING, x.pending[0], seat)
        return jnp.where(x.phase == OVER, 0, seat).astype(jnp.int32)

    def _wrap(self, x: Game, before: Game, step_count: jax.Array | None = None) -> State:
        """The Pgx state of game ``x`` (rewards paid if it ended since ``before``), with the
        current player's observation."""
        terminated = x.phase == OVER
        ended = terminated & (before.phase != OVER)
        rewards = _when(ended, lambda: self._returns(x), jnp.zeros(self._n, jnp.float32))
        state = State(
            current_player=self._current_player(x),
            observation=jnp.zeros(self._layout.size, jnp.float32),
            rewards=rewards,
            terminated=terminated,
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.where(terminated, True, self._mask(x)),
            _step_count=jnp.int32(0) if step_count is None else step_count,
            _x=x,
        )
        return state

    def _state_of_game(self, x: Game) -> State:
        state = self._wrap(x, x)
        return state.replace(observation=self.observe(state))

    # -- legality ------------------------------------------------------------------------------

    def _mask(self, x: Game) -> jax.Array:
        """Rules ``legal_actions`` of the current player as an ``(A,) bool`` mask."""
        n = self._n
        picks = jnp.where(x.phase == SELECT, True, (x.phase == PENDING) & (x.owner < 0))
        seat = x.build_step % n
        me = jnp.arange(n) == seat
        pyramid = jnp.max(jnp.where(me[:, None], x.pyramids, -1), axis=0)
        hand = jnp.sum(jnp.where(me[:, None], x.hands, 0), axis=0)
        places = self._legal_cells(pyramid) & (hand[:, None] > 0)  # (5, C)
        discards = (hand > 0) & ~jnp.any(places, axis=1)
        building = x.phase == BUILD
        return jnp.concatenate([picks & (x.phase < BUILD), places.reshape(-1) & building, discards & building])

    def _legal_cells(self, pyramid: jax.Array) -> jax.Array:
        """Rules ``legal_cells`` of every colour: ``(5, C) bool`` (section 5: the first cube
        where the footprint allows; later base cubes orthogonally next to a base cube inside
        the 4 x 4 window; upper cubes on 4 supports, touching their colour beside or below).
        Computed on each level as a grid with shifted slices: gathers through neighbour tables
        cost about 20 us a game on XLA's CPU backend, most of a step."""
        side = self._side
        colours = [grid[None] == jnp.arange(NUM_COLOURS)[:, None, None] for grid in self._levels(pyramid)]
        held = [plane.any(axis=0) for plane in colours]  # (G - z, G - z) per level
        ys, xs = np.mgrid[0:side, 0:side]
        on_base = held[0]
        lo_x = jnp.max(jnp.where(on_base, xs, -side)) - 3
        hi_x = jnp.min(jnp.where(on_base, xs, 2 * side)) + 3
        lo_y = jnp.max(jnp.where(on_base, ys, -side)) - 3
        hi_y = jnp.min(jnp.where(on_base, ys, 2 * side)) + 3
        window = (xs >= lo_x) & (xs <= hi_x) & (ys >= lo_y) & (ys <= hi_y)
        first = self._t.first[: side * side].reshape(side, side)
        base = ~on_base & jnp.where(jnp.any(on_base), window & _beside(on_base), first)
        cells = [jnp.broadcast_to(base, (NUM_COLOURS, side, side))]
        for z in range(1, NUM_LEVELS):
            below, under = held[z - 1], colours[z - 1]
            supported = below[:-1, :-1] & below[:-1, 1:] & below[1:, :-1] & below[1:, 1:]
            touching = under[:, :-1, :-1] | under[:, :-1, 1:] | under[:, 1:, :-1] | under[:, 1:, 1:]
            cells.append((supported & ~held[z])[None] & (touching | _beside(colours[z])))
        return jnp.concatenate([grid.reshape(NUM_COLOURS, -1) for grid in cells], axis=1)

    def _levels(self, cells: jax.Array) -> list[jax.Array]:
        """The levels of a ``(C,)`` cell array as grids ``(G - z, G - z)`` indexed ``[y, x]``
        (the cell order of :mod:`maya_envs.yaxha.actions`)."""
        grids, start = [], 0
        for z in range(NUM_LEVELS):
            side = self._side - z
            grids.append(cells[start : start + side * side].reshape(side, side))
            start += side * side
        return grids

    # -- scores --------------------------------------------------------------------------------

    def totals(self, state: State) -> jax.Array:
        """Each seat's total score of the current pyramids, ``(N,) int32`` (rules ``totals``:
        colour points and bonus cards; meaningful at any time)."""
        return self._totals(state._x)

    def card_winners(self, state: State) -> jax.Array:
        """Which seats would score each of the 18 bonus cards now, ``(N, 18) bool`` (rules
        ``bonus_card_winners`` of every card, in play or not)."""
        return self._card_winners(state._x)[1]

    def _card_winners(self, x: Game) -> tuple[jax.Array, jax.Array]:
        """Each seat's largest visible group per colour ``(N, 5)`` and the card winners ``(N, 18)``."""
        compact = jax.vmap(self._compact_pyramid)(x.pyramids)  # (N, 30)
        stats = jax.vmap(_pyramid_stats)(compact)
        return stats["largest"], _card_winners(stats, self.config.bonus_zero_ties_score)

    def _totals(self, x: Game) -> jax.Array:
        largest, winners = self._card_winners(x)
        points = jnp.asarray(np.array(GROUP_POINTS, np.int32))[jnp.minimum(largest, 12)].sum(axis=1)
        in_play = jnp.any(x.bonus[:, None] == jnp.arange(NUM_BONUS_CARDS), axis=0)
        return points + BONUS_POINTS * jnp.sum(winners & in_play, axis=1)

    def _compact_pyramid(self, pyramid: jax.Array) -> jax.Array:
        """The pyramid on the 30 fixed-footprint cells: its base window's origin moved to
        ``(0, 0)`` (the identity for the fixed footprint)."""
        t = self._t
        on_base = (pyramid >= 0) & t.base
        ox = jnp.minimum(jnp.min(jnp.where(on_base, t.x, 3)), 3)
        oy = jnp.minimum(jnp.min(jnp.where(on_base, t.y, 3)), 3)
        return pyramid[jnp.asarray(self._compact)[ox, oy]]

    def _returns(self, x: Game) -> jax.Array:
        """Rules ``returns`` of a finished game, ``(N,) float32`` (float64 quotients rounded to
        float32, from tables as the rules compute them)."""
        n = self._n
        totals = self._totals(x)
        if self.config.reward_scheme == "score_diff":
            span = (n - 1) * _MAX_TOTAL
            table = np.array([k / (n - 1) / SCORE_SCALE for k in range(-span, span + 1)], np.float32)
            numerator = (n - 1) * totals - (jnp.sum(totals) - totals)
            return jnp.asarray(table)[numerator + span]
        winners = totals == jnp.max(totals)
        w = jnp.sum(winners)
        share = jnp.asarray(np.array([0.0] + [1.0 / k for k in range(1, n + 1)], np.float32))
        value = jnp.where(winners, share[w], -share[jnp.maximum(n - w, 1)])
        return jnp.where(w < n, value, 0.0).astype(jnp.float32)

    # -- observation ---------------------------------------------------------------------------

    def _observation(self, x: Game, observer: jax.Array) -> jax.Array:
        """Rules observation (:class:`maya_envs.yaxha.observation.YaxhaObserver`, no action
        features) of seat ``observer``: the parts in the layout's order."""
        n, c = self._n, self._cells
        rel = jnp.arange(n)
        seats = (observer + rel) % n  # absolute seat of relative seat r
        pyramids = x.pyramids[seats]  # (N, C)
        fresh = jnp.any(x.fresh[seats][:, :, None] == jnp.arange(c), axis=1) & (rel > 0)[:, None]
        cubes = (pyramids[:, :, None] == jnp.arange(NUM_COLOURS)) & ~fresh[:, :, None]
        initiative = (x.initiative[seats] - 1)[:, None] == rel
        market = jnp.asarray(self._thirds)[x.market]
        owner = (x.owner >= 0)[:, None] & (((x.owner - observer) % n)[:, None] == rel)
        revealed = (x.phase == PENDING) | (x.phase == BUILD)
        chosen = x.choices[seats]
        choices = (chosen[:, None] == rel) & (revealed | (rel == 0))[:, None]
        pending = jnp.any((x.pending >= 0)[:, None] & (((x.pending - observer) % n)[:, None] == rel), axis=0)
        hand = jnp.asarray(self._thirds)[x.hands[observer]]
        bag = jnp.asarray(self._bag_unit)[x.bag]
        bonus = jnp.any(x.bonus[:, None] == jnp.arange(NUM_BONUS_CARDS), axis=0)
        parts = [cubes, initiative, market, owner, choices, pending, hand, bag, bonus]
        parts += [jnp.arange(NUM_ROUNDS) == x.round, jnp.arange(4) == x.phase]
        self._layout.check_pieces(p.size for p in parts)
        return jnp.concatenate([p.astype(jnp.float32).reshape(-1) for p in parts])


def _beside(grid: jax.Array) -> jax.Array:
    """``(..., H, W) bool``: whether any orthogonal neighbour in the last two axes is ``True``."""
    padded = jnp.pad(grid, [(0, 0)] * (grid.ndim - 2) + [(1, 1), (1, 1)])
    return padded[..., :-2, 1:-1] | padded[..., 2:, 1:-1] | padded[..., 1:-1, :-2] | padded[..., 1:-1, 2:]


def _select(cond: jax.Array, a: Game, b: Game) -> Game:
    return jax.tree_util.tree_map(lambda u, v: jnp.where(cond, u, v), a, b)


def _swap_initiative(initiative: jax.Array, choices: jax.Array) -> jax.Array:
    """Rules ``swap_initiative``: in each clash group sorted by initiative, rank ``i`` takes the
    initiative of rank ``k - 1 - i``."""
    same = choices[:, None] == choices[None, :]
    rank = jnp.sum(same & (initiative[None, :] < initiative[:, None]), axis=1)
    size = jnp.sum(same, axis=1)
    partner = same & (rank[None, :] == (size - 1 - rank)[:, None])
    return jnp.sum(jnp.where(partner, initiative[None, :], 0), axis=1).astype(jnp.int32)


# -- scoring on the fixed footprint (rules scoring.py) -----------------------------------------


def _groups(pyramid: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Visible cells (section 6) and each visible cell's group label: the smallest cell index
    of its group (30 for others), by min-label propagation over the links to convergence."""
    t = _FIXED
    padded = jnp.concatenate([pyramid, jnp.full(1, -1, jnp.int32)])
    held = padded >= 0
    visible = (pyramid >= 0) & ~jnp.all(held[t.covers], axis=1)
    vis_padded = jnp.concatenate([visible, jnp.zeros(1, bool)])
    linked = visible[:, None] & vis_padded[t.links] & (padded[t.links] == pyramid[:, None])
    none = SCORE_CELLS

    def spread(carry):
        labels, _ = carry
        padded_labels = jnp.concatenate([labels, jnp.full(1, none, jnp.int32)])
        nearest = jnp.min(jnp.where(linked, padded_labels[t.links], none), axis=1)
        new = jnp.minimum(labels, nearest)
        new = jnp.concatenate([new, jnp.full(1, none, jnp.int32)])[new]  # jump to the label's label
        return new, jnp.any(new != labels)

    start = jnp.where(visible, jnp.arange(SCORE_CELLS), none).astype(jnp.int32)
    labels, _ = jax.lax.while_loop(lambda c: c[1], spread, (start, jnp.bool_(True)))
    return visible, labels


def _pyramid_stats(pyramid: jax.Array) -> dict[str, jax.Array]:
    """What the bonus cards read from one pyramid (rules ``pyramid_stats``): group sizes, per
    colour the largest, per group its level-1 cubes and levels, colours per level, card 15."""
    t = _FIXED
    visible, labels = _groups(pyramid)
    cells = jnp.arange(SCORE_CELLS)
    member = visible[None, :] & (labels[None, :] == cells[:, None])  # [root, cell]
    root = visible & (labels == cells)
    size = jnp.where(root, member.sum(axis=1), 0)
    colour = (pyramid[:, None] == jnp.arange(NUM_COLOURS)) & root[:, None]  # (30, 5)
    largest = jnp.max(jnp.where(colour, size[:, None], 0), axis=0)
    levels = member[:, :, None] & (t.level[None, :, None] == jnp.arange(NUM_LEVELS))  # [root, cell, level]
    level1 = jnp.where(root, levels[:, :, 0].sum(axis=1), 0)
    spans = jnp.where(root, jnp.any(levels, axis=1).sum(axis=1), 0)
    on_level = visible[:, None] & (t.level[:, None] == jnp.arange(NUM_LEVELS))  # (30, 4)
    by_level = jnp.any(on_level[:, :, None] & colour_of(pyramid)[:, None, :], axis=0)
    outer = visible[None, :] & ~jnp.any(jnp.asarray(_SIDE_ORDER) & visible[None, None, :], axis=2)  # (4, 30)
    side_colours = jnp.any(outer[:, :, None] & colour_of(pyramid)[None], axis=1).sum(axis=1)  # (4,)
    return {
        "largest": largest,
        "sizes": size,
        "level1": jnp.max(level1),
        "levels": jnp.max(spans),
        "by_level": by_level,  # (4 levels, 5 colours)
        "side": jnp.any(side_colours == 1),
    }


def colour_of(pyramid: jax.Array) -> jax.Array:
    """``(cells, 5) bool``: each cell's colour one-hot (all False when empty)."""
    return pyramid[:, None] == jnp.arange(NUM_COLOURS)


def _competitive(values: jax.Array, zero_ties_score: bool) -> jax.Array:
    best = jnp.max(values)
    return (values == best) & ((best > 0) | zero_ties_score)


def _card_winners(stats: dict[str, jax.Array], zero_ties_score: bool) -> jax.Array:
    """``(N, 18) bool``: which seats score each bonus card (rules ``bonus_card_winners``)."""
    largest = stats["largest"]  # (N, 5)
    cards = [_competitive(largest[:, c], zero_ties_score) for c in range(NUM_COLOURS)]
    cards += [largest[:, c] >= jnp.roll(largest[:, c], -1) for c in range(NUM_COLOURS)]
    cards.append(_competitive(largest.max(axis=1), zero_ties_score))
    cards.append(_competitive(stats["level1"], zero_ties_score))
    cards.append(_competitive(stats["levels"], zero_ties_score))
    sizes = stats["sizes"]  # (N, 30), 0 where no group
    first = jnp.max(sizes)
    second = jnp.max(jnp.where(sizes < first, sizes, 0))
    cards.append((second > 0) & jnp.any((sizes == second) & (sizes > 0), axis=1))
    by_level = stats["by_level"]  # (N, 4, 5)
    cards.append(jnp.all(by_level[:, 0], axis=1))
    cards.append(stats["side"])
    cards.append(jnp.any(by_level, axis=1).sum(axis=1) == 3)
    cards.append(jnp.all(by_level[:, 1], axis=1))
    return jnp.stack(cards, axis=1)


# -- the rules state, both ways ------------------------------------------------------------------


def _padded(values, width: int) -> list[int]:
    return [int(v) for v in values] + [-1] * (width - len(values))


def game_from_rules(env: Yaxha, rules_state: YaxhaState, key: jax.Array | None = None) -> Game:
    """The :class:`Game` of ``rules_state`` (a state of ``env.rules``). The bag's order (which the
    rules state does not hold: its generator draws later) is uniformly shuffled with ``key``, or
    sorted by colour without one; :func:`arrange_draws` sets the next market."""
    n, cfg = env.num_players, env.config
    bag = np.asarray(rules_state.bag, np.int32)
    gone = np.repeat(np.arange(NUM_COLOURS, dtype=np.int32), cfg.cubes_per_colour - bag)
    left = np.repeat(np.arange(NUM_COLOURS, dtype=np.int32), bag)
    if key is not None:
        left = np.asarray(jax.random.permutation(key, left))
    return Game(
        round=jnp.int32(rules_state.round),
        phase=jnp.int32(rules_state.phase),
        build_step=jnp.int32(rules_state.build_step),
        bag=jnp.asarray(bag),
        order=jnp.asarray(np.concatenate([gone, left]).astype(np.int32)),
        market=jnp.asarray(rules_state.market, jnp.int32).reshape(n, NUM_COLOURS),
        initiative=jnp.asarray(rules_state.initiative, jnp.int32),
        choices=jnp.asarray(rules_state.choices, jnp.int32),
        owner=jnp.asarray(rules_state.owner, jnp.int32),
        pending=jnp.asarray(_padded(rules_state.pending, n), jnp.int32),
        hands=jnp.asarray(rules_state.hands, jnp.int32).reshape(n, NUM_COLOURS),
        pyramids=jnp.asarray(rules_state.pyramids, jnp.int32),
        fresh=jnp.asarray([_padded(f, CUBES_PER_TILE) for f in rules_state.fresh], jnp.int32),
        discarded=jnp.asarray(rules_state.discarded, jnp.int32),
        bonus=jnp.asarray(rules_state.bonus_cards, jnp.int32),
    )


def state_from_rules(env: Yaxha, rules_state: YaxhaState, key: jax.Array | None = None) -> State:
    """The Pgx state of ``rules_state`` (a state of ``env.rules``), with its mask, flags and the
    current player's observation; rewards are zero. The bag's order: as :func:`game_from_rules`."""
    return env._from_game(game_from_rules(env, rules_state, key))


def state_to_rules(state: State, row: int | None = None) -> YaxhaState:
    """The rules state of one Pgx state, or of game ``row`` of a batched one (fetch a batch once
    with ``jax.device_get`` when converting many rows). The bag's order is dropped (the rules
    state holds the bag's counts only)."""
    x = jax.tree_util.tree_map(np.asarray, state._x)
    if row is not None:
        x = jax.tree_util.tree_map(lambda v: v[row], x)

    def ints(values):
        return tuple(int(v) for v in values)

    def rows(array):
        return tuple(ints(r) for r in array)

    return YaxhaState(
        round=int(x.round),
        phase=int(x.phase),
        bag=ints(x.bag),
        market=rows(x.market),
        initiative=ints(x.initiative),
        choices=ints(x.choices),
        owner=ints(x.owner),
        pending=ints(v for v in x.pending if v >= 0),
        hands=rows(x.hands),
        build_step=int(x.build_step),
        pyramids=rows(x.pyramids),
        fresh=tuple(ints(v for v in f if v >= 0) for f in x.fresh),
        discarded=ints(x.discarded),
        bonus_cards=ints(x.bonus),
    )


def arrange_draws(state: State, market) -> State:
    """``state`` (one game) with its bag reordered so that the next market drawn is ``market``
    (``N`` tiles of 5 colour counts, e.g. the rules engine's draw): the chance outcome put in.
    Only the hidden order changes; the rest of the bag keeps its relative order.

    Raises:
        ValueError: the bag does not hold ``market``'s cubes, or ``market`` has a bad shape.
    """
    x = jax.device_get(state._x)
    n = x.market.shape[0]
    counts = np.asarray(market, np.int64)
    if counts.shape != (n, NUM_COLOURS) or (counts < 0).any():
        raise ValueError(f"market {str(market)[:80]!r}: expected {n} tiles of {NUM_COLOURS} counts >= 0")
    order = np.array(x.order)
    drawn = len(order) - int(np.sum(x.bag))
    rest = order[drawn:].tolist()
    cubes = [colour for tile in counts for colour in range(NUM_COLOURS) for _ in range(tile[colour])]
    for colour in cubes:
        if colour not in rest:
            raise ValueError(f"market {counts.tolist()} is not in the bag {np.asarray(x.bag).tolist()}")
        rest.remove(colour)
    order[drawn:] = cubes + rest
    return state.replace(_x=state._x._replace(order=jnp.asarray(order, jnp.int32)))
