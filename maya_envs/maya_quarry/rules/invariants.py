"""What every state of Maya (Abacusspiele 2003) that the rules reach keeps true: the one check
a loaded state must pass (:func:`check_invariants`, called by
:func:`maya_envs.maya_quarry.rules.serialize.from_dict` once each field has its type and range).

A state that passes can be played to the end: the seat to move has a legal action, no count
leaves the range the rules and the observation (``Box(0, 1)``) assume, and each phase holds
only what that phase can hold. The invariants (``n`` seats, ``Q`` quarries):

* **Conserved counts.** Per seat: blocks in the pool + held + on the board = the table's
  ``blocks_per_color``; per seat and card type: cards in hand + cards in the quarry columns =
  the copies owned (:data:`~maya_envs.maya_quarry.actions.CARD_COUNTS`). A column holds at most
  its quarry's ``max_cards``, its first card is low; a pyramid level holds at most its spaces
  and no blocks above the pyramid's height; a level that is full now has ``ever_full`` set.
* **Phase and reveal.** ``resolving`` is ``Q`` before the reveal (setup, auction, worker
  placement, the +2 points and the joker), a quarry being resolved during it (``Q`` again for
  the joker's own PROTECT/RELOCATE/FREE_BLOCK decisions), ``-1`` after transport (building,
  over). Nobody has passed before worker placement, the seat to place a card has not passed,
  and everyone has passed after it. The cyclic phases (setup, bid, workers, building) have
  ``actor == turn``; ``actor`` is ``-1`` exactly when the game is over (in round 3).
* **What a phase holds.** ``pending`` (the -3 owners still to choose, a suffix of those with a
  target, in turn order from the start player) only in ``minus3``; ``reloc_src`` (a source the
  actor may move) only in ``relocate_dst``; ``double_left`` (1 or 2) only in ``double``;
  ``choosers`` (a suffix of the auction's winners) only in ``blue_choice``; -3 deductions
  (multiples of 3, at most 3 per -3 card there) and the PROTECT marker only while a quarry is
  resolved; the +2 points and the joker's protection only during the reveal. The decision of
  a green marker is its quarry's marker and belongs to that quarry's rank 1. A green marker is
  held only after its quarry was revealed, and only the three kept ones (TRANSPORT_PLUS_2, the
  last until transport; FREE_PASS, FREE_DOUBLE_MOVE). A seat to build holds a block.
* **Advanced variant.** No bid before the auction (setup), the bids made so far in ``bid``
  are those of the seats from the start player on, each at most the bidder's gold; every bid
  is in after the auction, and ``n - 1`` sorted blue markers (all four at 5 players) are on
  offer; a blue marker is held only after the bids, by an auction winner (one each), from the
  offer; the joker acts as a marker only once chosen (``joker_seat`` and ``joker_as`` set
  together). The basic game keeps every advanced field neutral.
* **A live state has a move**: the seat to move has at least one legal action.

Raises :class:`~maya_envs.core.errors.StateError` naming the first field that breaks one.

In the rules package for the reason :mod:`maya_envs.maya_quarry.rules.serialize` gives;
:mod:`maya_envs.maya_quarry.invariants` keeps the path every game has.

Pure: standard library only.
"""

from __future__ import annotations

from typing import Any

from maya_envs.core.errors import StateError
from maya_envs.maya_quarry.actions import CARD_COUNTS, CARD_IS_LOW, MAX_LEVELS, MINUS3_CARD, NUM_BLUE, NUM_CARD_TYPES
from maya_envs.maya_quarry.rules import auction, quarry
from maya_envs.maya_quarry.rules import config as C
from maya_envs.maya_quarry.rules.building import level_total
from maya_envs.maya_quarry.rules.state import ADVANCED_NEUTRAL, NUM_ROUNDS, PHASE_NAMES, MayaQuarryState, Phase

