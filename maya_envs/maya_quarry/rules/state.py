"""State of Maya (Abacusspiele 2003) and its phases (saved and loaded by :mod:`maya_envs.maya_quarry.rules.serialize`).

A state is a small dataclass of ints and flat lists. The rules never change a state they
were handed: every transition works on :meth:`MayaQuarryState.clone` (a shallow copy of each
list, no ``deepcopy``) and returns it, so callers may treat states as values (``==``
compares them; the legal-action cache is excluded).

Pure: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from maya_envs.maya_quarry.actions import MAX_LEVELS, NUM_BLUE, NUM_CARD_TYPES


class Phase(IntEnum):
    """The phases of a round, numbered as the state stores them (and the saved states and the
    observation's phase one-hot count them). Out-of-turn decisions (MINUS3 .. APPOINT,
    BLUE_CHOICE .. JOKER_CHOICE) belong to ``actor``, not ``turn``. The advanced variant's
    phases come after OVER so the basic numbers (and the basic observation's phase one-hot of
    :data:`BASIC_PHASES` entries) never change. Handlers: :mod:`.building` (SETUP, BUILD,
    DOUBLE), :mod:`.quarry` (WORKERS .. APPOINT), :mod:`.auction` (BID .. JOKER_CHOICE)."""

    SETUP = 0
    WORKERS = 1
    MINUS3 = 2
    PROTECT_CHOICE = 3
    RELOCATE_SRC = 4
    RELOCATE_DST = 5
    FREE_BLOCK_CHOICE = 6
    APPOINT = 7
    BUILD = 8
    DOUBLE = 9
    OVER = 10
    BID = 11
    BLUE_CHOICE = 12
    PLUS2_CHOICE = 13
    JOKER_CHOICE = 14


(
    SETUP,
    WORKERS,
    MINUS3,
    PROTECT_CHOICE,
    RELOCATE_SRC,
    RELOCATE_DST,
    FREE_BLOCK_CHOICE,
    APPOINT,
    BUILD,
    DOUBLE,
    OVER,
    BID,
    BLUE_CHOICE,
    PLUS2_CHOICE,
    JOKER_CHOICE,
) = Phase
BASIC_PHASES = 11
PHASE_NAMES = (
    "setup",
    "workers",
    "minus3",
    "protect",
    "relocate_src",
    "relocate_dst",
    "free_block",
    "appoint",
    "build",
    "double",
    "over",
    "bid",
    "blue_choice",
    "plus2",
    "joker",
)
NUM_ROUNDS = 3
#: Neutral values of the advanced-variant fields (the whole basic game keeps them).
ADVANCED_NEUTRAL = {
    "blue_offer": [],
    "blue_holder": [-1] * NUM_BLUE,
    "choosers": [],
    "plus2_q": -1,
    "plus2_seat": -1,
    "joker_seat": -1,
    "joker_as": -1,
    "joker_protect_q": -1,
}


@dataclass(eq=True)
class MayaQuarryState:
    """A full game state (all seats' private data included; observers see a projection).

    Indexing: ``board[(p * MAX_LEVELS + l) * n + seat]`` is the number of ``seat``'s blocks on
    level ``l`` (0 = bottom) of pyramid ``p``; ``hands[seat * 7 + t]`` counts card type ``t``
    (see :data:`~maya_envs.maya_quarry.actions.CARD_VALUES`) still in ``seat``'s hand.

    Attributes:
        num_players: ``n``.
        round: 0, 1 or 2.
        phase: one of the phase constants (:data:`PHASE_NAMES`).
        start: start player seat (carried over between rounds).
        turn: seat whose turn it is in the cyclic phases (setup, workers, building).
        actor: seat that must decide now (``-1`` once the game is over).
        gold, pool, held: per seat: gold, blocks in the pool, blocks in front of the player
            (starting blocks in setup, quarried blocks, then transported blocks).
        board: block counts, see above.
        hands: worker cards in hand, see above (private).
        passed: per seat, passed in this round's worker placement.
        columns: per quarry, the cards placed there in order as ``(seat, card type)`` (card
            types private until the quarry is revealed).
        resolving: index of the quarry being resolved; quarries ``>= resolving`` are revealed;
            the number of quarries before the reveal starts, ``-1`` after transport.
        deduct: -3 points deducted from each seat in the quarry being resolved.
        pending: -3 owners still to choose a target there, in order.
        protect_q, protect_seat: where the PROTECT marker lies and for whom (``-1`` if not).
        holder: per green marker, the seat holding it for later use this round, else ``-1``.
        ever_full: per ``p * MAX_LEVELS + l``, the level has been full at some point.
        reloc_src: ``p * MAX_LEVELS + l`` of the chosen relocation source, else ``-1``.
        double_left: placements still owed in a double move (0, 1 or 2).

    Advanced variant (neutral values in the basic game: ``bids`` all -1, ``blue_offer`` and
    ``choosers`` empty, ``blue_holder`` all -1, the ints -1):

    Attributes:
        bids: per seat, the sealed bid of this round's auction (``-1`` = not made yet). Bids
            made before all are in are private to their bidder; after the last bid they are
            public until the next round's auction.
        blue_offer: blue marker ids auctioned this round (sorted; ``n - 1`` of the four).
        blue_holder: per blue marker, the seat that won it and has not used it yet, else -1.
        choosers: auction winners still to pick a marker, in bid order.
        plus2_q, plus2_seat: where BLUE_PLUS_2_QUARRY_POINTS lies and for whom (-1 if not).
        joker_seat, joker_as: who used BLUE_JOKER and the green marker id it acts as (-1 when
            not chosen or spent; ``joker_seat`` stays set while a joker PROTECT lies).
        joker_protect_q: quarry where the joker acting as PROTECT_FROM_MINUS3 protects
            ``joker_seat`` (-1 if none).
    """

    num_players: int
    round: int
    phase: int
    start: int
    turn: int
    actor: int
    gold: list[int]
    pool: list[int]
    held: list[int]
    board: list[int]
    hands: list[int]
    passed: list[bool]
    columns: list[list[tuple[int, int]]]
    resolving: int
    deduct: list[int]
    pending: list[int]
    protect_q: int
    protect_seat: int
    holder: list[int]
    ever_full: list[bool]
    reloc_src: int = -1
    double_left: int = 0
    bids: list[int] = field(default_factory=list)
    blue_offer: list[int] = field(default_factory=list)
    blue_holder: list[int] = field(default_factory=lambda: [-1] * NUM_BLUE)
    choosers: list[int] = field(default_factory=list)
    plus2_q: int = -1
    plus2_seat: int = -1
    joker_seat: int = -1
    joker_as: int = -1
    joker_protect_q: int = -1
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    def clone(self) -> MayaQuarryState:
        """An independent copy (lists copied one level deep; column entries are tuples; a fresh
        legal-action cache). Built without ``__init__``: the copy is the hot path of every
        ``apply_action`` and search simulation."""
        new = object.__new__(MayaQuarryState)
        d = self.__dict__.copy()
        d.update(
            gold=self.gold[:],
            pool=self.pool[:],
            held=self.held[:],
            board=self.board[:],
            hands=self.hands[:],
            passed=self.passed[:],
            columns=[col[:] for col in self.columns],
            deduct=self.deduct[:],
            pending=self.pending[:],
            holder=self.holder[:],
            ever_full=self.ever_full[:],
            bids=self.bids[:],
            blue_offer=self.blue_offer[:],
            blue_holder=self.blue_holder[:],
            choosers=self.choosers[:],
            _cache={},
        )
        new.__dict__ = d
        return new

    def count(self, pyramid: int, level: int, seat: int) -> int:
        """Blocks of ``seat`` on ``level`` of ``pyramid``."""
        return self.board[(pyramid * MAX_LEVELS + level) * self.num_players + seat]

    def level_counts(self, pyramid: int, level: int) -> list[int]:
        """Per-seat block counts on ``level`` of ``pyramid`` (a new list)."""
        start = (pyramid * MAX_LEVELS + level) * self.num_players
        return self.board[start : start + self.num_players]

    def hand(self, seat: int) -> list[int]:
        """Card-type counts in ``seat``'s hand (a new list of 7)."""
        return self.hands[seat * NUM_CARD_TYPES : (seat + 1) * NUM_CARD_TYPES]
