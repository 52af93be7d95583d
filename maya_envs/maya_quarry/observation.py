"""Observation encoder of Maya (Abacusspiele 2003), from one seat's point of view.

A flat ``float32`` vector in ``[0, 1]``. Seats are *relative* to the observer (``rel 0`` = me,
``rel k`` = ``k`` seats clockwise). Sizes: ``n`` players, ``Q`` quarries, ``S`` = the largest
``max_cards``, ``P`` pyramids, ``H`` = the tallest pyramid's level count (all from the
component table; default 3p: 612 values, 4p: 774, 5p: 1,061; the advanced variant appends a
block, giving 3p: 679, 4p: 858, 5p: 1,164).

==========================  ==============  =================================================
slice (in order)            size            meaning
==========================  ==============  =================================================
phase                       11              one-hot of :data:`~.rules.state.PHASE_NAMES`
round                       3               one-hot, rounds 1-3
start player                n               one-hot, relative seat
actor                       n               one-hot, relative seat (zeros once over)
own hand                    7               my cards in hand per type / copies owned
per seat (rel 0..n-1)       n x 12          gold/200 (clipped at 1), held/blocks_per_color,
                                            pool/blocks_per_color, passed, cards in hand/8,
                                            low in hand/4, high in hand/4, holds
                                            TRANSPORT_PLUS_2, FREE_PASS, FREE_DOUBLE_MOVE,
                                            -3 points taken in the quarry being resolved/12,
                                            still to choose a -3 target there
per quarry (q0..q{Q-1})     Q x (16 + n +   revealed, being resolved, protected seat one-hot
                            S x (10 + n))   (n), max_cards/8, ranks (5, /10, zero-padded),
                                            marker one-hot (7), cards placed/S; then per
                                            slot: present, owner one-hot (n), high back,
                                            value known, value one-hot (7; zeros unless
                                            known)
per pyramid level (p, l)    P x H x (6+n)   exists, spaces/30, gold_first/20, gold_second/20,
                                            full, ever full, blocks per seat/spaces (n)
relocation source           P x H           one-hot of the chosen source (p, l)
double move                 1               placements still owed / 2
==========================  ==============  =================================================

Advanced variant only (``variant="advanced"``), appended after the table above:

==========================  ==============  =================================================
slice (in order)            size            meaning
==========================  ==============  =================================================
advanced phase              4               one-hot: bid, blue choice, +2 points, joker
own sealed bid              2               bid made, my bid / MAX_BID
per seat (rel 0..n-1)       n x 14          bid made, revealed bid / MAX_BID (0 until every
                                            bid is in), still to pick a blue marker, holds
                                            blue marker m unused (4), the joker acts as
                                            green marker g (7 one-hot)
blue markers                8               on offer this round (4), still to be picked (4)
+2 points                   Q + n           quarry one-hot, holder one-hot (relative seat)
joker protection            Q               quarry one-hot (holder: the joker slot above)
==========================  ==============  =================================================

Hidden information: a bid's value is set only for the observer's own bid until every bid is in
(sealed bids; whether a seat has bid follows from the public bidding order). A card's value is
set only if its quarry is revealed or the observer owns it; the owner, position and low/high
back are public (rules file section 6). Hand contents of other seats appear only as counts of
low and high cards, which follow from public backs.

Named parts (:attr:`MayaQuarryObserver.layout`), in the order above: ``phase``, ``round``,
``start``, ``actor``, ``hand``, ``seats`` (n, 12), ``quarries`` (Q, 16 + n + S x (10 + n)),
``levels`` (P, H, 6 + n), ``relocation`` (P, H), ``double``; advanced: ``advanced_phase``,
``own_bid``, ``advanced_seats`` (n, 14), ``blue`` (2, 4), ``plus2`` (Q + n),
``joker_protection`` (Q).
A row of ``seats``, ``quarries``, ``levels`` or ``advanced_seats`` has a layout of its own
(:attr:`MayaQuarryObserver.rows`; the card slots of a quarry row: :func:`card_slot_layout`), so
the encoder writes by part name at every level, e.g. a quarry's marker one-hot is
``observer.rows["quarries"].view(layout.view(obs, "quarries"), "marker")``, shape ``(Q, 7)``.

Pure: numpy only; imports the rules, never the other way round.
"""

