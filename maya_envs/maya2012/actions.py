"""Maya (2012) action table: one ``Discrete(75)`` space for every player count and phase.

The ids are fixed so that outside code can rely on them.

Towers are numbered 0-8 row-major on the 3x3 board::

    0 1 2
    3 4 5
    6 7 8

The 12 orthogonally adjacent pairs, in this order, are the pair indices ``p = 0..11``::

    p:    0      1      2      3      4      5      6      7      8      9      10     11
        (0,1)  (0,3)  (1,2)  (1,4)  (2,5)  (3,4)  (3,6)  (4,5)  (4,7)  (5,8)  (6,7)  (7,8)

=========  =====  ================================================  ==================
ids        count  meaning                                           notation
=========  =====  ================================================  ==================
0-47       48     exchange of pair ``p`` from base level ``k``      ``swap t0-t1 @L3``
                  (2-5): ``4*p + (k-2)``; moves levels k..5
48-59      12     setup: place the Monolith between pair ``p``     ``monolith t0|t1``
                  (``48 + p``)
60-63      4      setup: set the Raven at level ``k`` (``58 + k``)  ``raven @L4``
64         1      declare the end of the game (3-4 players)         ``declare end``
65         1      continue without declaring (3-4 players)          ``continue``
66-74      9      drafted setup: put the drawn block on tower       ``draft -> t5``
                  ``t`` (``66 + t``)
=========  =====  ================================================  ==================

Source: the exchange ids are fixed by issue 2; rules section 4 of
``shared/rules/maya2012.md`` defines pairs and levels.
"""

from __future__ import annotations

from dataclasses import dataclass

PAIRS: tuple[tuple[int, int], ...] = (
    (0, 1), (0, 3), (1, 2), (1, 4), (2, 5), (3, 4),
    (3, 6), (4, 5), (4, 7), (5, 8), (6, 7), (7, 8),
)  # fmt: skip
NUM_TOWERS = 9
NUM_LEVELS = 5
EXCHANGE_LEVELS = (2, 3, 4, 5)

NUM_EXCHANGES = 4 * len(PAIRS)  # 48
MONOLITH_BASE = NUM_EXCHANGES  # 48..59
RAVEN_BASE = MONOLITH_BASE + len(PAIRS)  # 60..63
DECLARE_END = RAVEN_BASE + len(EXCHANGE_LEVELS)  # 64
CONTINUE = DECLARE_END + 1  # 65
DRAFT_BASE = CONTINUE + 1  # 66..74
NUM_ACTIONS = DRAFT_BASE + NUM_TOWERS  # 75


@dataclass(frozen=True)
class Move:
    """A decoded action.

    Attributes:
        kind: ``"exchange"``, ``"monolith"``, ``"raven"``, ``"declare"``, ``"continue"`` or
            ``"draft"``.
        pair: pair index 0-11 (exchange, monolith), else ``None``.
        level: base level 2-5 (exchange) or Raven level 2-5 (raven), else ``None``.
        tower: tower 0-8 (draft), else ``None``.
    """

    kind: str
    pair: int | None = None
    level: int | None = None
    tower: int | None = None


def exchange_id(pair: int, level: int) -> int:
    """Action id of the exchange of pair ``pair`` (0-11) from base level ``level`` (2-5)."""
    return 4 * pair + (level - 2)


def encode(move: Move) -> int:
    """Action id of ``move``.

    Raises:
        ValueError: the move's kind or fields are outside the table.
    """
    kind = move.kind
    if kind == "exchange" and _in(move.pair, 0, 11) and _in(move.level, 2, 5):
        return exchange_id(move.pair, move.level)
    if kind == "monolith" and _in(move.pair, 0, 11):
        return MONOLITH_BASE + move.pair
    if kind == "raven" and _in(move.level, 2, 5):
        return RAVEN_BASE + move.level - 2
    if kind == "declare":
        return DECLARE_END
    if kind == "continue":
        return CONTINUE
    if kind == "draft" and _in(move.tower, 0, 8):
        return DRAFT_BASE + move.tower
    raise ValueError(f"cannot encode {move!r}: see the action table in maya_envs.maya2012.actions")


def decode(action: int) -> Move:
    """The :class:`Move` of action id ``action``.

    Raises:
        ValueError: ``action`` is not in ``0..74``.
    """
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action!r} is out of range: allowed ids are 0..{NUM_ACTIONS - 1}")
    if action < NUM_EXCHANGES:
        return Move("exchange", pair=action // 4, level=action % 4 + 2)
    if action < RAVEN_BASE:
        return Move("monolith", pair=action - MONOLITH_BASE)
    if action < DECLARE_END:
        return Move("raven", level=action - RAVEN_BASE + 2)
    if action == DECLARE_END:
        return Move("declare")
    if action == CONTINUE:
        return Move("continue")
    return Move("draft", tower=action - DRAFT_BASE)


def action_to_string(action: int) -> str:
    """Readable notation of ``action`` (see the table above)."""
    move = decode(action)
    if move.kind == "exchange":
        a, b = PAIRS[move.pair]
        return f"swap t{a}-t{b} @L{move.level}"
    if move.kind == "monolith":
        a, b = PAIRS[move.pair]
        return f"monolith t{a}|t{b}"
    if move.kind == "raven":
        return f"raven @L{move.level}"
    if move.kind == "declare":
        return "declare end"
    if move.kind == "continue":
        return "continue"
    return f"draft -> t{move.tower}"


def _in(value: int | None, low: int, high: int) -> bool:
    return isinstance(value, int) and low <= value <= high
