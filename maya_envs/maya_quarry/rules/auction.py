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

Pure: standard library only.
"""

from __future__ import annotations

from maya_envs.maya_quarry.rules.state import MayaQuarryState


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
