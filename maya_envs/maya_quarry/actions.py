"""Action table of Maya (Abacusspiele 2003): ``Discrete(114)`` (basic game) or ``Discrete(164)``
(``variant="advanced"``) for every player count.

Every choice a player makes is one id (rules file section 6). Seats in ids are *relative*
to the acting seat (``+k`` = the player ``k`` seats clockwise), so one policy serves every
seat. Quarries are numbered left to right ``q0..q6`` (they resolve right to left), pyramids
``p0..p3`` in the component table's order, levels ``L1..L4`` bottom to top.

=========  =====  ==============================  ===========================================
ids        count  move                            when legal
=========  =====  ==============================  ===========================================
0-48       49     ``worker q, card t``            worker placement; id = ``q*7 + t``; card
                  (``WORKER``)                    types ``t`` 0-6 = values 3,4,5,6,7,8,-3
                                                  (0-2 low, 3-6 high); the mover holds the
                                                  card, quarry ``q`` is below its limit and
                                                  the first card at a quarry is low
49         1      ``pass workers``                worker placement, always (permanent pass)
50-53      4      ``-3 on +k`` (k = 1..4)         a -3 owner picks a target in the quarry
                                                  being resolved: a player with cards there,
                                                  not protected there
54         1      ``-3 no target``                same decision (``minus3_no_target``)
55-61      7      ``protect q``                   winner of PROTECT_FROM_MINUS3: an
                                                  unrevealed quarry that holds cards
62-77      16     ``relocate from p, L``          winner of RELOCATE_TO_LEVEL1: own block
                                                  source; id = ``62 + p*4 + level``
78-81      4      ``relocate to p``               target: level 1 of pyramid ``p``
82         1      ``relocate decline``            the marker is not used
83-86      4      ``free block to p``             winner of FREE_BLOCK_FROM_POOL: lowest
                                                  level of ``p`` where the holder may build
87         1      ``free block decline``          the marker is not used
88-92      5      ``start player +k`` (k = 0..4)  winner of FIRST_PLAYER appoints a start
                                                  player (``+0`` = self)
93-108     16     ``place p, L``                  setup (level 1 only) and building;
                                                  id = ``93 + p*4 + level``
109        1      ``double move (pay)``           building: pay a block, then two placements
110        1      ``double move (free)``          building, holder of FREE_DOUBLE_MOVE
111        1      ``pass (pay)``                  building: pay a block, place nothing
112        1      ``pass (free)``                 building, holder of FREE_PASS
113        1      ``forced pass (+1 gold)``       building: blocks held, none placeable
=========  =====  ==============================  ===========================================

The advanced variant (seed "Variation for Advanced Players") appends these ids; the basic ids
above never change, and in the basic game the action space stays ``Discrete(114)``:

=========  =====  ==============================  ===========================================
ids        count  move                            when legal
=========  =====  ==============================  ===========================================
114-144    31     ``bid b`` (b = 0..30)           sealed bid before each round; ``b`` <= gold
                                                  held and <= :data:`MAX_BID` (30)
145-148    4      ``take blue m``                 auction winners in bid order pick a blue
                                                  marker still on offer (:data:`BLUE_MARKERS`
                                                  order in ``rules.config``)
149-155    7      ``+2 points at q``              holder of BLUE_PLUS_2_QUARRY_POINTS, after
                                                  everyone passed: a quarry holding cards
                                                  (any quarry with ``plus2_empty_quarry``)
156        1      ``+2 points decline``           same decision, marker not used
157-162    6      ``joker as g``                  holder of BLUE_JOKER, after the +2 points:
                                                  g = PROTECT, RELOCATE, FREE_BLOCK,
                                                  TRANSPORT_PLUS_2, FREE_PASS, FREE_DOUBLE
                                                  (:data:`JOKER_GREEN`; never FIRST_PLAYER);
                                                  only options that can take effect
163        1      ``joker decline``               same decision, marker not used
=========  =====  ==============================  ===========================================

Pure: standard library only. The limits below are the table's; the component table may use
fewer quarries, pyramids or levels (those ids are then never legal).
"""

