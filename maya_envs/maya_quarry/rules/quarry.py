"""Phase 1, quarrying: worker placement, quarry distribution, transport (seed "Phase 1").

* Worker placement: in turn order from the start player, one card face down at a quarry below
  its ``max_cards``, or a permanent pass. The first card at a quarry must be low (3, 4, 4, 5).
* Distribution, right to left: a seat's score is the sum of its positive cards (a -3 adds 0).
  Each -3 owner, in turn order from the start player, may take 3 points off another seat with
  cards in that quarry that is not protected there (``minus3_no_target``: "no target" is also
  allowed). Seats with score <= 0 take no rank; ranks by score, ties to the earlier first card.
  Rank ``i`` takes ``ranks[i]`` blocks from its own pool (``pool_shortfall``). Rank 1 takes the
  quarry's marker.
* Transport: keep at most the sum of the unplayed cards (-3 counts 0), +2 with
  TRANSPORT_PLUS_2 (or the joker acting as it), +4 with BLUE_TRANSPORT_PLUS_4; the surplus goes
  back to the pool. Then the BLUE_EXTRA_BLOCK holder takes one more block from its pool, which
  needs no transport (seed, advanced variant).
* Advanced variant: BLUE_PLUS_2_QUARRY_POINTS adds 2 to its holder's score at the quarry where
  it lies; a holder with no card there joins that quarry after every card placer (ties go to
  the earlier first card, so it loses ties there) and can be a -3 target there. The joker
  acting as PROTECT_FROM_MINUS3 protects its holder at its quarry like the green marker.

Pure: standard library only.
"""

from __future__ import annotations

from maya_envs.maya_quarry.actions import CARD_IS_LOW, CARD_VALUES, MINUS3_CARD, NUM_CARD_TYPES, worker_id
from maya_envs.maya_quarry.rules.config import (
    BLUE_EXTRA_BLOCK,
    BLUE_TRANSPORT_PLUS_4,
    TRANSPORT_PLUS_2,
    Components,
    MayaQuarryConfig,
)
from maya_envs.maya_quarry.rules.state import MayaQuarryState

MINUS3_POINTS = 3
TRANSPORT_BONUS = 2
BLUE_TRANSPORT_BONUS = 4
PLUS2_POINTS = 2


def worker_actions(state: MayaQuarryState, comp: Components, seat: int) -> list[int]:
    """Legal card placements of ``seat`` (ids, sorted), without the pass."""
    hand = state.hand(seat)
    out = []
    for q, quarry in enumerate(comp.quarries):
        column = state.columns[q]
        if len(column) >= quarry.max_cards:
            continue
        for card in range(NUM_CARD_TYPES):
            if hand[card] and (column or CARD_IS_LOW[card]):
                out.append(worker_id(q, card))
    return out


def base_scores(state: MayaQuarryState, quarry: int) -> list[int]:
    """Sum of each seat's positive cards at ``quarry`` (before -3 deductions), plus the
    BLUE_PLUS_2_QUARRY_POINTS marker's 2 points if it lies there."""
    scores = [0] * state.num_players
    for seat, card in state.columns[quarry]:
        if CARD_VALUES[card] > 0:
            scores[seat] += CARD_VALUES[card]
    if state.plus2_q == quarry:
        scores[state.plus2_seat] += PLUS2_POINTS
    return scores


def participants(state: MayaQuarryState, quarry: int) -> list[int]:
    """Seats present at ``quarry`` in the order of their first card; the +2 marker's holder
    without a card there comes last."""
    seen: list[int] = []
    for seat, _card in state.columns[quarry]:
        if seat not in seen:
            seen.append(seat)
    if state.plus2_q == quarry and state.plus2_seat not in seen:
        seen.append(state.plus2_seat)
    return seen