from __future__ import annotations

import numpy as np

from maya_envs.core.checks import is_int
from maya_envs.core.layout import Layout
from maya_envs.maya_quarry.actions import CARD_COUNTS, CARD_IS_LOW, MAX_BID, MAX_LEVELS, NUM_BLUE, NUM_CARD_TYPES
from maya_envs.maya_quarry.rules import MayaQuarryRules
from maya_envs.maya_quarry.rules.config import FREE_DOUBLE, FREE_PASS, MARKERS, TRANSPORT_PLUS_2
from maya_envs.maya_quarry.rules.state import BASIC_PHASES, BID, BLUE_CHOICE, MayaQuarryState

GOLD_NORM = 200.0
ADVANCED_PHASES = 4
RANKS_SHOWN = 5  # a quarry's yields for ranks 1-5

#: One seat's row of the ``seats`` part (n of them, relative seats), in the table's order.
SEAT_ROW = Layout(
    (name, 1)
    for name in (
        "gold", "held", "pool", "passed", "cards", "low", "high",
        "transport_plus_2", "free_pass", "free_double", "deduct", "pending",
    )
)  # fmt: skip


def card_slot_layout(num_players: int) -> Layout:
    """One card slot of a quarry row: present, owner one-hot (relative seat), high back,
    value known, value one-hot (zeros unless known)."""
    return Layout([("present", 1), ("owner", num_players), ("high", 1), ("known", 1), ("value", NUM_CARD_TYPES)])


def quarry_row_layout(num_players: int, slots: int) -> Layout:
    """One quarry's row of the ``quarries`` part: revealed, being resolved, protected seat
    one-hot, max_cards/8, ranks (/10), marker one-hot, cards placed/S, then ``slots`` card slots
    (:func:`card_slot_layout`)."""
    return Layout(
        [
            ("revealed", 1),
            ("resolving", 1),
            ("protected", num_players),
            ("max_cards", 1),
            ("ranks", RANKS_SHOWN),
            ("marker", len(MARKERS)),
            ("placed", 1),
            ("slots", (slots, card_slot_layout(num_players).size)),
        ]
    )


def level_row_layout(num_players: int) -> Layout:
    """One pyramid level's row of the ``levels`` part."""
    fixed = [(name, 1) for name in ("exists", "spaces", "gold_first", "gold_second", "full", "ever_full")]
    return Layout([*fixed, ("blocks", num_players)])


#: One seat's row of the ``advanced_seats`` part (relative seats).
ADVANCED_SEAT_ROW = Layout(
    [("bid_made", 1), ("bid", 1), ("choosing", 1), ("blue", NUM_BLUE), ("joker_as", len(MARKERS))]
)


def _sizes(rules: MayaQuarryRules) -> tuple[int, int, int, int, int]:
    comp = rules.components
    slots = max(q.max_cards for q in comp.quarries)
    return rules.num_players, len(comp.quarries), slots, len(comp.pyramids), comp.num_levels