BEFORE_REVEAL = (Phase.SETUP, Phase.BID, Phase.BLUE_CHOICE, Phase.WORKERS, Phase.PLUS2_CHOICE, Phase.JOKER_CHOICE)
"""Phases before the first quarry is revealed (``resolving == Q``)."""
AFTER_TRANSPORT = (Phase.BUILD, Phase.DOUBLE, Phase.OVER)
"""Phases after transport (``resolving == -1``)."""
MARKER_PHASES = {Phase.PROTECT_CHOICE: C.PROTECT, Phase.RELOCATE_SRC: C.RELOCATE, Phase.RELOCATE_DST: C.RELOCATE,
                 Phase.FREE_BLOCK_CHOICE: C.FREE_BLOCK, Phase.APPOINT: C.FIRST_PLAYER}  # fmt: skip
"""The green marker whose decision each phase is."""
KEPT_GREEN = (C.TRANSPORT_PLUS_2, C.FREE_PASS, C.FREE_DOUBLE)
"""The green markers a seat holds for later in the round (the others act at once)."""
CYCLIC = (Phase.SETUP, Phase.BID, Phase.WORKERS, Phase.BUILD, Phase.DOUBLE)
"""Phases whose decision is the seat whose ``turn`` it is."""


def check_invariants(state: MayaQuarryState, rules: Any) -> None:
    """Raise unless ``state`` keeps every invariant of the module docstring under ``rules``
    (a :class:`~maya_envs.maya_quarry.rules.MayaQuarryRules`).

    Raises:
        StateError: the first broken invariant; ``field`` names the state field.
    """
    _check_counts(state, rules)
    _check_phase(state, rules)
    _check_reveal(state, rules)
    _check_variant(state, rules)
    if state.phase != Phase.OVER and not rules.legal_actions(state):
        raise StateError("phase", f"{PHASE_NAMES[state.phase]!r} leaves seat {state.actor} without a legal action")


def _check_counts(s: MayaQuarryState, rules: Any) -> None:
    n, comp = rules.num_players, rules.components
    for seat in range(n):
        total = s.pool[seat] + s.held[seat] + sum(s.board[seat::n])
        if total != comp.blocks_per_color:
            raise StateError("pool/held/board", f"seat {seat} has {total} blocks, expected {comp.blocks_per_color}")
    for q, column in enumerate(s.columns):
        limit = comp.quarries[q].max_cards
        if len(column) > limit:
            raise StateError(f"columns[{q}]", f"{len(column)} cards; the quarry takes at most {limit}")
        if column and not CARD_IS_LOW[column[0][1]]:
            raise StateError(f"columns[{q}][0].card", f"the first card at a quarry is low, got type {column[0][1]}")
    placed = [0] * (n * NUM_CARD_TYPES)
    for column in s.columns:
        for seat, card in column:
            placed[seat * NUM_CARD_TYPES + card] += 1
    for index, (in_hand, out) in enumerate(zip(s.hands, placed, strict=True)):
        owned = CARD_COUNTS[index % NUM_CARD_TYPES]
        if in_hand + out != owned:
            seat, card = divmod(index, NUM_CARD_TYPES)
            raise StateError(
                f"hands[{index}]",
                f"seat {seat} has {in_hand} of card type {card} in hand and {out} in the quarries; it owns {owned}",
            )
    for p in range(rules.num_pyramids):
        levels = comp.pyramids[p].levels
        for level in range(MAX_LEVELS):
            flat = p * MAX_LEVELS + level
            total = level_total(s, p, level)
            spaces = levels[level][0] if level < len(levels) else 0
            if total > spaces:
                raise StateError(
                    f"board[{flat * n}]", f"pyramid {p} level {level + 1} holds {total} blocks, it has {spaces} spaces"
                )
            if level < len(levels) and total == spaces and not s.ever_full[flat]:
                raise StateError(f"ever_full[{flat}]", f"pyramid {p} level {level + 1} is full but not marked full")
            if level >= len(levels) and s.ever_full[flat]:
                raise StateError(f"ever_full[{flat}]", f"pyramid {p} has no level {level + 1}")


