"""Advanced variant: the sealed-bid auction of the blue markers (seed "Variation for Advanced
Players"; rules file section 5, "Advanced variant").

* Before each round (after setup in round 1), ``n - 1`` of the four blue markers are on offer
  (all four at 5 players; otherwise drawn without replacement from the env's generator).
* Every seat bids ``0 .. min(gold, MAX_BID)`` once, sealed (collected one seat at a time from
  the start player; no seat sees another's bid before all are in).
* Bid order: highest bid first; equal bids in clockwise order from the start player.
* The last seat in bid order (the lowest bidder) gets no marker and pays nothing; seats that bid
  0 get no marker and pay nothing; every other seat pays its bid to the bank and picks one
  marker still on offer, in bid order. Markers nobody takes stay out for the round.

The variant's decisions (legal actions and their effect, ``(rules, state, seat[, action,
rng])`` as the engine's handler table calls them): BID, BLUE_CHOICE, and the blue markers used
when everyone has passed, read here only: PLUS2_CHOICE (BLUE_PLUS_2_QUARRY_POINTS, whose points
count in :func:`.quarry.base_scores`) and JOKER_CHOICE (BLUE_JOKER; the green marker it acts as
is then read where that green marker is). BLUE_TRANSPORT_PLUS_4 and BLUE_EXTRA_BLOCK act at
transport (:func:`.quarry.transport`).

Pure: standard library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import maya_envs.maya_quarry.actions as A
from maya_envs.maya_quarry.rules import quarry
from maya_envs.maya_quarry.rules.config import BLUE_JOKER, BLUE_PLUS_2, FREE_BLOCK, PROTECT, RELOCATE
from maya_envs.maya_quarry.rules.flow import Flow
from maya_envs.maya_quarry.rules.state import (
    BLUE_CHOICE,
    FREE_BLOCK_CHOICE,
    PROTECT_CHOICE,
    RELOCATE_SRC,
    MayaQuarryState,
)

if TYPE_CHECKING:
    import numpy as np


def bid_order(bids: list[int], start: int) -> list[int]:
    """Seats by bid, highest first; ties in clockwise order from ``start``.

    Args:
        bids: per seat, a bid >= 0.
        start: the start player's seat.

    Raises:
        ValueError: a bid is negative (not every bid is in).
    """
    n = len(bids)
    if any(b < 0 for b in bids):
        raise ValueError(f"bid_order needs every bid (>= 0), got {bids!r}")
    return sorted(range(n), key=lambda seat: (-bids[seat], (seat - start) % n))


def winners_in_order(bids: list[int], start: int) -> list[int]:
    """Seats that pay and pick a marker, in picking order: everyone in :func:`bid_order` except
    its last seat (the lowest bidder) and seats that bid 0."""
    order = bid_order(bids, start)
    return [seat for seat in order[:-1] if bids[seat] > 0]


def resolve(state: MayaQuarryState) -> list[int]:
    """Charge the auction's winners their bids and queue them to pick (mutates ``state``).

    Returns:
        The winners in picking order (also stored as ``state.choosers``).
    """
    choosers = winners_in_order(state.bids, state.start)
    for seat in choosers:
        state.gold[seat] -= state.bids[seat]
    state.choosers = list(choosers)
    return choosers


# -- the variant's decisions (handlers of the engine's table) --------------------------------


def bid_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """BID: ``0 .. min(gold, MAX_BID)``."""
    return [A.BID_BASE + b for b in range(min(s.gold[seat], A.MAX_BID) + 1)]


def bid_apply(rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
    s.bids[seat] = action - A.BID_BASE
    nxt = rules.next_seat(s, lambda t: s.bids[t] < 0)
    if nxt >= 0:
        s.turn = s.actor = nxt
    elif resolve(s):
        s.phase, s.actor = BLUE_CHOICE, s.choosers[0]
    else:
        rules.begin_placement(s)


def blue_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """BLUE_CHOICE: a blue marker on offer that nobody picked yet."""
    return [A.BLUE_CHOOSE_BASE + m for m in s.blue_offer if s.blue_holder[m] < 0]


def blue_apply(rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
    s.blue_holder[action - A.BLUE_CHOOSE_BASE] = seat
    s.choosers.pop(0)
    if s.choosers:
        s.actor = s.choosers[0]
    else:
        rules.begin_placement(s)


def plus2_quarries(rules: Flow, s: MayaQuarryState) -> list[int]:
    """Quarries that may take BLUE_PLUS_2_QUARRY_POINTS (all unrevealed at that moment)."""
    if rules.config.plus2_empty_quarry:
        return list(range(rules.num_quarries))
    return [q for q in range(rules.num_quarries) if s.columns[q]]


def plus2_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """PLUS2_CHOICE: a quarry for the +2 points, or decline."""
    return [A.PLUS2_BASE + q for q in plus2_quarries(rules, s)] + [A.PLUS2_DECLINE]


def plus2_apply(rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
    s.blue_holder[BLUE_PLUS_2] = -1
    if action != A.PLUS2_DECLINE:
        s.plus2_q, s.plus2_seat = action - A.PLUS2_BASE, seat
    rules.after_plus2(s, rng)


def joker_usable(rules: Flow, s: MayaQuarryState, seat: int, green: int) -> bool:
    """Whether the joker acting as ``green`` can take effect now (start of the reveal)."""
    if green == PROTECT:
        return any(s.columns)
    if green == RELOCATE:
        return bool(quarry.relocate_sources(s, rules.components, rules.config, seat))
    if green == FREE_BLOCK:
        return quarry.free_block_usable(s, rules.components, rules.config, seat)
    return True  # TRANSPORT_PLUS_2, FREE_PASS, FREE_DOUBLE_MOVE: held for later


def joker_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """JOKER_CHOICE: a green marker (not FIRST_PLAYER) that can take effect, or decline."""
    usable = [A.JOKER_BASE + i for i, green in enumerate(A.JOKER_GREEN) if joker_usable(rules, s, seat, green)]
    return usable + [A.JOKER_DECLINE]


def joker_apply(rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
    s.blue_holder[BLUE_JOKER] = -1
    if action == A.JOKER_DECLINE:
        rules.reveal_next(s, rng)
        return
    green = A.JOKER_GREEN[action - A.JOKER_BASE]
    s.joker_seat, s.joker_as = seat, green
    if green == PROTECT:
        s.phase = PROTECT_CHOICE
    elif green in (RELOCATE, FREE_BLOCK):  # acts at once (its decisions follow)
        s.joker_seat = s.joker_as = -1
        s.phase = RELOCATE_SRC if green == RELOCATE else FREE_BLOCK_CHOICE
    else:  # TRANSPORT_PLUS_2, FREE_PASS, FREE_DOUBLE_MOVE: held for later this round
        rules.reveal_next(s, rng)