def observation_layout(rules: MayaQuarryRules) -> Layout:
    """The named parts of the observation for ``rules`` (see the index tables); the rows of
    ``seats``, ``quarries``, ``levels`` and ``advanced_seats`` have layouts of their own
    (:data:`SEAT_ROW`, :func:`quarry_row_layout`, :func:`level_row_layout`,
    :data:`ADVANCED_SEAT_ROW`)."""
    n, q, slots, p, h = _sizes(rules)
    parts: list[tuple[str, int | tuple[int, ...]]] = [
        ("phase", BASIC_PHASES),
        ("round", 3),
        ("start", n),
        ("actor", n),
        ("hand", NUM_CARD_TYPES),
        ("seats", (n, SEAT_ROW.size)),
        ("quarries", (q, quarry_row_layout(n, slots).size)),
        ("levels", (p, h, level_row_layout(n).size)),
        ("relocation", (p, h)),
        ("double", 1),
    ]
    if rules.advanced:
        parts += [
            ("advanced_phase", ADVANCED_PHASES),
            ("own_bid", 2),
            ("advanced_seats", (n, ADVANCED_SEAT_ROW.size)),
            ("blue", (2, NUM_BLUE)),
            ("plus2", q + n),
            ("joker_protection", q),
        ]
    return Layout(parts)


def observation_shape(rules: MayaQuarryRules) -> tuple[int]:
    """``(size,)`` of the observation for ``rules`` (see the index table)."""
    return observation_layout(rules).shape