def _check_phase(s: MayaQuarryState, rules: Any) -> None:
    n, phase = rules.num_players, s.phase
    name = PHASE_NAMES[phase]
    if (phase == Phase.OVER) != (s.actor < 0):
        raise StateError("actor", f"{s.actor} in phase {name!r}: -1 exactly when the game is over")
    if phase == Phase.OVER and s.round != NUM_ROUNDS - 1:
        raise StateError("round", f"the game ends after round {NUM_ROUNDS}, got round {s.round + 1}")
    if phase in CYCLIC and s.actor != s.turn:
        raise StateError("actor", f"{s.actor} in phase {name!r}, whose decision is the turn's seat {s.turn}")
    if phase == Phase.SETUP:
        level1 = [s.board[p * MAX_LEVELS * n : (p * MAX_LEVELS + 1) * n] for p in range(rules.num_pyramids)]
        if s.round or sum(map(sum, level1)) != sum(s.board) or any(c > 1 for counts in level1 for c in counts):
            raise StateError("board", "setup places at most one block per seat on level 1 of each pyramid, in round 1")
    if phase in (Phase.SETUP, Phase.BID, Phase.BLUE_CHOICE):
        passed, want = any(s.passed), "nobody"
    elif phase == Phase.WORKERS:
        passed, want = all(s.passed) or s.passed[s.actor], "the seat to place a card has not (nor everyone)"
    else:
        passed, want = not all(s.passed), "everyone"
    if passed:
        raise StateError("passed", f"{s.passed} in phase {name!r}: {want} passed")
    if phase in (Phase.SETUP, Phase.BID, Phase.BLUE_CHOICE) and any(s.columns):
        raise StateError("columns", f"cards placed before worker placement (phase {name!r})")
    if phase in (Phase.BUILD, Phase.DOUBLE) and s.held[s.actor] <= 0:
        raise StateError("held", f"seat {s.actor} builds without a block")
    for field, value, neutral, home in (
        ("pending", s.pending, [], Phase.MINUS3),
        ("reloc_src", s.reloc_src, -1, Phase.RELOCATE_DST),
        ("double_left", s.double_left, 0, Phase.DOUBLE),
        ("choosers", s.choosers, [], Phase.BLUE_CHOICE),
    ):
        if (value != neutral) != (phase == home):
            raise StateError(field, f"{value!r} in phase {name!r}; set exactly in phase {PHASE_NAMES[home]!r}")
    if phase == Phase.RELOCATE_DST and divmod(s.reloc_src, MAX_LEVELS) not in quarry.relocate_sources(
        s, rules.components, rules.config, s.actor
    ):
        raise StateError("reloc_src", f"{s.reloc_src} is not a block seat {s.actor} may relocate")


