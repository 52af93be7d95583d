"""The quarry game as a ``pgx.Env``: init, step (illegal ids end the game as the PettingZoo env
does), observe, rewards. Spec card: :mod:`maya_envs.jax.maya_quarry`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core

from maya_envs.jax.maya2012 import _integer
from maya_envs.jax.maya_quarry import flow
from maya_envs.jax.maya_quarry.observe import Encoder
from maya_envs.jax.maya_quarry.tables import CARD_COUNTS, Game, Tables, i32, select
from maya_envs.jax.pgx_state import GameState, register_state
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules import MayaQuarryConfig, MayaQuarryRules, Phase

ENV_ID = "maya_quarry"
"""``state.env_id`` and ``MayaQuarry.id`` (not one of Pgx's own ``pgx.EnvId`` games)."""


@register_state
class State(GameState):
    """Pgx state of one quarry game (a pytree; batch it with ``jax.vmap``): Pgx's public fields
    and the :class:`~.tables.Game` in ``_x``. Built by :meth:`MayaQuarry.init` or
    :func:`~maya_envs.jax.maya_quarry.convert.state_from_rules`."""

    @property
    def env_id(self) -> str:
        return ENV_ID

    def to_svg(self, *, color_theme: str | None = None, scale: float | None = None) -> str:
        """SVG of the game (the project's renderer, spectator view, the default component
        table); of the first game for a batched state."""
        from maya_envs.jax.maya_quarry.rules_state import state_to_rules
        from maya_envs.maya_quarry.render_image import render_svg

        single = self.first()
        advanced = single.legal_action_mask.shape[-1] == A.NUM_ACTIONS_ADVANCED
        rules = MayaQuarryRules(num_players=int(single.rewards.shape[0]), variant="advanced" if advanced else "basic")
        return str(render_svg(rules, state_to_rules(single)))


class MayaQuarry(pgx.core.Env):
    """The quarry game with Pgx's API for one config (spec card: :mod:`maya_envs.jax.maya_quarry`).

    Args:
        config: a :class:`~maya_envs.maya_quarry.rules.MayaQuarryConfig`, a mapping of its
            fields or ``None``; ``**options``: further fields as keywords.
        observe_on_step: ``True`` (default, Pgx's API): ``init`` and ``step`` fill
            ``state.observation`` with the current player's observation; ``False``: zeros
            (``observe(state, seat)`` still gives any seat's).

    Raises:
        ConfigError: an unknown option, a bad value or a bad component table (the rules' messages).
    """

    def __init__(
        self, config: MayaQuarryConfig | Mapping[str, Any] | None = None, observe_on_step: bool = True, **options: Any
    ) -> None:
        super().__init__()
        self.rules = MayaQuarryRules(config, **options)
        self.config = self.rules.config
        self.observe_on_step = bool(observe_on_step)
        self.tables = Tables(self.rules)
        self._encode = Encoder(self.tables)
        self._size = self._encode.layout.size
        self._from_game = jax.jit(self._state_of_game)

    @property
    def id(self) -> str:
        return ENV_ID

    @property
    def version(self) -> str:
        return "v1"  # the rules version this engine repeats; tests/jax compares it with the game table's

    @property
    def num_players(self) -> int:
        return self.tables.n

    @property
    def num_actions(self) -> int:
        return self.tables.num_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self._size,)

    def observe(self, state: State, player_id: jax.Array | int | None = None) -> jax.Array:
        """``player_id``'s observation (default: the current player's), ``(size,) float32``;
        reads only what that seat may see.

        Args:
            state: a state of this env (``jax.vmap`` over both arguments for a batch).
            player_id: a seat ``0..n-1``: a Python or NumPy int (checked), or an integer array
                (traced: a seat outside the range gives NaN, never another seat's view).

        Raises:
            ValueError: a Python or NumPy int outside ``0..n-1``.
            TypeError: ``player_id`` is not of an integer dtype.
        """
        n = self.tables.n
        if player_id is None:
            if not self.observe_on_step:
                return jnp.zeros(self._size, jnp.float32)
            return jax.lax.stop_gradient(self._encode(state._x, state.current_player))
        if isinstance(player_id, (int, np.integer)) and not isinstance(player_id, bool):
            if not 0 <= player_id < n:
                raise ValueError(f"player_id={int(player_id)} is not a seat: allowed 0..{n - 1}")
            return jax.lax.stop_gradient(self._encode(state._x, jnp.int32(player_id)))
        seat = jnp.asarray(_integer(player_id, "player_id"), jnp.int32)
        vector = self._encode(state._x, jnp.clip(seat, 0, n - 1))
        return jax.lax.stop_gradient(jnp.where((seat >= 0) & (seat < n), vector, jnp.nan))

    def _init(self, key: jax.Array) -> State:
        t, cfg = self.tables, self.config
        n, nq = t.n, t.num_quarries
        k_start, k_round = jax.random.split(key)
        if cfg.first_start_player == "random":
            start = jax.random.randint(k_start, (), 0, n).astype(jnp.int32)
        else:
            start = i32(cfg.first_start_player)
        none = i32(-1)
        x = Game(
            round=i32(0),
            phase=i32(Phase.SETUP),
            start=start,
            turn=start,
            actor=start,
            gold=jnp.full(n, t.starting_gold, jnp.int32),
            pool=jnp.full(n, t.blocks - t.starting, jnp.int32),
            held=jnp.full(n, t.starting, jnp.int32),
            board=jnp.zeros((t.num_pyramids, A.MAX_LEVELS, n), jnp.int32),
            hands=jnp.tile(jnp.asarray(CARD_COUNTS), (n, 1)),
            passed=jnp.zeros(n, bool),
            col_seat=jnp.full((nq, t.slots), -1, jnp.int32),
            col_card=jnp.full((nq, t.slots), -1, jnp.int32),
            resolving=i32(nq),
            deduct=jnp.zeros(n, jnp.int32),
            pending=jnp.zeros(n, bool),
            protect_q=none,
            protect_seat=none,
            holder=jnp.full(7, -1, jnp.int32),
            ever_full=jnp.zeros((t.num_pyramids, A.MAX_LEVELS), bool),
            reloc_src=none,
            double_left=i32(0),
            bids=jnp.full(n, -1, jnp.int32),
            blue_offer=jnp.zeros(A.NUM_BLUE, bool),
            blue_holder=jnp.full(A.NUM_BLUE, -1, jnp.int32),
            choosers=jnp.full(n, -1, jnp.int32),
            plus2_q=none,
            plus2_seat=none,
            joker_seat=none,
            joker_as=none,
            joker_protect_q=none,
        )
        if t.starting == 0:
            x = flow.begin_round(t, x, 0, k_round)
        if t.num_pyramids == 1 and t.starting > 0 and cfg.skip_forced:
            # the one shape whose first decision can be forced: a first setup block with one
            # pyramid (workers, bids and several pyramids always offer a choice); checked
            # statically because the loop is most of init's compile time
            x, legal = flow.settle(t, x, k_round)
        else:
            legal = flow.mask(t, x)
        return self._wrap(x, legal, None, start)

    def step(self, state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        """Pgx's ``Env.step``: a finished state changes nothing and pays zero rewards; an illegal
        id (or one outside the table) ends the game on the position before it, the offender -1,
        the others 0 (the PettingZoo env's ``illegal_action="terminate"``); the mask of a
        finished state is all ``True``.

        Args:
            state: a state of this env (batch it with ``jax.vmap``).
            action: an action id of an integer dtype (Python, NumPy or JAX; traced or not).
            key: PRNG key: needed by the advanced variant with 3 or 4 players (the next round's
                blue markers), else unused.

        Raises:
            TypeError: ``action`` is not of an integer dtype.
            ValueError: ``key`` is ``None`` where a draw is needed (when traced).
        """
        t = self.tables
        action = jnp.asarray(_integer(action, "action"), jnp.int32)
        done = state.terminated | state.truncated
        in_range = (action >= 0) & (action < t.num_actions)
        illegal = ~done & ~(in_range & state.legal_action_mask[jnp.clip(action, 0, t.num_actions - 1)])
        x = state._x
        moved, legal = flow.settle(t, x, key, jnp.where(done | illegal, -1, action), state.legal_action_mask)
        new = select(done | illegal, x, moved)
        new = new._replace(phase=jnp.where(illegal, Phase.OVER, new.phase).astype(jnp.int32))
        out = self._wrap(new, legal, x, state.current_player, state._step_count + (~done).astype(jnp.int32))
        offender = (jnp.arange(t.n) == state.current_player).astype(jnp.float32)
        out = out.replace(rewards=jnp.where(illegal, -offender, out.rewards))
        if self.observe_on_step:
            out = out.replace(observation=self.observe(out))
        return out

    def _step(self, state: State, action: jax.Array, key: jax.Array | None) -> State:
        return self.step(state, action, key)

    def _observe(self, state: State, player_id: jax.Array) -> jax.Array:
        return self._encode(state._x, player_id)

    def _wrap(
        self,
        x: Game,
        legal: jax.Array,
        before: Game | None,
        last_player: jax.Array,
        step_count: jax.Array | None = None,
    ) -> State:
        """The Pgx state of game ``x``: mask, flags, rewards when it just ended; the current
        player is the actor, or ``last_player`` once nobody acts."""
        over = x.phase == Phase.OVER
        ended = over if before is None else over & (before.phase != Phase.OVER)
        return State(
            current_player=jnp.where(x.actor >= 0, x.actor, last_player).astype(jnp.int32),
            observation=jnp.zeros(self._size, jnp.float32),
            rewards=jnp.where(ended, self._returns(x), 0.0).astype(jnp.float32),
            terminated=over,
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.where(over, True, legal),
            _step_count=jnp.int32(0) if step_count is None else step_count,
            _x=x,
        )

    def _returns(self, x: Game) -> jax.Array:
        """Rules ``returns`` of a finished game, ``(n,) float32``."""
        n = self.tables.n
        if self.config.reward_scheme == "gold_diff":
            gold = x.gold.astype(jnp.float32)
            return (gold - (gold.sum() - gold) / (n - 1)) / self.config.gold_diff_scale
        rich = x.gold == x.gold.max()
        fewest = jnp.where(rich, x.pool, jnp.iinfo(jnp.int32).max).min()
        won = rich & (x.pool == fewest)
        w = won.sum()
        value = jnp.where(won, 1.0 / w, -1.0 / jnp.maximum(n - w, 1))
        return jnp.where(w == n, 0.0, value).astype(jnp.float32)

    def _state_of_game(self, x: Game) -> State:
        """The state of game ``x`` as found (no reward), with the current player's observation."""
        state = self._wrap(x, flow.mask(self.tables, x), x, jnp.maximum(x.actor, 0))
        return state.replace(observation=self._encode(x, state.current_player))