class MayaQuarryObserver:
    """The observation encoder of one :class:`~maya_envs.maya_quarry.rules.MayaQuarryRules`
    (the :class:`~maya_envs.core.layout.Observer` protocol).

    The parts that never change for a rules object (quarry limits, yields and markers; level
    spaces and gold) are written once into a template; :meth:`encode` copies it and writes the
    state's nonzero values in one indexed assignment.

    Attributes:
        rules: the rules.
        layout: the named parts (module docstring).
    """

    def __init__(self, rules: MayaQuarryRules) -> None:
        self.rules = rules
        self.layout = layout = observation_layout(rules)
        n, _nq, slots, _npyr, height = _sizes(rules)
        comp = rules.components
        #: the layout of one row of the parts made of rows
        self.rows: dict[str, Layout] = {
            "seats": SEAT_ROW,
            "quarries": quarry_row_layout(n, slots),
            "levels": level_row_layout(n),
            **({"advanced_seats": ADVANCED_SEAT_ROW} if rules.advanced else {}),
        }
        quarry_row, level_row = self.rows["quarries"], self.rows["levels"]
        template = np.zeros(layout.size, np.float32)
        at = layout.starts
        row = quarry_row.starts
        self._quarries = []  # per quarry: its row's first index
        for q, quarry in enumerate(comp.quarries):
            pos = at["quarries"] + q * quarry_row.size
            self._quarries.append(pos)
            template[pos + row["max_cards"]] = quarry.max_cards / 8
            for i, count in enumerate(quarry.ranks[:RANKS_SHOWN]):
                template[pos + row["ranks"] + i] = min(count / 10, 1.0)
            if quarry.marker >= 0:
                template[pos + row["marker"] + quarry.marker] = 1.0
        self._levels = []  # (pyramid, level, first index, spaces) of every existing level
        level_fixed = level_row.span("exists", "gold_second")
        for p, pyramid in enumerate(comp.pyramids):
            for level in range(len(pyramid.levels)):
                spaces, first, second = pyramid.levels[level]
                pos = at["levels"] + (p * height + level) * level_row.size
                template[pos + level_fixed.start : pos + level_fixed.stop] = (
                    1.0, spaces / 30, min(first / 20, 1.0), min(second / 20, 1.0),
                )  # fmt: skip
                self._levels.append((p, level, pos, spaces))
        self._template = template
        self._slots, self._height = slots, height
        slot = card_slot_layout(n).starts
        # offsets inside a quarry row, a card slot and a level row, read by name once
        self._quarry_at = tuple(row[name] for name in ("revealed", "resolving", "protected", "placed", "slots"))
        self._slot_at = tuple(slot[name] for name in ("present", "owner", "high", "known", "value"))
        self._level_at = tuple(level_row.starts[name] for name in ("full", "ever_full", "blocks"))

    def encode(self, state: MayaQuarryState, seat: int) -> np.ndarray:
        """The observation of ``seat`` (float32 of ``layout.shape`` in [0, 1]).

        Raises:
            ValueError: ``seat`` is not in ``0 .. n-1``.
        """
        n = state.num_players
        if not is_int(seat) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} out of range 0..{n - 1}")
        at = self.layout.starts
        obs = self._template.copy()
        index: list[int] = []
        value: list[float] = []
        put_index, put_value = index.append, value.append
        if state.phase < BASIC_PHASES:
            put_index(at["phase"] + state.phase)
            put_value(1.0)
        index += (at["round"] + state.round, at["start"] + (state.start - seat) % n)
        value += (1.0, 1.0)
        if state.actor >= 0:
            put_index(at["actor"] + (state.actor - seat) % n)
            put_value(1.0)
        pos = at["hand"]
        hand_base = seat * NUM_CARD_TYPES
        hands = state.hands
        for card in range(NUM_CARD_TYPES):
            if hands[hand_base + card]:
                put_index(pos + card)
                put_value(hands[hand_base + card] / CARD_COUNTS[card])
        self._put_seats(state, seat, index, value)
        self._put_quarries(state, seat, index, value)
        self._put_levels(state, seat, index, value)
        if state.reloc_src >= 0:
            src_p, src_l = divmod(state.reloc_src, MAX_LEVELS)
            put_index(at["relocation"] + src_p * self._height + src_l)
            put_value(1.0)
        if state.double_left:
            put_index(at["double"])
            put_value(state.double_left / 2)
        if self.rules.advanced:
            _advanced_values(state, seat, at, index, value)
        obs[index] = value
        return obs

    def _put_seats(self, state: MayaQuarryState, seat: int, index: list[int], value: list[float]) -> None:
        """Each seat's row (``SEAT_ROW``), from ``seat`` on round the table: indices and values appended."""
        n = state.num_players
        blocks = self.rules.components.blocks_per_color
        hands = state.hands
        pos = self.layout.starts["seats"]
        seat_size = SEAT_ROW.size
        holder = state.holder
        for k in range(n):
            other = (seat + k) % n
            h = hands[other * NUM_CARD_TYPES : (other + 1) * NUM_CARD_TYPES]
            low = h[0] + h[1] + h[2]  # CARD_IS_LOW: types 0-2
            total = sum(h)
            index += range(pos, pos + seat_size)
            value += (  # SEAT_ROW, in its order
                min(state.gold[other] / GOLD_NORM, 1.0),
                state.held[other] / blocks,
                state.pool[other] / blocks,
                state.passed[other],
                total / 8,
                low / 4,
                (total - low) / 4,
                holder[TRANSPORT_PLUS_2] == other,
                holder[FREE_PASS] == other,
                holder[FREE_DOUBLE] == other,
                min(state.deduct[other] / 12, 1.0),
                other in state.pending,
            )
            pos += seat_size

    def _put_quarries(self, state: MayaQuarryState, seat: int, index: list[int], value: list[float]) -> None:
        """Each quarry's row and its cards (a card's value where ``seat`` may see it): appended."""
        n = state.num_players
        put_index, put_value = index.append, value.append
        resolving = state.resolving
        at_revealed, at_resolving, at_protected, at_placed, at_slots = self._quarry_at
        at_present, at_owner, at_high, at_known, at_value = self._slot_at
        slot_size = self.rows["quarries"].part("slots").shape[1]
        for q, column in enumerate(state.columns):
            row = self._quarries[q]
            revealed = resolving < 0 or q >= resolving
            if revealed and column:
                put_index(row + at_revealed)
                put_value(1.0)
            if q == resolving:
                put_index(row + at_resolving)
                put_value(1.0)
            if state.protect_q == q:
                put_index(row + at_protected + (state.protect_seat - seat) % n)
                put_value(1.0)
            if column:
                put_index(row + at_placed)
                put_value(len(column) / self._slots)
                pos = row + at_slots
                for owner, card in column:
                    index += (pos + at_present, pos + at_owner + (owner - seat) % n)
                    value += (1.0, 1.0)
                    if not CARD_IS_LOW[card]:
                        put_index(pos + at_high)
                        put_value(1.0)
                    if revealed or owner == seat:
                        index += (pos + at_known, pos + at_value + card)
                        value += (1.0, 1.0)
                    pos += slot_size

    def _put_levels(self, state: MayaQuarryState, seat: int, index: list[int], value: list[float]) -> None:
        """Each pyramid level's fullness and blocks per seat, from ``seat`` on: appended."""
        n = state.num_players
        put_index, put_value = index.append, value.append
        board, ever_full = state.board, state.ever_full
        at_full, at_ever_full, at_blocks = self._level_at
        for p, level, pos, spaces in self._levels:
            flat = p * MAX_LEVELS + level
            start = flat * n
            counts = board[start : start + n]
            if sum(counts) >= spaces:
                put_index(pos + at_full)
                put_value(1.0)
            if ever_full[flat]:
                put_index(pos + at_ever_full)
                put_value(1.0)
            for k in range(n):
                count = counts[(seat + k) % n]
                if count:
                    put_index(pos + at_blocks + k)
                    put_value(count / spaces)