def is_protected(state: MayaQuarryState, quarry: int, seat: int) -> bool:
    """Whether ``seat`` is protected from -3 cards at ``quarry`` (the green marker or the joker)."""
    return (state.protect_q == quarry and state.protect_seat == seat) or (
        state.joker_protect_q == quarry and state.joker_seat == seat
    )


def minus3_owners(state: MayaQuarryState, quarry: int) -> list[int]:
    """Owners of a -3 at ``quarry`` in turn order from the start player."""
    owners = {seat for seat, card in state.columns[quarry] if card == MINUS3_CARD}
    n = state.num_players
    return [(state.start + k) % n for k in range(n) if (state.start + k) % n in owners]


def minus3_targets(state: MayaQuarryState, quarry: int, chooser: int) -> list[int]:
    """Seats ``chooser`` may take 3 points from at ``quarry`` (sorted by relative offset)."""
    present = set(participants(state, quarry))
    n = state.num_players
    out = []
    for k in range(1, n):
        target = (chooser + k) % n
        if target in present and not is_protected(state, quarry, target):
            out.append(target)
    return out


def ranking(state: MayaQuarryState, quarry: int) -> list[int]:
    """Seats that take a rank at ``quarry`` (score after deductions > 0), best first."""
    scores = base_scores(state, quarry)
    order = participants(state, quarry)
    final = {seat: scores[seat] - state.deduct[seat] for seat in order}
    ranked = [seat for seat in order if final[seat] > 0]
    # Stable sort keeps the first-card order for ties.
    ranked.sort(key=lambda seat: -final[seat])
    return ranked


def distribute(state: MayaQuarryState, comp: Components, cfg: MayaQuarryConfig, quarry: int) -> int:
    """Hand out ``quarry``'s blocks (mutates ``state``); returns the rank-1 seat or ``-1``."""
    ranked = ranking(state, quarry)
    ranks = comp.quarries[quarry].ranks
    for place, seat in enumerate(ranked[: len(ranks)]):
        want = ranks[place]
        got = min(want, state.pool[seat])
        if got < want and cfg.pool_shortfall == "nothing":
            got = 0
        state.pool[seat] -= got
        state.held[seat] += got
    return ranked[0] if ranked else -1


def transport_capacity(state: MayaQuarryState, seat: int) -> int:
    """Blocks ``seat`` can transport: points on unplayed cards (-3 counts 0), +2 with
    TRANSPORT_PLUS_2, +2 more with the joker acting as it, +4 with BLUE_TRANSPORT_PLUS_4."""
    hand = state.hand(seat)
    points = sum(count * max(value, 0) for count, value in zip(hand, CARD_VALUES, strict=True))
    if state.holder[TRANSPORT_PLUS_2] == seat:
        points += TRANSPORT_BONUS
    if state.joker_seat == seat and state.joker_as == TRANSPORT_PLUS_2:
        points += TRANSPORT_BONUS
    if state.blue_holder[BLUE_TRANSPORT_PLUS_4] == seat:
        points += BLUE_TRANSPORT_BONUS
    return points


def transport(state: MayaQuarryState) -> None:
    """Return each seat's surplus blocks to its pool, then give the BLUE_EXTRA_BLOCK holder one
    block from its pool outside the capacity (mutates ``state``; the transport markers are
    spent)."""
    for seat in range(state.num_players):
        keep = min(state.held[seat], transport_capacity(state, seat))
        state.pool[seat] += state.held[seat] - keep
        state.held[seat] = keep
    extra = state.blue_holder[BLUE_EXTRA_BLOCK]
    if extra >= 0 and state.pool[extra] > 0:
        state.pool[extra] -= 1
        state.held[extra] += 1
    state.holder[TRANSPORT_PLUS_2] = -1
    state.blue_holder[BLUE_TRANSPORT_PLUS_4] = state.blue_holder[BLUE_EXTRA_BLOCK] = -1
    if state.joker_as == TRANSPORT_PLUS_2:
        state.joker_as = state.joker_seat = -1