def _check_reveal(s: MayaQuarryState, rules: Any) -> None:
    nq, phase, name = rules.num_quarries, s.phase, PHASE_NAMES[s.phase]
    q = s.resolving
    if phase in BEFORE_REVEAL:
        allowed = (nq,)
    elif phase in AFTER_TRANSPORT:
        allowed = (-1,)
    elif phase in (Phase.MINUS3, Phase.APPOINT):
        allowed = tuple(range(nq))
    else:
        allowed = tuple(range(nq + 1))
    if q not in allowed:
        raise StateError("resolving", f"{q} in phase {name!r}; allowed: {list(allowed)}")
    resolving = 0 <= q < nq
    if q != nq and q >= 0 and not s.columns[q] and s.plus2_q != q:
        raise StateError("resolving", f"quarry {q} is resolved without a card or the +2 points there")
    for q_marker, quarry_table in enumerate(rules.components.quarries):
        marker = quarry_table.marker
        if marker >= 0 and s.holder[marker] >= 0 and not (marker in KEPT_GREEN and 0 <= q <= q_marker or q < 0):
            raise StateError(f"holder[{marker}]", f"held before quarry {q_marker} (its marker's) was revealed")
    for marker, seat in enumerate(s.holder):
        if seat >= 0 and marker not in {t.marker for t in rules.components.quarries} & set(KEPT_GREEN):
            raise StateError(f"holder[{marker}]", f"green marker {marker} is never held")
    if s.holder[C.TRANSPORT_PLUS_2] >= 0 and q < 0:
        raise StateError(f"holder[{C.TRANSPORT_PLUS_2}]", "TRANSPORT_PLUS_2 is spent at transport")
    deductions = sum(s.deduct)
    minus3 = sum(card == MINUS3_CARD for _seat, card in s.columns[q]) if resolving else 0
    if any(d % quarry.MINUS3_POINTS for d in s.deduct) or deductions > quarry.MINUS3_POINTS * minus3:
        raise StateError("deduct", f"{s.deduct}: multiples of 3, at most 3 per -3 card in the quarry being resolved")
    if (s.protect_q < 0) != (s.protect_seat < 0):
        raise StateError("protect_q", f"protect_q={s.protect_q}, protect_seat={s.protect_seat}: both set or both -1")
    if s.protect_q >= 0:
        home = next((i for i, t in enumerate(rules.components.quarries) if t.marker == C.PROTECT), -1)
        if not (resolving and s.protect_q < home and q <= home and s.columns[s.protect_q]):
            raise StateError("protect_q", f"{s.protect_q}: PROTECT lies on a quarry with cards, left of its own")
    if phase == Phase.MINUS3:
        expected = [
            o for o in quarry.minus3_owners(s, q) if quarry.minus3_targets(s, q, o, rules.config.minus3_targets)
        ]
        if s.pending != expected[len(expected) - len(s.pending) :] or s.pending[0] != s.actor:
            raise StateError("pending", f"{s.pending}; the -3 owners with a target at quarry {q} are {expected}, "
                             f"the first of the rest is the actor ({s.actor})")  # fmt: skip
    if phase in MARKER_PHASES:
        if q < nq:
            marker = rules.components.quarries[q].marker
            ranked = quarry.ranking(s, q)
            if marker != MARKER_PHASES[phase] or not ranked or ranked[0] != s.actor:
                raise StateError(
                    "phase",
                    f"{name!r} while quarry {q} (marker {marker}) is resolved, for seat {s.actor}; ranks {ranked}",
                )
        elif phase == Phase.PROTECT_CHOICE and (
            s.joker_as != C.PROTECT or s.joker_seat != s.actor or s.joker_protect_q >= 0
        ):
            raise StateError("joker_as", f"{name!r} before the reveal is the joker's PROTECT for its seat")
        elif phase != Phase.PROTECT_CHOICE and (s.joker_as >= 0 or s.blue_holder[C.BLUE_JOKER] >= 0):
            raise StateError("joker_as", f"{name!r} before the reveal follows the joker, which is then spent")