from __future__ import annotations

from dataclasses import dataclass

from maya_envs.core.checks import is_int

MAX_PLAYERS = 5
MAX_QUARRIES = 7
MAX_PYRAMIDS = 4
MAX_LEVELS = 4

#: Worker card types: value and count per player (seed: 3, 4, 4, 5 low; 6, 7, 8, -3 high).
CARD_VALUES = (3, 4, 5, 6, 7, 8, -3)
CARD_COUNTS = (1, 2, 1, 1, 1, 1, 1)
CARD_IS_LOW = (True, True, True, False, False, False, False)
NUM_CARD_TYPES = len(CARD_VALUES)
MINUS3_CARD = 6

WORKER_BASE = 0
WORKER_PASS = WORKER_BASE + MAX_QUARRIES * NUM_CARD_TYPES  # 49
MINUS3_BASE = WORKER_PASS + 1  # 50
MINUS3_NONE = MINUS3_BASE + MAX_PLAYERS - 1  # 54
PROTECT_BASE = MINUS3_NONE + 1  # 55
RELOCATE_SRC_BASE = PROTECT_BASE + MAX_QUARRIES  # 62
RELOCATE_DST_BASE = RELOCATE_SRC_BASE + MAX_PYRAMIDS * MAX_LEVELS  # 78
RELOCATE_DECLINE = RELOCATE_DST_BASE + MAX_PYRAMIDS  # 82
FREE_BLOCK_BASE = RELOCATE_DECLINE + 1  # 83
FREE_BLOCK_DECLINE = FREE_BLOCK_BASE + MAX_PYRAMIDS  # 87
APPOINT_BASE = FREE_BLOCK_DECLINE + 1  # 88
PLACE_BASE = APPOINT_BASE + MAX_PLAYERS  # 93
DOUBLE_PAY = PLACE_BASE + MAX_PYRAMIDS * MAX_LEVELS  # 109
DOUBLE_FREE = DOUBLE_PAY + 1
PASS_PAY = DOUBLE_PAY + 2
PASS_FREE = DOUBLE_PAY + 3
FORCED_PASS = DOUBLE_PAY + 4
NUM_ACTIONS = FORCED_PASS + 1  # 114: the basic game's action space

#: Largest bid id (bids above the gold held are masked; the cap keeps the table fixed).
MAX_BID = 30
#: Green markers (``rules.config`` ids) the joker may act as, in id order: all but FIRST_PLAYER.
JOKER_GREEN = (0, 1, 2, 4, 5, 6)
NUM_BLUE = 4
BID_BASE = NUM_ACTIONS  # 114
BLUE_CHOOSE_BASE = BID_BASE + MAX_BID + 1  # 145
PLUS2_BASE = BLUE_CHOOSE_BASE + NUM_BLUE  # 149
PLUS2_DECLINE = PLUS2_BASE + MAX_QUARRIES  # 156
JOKER_BASE = PLUS2_DECLINE + 1  # 157
JOKER_DECLINE = JOKER_BASE + len(JOKER_GREEN)  # 163
NUM_ACTIONS_ADVANCED = JOKER_DECLINE + 1  # 164

KINDS = (
    "worker",
    "worker_pass",
    "minus3",
    "minus3_none",
    "protect",
    "relocate_src",
    "relocate_dst",
    "relocate_decline",
    "free_block",
    "free_block_decline",
    "appoint",
    "place",
    "double_pay",
    "double_free",
    "pass_pay",
    "pass_free",
    "forced_pass",
    "bid",
    "blue_choose",
    "plus2",
    "plus2_decline",
    "joker",
    "joker_decline",
)

