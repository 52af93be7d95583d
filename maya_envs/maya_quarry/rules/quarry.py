"""Phase 1, quarrying: worker placement, quarry distribution, transport (seed "Phase 1").

* Worker placement: in turn order from the start player, one card face down at a quarry below
  its ``max_cards``, or a permanent pass. The first card at a quarry must be low (3, 4, 4, 5).
* Distribution, right to left: a seat's score is the sum of its positive cards (a -3 adds 0).
  Each -3 owner, in turn order from the start player, may take 3 points off another seat with
  a score in that quarry (``minus3_targets="scored"``: a card there or the +2 marker;
  ``"card"``: a card there) that is not protected there (``minus3_no_target``: "no target" is
  also allowed). Seats with score <= 0 take no rank; ranks by score, ties to the earlier first card.
  Rank ``i`` takes ``ranks[i]`` blocks from its own pool (``pool_shortfall``). Rank 1 takes the
  quarry's marker.
* Transport: keep at most the sum of the unplayed cards (-3 counts 0), +2 with
  TRANSPORT_PLUS_2 (or the joker acting as it), +4 with BLUE_TRANSPORT_PLUS_4; the surplus goes
  back to the pool. Then the BLUE_EXTRA_BLOCK holder takes one more block from its pool, which
  needs no transport (seed, advanced variant).
* Advanced variant: BLUE_PLUS_2_QUARRY_POINTS adds 2 to its holder's score at the quarry where
  it lies; a holder with no card there joins that quarry after every card placer (ties go to
  the earlier first card, so it loses ties there) and can be a -3 target there (with the
  default ``minus3_targets="scored"``; not with ``"card"``). The joker
  acting as PROTECT_FROM_MINUS3 protects its holder at its quarry like the green marker.

The phase's decisions (legal actions and their effect, ``(rules, state, seat[, action, rng])``
as the engine's handler table calls them): WORKERS, MINUS3, and the green markers won at a
quarry, each read here only: PROTECT_CHOICE, RELOCATE_SRC/RELOCATE_DST, FREE_BLOCK_CHOICE and
APPOINT (FIRST_PLAYER); TRANSPORT_PLUS_2 acts in :func:`transport`. FREE_PASS and
FREE_DOUBLE_MOVE are kept for the building phase (:mod:`.building`).

Pure: standard library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import maya_envs.maya_quarry.actions as A
from maya_envs.maya_quarry.actions import CARD_IS_LOW, CARD_VALUES, MINUS3_CARD, NUM_CARD_TYPES, worker_id
from maya_envs.maya_quarry.rules import building
from maya_envs.maya_quarry.rules.config import (
    BLUE_EXTRA_BLOCK,
    BLUE_TRANSPORT_PLUS_4,
    FIRST_PLAYER,
    FREE_BLOCK,
    PROTECT,
    RELOCATE,
    TRANSPORT_PLUS_2,
    Components,
    MayaQuarryConfig,
)
from maya_envs.maya_quarry.rules.flow import Flow
from maya_envs.maya_quarry.rules.state import (
    APPOINT,
    FREE_BLOCK_CHOICE,
    PROTECT_CHOICE,
    RELOCATE_DST,
    RELOCATE_SRC,
    MayaQuarryState,
)

if TYPE_CHECKING:
    import numpy as np

MINUS3_POINTS = 3
TRANSPORT_BONUS = 2
BLUE_TRANSPORT_BONUS = 4
PLUS2_POINTS = 2


def worker_actions(state: MayaQuarryState, comp: Components, seat: int) -> list[int]:
    """Legal card placements of ``seat`` (ids, sorted), without the pass."""
    base = seat * NUM_CARD_TYPES
    hand = tuple(state.hands[base : base + NUM_CARD_TYPES])
    quarries = comp.quarries
    key = (len(quarries), hand)
    ids = _WORKER_IDS.get(key)
    if ids is None:
        ids = _WORKER_IDS[key] = _worker_ids(len(quarries), hand)
    any_card, low_card = ids
    out: list[int] = []
    for q, column in enumerate(state.columns):
        if len(column) < quarries[q].max_cards:
            out += any_card[q] if column else low_card[q]
    return out


def _worker_ids(num_quarries: int, hand: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Per quarry, the placement ids of the card types in ``hand``: any card (a quarry that
    holds cards) and low cards only (an empty quarry)."""
    cards = [t for t in range(NUM_CARD_TYPES) if hand[t]]
    low = [t for t in cards if CARD_IS_LOW[t]]
    return (
        [tuple(worker_id(q, t) for t in cards) for q in range(num_quarries)],
        [tuple(worker_id(q, t) for t in low) for q in range(num_quarries)],
    )