def _check_variant(s: MayaQuarryState, rules: Any) -> None:
    n, nq, phase = rules.num_players, rules.num_quarries, s.phase
    if not rules.advanced:
        neutral = {**ADVANCED_NEUTRAL, "bids": [-1] * n}
        for key, expected in neutral.items():
            if getattr(s, key) != expected:
                raise StateError(
                    key, f"{getattr(s, key)!r} is set, but these rules play the basic game (expected {expected!r})"
                )
        return
    if phase == Phase.SETUP:
        if s.bids != [-1] * n or s.blue_offer or s.blue_holder != [-1] * NUM_BLUE:
            raise StateError("bids", "no auction before setup ends: bids all -1, no blue marker on offer or held")
    else:
        if s.blue_offer != sorted(set(s.blue_offer)) or len(s.blue_offer) != min(n - 1, NUM_BLUE):
            raise StateError("blue_offer", f"{s.blue_offer}: {min(n - 1, NUM_BLUE)} sorted distinct blue markers")
        made = [(s.start + k) % n for k in range(n) if s.bids[(s.start + k) % n] >= 0]
        if phase == Phase.BID:
            expected = [(s.start + k) % n for k in range((s.turn - s.start) % n)]
            if made != expected:
                raise StateError("bids", f"{s.bids}: the seats before {s.turn} from the start player {s.start} bid")
            for seat in made:
                if s.bids[seat] > s.gold[seat]:
                    raise StateError(f"bids[{seat}]", f"{s.bids[seat]} exceeds the seat's gold {s.gold[seat]}")
        elif len(made) != n:
            raise StateError("bids", f"{s.bids}: every bid is in after the auction")
    winners = auction.winners_in_order(s.bids, s.start) if phase not in (Phase.SETUP, Phase.BID) else []
    if phase == Phase.BLUE_CHOICE and (
        s.choosers != winners[len(winners) - len(s.choosers) :] or s.choosers[0] != s.actor
    ):
        raise StateError("choosers", f"{s.choosers}; the auction's winners are {winners}, the actor {s.actor} first")
    held = [seat for seat in s.blue_holder if seat >= 0]
    for marker, seat in enumerate(s.blue_holder):
        # the start player (the tie-break of equal bids) may change after the auction, the bids do not
        won = (
            seat in winners
            if phase == Phase.BLUE_CHOICE
            else s.bids[seat] > 0 and phase not in (Phase.SETUP, Phase.BID)
        )
        if seat >= 0 and (not won or marker not in s.blue_offer or seat in s.choosers or held.count(seat) > 1):
            raise StateError(f"blue_holder[{marker}]", f"seat {seat} holds it without having won it this round")
    if phase in (Phase.SETUP, Phase.BID, Phase.BLUE_CHOICE, Phase.WORKERS) and s.plus2_q >= 0:
        raise StateError("plus2_q", f"the +2 points are placed after worker placement, not in {PHASE_NAMES[phase]!r}")
    if phase in BEFORE_REVEAL:
        acts_as: tuple[int, ...] = ()
    elif phase in AFTER_TRANSPORT:
        acts_as = (C.FREE_PASS, C.FREE_DOUBLE)
    else:
        acts_as = (C.PROTECT, *KEPT_GREEN)
    if s.joker_as not in (-1, *acts_as):
        raise StateError("joker_as", f"{s.joker_as} in phase {PHASE_NAMES[phase]!r}; allowed: {[-1, *acts_as]}")
    if (s.plus2_q < 0) != (s.plus2_seat < 0) or (s.plus2_q >= 0 and not 0 <= s.resolving <= nq):
        raise StateError("plus2_q", f"plus2_q={s.plus2_q}, plus2_seat={s.plus2_seat}: both set, during the reveal")
    if s.plus2_q >= 0 and phase == Phase.PLUS2_CHOICE:
        raise StateError("plus2_q", "the +2 points lie only once placed")
    if phase == Phase.PLUS2_CHOICE and s.blue_holder[C.BLUE_PLUS_2] != s.actor:
        raise StateError("blue_holder", f"seat {s.actor} places the +2 points without holding them")
    if phase == Phase.JOKER_CHOICE and s.blue_holder[C.BLUE_JOKER] != s.actor:
        raise StateError("blue_holder", f"seat {s.actor} chooses the joker without holding it")
    if (s.joker_seat < 0) != (s.joker_as < 0):
        raise StateError("joker_seat", f"joker_seat={s.joker_seat}, joker_as={s.joker_as}: both set or both -1")
    if s.joker_as >= 0 and s.blue_holder[C.BLUE_JOKER] >= 0:
        raise StateError("joker_as", "the joker acts only once its holder has used it")
    if s.joker_protect_q >= 0 and (s.joker_as != C.PROTECT or not s.columns[s.joker_protect_q] or s.resolving < 0):
        raise StateError("joker_protect_q", f"{s.joker_protect_q}: the joker as PROTECT lies on a quarry with cards")