# (kind, first id, number of ids, argument decoder)
_RANGES = (
    ("worker", WORKER_BASE, WORKER_PASS - WORKER_BASE),
    ("worker_pass", WORKER_PASS, 1),
    ("minus3", MINUS3_BASE, MAX_PLAYERS - 1),
    ("minus3_none", MINUS3_NONE, 1),
    ("protect", PROTECT_BASE, MAX_QUARRIES),
    ("relocate_src", RELOCATE_SRC_BASE, MAX_PYRAMIDS * MAX_LEVELS),
    ("relocate_dst", RELOCATE_DST_BASE, MAX_PYRAMIDS),
    ("relocate_decline", RELOCATE_DECLINE, 1),
    ("free_block", FREE_BLOCK_BASE, MAX_PYRAMIDS),
    ("free_block_decline", FREE_BLOCK_DECLINE, 1),
    ("appoint", APPOINT_BASE, MAX_PLAYERS),
    ("place", PLACE_BASE, MAX_PYRAMIDS * MAX_LEVELS),
    ("double_pay", DOUBLE_PAY, 1),
    ("double_free", DOUBLE_FREE, 1),
    ("pass_pay", PASS_PAY, 1),
    ("pass_free", PASS_FREE, 1),
    ("forced_pass", FORCED_PASS, 1),
    ("bid", BID_BASE, MAX_BID + 1),
    ("blue_choose", BLUE_CHOOSE_BASE, NUM_BLUE),
    ("plus2", PLUS2_BASE, MAX_QUARRIES),
    ("plus2_decline", PLUS2_DECLINE, 1),
    ("joker", JOKER_BASE, len(JOKER_GREEN)),
    ("joker_decline", JOKER_DECLINE, 1),
)


@dataclass(frozen=True)
class Move:
    """A decoded action.

    Attributes:
        kind: one of :data:`KINDS`.
        a: first argument: quarry (worker, protect, plus2), relative seat offset (minus3,
            appoint), pyramid (relocate, free_block, place), the bid (bid), blue marker id
            (blue_choose), index into :data:`JOKER_GREEN` (joker); 0 when unused.
        b: second argument: card type (worker) or level index 0-3 (relocate_src, place).
    """

    kind: str
    a: int = 0
    b: int = 0


def worker_id(quarry: int, card: int) -> int:
    """Id of placing card type ``card`` (0-6) at quarry ``quarry`` (0-6)."""
    return WORKER_BASE + quarry * NUM_CARD_TYPES + card


def place_id(pyramid: int, level: int) -> int:
    """Id of placing a block on ``level`` (0-3) of ``pyramid`` (0-3)."""
    return PLACE_BASE + pyramid * MAX_LEVELS + level


def relocate_src_id(pyramid: int, level: int) -> int:
    """Id of choosing the own block on ``level`` of ``pyramid`` as relocation source."""
    return RELOCATE_SRC_BASE + pyramid * MAX_LEVELS + level


def encode(move: Move) -> int:
    """Action id of ``move``.

    Raises:
        ValueError: an unknown kind or an argument out of range.
    """
    for kind, base, count in _RANGES:
        if kind != move.kind:
            continue
        if kind == "worker":
            offset = _checked(move.a, MAX_QUARRIES, "quarry") * NUM_CARD_TYPES + _checked(
                move.b, NUM_CARD_TYPES, "card"
            )
        elif kind in ("relocate_src", "place"):
            offset = _checked(move.a, MAX_PYRAMIDS, "pyramid") * MAX_LEVELS + _checked(move.b, MAX_LEVELS, "level")
        elif kind == "minus3":
            offset = _checked(move.a - 1, MAX_PLAYERS - 1, "seat offset - 1")
        elif count > 1:
            offset = _checked(move.a, count, "argument")
        else:
            offset = 0
        return base + offset
    raise ValueError(f"unknown move kind {move.kind!r}; known kinds: {list(KINDS)}")


