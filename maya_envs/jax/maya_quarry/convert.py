"""A rules state to the JAX engine's state and back (for tests, tools and search that mix the
two engines); the way back, :func:`state_to_rules`, lives in :mod:`.rules_state` so that the
state's ``to_svg`` can use it without importing the env (no import circle)."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from maya_envs.jax.maya_quarry.env import MayaQuarry, State
from maya_envs.jax.maya_quarry.rules_state import SCALAR_FIELDS, state_to_rules
from maya_envs.jax.maya_quarry.tables import Game
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules import MayaQuarryState


def game_from_rules(env: MayaQuarry, s: MayaQuarryState) -> Game:
    """The :class:`~.tables.Game` of rules state ``s`` (a state of ``env.rules``)."""
    t, n = env.tables, env.tables.n
    col_seat = np.full((t.num_quarries, t.slots), -1, np.int32)
    col_card = np.full((t.num_quarries, t.slots), -1, np.int32)
    for q, column in enumerate(s.columns):
        for i, (seat, card) in enumerate(column):
            col_seat[q, i], col_card[q, i] = seat, card
    choosers = np.full(n, -1, np.int32)
    choosers[: len(s.choosers)] = s.choosers
    ints = {name: jnp.int32(getattr(s, name)) for name in SCALAR_FIELDS}
    return Game(
        **ints,
        gold=jnp.asarray(s.gold, jnp.int32),
        pool=jnp.asarray(s.pool, jnp.int32),
        held=jnp.asarray(s.held, jnp.int32),
        board=jnp.asarray(s.board, jnp.int32).reshape(t.num_pyramids, A.MAX_LEVELS, n),
        hands=jnp.asarray(s.hands, jnp.int32).reshape(n, A.NUM_CARD_TYPES),
        passed=jnp.asarray(s.passed, bool),
        col_seat=jnp.asarray(col_seat),
        col_card=jnp.asarray(col_card),
        deduct=jnp.asarray(s.deduct, jnp.int32),
        pending=jnp.asarray([seat in s.pending for seat in range(n)]),
        holder=jnp.asarray(s.holder, jnp.int32),
        ever_full=jnp.asarray(s.ever_full, bool).reshape(t.num_pyramids, A.MAX_LEVELS),
        bids=jnp.asarray(s.bids or [-1] * n, jnp.int32),
        blue_offer=jnp.asarray([m in s.blue_offer for m in range(A.NUM_BLUE)]),
        blue_holder=jnp.asarray(s.blue_holder, jnp.int32),
        choosers=jnp.asarray(choosers),
    )


def state_from_rules(env: MayaQuarry, s: MayaQuarryState) -> State:
    """The Pgx state of rules state ``s`` with its mask, flags and the current player's
    observation; rewards zero. ``s`` must be a state between decisions (as the rules hand out)."""
    return env._from_game(game_from_rules(env, s))


__all__ = ["game_from_rules", "state_from_rules", "state_to_rules"]