#: ``(number of quarries, hand) -> _worker_ids(...)``: at most 3 x 192 entries (the hands a
#: seat can hold: 2 x 3 x 2**5 per quarry count).
_WORKER_IDS: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[tuple[int, ...]]]] = {}


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


def minus3_targets(state: MayaQuarryState, quarry: int, chooser: int, reading: str) -> list[int]:
    """Seats ``chooser`` may take 3 points from at ``quarry`` (sorted by relative offset): the
    other seats present there that are not protected there, where ``reading`` (the
    ``minus3_targets`` option) says who is present: ``"scored"``, every seat with a score there
    (:func:`participants`: a card, or the +2 marker); ``"card"``, every seat with a card there."""
    if reading == "card":
        present = {seat for seat, _card in state.columns[quarry]}
    else:
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


# -- the phase's decisions (handlers of the engine's table) ----------------------------------


def workers_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """WORKERS: a card placement or the permanent pass."""
    return worker_actions(s, rules.components, seat) + [A.WORKER_PASS]


def workers_apply(rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
    if action == A.WORKER_PASS:
        s.passed[seat] = True
    else:
        q, card = divmod(action - A.WORKER_BASE, NUM_CARD_TYPES)
        s.hands[seat * NUM_CARD_TYPES + card] -= 1
        s.columns[q].append((seat, card))
    nxt = rules.next_seat(s, lambda t: not s.passed[t])
    if nxt < 0:
        rules.end_placement(s, rng)
    else:
        s.turn = s.actor = nxt


def minus3_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """MINUS3: a target by its offset after ``seat`` (``minus3_targets``), or no target
    (``minus3_no_target``)."""
    n = rules.num_players
    targets = minus3_targets(s, s.resolving, seat, rules.config.minus3_targets)
    out = [A.MINUS3_BASE + (t - seat) % n - 1 for t in targets]
    return out + [A.MINUS3_NONE] if rules.config.minus3_no_target else out


def minus3_apply(rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
    if action != A.MINUS3_NONE:
        s.deduct[(seat + action - A.MINUS3_BASE + 1) % rules.num_players] += MINUS3_POINTS
    s.pending.pop(0)
    if s.pending:
        s.actor = s.pending[0]
    else:
        rules.finish_quarry(s, rng)


def take_marker(rules: Flow, s: MayaQuarryState, winner: int, marker: int) -> bool:
    """Rank 1 at the quarry being resolved takes its green ``marker`` (mutates ``s``).

    Returns:
        Whether a decision of ``winner`` follows (``s.phase`` is then set): PROTECT while an
        unrevealed quarry holds cards, RELOCATE with a source, FREE_BLOCK when usable, and
        FIRST_PLAYER always. TRANSPORT_PLUS_2, FREE_PASS and FREE_DOUBLE_MOVE are kept.
    """
    s.actor = winner
    if marker == PROTECT:
        follow = PROTECT_CHOICE if any(s.columns[q] for q in range(s.resolving)) else -1
    elif marker == RELOCATE:
        follow = RELOCATE_SRC if relocate_sources(s, rules.components, rules.config, winner) else -1
    elif marker == FREE_BLOCK:
        follow = FREE_BLOCK_CHOICE if free_block_usable(s, rules.components, rules.config, winner) else -1
    elif marker == FIRST_PLAYER:
        follow = APPOINT
    else:  # TRANSPORT_PLUS_2, FREE_PASS, FREE_DOUBLE_MOVE: kept for later this round
        s.holder[marker] = winner
        follow = -1
    if follow >= 0:
        s.phase = follow
    return follow >= 0


def protect_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """PROTECT_CHOICE: an unrevealed quarry holding cards."""
    return [A.PROTECT_BASE + q for q in range(s.resolving) if s.columns[q]]


def protect_apply(rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
    if s.resolving == rules.num_quarries:  # the joker acting as PROTECT, before any reveal
        s.joker_protect_q = action - A.PROTECT_BASE
    else:
        s.protect_q, s.protect_seat = action - A.PROTECT_BASE, seat
    rules.reveal_next(s, rng)


def relocate_sources(s: MayaQuarryState, comp: Components, cfg: MayaQuarryConfig, seat: int) -> list[tuple[int, int]]:
    """RELOCATE_TO_LEVEL1 sources of ``seat``: ``(pyramid, level)`` holding its block, with a
    level-1 target, and (``relocate_unsupported="forbid"``) not its last block under another."""
    out = []
    for p, pyramid in enumerate(comp.pyramids):
        height = len(pyramid.levels)
        for level in range(height):
            count = s.count(p, level, seat)
            if count == 0:
                continue
            if cfg.relocate_unsupported == "forbid" and count == 1:
                if any(s.count(p, above, seat) for above in range(level + 1, height)):
                    continue
            if relocate_targets(s, comp, p, level):
                out.append((p, level))
    return out


def relocate_targets(s: MayaQuarryState, comp: Components, src_p: int, src_l: int) -> list[int]:
    """Pyramids whose level 1 has a free space (a level-1 source cannot go back to its own)."""
    return [
        p for p in range(len(comp.pyramids)) if not (src_l == 0 and p == src_p) and not building.is_full(s, comp, p, 0)
    ]


def relocate_src_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """RELOCATE_SRC: a source block, or decline."""
    sources = relocate_sources(s, rules.components, rules.config, seat)
    return [A.relocate_src_id(p, lv) for p, lv in sources] + [A.RELOCATE_DECLINE]


def relocate_src_apply(
    rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None
) -> None:
    if action == A.RELOCATE_DECLINE:
        rules.reveal_next(s, rng)
    else:
        s.reloc_src = action - A.RELOCATE_SRC_BASE
        s.phase = RELOCATE_DST


def relocate_dst_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """RELOCATE_DST: a level-1 target for the chosen source."""
    src_p, src_l = divmod(s.reloc_src, A.MAX_LEVELS)
    return [A.RELOCATE_DST_BASE + p for p in relocate_targets(s, rules.components, src_p, src_l)]


def relocate_dst_apply(
    rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None
) -> None:
    comp, cfg = rules.components, rules.config
    src_p = s.reloc_src // A.MAX_LEVELS
    s.board[s.reloc_src * rules.num_players + seat] -= 1
    if cfg.relocate_unsupported == "cascade":
        building.remove_unsupported(s, comp, seat, src_p)
    s.held[seat] += 1
    building.place_block(s, comp, cfg, seat, action - A.RELOCATE_DST_BASE, 0, special=True)
    s.reloc_src = -1
    rules.reveal_next(s, rng)


def free_block_usable(s: MayaQuarryState, comp: Components, cfg: MayaQuarryConfig, seat: int) -> bool:
    """FREE_BLOCK_FROM_POOL can act: ``seat`` has a pool block and a pyramid to put it on."""
    return s.pool[seat] > 0 and any(
        building.lowest_buildable_level(s, comp, cfg, seat, p) >= 0 for p in range(len(comp.pyramids))
    )


def free_block_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """FREE_BLOCK_CHOICE: a pyramid (the block goes to its lowest buildable level), or decline."""
    comp, cfg = rules.components, rules.config
    targets = [
        A.FREE_BLOCK_BASE + p
        for p in range(rules.num_pyramids)
        if building.lowest_buildable_level(s, comp, cfg, seat, p) >= 0
    ]
    return targets + [A.FREE_BLOCK_DECLINE]


def free_block_apply(rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
    if action != A.FREE_BLOCK_DECLINE:
        comp, cfg = rules.components, rules.config
        p = action - A.FREE_BLOCK_BASE
        level = building.lowest_buildable_level(s, comp, cfg, seat, p)
        building.place_block(s, comp, cfg, seat, p, level, from_pool=True, special=True)
    rules.reveal_next(s, rng)


def appoint_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """APPOINT (FIRST_PLAYER): any seat by its offset from ``seat`` (self allowed)."""
    return [A.APPOINT_BASE + k for k in range(rules.num_players)]


def appoint_apply(rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
    s.start = (seat + action - A.APPOINT_BASE) % rules.num_players
    rules.reveal_next(s, rng)