def decode(action: int, num_actions: int = NUM_ACTIONS) -> Move:
    """The :class:`Move` of an action id.

    Args:
        action: the id.
        num_actions: size of the action space: :data:`NUM_ACTIONS` (basic game, default) or
            :data:`NUM_ACTIONS_ADVANCED`.

    Raises:
        ValueError: ``action`` is not in ``0 .. num_actions-1``, or ``num_actions`` is neither
            table size.
    """
    if num_actions not in (NUM_ACTIONS, NUM_ACTIONS_ADVANCED):
        raise ValueError(f"num_actions={num_actions!r}; allowed: {[NUM_ACTIONS, NUM_ACTIONS_ADVANCED]}")
    if not is_int(action, numpy=False) or not 0 <= action < num_actions:
        raise ValueError(f"action {action!r} is out of range: allowed ids are 0..{num_actions - 1}")
    for kind, base, count in _RANGES:
        if base <= action < base + count:
            offset = action - base
            if kind == "worker":
                return Move(kind, *divmod(offset, NUM_CARD_TYPES))
            if kind in ("relocate_src", "place"):
                return Move(kind, *divmod(offset, MAX_LEVELS))
            if kind == "minus3":
                return Move(kind, offset + 1)
            return Move(kind, offset)
    raise AssertionError("unreachable: the ranges cover 0..NUM_ACTIONS-1")  # pragma: no cover


def card_label(card: int) -> str:
    """Printed value of card type ``card``, e.g. ``"-3"``."""
    return str(CARD_VALUES[card])


def action_to_string(action: int, pyramid_names: tuple[str, ...] | None = None, num_actions: int = NUM_ACTIONS) -> str:
    """Readable notation, e.g. ``"worker q2 card 5"``, ``"place Copan L2"`` or ``"bid 3"``.

    Args:
        action: an id in ``0 .. num_actions-1``.
        pyramid_names: names to use for ``p0..p3`` (default ``"p<i>"``).
        num_actions: :data:`NUM_ACTIONS` (default) or :data:`NUM_ACTIONS_ADVANCED`.

    Raises:
        ValueError: ``action`` is out of range.
    """
    move = decode(action, num_actions)

    def pyr(index: int) -> str:
        if pyramid_names is not None and index < len(pyramid_names):
            return pyramid_names[index]
        return f"p{index}"

    kind = move.kind
    if kind == "worker":
        return f"worker q{move.a} card {card_label(move.b)}"
    if kind == "minus3":
        return f"-3 on +{move.a}"
    if kind == "protect":
        return f"protect q{move.a}"
    if kind == "relocate_src":
        return f"relocate from {pyr(move.a)} L{move.b + 1}"
    if kind == "relocate_dst":
        return f"relocate to {pyr(move.a)} L1"
    if kind == "free_block":
        return f"free block to {pyr(move.a)}"
    if kind == "appoint":
        return f"start player +{move.a}"
    if kind == "place":
        return f"place {pyr(move.a)} L{move.b + 1}"
    if kind == "bid":
        return f"bid {move.a}"
    if kind == "blue_choose":
        return f"take blue {BLUE_NAMES[move.a]}"
    if kind == "plus2":
        return f"+2 points at q{move.a}"
    if kind == "joker":
        return f"joker as {GREEN_NAMES[JOKER_GREEN[move.a]]}"
    return {
        "worker_pass": "pass workers",
        "minus3_none": "-3 no target",
        "relocate_decline": "relocate decline",
        "free_block_decline": "free block decline",
        "double_pay": "double move (pay)",
        "double_free": "double move (free)",
        "pass_pay": "pass (pay)",
        "pass_free": "pass (free)",
        "forced_pass": "forced pass (+1 gold)",
        "plus2_decline": "+2 points decline",
        "joker_decline": "joker decline",
    }[kind]


# Short names for action strings (the full identifiers live in ``rules.config``).
GREEN_NAMES = ("PROTECT", "RELOCATE", "FREE_BLOCK", "FIRST_PLAYER", "TRANSPORT_PLUS_2", "FREE_PASS", "FREE_DOUBLE")
BLUE_NAMES = ("TRANSPORT_PLUS_4", "JOKER", "EXTRA_BLOCK", "PLUS_2_POINTS")


def _checked(value: int, limit: int, name: str) -> int:
    if not 0 <= value < limit:
        raise ValueError(f"{name} {value!r} out of range 0..{limit - 1}")
    return value
