"""Maya (2012) as a JAX environment with Pgx's API: jit-compiled, vmapped, equal to the rules engine.

=====================  ===============================================================
Import                 ``from maya_envs.jax import Maya2012`` (the ``jax`` extra)
Class                  :class:`Maya2012`, a ``pgx.Env``: ``init(key)``, ``step(state,
                       action, key)``, ``observe(state, player_id)``; pure functions,
                       ``jax.jit`` / ``jax.vmap`` them
Players                2, 3 or 4 (``num_players``); ``state.current_player`` is the seat
                       to move (player id = seat, ``player_0`` = 0); 4p teams {0, 2}, {1, 3}
Actions                the 75 ids of :mod:`maya_envs.maya2012.actions`
State                  :class:`State`: Pgx's six public fields (``current_player``,
                       ``observation``, ``rewards (n,) float32``, ``terminated``,
                       ``truncated``, ``legal_action_mask (75,) bool``) and the game in
                       ``state._x`` (:class:`Game`, the rules state's fields as arrays;
                       the towers packed, one ``int32`` a tower: :func:`unpack_towers`)
Observation            the PettingZoo env's vector, value for value
                       (:mod:`maya_envs.maya2012.observation`): ``(610,)`` 2p, ``(588,)``
                       3-4p, +10 with ``setup="draft"``, ``float32``; ``state.observation``
                       is the current player's, ``observe(state, seat)`` any seat's; a seat's
                       observation reads only its own task cards (3-4p)
Rewards                paid on the step that ends the game (rules ``returns``: every
                       ``reward_scheme``); zero after a truncation
Termination            as the rules: no legal exchange, a 3-4p declaration, ``max_turns``
                       with ``at_max_turns="score"``; ``truncated`` with ``"truncate"``.
                       Pgx conventions: at the end the mask is all ``True`` and a step on a
                       finished state changes nothing (zero rewards)
Illegal actions        the PettingZoo default ``illegal_action="terminate"``: the game
                       ends on the position before the move (a valid state), the
                       offender's team gets -1 (4p: both partners), others 0; ids
                       outside 0-74 likewise. A non-integer id raises ``TypeError``
                       (also when traced); ``observe`` refuses a static seat outside
                       the game (``ValueError``) and gives NaN for a traced one
Options                the :class:`~maya_envs.maya2012.rules.Maya2012Config` fields, every
                       value: ``num_players``, ``setup`` (2p ``choose``/``random``/``draft``,
                       3-4p ``random``/``draft``), ``max_turns``, ``at_max_turns``,
                       ``ladder_spaces``, ``ladders_per_player``, ``priests_per_player``,
                       ``three_plus_two``, ``reward_scheme``, ``declare_step``
Randomness             ``init(key)`` draws an exactly uniform board (:func:`sample_board`,
                       the sampler of :mod:`maya_envs.maya2012.setup`), the random setup's
                       Monolith and Raven and the 3-4p deal; ``step`` draws the drafted
                       setup's blocks (and the deal after it) from ``key``
Equality               :func:`state_from_rules` / :func:`state_to_rules` convert a rules
                       state both ways: from one board and one action sequence the two
                       engines give the same states, masks, observations, rewards and
                       endings (``tests/jax/test_maya2012.py``); the chance outcomes of
                       the draft (blocks, cards) come from different generators
=====================  ===============================================================

Rule decisions and sources: :mod:`maya_envs.maya2012.rules` (this module repeats them as
array operations, under the equality tests). Fixed shapes: every config is one set of array
shapes, so all setups and player counts are supported; the config is static (one
compilation per :class:`Maya2012` instance and batch shape).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import pgx
import pgx.core

from maya_envs.core.checks import is_int
from maya_envs.core.layout import Layout
from maya_envs.core.options import resolve_config
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012 import observation as O
from maya_envs.maya2012 import state as S
from maya_envs.maya2012.batched import _BLOCKED, _RAVEN_OK, _SWING
from maya_envs.maya2012.rules import Maya2012Config, Maya2012Rules, Maya2012State

ENV_ID = "maya2012"
"""``state.env_id`` and ``Maya2012.id`` (not one of Pgx's own ``pgx.EnvId`` games)."""

N_EX = A.NUM_EXCHANGES
_PA = np.array([a for a, _ in A.PAIRS], np.int32)
_PB = np.array([b for _, b in A.PAIRS], np.int32)
_PAB = np.concatenate([_PA, _PB])  # the first towers of the pairs, then the second
_XA, _XB = np.repeat(_PA, 4), np.repeat(_PB, 4)  # per exchange id: its two towers
_XI = np.tile(np.arange(1, 5, dtype=np.int32), len(A.PAIRS))  # first moved slot (base level i + 1)
_LEVELS = np.arange(A.NUM_LEVELS, dtype=np.int32)
# A tower is stored packed, one int32: level l's colour in bits 4l..4l+3, 15 for an unbuilt
# slot (the rules' -1). An exchange is then a few bit operations on two ints and a seam a nibble
# test, where the (9, 5) array cost a pass over its 45 values per game for each.
_NIBBLE = 4
_UNBUILT = 15
_SHIFTS = _LEVELS * _NIBBLE
_ALL_LEVELS = (1 << (_NIBBLE * A.NUM_LEVELS)) - 1
_ONE_COLOUR = _ALL_LEVELS // _UNBUILT  # 0x11111: a one-colour tower's code is colour * this
_SEAMS = np.arange(A.NUM_LEVELS - 1, dtype=np.int32)  # seam k: between levels k and k + 1
_CENTRE_PAIR = np.array([S.CENTRE in pair for pair in A.PAIRS])
# the same tables as bits over the 4 seams: a pair's legal seams are one 4-bit int
_RAVEN_SEAMS = (_RAVEN_OK.astype(np.int32) << _SEAMS).sum(axis=1).astype(np.int32)  # (6,)
_OPEN_SEAMS = np.where(_BLOCKED, 0, (1 << len(_SEAMS)) - 1).astype(np.int32)  # (13, 12)
# _BLOCKED[monolith + 1, pair], _RAVEN_OK[raven, seam] and _SWING (the observation's VP-swing
# values) are the batched engine's tables. Observation values are float64 quotients stored as
# float32, as observation.py computes them, so they come from tables here too.
_DELTA_RANGE = 64  # an exchange changes the colour totals by at most 40 in all (two towers of <= 10, before and after)
_SCALE, _DOUBLE = O.SCORE_DELTA_SCALE, 2 * O.SCORE_DELTA_SCALE
_MINE_UNIT = np.array(
    [min(max((d + _SCALE) / _DOUBLE, 0.0), 1.0) for d in range(-_DELTA_RANGE, _DELTA_RANGE + 1)], np.float32
)
_RIVAL_UNIT = np.array(
    [min(max((d / O.UNKNOWN_HANDS + _SCALE) / _DOUBLE, 0.0), 1.0) for d in range(-_DELTA_RANGE, _DELTA_RANGE + 1)],
    np.float32,
)
# Ryser's formula over the 511 non-empty column subsets of a 9 x 9 matrix (see permanent()).
_SUBSETS = ((np.arange(1, 2**9)[:, None] >> np.arange(9)) & 1).astype(np.uint32)
_EVEN = (9 - _SUBSETS.sum(axis=1)) % 2 == 0
# Bregman's bound per board row 1..4 (rules setup.py: the acceptance of each level).
_BREGMAN = np.array([0.0] + [math.factorial(9 - r) ** (9 / (9 - r)) for r in range(1, 5)], np.float32)
_CANDIDATES = 64  # uniform permutations tried at once for a level's filling


class Game(NamedTuple):
    """The rules state (:class:`~maya_envs.maya2012.rules.Maya2012State`) as arrays, all
    ``int32``; ``n`` = number of players.

    Attributes:
        towers: ``(9,)`` each tower's colours packed bottom to top, level ``l`` in bits
            ``4l..4l+3``, 15 for an unbuilt slot (draft); :func:`unpack_towers` gives the
            rules' ``(9, 5)`` colours with -1.
        monolith: pair 0-11 or -1; raven: level 2-5 or 0.
        ladders: ``(n, 9)`` ladder counts (0 with 3-4 players).
        priests: ``(9,)`` seat of the priest on each tower or -1.
        ladders_left, priests_left: ``(n,)`` pieces in hand.
        to_move, phase, turn: as the rules (phase ints of :mod:`maya_envs.maya2012.state`).
        tasks: ``(n, 2)`` sorted task colours, -1 before the deal and with 2 players.
        spare: ``(2,)`` the 3p face-down pair (sorted), else -1.
        declared: declaring seat or -1; draft_block: the drawn block's colour or -1.
    """

    towers: jax.Array
    monolith: jax.Array
    raven: jax.Array
    ladders: jax.Array
    priests: jax.Array
    ladders_left: jax.Array
    priests_left: jax.Array
    to_move: jax.Array
    phase: jax.Array
    turn: jax.Array
    tasks: jax.Array
    spare: jax.Array
    declared: jax.Array
    draft_block: jax.Array


class State(pgx.core.State):
    """Pgx state of one game (a pytree; batch it with ``jax.vmap``). Public fields are Pgx's;
    ``_x`` holds the :class:`Game`. Built by :meth:`Maya2012.init` or :func:`state_from_rules`."""

    def __init__(self, current_player, observation, rewards, terminated, truncated, legal_action_mask,
                 _step_count, _x):  # fmt: skip
        for name, value in (
            ("current_player", current_player), ("observation", observation), ("rewards", rewards),
            ("terminated", terminated), ("truncated", truncated), ("legal_action_mask", legal_action_mask),
            ("_step_count", _step_count), ("_x", _x),
        ):  # fmt: skip
            object.__setattr__(self, name, value)

    _FIELDS = ("current_player", "observation", "rewards", "terminated", "truncated", "legal_action_mask",
               "_step_count", "_x")  # fmt: skip

    def replace(self, **changes: Any) -> State:
        values = {name: getattr(self, name) for name in self._FIELDS}
        values.update(changes)
        return State(**values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"State is immutable: use state.replace({name}=...)")

    @property
    def env_id(self) -> str:
        return ENV_ID

    def to_svg(self, *, color_theme: str | None = None, scale: float | None = None) -> str:
        """SVG of the board (the project's renderer, spectator view, default ladder spaces);
        of the first game for a batched state."""
        from maya_envs.maya2012.render_image import render_svg

        single = self if self.rewards.ndim == 1 else jax.tree_util.tree_map(lambda v: v[0], self)
        n = int(single.rewards.shape[0])
        return str(render_svg(Maya2012Rules(num_players=n), state_to_rules(single)))

    def save_svg(self, filename, *, color_theme: str | None = None, scale: float | None = None) -> None:
        """Write :meth:`to_svg` to ``filename``."""
        with open(filename, "w", encoding="utf-8") as handle:
            handle.write(self.to_svg())


jax.tree_util.register_pytree_node(
    State,
    lambda s: (tuple(getattr(s, name) for name in State._FIELDS), None),
    lambda _, children: State(*children),
)


class Maya2012(pgx.core.Env):
    """Maya (2012) with Pgx's API for one config (module docstring).

    Args:
        config: a :class:`~maya_envs.maya2012.rules.Maya2012Config`, a mapping of its fields or
            ``None``; ``**options``: further fields as keywords (``Maya2012(num_players=3)``).
        observe_on_step: ``True`` (default, Pgx's API): ``init`` and ``step`` fill
            ``state.observation`` with the current player's observation. ``False``: it stays
            zeros (the observation is about 80% of a 2p step's CPU time at batch 1024,
            ``benchmarks/bench_jax.py``: save it where observations are not needed, e.g.
            random playouts); ``observe(state, seat)`` still gives any seat's.

    Raises:
        ConfigError: an unknown option or a bad value (the rules' messages).
    """

    def __init__(
        self,
        config: Maya2012Config | Mapping[str, Any] | None = None,
        observe_on_step: bool = True,
        **options: Any,
    ) -> None:
        super().__init__()
        self.observe_on_step = bool(observe_on_step)
        self.config = cfg = resolve_config(Maya2012Config, config, options)
        self.rules = Maya2012Rules(cfg)
        self._n = cfg.num_players
        self._layout = O.observation_layout(cfg)  # the observation's parts, concatenated in order
        self._size = self._layout.size
        self._spaces = np.asarray(cfg.ladder_spaces, np.int32)
        self._limit_phase = S.OVER if cfg.at_max_turns == "score" else S.TRUNCATED
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
        return A.NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self._size,)

    def observe(self, state: State, player_id: jax.Array | int | None = None) -> jax.Array:
        """``player_id``'s observation (default: the current player's), ``(obs size,) float32``;
        reads only what that seat may see.

        Args:
            state: a state of this env (``jax.vmap`` over both arguments for a batch).
            player_id: a seat ``0..num_players-1``: a Python or NumPy int (checked), or an
                integer array, e.g. traced under ``jit``/``vmap``: its value is unknown when
                traced, so a seat outside the range gives a vector of NaN (never another
                seat's view).

        Raises:
            ValueError: a Python or NumPy int outside ``0..num_players-1``.
            TypeError: ``player_id`` is not of an integer dtype.
        """
        if player_id is None:
            if not self.observe_on_step:  # Pgx's init and step ask this way
                return jnp.zeros(self._size, jnp.float32)
            return jax.lax.stop_gradient(self._observe(state, state.current_player))
        if is_int(player_id):
            if not 0 <= player_id < self._n:
                raise ValueError(f"player_id={int(player_id)} is not a seat: allowed 0..{self._n - 1}")
            return jax.lax.stop_gradient(self._observe(state, jnp.int32(player_id)))
        seat = jnp.asarray(_integer(player_id, "player_id"), jnp.int32)
        vector = self._observe(state, seat)
        valid = (seat >= 0) & (seat < self._n)
        return jax.lax.stop_gradient(jnp.where(valid, vector, jnp.nan))

    def _init(self, key: jax.Array) -> State:
        k_board, k_setup = jax.random.split(key)
        if self.config.setup == "draft":
            return self._wrap(self._empty_game(jnp.full(A.NUM_TOWERS, _ALL_LEVELS, jnp.int32), k_setup), None)
        return self.init_with_board(k_setup, sample_board(k_board), observe=False)

    def init_with_board(self, key: jax.Array, towers: jax.Array, observe: bool = True) -> State:
        """The initial state on the given board (``(9, 5)`` colours, a valid board; not for
        ``setup="draft"``): the random setup's Monolith and Raven and the 3-4p deal are drawn
        from ``key``."""
        if self.config.setup == "draft":
            raise ValueError("setup='draft' builds its board in play: use init(key)")
        x = self._empty_game(pack_towers(jnp.asarray(towers, jnp.int32)), key)
        state = self._wrap(x, None)
        return state.replace(observation=self.observe(state)) if observe else state

    def init_like(self, key: jax.Array, start: State) -> State:
        """A new game drawn from ``key`` on ``start``'s board relabelled (:func:`relabel_board`:
        exactly uniform when ``start``'s board is, but not independent of it), its random setup
        and 3-4p deal drawn again; ``setup="draft"``: :meth:`init` (an empty board, cheap).
        The batched env's cheap resets (:mod:`maya_envs.jax.vector`): ``init``'s exact board
        sampler costs about 5 CPU ms a game under ``vmap``. ``start`` must be an initial state
        of this env (``init``'s); the observation is left to ``observe_on_step`` as in ``init``."""
        if self.config.setup == "draft":
            return self.init(key)
        k_board, k_setup = jax.random.split(key)
        board = relabel_board(k_board, unpack_towers(start._x.towers))
        return self.init_with_board(k_setup, board, observe=self.observe_on_step)

    def step(self, state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        """Pgx's ``Env.step`` (its exact results: a finished state changes nothing and pays zero
        rewards, an illegal action ends the game with :meth:`_step_with_illegal_action`, the mask
        of a terminal state is all ``True``, ``state.observation`` the current player's), written
        as selects on the few small game arrays instead of Pgx's three ``lax.cond`` over the whole
        state (under ``vmap`` each ``cond`` is a select of every field, the observation's 610
        floats included) and with the observation built only when ``observe_on_step``.

        An illegal id, or one outside 0-74, ends the game as the PettingZoo env's default
        ``illegal_action="terminate"`` does: the game stays as it was before the move (a valid
        position: :func:`state_to_rules` and :meth:`State.to_svg` work), ``terminated`` is set
        and the offender's team gets -1 (:meth:`_illegal_rewards`).

        Args:
            state: a state of this env (batch it with ``jax.vmap``).
            action: action id 0-74 of an integer dtype (a Python ``int``, a NumPy or JAX integer
                array, traced or not).
            key: PRNG key; needed with ``setup="draft"`` (its blocks and deal), else unused.

        Raises:
            TypeError: ``action`` is not of an integer dtype (e.g. ``48.7``, a float32 array or
                ``True``), checked on its dtype when ``step`` is called or traced, so under
                ``jax.jit`` too: JAX would truncate a float id silently.
        """
        action = jnp.asarray(_integer(action, "action"), jnp.int32)
        done = state.terminated | state.truncated
        in_range = (action >= 0) & (action < A.NUM_ACTIONS)
        # one gather per game (a one-hot over the 75 ids cost three passes over the mask)
        illegal = ~done & ~(in_range & state.legal_action_mask[jnp.clip(action, 0, A.NUM_ACTIONS - 1)])
        x = state._x
        stepped = self._transition(x, action, key)
        # a finished game and an illegal id keep the game as it was (the rules engine's state:
        # an illegal transition would leave impossible values, e.g. the Monolith on pair 18)
        new = jax.tree_util.tree_map(lambda old, nxt: jnp.where(done | illegal, old, nxt), x, stepped)
        # The legal exchanges of the new game, computed once for the end check and the mask
        # (the barriers keep XLA from recomputing the swap and the 48 exchanges in each output).
        new = jax.lax.optimization_barrier(new)
        legal = jax.lax.optimization_barrier(_legal_exchanges(new.towers, new.monolith, new.raven))
        new = self._end_check(new, legal)  # a finished game's phase is not EXCHANGE: unchanged
        # an illegal id ends the game on the position before it (the PettingZoo env's state)
        new = new._replace(phase=jnp.where(illegal, S.OVER, new.phase).astype(jnp.int32))
        terminated = new.phase == S.OVER
        truncated = new.phase == S.TRUNCATED
        ended = terminated & ~done & ~illegal
        rewards = jnp.where(ended, self._returns(new), 0.0)
        rewards = jnp.where(illegal, self._illegal_rewards(x.to_move), rewards).astype(jnp.float32)
        mask = jnp.where(terminated | truncated, True, self._mask(new, legal))
        out = State(
            current_player=new.to_move.astype(jnp.int32),
            observation=state.observation,
            rewards=rewards,
            terminated=terminated,
            truncated=truncated,
            legal_action_mask=mask,
            _step_count=state._step_count + (~done).astype(jnp.int32),
            _x=new,
        )
        if self.observe_on_step:
            out = out.replace(observation=self.observe(out))
        return out

    def _step(self, state: State, action: jax.Array, key: jax.Array | None) -> State:
        """Pgx's ``_step`` (used by :meth:`step` through :meth:`_next_game`)."""
        return self._wrap(self._next_game(state._x, jnp.asarray(action, jnp.int32), key), state._x,
                          state._step_count)  # fmt: skip

    def _next_game(self, x: Game, action: jax.Array, key: jax.Array | None) -> Game:
        """The game after ``action`` (a legal one), the end check done."""
        return self._end_check(self._transition(x, action, key))

    def _transition(self, x: Game, action: jax.Array, key: jax.Array | None) -> Game:
        """The game after ``action`` (a legal one), before the end check."""
        cfg = self.config
        branches = [(S.EXCHANGE, self._exchange(x, action))]
        if self._n > 2:
            branches.append((S.DECLARE, self._declare(x, action)))
        if self._n == 2 and cfg.setup != "random":
            branches.append(
                (S.SETUP_MONOLITH, x._replace(monolith=action - A.MONOLITH_BASE, phase=jnp.int32(S.SETUP_RAVEN)))
            )
            placed = x._replace(
                raven=action - A.RAVEN_BASE + 2, to_move=jnp.int32(S.WHITE), phase=jnp.int32(S.EXCHANGE)
            )
            branches.append((S.SETUP_RAVEN, placed))
        if cfg.setup == "draft":
            if key is None:
                raise ValueError("setup='draft' draws blocks in step: pass a PRNG key")
            branches.append((S.DRAFT, self._draft(x, action, key)))
        new = branches[0][1]
        for phase, branch in branches[1:]:
            new = _select(x.phase == phase, branch, new)
        return new

    def _observe(self, state: State, player_id: jax.Array) -> jax.Array:
        if self._n == 2:
            return self._observe_2p(state, player_id)
        return self._observe_multi(state, player_id)

    def _step_with_illegal_action(self, state: State, loser: jax.Array) -> State:
        """The PettingZoo env's ``illegal_action="terminate"``: the offender's team -1, others 0."""
        x = state._x._replace(phase=jnp.int32(S.OVER))
        return state.replace(rewards=self._illegal_rewards(loser), terminated=jnp.bool_(True),
                             truncated=jnp.bool_(False), _x=x)  # fmt: skip

    def _illegal_rewards(self, loser: jax.Array) -> jax.Array:
        seats = jnp.arange(self._n)
        team = (seats % 2 == loser % 2) if self._n == 4 else seats == loser
        return jnp.where(team, -1.0, 0.0).astype(jnp.float32)

    # -- transitions ---------------------------------------------------------------------------

    def _empty_game(self, towers: jax.Array, key: jax.Array) -> Game:
        """A new game on ``towers`` (packed, :func:`pack_towers`; rules ``initial_state``)."""
        cfg, n = self.config, self._n
        two = n == 2
        k_block, k_mono, k_raven, k_deal = jax.random.split(key, 4)
        x = Game(
            towers=towers,
            monolith=jnp.int32(-1),
            raven=jnp.int32(0),
            ladders=jnp.zeros((n, 9), jnp.int32),
            priests=jnp.full((9,), -1, jnp.int32),
            ladders_left=jnp.full((n,), cfg.ladders_per_player if two else 0, jnp.int32),
            priests_left=jnp.full((n,), cfg.priests_per_player if two else 0, jnp.int32),
            to_move=jnp.int32(S.WHITE),
            phase=jnp.int32(S.EXCHANGE),
            turn=jnp.int32(0),
            tasks=jnp.full((n, 2), -1, jnp.int32),
            spare=jnp.full((2,), -1, jnp.int32),
            declared=jnp.int32(-1),
            draft_block=jnp.int32(-1),
        )
        if cfg.setup == "draft":
            return x._replace(phase=jnp.int32(S.DRAFT), draft_block=jax.random.randint(k_block, (), 0, 9))
        if not two:
            return self._end_check(self._deal(x, k_deal))
        if cfg.setup == "choose":
            return x._replace(to_move=jnp.int32(S.BLACK), phase=jnp.int32(S.SETUP_MONOLITH))
        monolith = jax.random.randint(k_mono, (), 0, len(A.PAIRS))
        raven = jax.random.randint(k_raven, (), 2, 6)
        return self._end_check(x._replace(monolith=monolith, raven=raven))

    def _exchange(self, x: Game, action: jax.Array) -> Game:
        """An exchange (rules ``_exchange`` / ``_exchange_multi``), the turn passed or, 3-4p,
        the declare decision when it follows."""
        pair, i = action >> 2, (action & 3) + 1
        a, b = jnp.asarray(_PA)[pair], jnp.asarray(_PB)[pair]
        towers, new_a, new_b = _swap(x.towers, a, b, i)
        mover = x.to_move
        moved = x._replace(towers=towers, monolith=pair, turn=x.turn + 1)
        if self._n > 2:
            follows = self._declare_follows(towers, x.tasks[mover])
            nxt = (mover + 1) % self._n
            return moved._replace(
                phase=jnp.where(follows, S.DECLARE, S.EXCHANGE).astype(jnp.int32),
                to_move=jnp.where(follows, mover, nxt),
            )
        seats = jnp.arange(self._n) == mover  # one-hot rows and columns instead of scatters
        ladders, priests = x.ladders, x.priests
        ladders_left, priests_left = x.ladders_left, x.priests_left
        spaces = jnp.asarray(self._spaces)
        on_board = ladders.sum(axis=0)
        for tower, code in ((a, new_a), (b, new_b)):  # in pair order: the first tower takes a ladder first
            here = jnp.arange(9) == tower
            joined = _colour(code, i - 1) == _colour(code, i)
            left = jnp.sum(jnp.where(seats, ladders_left, 0))
            free = jnp.sum(jnp.where(here, spaces - on_board, 0)) > 0
            place = joined & (left > 0) & free
            ladders = ladders + (place & seats[:, None] & here[None, :])
            ladders_left = ladders_left - (place & seats)
            complete = joined & _complete(code) & (jnp.sum(jnp.where(seats, priests_left, 0)) > 0)
            priests = jnp.where(complete & here, mover, priests)
            priests_left = priests_left - (complete & seats)
        return moved._replace(
            raven=i + 1, ladders=ladders, priests=priests, ladders_left=ladders_left, priests_left=priests_left,
            to_move=1 - mover,
        )  # fmt: skip

    def _declare_follows(self, towers: jax.Array, mine: jax.Array) -> jax.Array:
        """Rules ``declare_step_follows`` for the config's ``declare_step``."""
        step = self.config.declare_step
        if step == "always":
            return jnp.bool_(True)
        if step == "possible":
            complete = _complete(towers)
            return complete[S.CENTRE] & jnp.any(complete & (jnp.arange(9) != S.CENTRE))
        return _may_declare(towers, mine)

    def _declare(self, x: Game, action: jax.Array) -> Game:
        declared = action == A.DECLARE_END
        return x._replace(
            phase=jnp.where(declared, S.OVER, S.EXCHANGE).astype(jnp.int32),
            declared=jnp.where(declared, x.to_move, x.declared),
            to_move=jnp.where(declared, x.to_move, (x.to_move + 1) % self._n),
        )

    def _draft(self, x: Game, action: jax.Array, key: jax.Array) -> Game:
        """A draft placement and the next block (rules ``_draft``); after the last one: 2p the
        Monolith decision, 3-4p the deal."""
        k_block, k_deal = jax.random.split(key)
        tower = action - A.DRAFT_BASE
        towers = unpack_towers(x.towers)
        built = jnp.sum(towers >= 0, axis=1)
        level = built[tower]
        towers = towers.at[tower, level].set(x.draft_block)
        at_level = towers[:, level]
        present = jnp.any(at_level[:, None] == jnp.arange(9)[None, :], axis=0)
        level_done = ~jnp.any(~present)
        left = jnp.where(level_done & (level + 1 < A.NUM_LEVELS), jnp.ones(9, bool), ~present)
        more = jnp.any(left)
        block = jax.random.choice(k_block, 9, p=left / jnp.maximum(left.sum(), 1))
        count = jnp.sum(towers >= 0)
        towers = pack_towers(towers)
        going = x._replace(towers=towers, draft_block=block.astype(jnp.int32), to_move=(count % self._n).astype(jnp.int32))
        built_x = x._replace(towers=towers, draft_block=jnp.int32(-1))
        if self._n == 2:
            done = built_x._replace(phase=jnp.int32(S.SETUP_MONOLITH), to_move=jnp.int32(S.BLACK))
        else:
            done = self._deal(built_x, k_deal)
        return _select(more, going, done)

    def _deal(self, x: Game, key: jax.Array) -> Game:
        """3-4p: the centre card aside, 2 cards a seat (3p: 2 face down), ``player_0`` to move
        (rules ``_deal``)."""
        n = self._n
        centre = _colour(x.towers[S.CENTRE], 0)
        colours = jnp.arange(9)
        # the 8 colours other than the centre's, in a uniformly random order
        order = jnp.argsort(jnp.where(colours == centre, 2.0, jax.random.uniform(key, (9,))))
        cards = order[:8].astype(jnp.int32)
        tasks = jnp.sort(cards[: 2 * n].reshape(n, 2), axis=1)
        spare = jnp.sort(cards[6:8]) if n == 3 else jnp.full((2,), -1, jnp.int32)
        return x._replace(tasks=tasks, spare=spare, to_move=jnp.int32(0), phase=jnp.int32(S.EXCHANGE))

    def _end_check(self, x: Game, legal: jax.Array | None = None) -> Game:
        """Rules ``_start_exchanges``: an exchange phase without a legal exchange ends the game,
        else the turn limit does (the real end first). ``legal``: ``x``'s
        :func:`_legal_exchanges` where already computed."""
        legal = _legal_exchanges(x.towers, x.monolith, x.raven) if legal is None else legal
        stuck = ~jnp.any(legal)
        capped = x.turn >= self.config.max_turns
        phase = jnp.where(stuck, S.OVER, jnp.where(capped, self._limit_phase, S.EXCHANGE))
        return x._replace(phase=jnp.where(x.phase == S.EXCHANGE, phase, x.phase).astype(jnp.int32))

    def _wrap(self, x: Game, before: Game | None, step_count: jax.Array | None = None) -> State:
        """The Pgx state of game ``x``: mask, flags, rewards (when it just ended)."""
        terminated = x.phase == S.OVER
        truncated = x.phase == S.TRUNCATED
        ended = terminated if before is None else terminated & (before.phase != S.OVER)
        rewards = jnp.where(ended, self._returns(x), 0.0).astype(jnp.float32)
        mask = jnp.where(terminated | truncated, True, self._mask(x))
        return State(
            current_player=x.to_move.astype(jnp.int32),
            observation=jnp.zeros(self._size, jnp.float32),
            rewards=rewards,
            terminated=terminated,
            truncated=truncated,
            legal_action_mask=mask,
            _step_count=jnp.int32(0) if step_count is None else step_count,
            _x=x,
        )

    def _state_of_game(self, x: Game) -> State:
        """The state of game ``x`` as found (no reward), with the current player's observation."""
        state = self._wrap(x, x)
        return state.replace(observation=self.observe(state))

    # -- mask, scores --------------------------------------------------------------------------

    def _mask(self, x: Game, legal: jax.Array | None = None) -> jax.Array:
        """Rules ``_compute_legal`` as a ``(75,) bool`` mask (``legal``: as :meth:`_end_check`)."""
        cfg, phase = self.config, x.phase
        legal = _legal_exchanges(x.towers, x.monolith, x.raven) if legal is None else legal
        exchanges = legal & (phase == S.EXCHANGE)
        setup = self._n == 2 and cfg.setup != "random"
        monolith = jnp.full(len(A.PAIRS), setup) & (phase == S.SETUP_MONOLITH)
        raven = jnp.full(4, setup) & (phase == S.SETUP_RAVEN)
        if self._n > 2:
            declaring = phase == S.DECLARE
            can = _may_declare(x.towers, x.tasks[x.to_move]) & declaring
            declare = jnp.stack([can, declaring])
        else:
            declare = jnp.zeros(2, bool)
        draft = self._draft_mask(x) & (phase == S.DRAFT) if cfg.setup == "draft" else jnp.zeros(9, bool)
        return jnp.concatenate([exchanges, monolith, raven, declare, draft])

    def _draft_mask(self, x: Game) -> jax.Array:
        """Rules ``draft_towers``: open at the current level, not holding the block, and the
        rest of the level still completable (a permanent > 0: a perfect matching)."""
        towers, block = unpack_towers(x.towers), x.draft_block
        built = jnp.sum(towers >= 0, axis=1)
        level = jnp.min(built)
        open_ = built == level
        colours = jnp.arange(9)
        below = (towers[:, :, None] == colours) & (_LEVELS[None, :, None] < level)
        holds = jnp.any(below, axis=1)  # (tower, colour) held below the level
        filled_row = (towers[jnp.arange(9), jnp.minimum(level, 4)][:, None] == colours) & ~open_[:, None]
        allowed = jnp.where(open_[:, None], ~holds, filled_row)  # (tower, colour)
        block_row = colours == block

        def completable(t):
            return permanent(allowed.at[t].set(block_row)) > 0

        return open_ & ~holds[:, block] & jax.vmap(completable)(jnp.arange(9))

    def _scores(self, x: Game) -> jax.Array:
        """Each seat's victory points (rules ``victory_points``): 2p ladders and priests, 3-4p
        task scores with the centre bonus."""
        if self._n == 2:
            return _vp_2p(x)
        totals = _column_totals(unpack_towers(x.towers)).sum(axis=0)
        per_colour = totals - ((totals == 4) & (self.config.three_plus_two == "best"))
        scores = jnp.sum(jnp.where(x.tasks >= 0, per_colour[jnp.maximum(x.tasks, 0)], 0), axis=1)
        centre_move = (x.monolith >= 0) & jnp.asarray(_CENTRE_PAIR)[jnp.maximum(x.monolith, 0)]
        bonus = (x.declared >= 0) & centre_move & _complete(x.towers)[S.CENTRE]
        return scores + jnp.where(bonus & (jnp.arange(self._n) == x.declared), S.CENTRE_BONUS, 0)

    def _returns(self, x: Game) -> jax.Array:
        """Rules ``returns`` of a finished game, ``(n,) float32``."""
        n, scheme = self._n, self.config.reward_scheme
        scores = self._scores(x).astype(jnp.float32)
        if n == 2:
            vp = scores
            if scheme == "score_diff":
                return jnp.stack([vp[0] - vp[1], vp[1] - vp[0]])
            priests = jnp.stack([jnp.sum(x.priests == s) for s in (S.WHITE, S.BLACK)])
            ladders = x.ladders.sum(axis=1)
            key = (vp.astype(jnp.int32) * 64 + priests) * 256 + ladders  # (vp, priests, ladders) in order
            sign = jnp.sign(key[0] - key[1]).astype(jnp.float32)
            return jnp.stack([sign, -sign])
        if n == 4:
            team = jnp.stack([scores[0] + scores[2], scores[1] + scores[3]])
            mine, theirs = team[jnp.arange(4) % 2], team[1 - jnp.arange(4) % 2]
            if scheme == "score_diff":
                return mine - theirs
            return jnp.sign(mine - theirs)
        if scheme == "score_diff":
            return scores - (scores.sum() - scores) / (n - 1)
        top = scores == scores.max()
        winners = top.sum()
        everyone = winners == n
        value = jnp.where(top, 1.0 / winners, -1.0 / jnp.maximum(n - winners, 1))
        return jnp.where(everyone, 0.0, value).astype(jnp.float32)

    # -- observations --------------------------------------------------------------------------

    def _common_obs(self, x: Game) -> list[jax.Array]:
        """The towers' and the Monolith's one-hots (the first 417 entries)."""
        towers = (unpack_towers(x.towers)[:, :, None] == jnp.arange(9)).reshape(-1)
        monolith = jnp.arange(len(A.PAIRS)) == x.monolith
        return [towers, monolith]

    def _draft_obs(self, x: Game) -> list[jax.Array]:
        if self.config.setup != "draft":
            return []
        drafting = x.phase == S.DRAFT
        return [(jnp.arange(9) == x.draft_block) & drafting, drafting[None]]

    def _observe_2p(self, state: State, seat: jax.Array) -> jax.Array:
        x, cfg = state._x, self.config
        opp = 1 - seat
        f32 = jnp.float32
        mine, theirs = x.ladders[seat], x.ladders[opp]
        parts = self._common_obs(x)
        parts.append(jnp.arange(2, 6) == x.raven)
        parts += [mine / f32(O.MAX_LADDER_SPACES), theirs / f32(O.MAX_LADDER_SPACES)]
        parts += [x.priests == seat, (x.priests >= 0) & (x.priests != seat)]
        pieces = [(x.ladders_left, cfg.ladders_per_player), (x.priests_left, cfg.priests_per_player)]
        parts.append(jnp.stack([_fraction(left[s], total) for left, total in pieces for s in (seat, opp)]))
        parts.append(jnp.arange(3) == x.phase)
        parts.append(_fraction(x.turn, cfg.max_turns)[None])
        parts.append((seat == 0)[None])
        legal = state.legal_action_mask[:N_EX] & (x.phase == S.EXCHANGE)
        parts += jax.lax.optimization_barrier(self._action_features_2p(x, seat, legal))
        parts += self._draft_obs(x)
        return _concat(parts, self._layout)

    def _action_features_2p(self, x: Game, seat: jax.Array, legal: jax.Array) -> list[jax.Array]:
        """Slices [466, 610): rules ``exchange_consequences`` of every legal exchange, per pair
        ``(12, 4)`` (pair, seam). The per-tower inputs (colours, both seats' ladders, spaces)
        are packed into one ``(9, 8)`` array whose rows are taken once per side of each pair
        (static row slices, one concatenation); everything after is elementwise on ``(12, 4)``.
        (Gathering each derived ``(9, 4)`` value by pair instead made XLA copy whole-batch
        slices and transpose them: 27 kernels, 2.1 against 1.2 ms per batch of 1024.)"""
        first = seat == 0  # selects, not a dynamic index: XLA's per-seat gathers cost a kernel each
        mine = jnp.where(first, x.ladders[0], x.ladders[1])
        theirs = jnp.where(first, x.ladders[1], x.ladders[0])
        left = jnp.where(first, x.ladders_left[0], x.ladders_left[1])
        priest = jnp.where(first, x.priests_left[0], x.priests_left[1]) > 0
        spaces = jnp.asarray(self._spaces)
        pack = jnp.concatenate([unpack_towers(x.towers), mine[:, None], theirs[:, None], spaces[:, None]], axis=1)
        sides = jnp.concatenate([pack[t : t + 1] for t in _PAB])  # (24, 8): the a towers, then the b towers
        lo_a, hi_a, low_a, high_a, base_a, top_a, ma, ta, spa = _pair_side(sides[: len(_PA)])
        lo_b, hi_b, low_b, high_b, base_b, top_b, mb, tb, spb = _pair_side(sides[len(_PA) :])
        joined_a = lo_a == hi_b  # new a = a below the seam + b from it
        joined_b = lo_b == hi_a
        # new a one colour: a's levels 0..j one colour, b's j+1..4 one colour, b's top = a's base
        completes_a = joined_a & low_a & high_b & (top_b == base_a) & priest
        completes_b = joined_b & low_b & high_a & (top_a == base_b) & priest
        place_a = joined_a & (left > 0) & (ma + ta < spa)
        place_b = joined_b & (left - place_a > 0) & (mb + tb < spb)
        gain_a = (ma == ta) | (ta == ma + 1)
        gain_b = (mb == tb) | (tb == mb + 1)
        swing = (place_a & gain_a).astype(jnp.int32) + (place_b & gain_b) + completes_a + completes_b
        placed = place_a.astype(jnp.float32) + place_b
        swing_unit = jnp.asarray(_SWING)[2] + sum(  # the table's values, selected (no gather)
            (swing == k) * (jnp.asarray(_SWING)[k + 2] - jnp.asarray(_SWING)[2]) for k in range(1, 5)
        )
        return [
            jnp.where(legal, placed.reshape(N_EX) * 0.5, 0.0),
            legal & (completes_a | completes_b).reshape(N_EX),
            jnp.where(legal, swing_unit.reshape(N_EX), 0.0),
        ]

    def _observe_multi(self, state: State, seat: jax.Array) -> jax.Array:
        x, cfg = state._x, self.config
        colours = jnp.arange(9)
        dealt = x.tasks[0, 0] >= 0
        mine = x.tasks[seat]
        my_cards = jnp.any(colours[:, None] == mine[None, :], axis=1) & dealt
        centre_card = (colours == _colour(x.towers[S.CENTRE], 0)) & dealt
        live = (x.phase == S.EXCHANGE) | (x.phase == S.DECLARE)
        my_decision = (x.phase == S.DECLARE) & (x.to_move == seat)
        centre_move = (x.monolith >= 0) & jnp.asarray(_CENTRE_PAIR)[jnp.maximum(x.monolith, 0)]
        bonus = my_decision & centre_move & _complete(x.towers)[S.CENTRE]
        parts = self._common_obs(x)
        parts += [my_cards, centre_card, jnp.stack([live & ~my_decision, my_decision]), bonus[None]]
        parts.append(_fraction(x.turn, cfg.max_turns)[None])
        parts.append(jnp.arange(4) == seat)
        parts.append(jnp.full((1,), self._n == 4))
        legal = _legal_exchanges(x.towers, x.monolith, jnp.int32(0)) & live & dealt
        parts += jax.lax.optimization_barrier(self._action_features_multi(x, my_cards, ~my_cards & ~centre_card, legal))
        parts += self._draft_obs(x)
        return _concat(parts, self._layout)

    def _action_features_multi(self, x: Game, mine: jax.Array, unknown: jax.Array, legal: jax.Array) -> list[jax.Array]:
        """Slices [444, 588): observation ``exchange_outlook`` of every legal exchange."""
        codes = x.towers
        code_a, code_b = codes[_XA], codes[_XB]
        moved = jnp.asarray(_moved_bits(_XI))  # (48,): the bits each exchange moves
        new_a = (code_a & ~moved) | (code_b & moved)
        new_b = (code_b & ~moved) | (code_a & moved)
        mine_bits, unknown_bits = _colour_bits(mine), _colour_bits(unknown)
        signed = ((1, new_a), (1, new_b), (-1, code_a), (-1, code_b))  # after minus before
        if self.config.three_plus_two == "best":  # [3, 2] (total 4) scores one less: per colour
            totals = _column_totals(unpack_towers(codes)).sum(axis=0)  # (9,)
            change = sum(sign * _column_totals(unpack_towers(code)) for sign, code in signed)
            change = change - ((totals + change == 4).astype(jnp.int32) - (totals == 4))
            my_delta = jnp.sum(change * mine, axis=1)
            rival_delta = jnp.sum(change * unknown, axis=1)
        else:  # the sums over a set of colours direct (no (48, 9) colour totals): 4p 6.3 -> 5.2 us a step
            my_delta = sum(sign * _set_score(code, mine_bits) for sign, code in signed)
            rival_delta = sum(sign * _set_score(code, unknown_bits) for sign, code in signed)
        complete = _complete(codes)
        is_a, is_b = jnp.asarray(_XA[:, None] == np.arange(9)), jnp.asarray(_XB[:, None] == np.arange(9))
        # (48, 9) per exchange and tower, after it: one colour; the base nibble (selects, no scatter)
        after = jnp.where(is_a, _complete(new_a)[:, None], jnp.where(is_b, _complete(new_b)[:, None], complete))
        base_after = jnp.where(is_a, new_a[:, None], jnp.where(is_b, new_b[:, None], codes)) & _UNBUILT
        mine_base = (mine_bits >> base_after) & 1 == 1  # the base is one of my cards (15, unbuilt: no bit)
        can = after[:, S.CENTRE] & jnp.any(after & mine_base, axis=1)
        can &= complete[S.CENTRE] | jnp.asarray(np.repeat(_CENTRE_PAIR, 4))
        off = _DELTA_RANGE
        return [
            jnp.where(legal, jnp.asarray(_MINE_UNIT)[jnp.clip(my_delta + off, 0, 2 * off)], 0.0),
            legal & can,
            jnp.where(legal, jnp.asarray(_RIVAL_UNIT)[jnp.clip(rival_delta + off, 0, 2 * off)], 0.0),
        ]


# -- board functions ---------------------------------------------------------------------------


def _integer(value: Any, name: str) -> Any:
    """``value`` unchanged if its dtype is an integer one (a Python ``int``, NumPy or JAX
    integer arrays, tracers); else ``TypeError`` naming the value (shortened) or its dtype."""
    dtype = jnp.result_type(value)
    if not jnp.issubdtype(dtype, jnp.integer):
        concrete = np.ndim(value) == 0 and not isinstance(value, jax.core.Tracer)
        shown = f"{name}={repr(value)[:40]}" if concrete else f"{name} (shape {np.shape(value)})"
        raise TypeError(f"{shown} has dtype {dtype}: an integer dtype is required")
    return value



def _fraction(count: jax.Array, total: int) -> jax.Array:
    """``min(count / total, 1)`` as observation.py stores it (a float64 quotient rounded to
    float32, from a table: XLA's float32 division may differ in the last bit); 0 if ``total``
    is 0."""
    table = np.array([min(k / total, 1.0) if total else 0.0 for k in range(total + 1)], np.float32)
    return jnp.asarray(table)[jnp.clip(count, 0, total)]


def _concat(parts: list[jax.Array], layout: Layout) -> jax.Array:
    """The observation vector of ``parts``, as float32; ``parts`` are the parts of ``layout`` in
    order, each made of whole pieces (checked when traced: ``Layout.check_pieces``). The
    cheap parts (one-hots, fractions) fuse into the concatenation, written in one pass; the
    callers put the action features behind an optimisation barrier (fused, XLA's CPU backend
    recomputed them per output element, 3-5x slower). A barrier over every part cost a pass
    per part over the batch's observations: 2p 2.50 -> 1.83 us a step with the observation."""
    layout.check_pieces(p.size for p in parts)
    return jnp.concatenate([p.astype(jnp.float32).reshape(-1) for p in parts])


def _pair_side(rows: jax.Array) -> tuple[jax.Array, ...]:
    """One side of each pair from its packed rows ``(12, 8)`` (5 colours, my ladders, the
    opponent's, spaces): the blocks under and over each seam ``(12, 4)``; levels ``0..j`` one
    colour and levels ``j+1..4`` one colour ``(12, 4)``; base and top colour, my ladders, theirs
    and the spaces ``(12, 1)``."""
    col = rows[:, : A.NUM_LEVELS]
    lo, hi = col[:, :4], col[:, 1:]
    s0, s1, s2, s3 = (lo[:, k] == hi[:, k] for k in range(4))
    true = jnp.ones_like(s0)
    low = jnp.stack([true, s0, s0 & s1, s0 & s1 & s2], axis=1)
    high = jnp.stack([s1 & s2 & s3, s2 & s3, s3, true], axis=1)
    return lo, hi, low, high, col[:, :1], col[:, 4:5], rows[:, 5:6], rows[:, 6:7], rows[:, 7:8]


def _select(cond: jax.Array, a: Game, b: Game) -> Game:
    return jax.tree_util.tree_map(lambda u, v: jnp.where(cond, u, v), a, b)


def pack_towers(towers: jax.Array) -> jax.Array:
    """Colours ``(..., 9, 5)`` int32 (-1 unbuilt) -> packed towers ``(..., 9)`` int32 (the
    :class:`Game` layout: level ``l`` in bits ``4l..4l+3``, 15 unbuilt); numpy or JAX arrays."""
    return ((towers & _UNBUILT) << _SHIFTS).sum(axis=-1)


def unpack_towers(codes: jax.Array) -> jax.Array:
    """Packed towers ``(..., 9)`` -> colours ``(..., 9, 5)`` int32, bottom to top, -1 unbuilt
    (the rules' ``towers``); numpy or JAX arrays."""
    colours = (codes[..., None] >> _SHIFTS) & _UNBUILT
    return colours - (_UNBUILT + 1) * (colours == _UNBUILT)


def _colour(code: jax.Array, level: jax.Array | int) -> jax.Array:
    """The colour (15: unbuilt) at ``level`` of packed towers ``code`` (any shape)."""
    return (code >> (_NIBBLE * level)) & _UNBUILT


def _base(codes: jax.Array) -> jax.Array:
    """The base colours of packed towers, -1 unbuilt (the rules' ``towers[t][0]``)."""
    colour = codes & _UNBUILT
    return jnp.where(colour == _UNBUILT, -1, colour)


def _moved_bits(i: jax.Array | np.ndarray) -> jax.Array | np.ndarray:
    """The bits of levels ``i..4`` (0-based) in a packed tower: what an exchange whose first
    moved slot is ``i`` moves."""
    return (_ALL_LEVELS >> (_NIBBLE * i)) << (_NIBBLE * i)


def _swap(towers: jax.Array, a: jax.Array, b: jax.Array, i: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Rules ``swap`` on packed towers: levels ``i..4`` (0-based) of towers ``a`` and ``b``
    change places. Returns the towers and the new codes of ``a`` and ``b``."""
    ids = jnp.arange(A.NUM_TOWERS)
    code_a = jnp.sum(jnp.where(ids == a, towers, 0))
    code_b = jnp.sum(jnp.where(ids == b, towers, 0))
    moved = _moved_bits(i)
    new_a = (code_a & ~moved) | (code_b & moved)
    new_b = (code_b & ~moved) | (code_a & moved)
    return jnp.where(ids == a, new_a, jnp.where(ids == b, new_b, towers)), new_a, new_b


def _legal_exchanges(towers: jax.Array, monolith: jax.Array, raven: jax.Array) -> jax.Array:
    """Rules ``legal_exchanges`` of packed towers as ``(48,) bool``: a pair's legal seams as
    4-bit ints (a seam between different colours in both towers, not the Raven's, the pair not
    the Monolith's), then its bits."""
    differs = towers ^ (towers >> _NIBBLE)  # nibble k != 0: levels k and k + 1 differ
    seams = sum((((differs >> (_NIBBLE * k)) & _UNBUILT) != 0).astype(jnp.int32) << k for k in _SEAMS.tolist())
    both = jnp.concatenate([seams[a : a + 1] & seams[b : b + 1] for a, b in A.PAIRS])  # (12,): static slices
    both = both & jnp.asarray(_RAVEN_SEAMS)[raven] & jnp.asarray(_OPEN_SEAMS)[monolith + 1]
    return ((both[:, None] >> _SEAMS) & 1).astype(bool).reshape(N_EX)


def _complete(towers: jax.Array) -> jax.Array:
    """Packed towers (any shape) -> ``bool``: each tower is one colour (rules ``is_complete``)."""
    return towers == (towers & _UNBUILT) * _ONE_COLOUR


def _may_declare(towers: jax.Array, mine: jax.Array) -> jax.Array:
    """Rules ``may_declare``: the centre tower and a tower of one of ``mine`` are complete."""
    complete = _complete(towers)
    base_mine = jnp.any(_base(towers)[:, None] == mine[None, :], axis=1)
    return complete[S.CENTRE] & jnp.any(complete & base_mine)


def _colour_bits(colours: jax.Array) -> jax.Array:
    """A ``(9,) bool`` colour set as one int: bit ``c`` set for colour ``c``."""
    return jnp.sum(colours.astype(jnp.int32) << jnp.arange(9, dtype=jnp.int32))


def _set_score(codes: jax.Array, bits: jax.Array) -> jax.Array:
    """``_column_totals`` of packed towers ``codes`` (any shape) summed over the colours in
    ``bits`` (:func:`_colour_bits`): a slot's run pairs count when its colour is in the set."""
    nibbles = (codes[..., None] >> _SHIFTS) & _UNBUILT  # 15 (unbuilt) is never in the set
    in_set = (bits >> nibbles[..., :4]) & 1
    return jnp.sum(_run_counts(nibbles) * in_set, axis=-1)


def _run_counts(columns: jax.Array) -> jax.Array:
    """``(..., 5)`` -> ``(..., 4)``: for each slot ``i`` below the top, the slots ``j > i`` in the
    same one-colour run as ``i`` (pairs of slots in one run, counted from the lower)."""
    same = columns[..., 1:] == columns[..., :-1]
    starts = []
    for i in range(A.NUM_LEVELS - 1):
        run = jnp.ones(columns.shape[:-1], jnp.int32)
        count = jnp.zeros(columns.shape[:-1], jnp.int32)
        for j in range(i, A.NUM_LEVELS - 1):
            run = run * same[..., j]
            count = count + run
        starts.append(count)
    return jnp.stack(starts, axis=-1)


def _column_totals(columns: jax.Array) -> jax.Array:
    """Rules ``colour_totals`` per column: ``(..., 5)`` -> ``(..., 9)``, the sum of C(n, 2)
    over each colour's joined groups (every pair of slots in one run counts 1)."""
    counts = _run_counts(columns)  # (..., 4): pairs (i, j > i) in one run, per start i
    onehot = columns[..., :4, None] == jnp.arange(9)
    return jnp.sum(counts[..., None] * onehot, axis=-2)


def _vp_2p(x: Game) -> jax.Array:
    l0, l1 = x.ladders[0], x.ladders[1]
    own = jnp.stack([jnp.sum(x.priests == s) for s in (S.WHITE, S.BLACK)])
    return own + jnp.stack([jnp.sum(l0 > l1), jnp.sum(l1 > l0)])


def permanent(matrix: jax.Array) -> jax.Array:
    """Permanent of a 9 x 9 0/1 matrix, ``uint32`` (Ryser's formula; the products and sums wrap
    modulo 2**32, and a 0/1 permanent is at most 9! < 2**32, so the result is exact)."""
    m = matrix.astype(jnp.uint32)
    row_sums = m @ jnp.asarray(_SUBSETS.T)  # (9, 511)
    products = jnp.prod(row_sums, axis=0)
    even = jnp.asarray(_EVEN)
    return jnp.sum(jnp.where(even, products, 0)) - jnp.sum(jnp.where(even, 0, products))


def _uniform_permutations(key: jax.Array, count: int) -> jax.Array:
    """``(count, 9) int32`` independent uniform permutations of 0..8."""
    return _fisher_yates(jax.random.uniform(key, (count, 8)), 9)


def _fisher_yates(uniforms: jax.Array, size: int) -> jax.Array:
    """Uniform permutations of ``0..size-1`` ``(..., size) int32`` from independent uniforms
    in [0, 1) ``(..., size - 1)``: Fisher-Yates with one-hot swaps (far cheaper than sorting
    random keys on XLA's CPU backend)."""
    columns = jnp.arange(size)
    perms = jnp.broadcast_to(columns, uniforms.shape[:-1] + (size,)).astype(jnp.int32)
    for step, k in enumerate(range(size - 1, 0, -1)):
        j = jnp.minimum((uniforms[..., step] * (k + 1)).astype(jnp.int32), k)[..., None]
        at_j = jnp.sum(jnp.where(columns == j, perms, 0), axis=-1, keepdims=True)
        at_k = perms[..., k : k + 1]
        perms = jnp.where(columns == k, at_j, jnp.where(columns == j, at_k, perms))
    return perms


def sample_board(key: jax.Array) -> jax.Array:
    """An exactly uniform valid board ``(9, 5) int32`` (towers x levels): the sampler of
    :mod:`maya_envs.maya2012.setup` on JAX arrays. Level 1 is a uniform permutation; each level
    ``L >= 2`` goes on with probability ``E / B`` (``E`` its number of fillings, a permanent;
    ``B`` Bregman's bound; else start over) and is a uniform filling (the first fitting one of
    uniform permutations). Up to float32 rounding of ``E / B``, every board is equally likely."""
    colours = jnp.arange(9)

    def body(carry):
        key, board, row, tested = carry
        key, k_perm, k_test, k_fill = jax.random.split(key, 4)
        used = (board[:, :, None] == colours) & (jnp.arange(5) < row)[:, None, None]
        allowed = ~jnp.any(used, axis=0)  # (tower, colour)
        first = jax.random.permutation(k_perm, 9).astype(jnp.int32)
        fillings = permanent(allowed).astype(jnp.float32)
        go_on = tested | (jax.random.uniform(k_test) * jnp.asarray(_BREGMAN)[jnp.clip(row, 0, 4)] < fillings)
        perms = _uniform_permutations(k_fill, _CANDIDATES)
        fits = jnp.all(allowed[jnp.arange(9), perms], axis=1)
        found = jnp.any(fits)
        filling = perms[jnp.argmax(fits)]
        at_row = jnp.arange(5)[:, None] == row
        new_row = jnp.where(row == 0, first, filling)
        placed = (row == 0) | (go_on & found)
        board = jnp.where(at_row & placed, new_row[None, :], board)
        next_row = jnp.where(placed, row + 1, jnp.where(go_on, row, 0))
        return key, board, next_row, go_on & ~found & (row > 0)

    start = (key, jnp.full((5, 9), -1, jnp.int32), jnp.int32(0), jnp.bool_(False))
    _, board, _, _ = jax.lax.while_loop(lambda c: c[2] < 5, body, start)
    return board.T


def relabel_board(key: jax.Array, towers: jax.Array) -> jax.Array:
    """``towers`` with its towers, levels and colours relabelled by independent uniformly random
    permutations (``(9, 5) int32``). A relabelling maps valid boards to valid boards one to one,
    so a uniform board stays exactly uniform: the cheap new boards of the batched engine
    (:mod:`maya_envs.maya2012.batched`, "Boards"), for resets in long runs; boards relabelled
    from one base are not independent of each other."""
    n_t, n_l = A.NUM_TOWERS - 1, A.NUM_LEVELS - 1  # uniforms per permutation
    uniforms = jax.random.uniform(key, (n_t + n_l + 8,))  # one draw for the three permutations
    towers_order = _fisher_yates(uniforms[:n_t], A.NUM_TOWERS)
    levels_order = _fisher_yates(uniforms[n_t : n_t + n_l], A.NUM_LEVELS)
    colours = _fisher_yates(uniforms[n_t + n_l :], 9)
    return colours[towers[towers_order][:, levels_order]]


# -- the rules state, both ways ------------------------------------------------------------------


def state_from_rules(env: Maya2012, rules_state: Maya2012State) -> State:
    """The Pgx state of ``rules_state`` (a state of ``env.rules``), with its mask, flags and the
    current player's observation; rewards are zero."""
    n = env.num_players
    x = Game(
        towers=pack_towers(jnp.asarray(rules_state.towers, jnp.int32)),
        monolith=jnp.int32(rules_state.monolith),
        raven=jnp.int32(rules_state.raven),
        ladders=jnp.asarray(rules_state.ladders, jnp.int32).reshape(n, 9),
        priests=jnp.asarray(rules_state.priests, jnp.int32),
        ladders_left=jnp.asarray(rules_state.ladders_left, jnp.int32),
        priests_left=jnp.asarray(rules_state.priests_left, jnp.int32),
        to_move=jnp.int32(rules_state.to_move),
        phase=jnp.int32(rules_state.phase),
        turn=jnp.int32(rules_state.turn),
        tasks=jnp.asarray(rules_state.tasks or ((-1, -1),) * n, jnp.int32),
        spare=jnp.asarray(rules_state.spare or (-1, -1), jnp.int32),
        declared=jnp.int32(rules_state.declared),
        draft_block=jnp.int32(rules_state.draft_block),
    )
    return env._from_game(x)


def state_to_rules(state: State, row: int | None = None) -> Maya2012State:
    """The rules state of one Pgx state, or of game ``row`` of a batched one (fetch a batch once
    with ``jax.device_get`` when converting many rows)."""
    x = jax.tree_util.tree_map(np.asarray, state._x)
    if row is not None:
        x = jax.tree_util.tree_map(lambda v: v[row], x)
    n = x.ladders.shape[0]

    def rows(array):
        return tuple(tuple(int(v) for v in row) for row in array)

    dealt = n > 2 and int(x.tasks[0, 0]) >= 0
    return Maya2012State(
        towers=rows(unpack_towers(x.towers)),
        monolith=int(x.monolith),
        raven=int(x.raven),
        ladders=rows(x.ladders),
        priests=tuple(int(v) for v in x.priests),
        ladders_left=tuple(int(v) for v in x.ladders_left),
        priests_left=tuple(int(v) for v in x.priests_left),
        to_move=int(x.to_move),
        phase=int(x.phase),
        turn=int(x.turn),
        tasks=rows(x.tasks) if dealt else (),
        spare=tuple(int(v) for v in x.spare) if dealt and n == 3 else (),
        declared=int(x.declared),
        draft_block=int(x.draft_block),
    )