def observe(rules: MayaQuarryRules, state: MayaQuarryState, seat: int) -> np.ndarray:
    """``seat``'s observation of ``state`` by the default :class:`MayaQuarryObserver` of ``rules`` (for
    tests and tools; an env keeps its own observer)."""
    return MayaQuarryObserver(rules).encode(state, seat)


def _advanced_values(state: MayaQuarryState, seat: int, at, index: list[int], value: list[float]) -> None:
    """Append the advanced variant's parts (see the second table; ``at``: the layout's part
    starts) as ``index``/``value`` pairs (zeros may be left out)."""
    n = state.num_players
    nq = len(state.columns)
    if state.phase >= BASIC_PHASES:
        index.append(at["advanced_phase"] + state.phase - BASIC_PHASES)
        value.append(1.0)
    bidding = state.phase == BID
    if state.bids[seat] >= 0:
        pos = at["own_bid"]
        index += (pos, pos + 1)
        value += (1.0, state.bids[seat] / MAX_BID)
    blue_holder = state.blue_holder
    row = ADVANCED_SEAT_ROW.starts
    at_bid_made, at_bid, at_choosing, at_blue, at_joker = (
        row[name] for name in ("bid_made", "bid", "choosing", "blue", "joker_as")
    )
    pos = at["advanced_seats"]
    for k in range(n):
        other = (seat + k) % n
        bid = state.bids[other]
        if bid >= 0:
            index.append(pos + at_bid_made)
            value.append(1.0)
            if not bidding:  # sealed until every bid is in
                index.append(pos + at_bid)
                value.append(bid / MAX_BID)
        if other in state.choosers:
            index.append(pos + at_choosing)
            value.append(1.0)
        for m in range(NUM_BLUE):
            if blue_holder[m] == other:
                index.append(pos + at_blue + m)
                value.append(1.0)
        if state.joker_seat == other and state.joker_as >= 0:
            index.append(pos + at_joker + state.joker_as)
            value.append(1.0)
        pos += ADVANCED_SEAT_ROW.size
    open_offer = state.phase in (BID, BLUE_CHOICE)
    pos = at["blue"]  # (2, NUM_BLUE): on offer, still to be picked
    for m in state.blue_offer:
        index.append(pos + m)
        value.append(1.0)
        if open_offer and blue_holder[m] < 0:
            index.append(pos + NUM_BLUE + m)
            value.append(1.0)
    if state.plus2_q >= 0:
        pos = at["plus2"]  # quarry one-hot, then holder one-hot
        index += (pos + state.plus2_q, pos + nq + (state.plus2_seat - seat) % n)
        value += (1.0, 1.0)
    if state.joker_protect_q >= 0:
        index.append(at["joker_protection"] + state.joker_protect_q)
        value.append(1.0)
