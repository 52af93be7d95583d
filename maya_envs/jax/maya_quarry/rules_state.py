"""A JAX quarry state back to the rules engine's state (:func:`state_to_rules`); the way there
is :mod:`.convert`. Apart from the env module, so that ``State.to_svg`` can use it."""

from __future__ import annotations

import jax
import numpy as np

from maya_envs.jax.pgx_state import GameState
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules import MayaQuarryState

SCALAR_FIELDS = (
    "round", "phase", "start", "turn", "actor", "resolving", "protect_q", "protect_seat", "reloc_src",
    "double_left", "plus2_q", "plus2_seat", "joker_seat", "joker_as", "joker_protect_q",
)  # fmt: skip
"""The rules state's int fields that the JAX state holds as scalars of the same name (both ways)."""


def state_to_rules(state: GameState, row: int | None = None) -> MayaQuarryState:
    """The rules state of one Pgx state, or of game ``row`` of a batched one (fetch a batch once
    with ``jax.device_get`` when converting many rows)."""
    x = jax.tree_util.tree_map(np.asarray, state._x)
    if row is not None:
        x = jax.tree_util.tree_map(lambda v: v[row], x)
    n = x.gold.shape[0]
    start = int(x.start)
    columns = [
        [(int(a), int(c)) for a, c in zip(seats, cards, strict=True) if a >= 0]
        for seats, cards in zip(x.col_seat, x.col_card, strict=True)
    ]
    ints = {name: int(getattr(x, name)) for name in SCALAR_FIELDS}
    return MayaQuarryState(
        num_players=n,
        **ints,
        gold=x.gold.tolist(),
        pool=x.pool.tolist(),
        held=x.held.tolist(),
        board=x.board.reshape(-1).tolist(),
        hands=x.hands.reshape(-1).tolist(),
        passed=[bool(v) for v in x.passed],
        columns=columns,
        deduct=x.deduct.tolist(),
        pending=[(start + k) % n for k in range(n) if x.pending[(start + k) % n]],
        holder=x.holder.tolist(),
        ever_full=[bool(v) for v in x.ever_full.reshape(-1)],
        bids=x.bids.tolist(),
        blue_offer=[m for m in range(A.NUM_BLUE) if x.blue_offer[m]],
        blue_holder=x.blue_holder.tolist(),
        choosers=[int(c) for c in x.choosers if c >= 0],
    )
