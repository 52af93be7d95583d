"""Maya (2012): the move as a seat may see it (see :mod:`maya_envs.notation`).

Every action is public: exchanges, the Monolith, the Raven and draft placements are made on
the board in view of everyone, and the declare/continue decision is said aloud (with the
default ``declare_step="possible"`` every mover is offered it once the board allows a
declaration, so ``continue`` tells nothing; with the leaking option ``"eligible"`` the turn
order already shows who is offered it, issue 23). So every seat reads the whole move: the
notation of :mod:`maya_envs.maya2012.actions`, and after an exchange where it moved the
Monolith and (2 players) the Raven (rules section 4: the Monolith goes between the exchanged
towers; the Raven to the exchange's base level), e.g.
``"swap t0-t1 @L3; Monolith t3|t4 -> t0|t1, Raven L4 -> L3"``.
"""

from __future__ import annotations

import re
from typing import Any

from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import DRAFT, EXCHANGE, PHASE_NAMES, draft_towers


def describe_action(rules: Any, state: Any, action: int, actor: int, viewer: int | None) -> str:
    """The notation of ``action`` and, for an exchange, where the Monolith and (2 players) the
    Raven went (nothing in a Maya (2012) move is hidden)."""
    text = A.action_to_string(action)
    move = A.decode(action)
    if move.kind != "exchange":
        return text
    before = _monolith(state.monolith)
    moves = [f"Monolith {before} -> {_monolith(move.pair)}" if before else f"Monolith placed {_monolith(move.pair)}"]
    if rules.spec.num_players == 2:
        moves.append(f"Raven L{state.raven} -> L{move.level}")
    return f"{text}; {', '.join(moves)}"


def _monolith(pair: int) -> str:
    """``"t0|t1"``: where the Monolith of pair ``pair`` stands, ``""`` off the board (-1)."""
    if pair < 0:
        return ""
    a, b = A.PAIRS[pair]
    return f"t{a}|t{b}"


def public_scores(rules: Any, state: Any) -> str:
    """Two players: the victory points now (all public); 3-4 players: ``""`` (they depend on
    the hidden task cards)."""
    if rules.spec.num_players != 2:
        return ""
    points = rules.final_info(state)["victory_points"]
    return "victory points now: " + ", ".join(f"player_{s} {p}" for s, p in enumerate(points))


def why_illegal(rules: Any, state: Any, action: int) -> str | None:
    """Why ``action`` is not legal in ``state`` (rules section 4: the Monolith, the Raven and
    the no-split rule bar exchanges), or ``None`` to let the caller say it generally."""
    move = A.decode(action)
    phase = PHASE_NAMES[state.phase]
    if move.kind == "exchange":
        if state.phase != EXCHANGE:
            return f"no exchange now: this is the {phase} step"
        a, b = A.PAIRS[move.pair]
        if state.monolith >= 0 and {a, b} & set(A.PAIRS[state.monolith]):
            m0, m1 = A.PAIRS[state.monolith]
            beside = sorted({a, b} & {m0, m1})
            names = " and ".join(f"t{t}" for t in beside)
            verb = "stands" if len(beside) == 1 else "stand"
            return f"{names} {verb} beside the Monolith (t{m0}|t{m1}): towers next to it cannot be exchanged"
        if state.raven == move.level:
            return f"the Raven stands at level {state.raven}: no exchange from that level"
        for tower in (a, b):
            column = state.towers[tower]
            if column[move.level - 2] == column[move.level - 1]:
                return (
                    f"t{tower} has the same colour on levels {move.level - 1} and {move.level}: "
                    "an exchange may not split a joined colour"
                )
        return None
    if move.kind == "draft":
        if state.phase != DRAFT:
            return f"no draft placement now: this is the {phase} step"
        if move.tower not in draft_towers(state.towers, state.draft_block):
            return (
                f"the drawn block cannot go on t{move.tower}: full at this level, already holding that "
                "colour, or the level could then not be completed"
            )
        return None
    return f"no {A.action_to_string(action)} now: this is the {phase} step"


_SWAP = re.compile(r"swap t(\d+) ?- ?t(\d+) @ ?l(\d+)")
_MONOLITH = re.compile(r"monolith t(\d+) ?\| ?t(\d+)")
_RAVEN = re.compile(r"raven @ ?l(\d+)")
_DRAFT = re.compile(r"draft ?-> ?t(\d+)")


def read_move(rules: Any, text: str) -> int | str | None:
    """What ``text`` (lower case, single spaces) names in the notation's grammar: the action
    id (a pair written either way round: ``swap t1-t0 @L3`` is ``swap t0-t1 @L3``), or the
    rule that no action can be written so (rules section 4: towers 0-8, exchanges of two
    orthogonally adjacent towers from level 2-5, the Raven at level 2-5), or ``None`` when
    ``text`` is not in the grammar."""
    for pattern, kind in ((_SWAP, "exchange"), (_MONOLITH, "monolith"), (_RAVEN, "raven"), (_DRAFT, "draft")):
        found = pattern.fullmatch(text)
        if found:
            numbers = [int(g) for g in found.groups()]
            break
    else:
        return None
    if kind == "raven":
        return _level(numbers[0], "the Raven stands") or A.RAVEN_BASE + numbers[0] - 2
    towers = numbers[:2] if kind != "draft" else numbers[:1]
    for tower in towers:
        if tower >= A.NUM_TOWERS:
            return f"there is no tower t{tower}: towers are t0..t{A.NUM_TOWERS - 1} (row by row)"
    if kind == "draft":
        return A.DRAFT_BASE + towers[0]
    a, b = sorted(towers)
    if a == b:
        return f"t{a}-t{b} is one tower: the Monolith and an exchange go between two neighbouring towers"
    if (a, b) not in A.PAIRS:
        return (
            f"t{a} and t{b} are not neighbours: the Monolith and an exchange go between two orthogonally "
            "adjacent towers (section 4)"
        )
    pair = A.PAIRS.index((a, b))
    if kind == "monolith":
        return A.MONOLITH_BASE + pair
    return _level(numbers[2], "an exchange starts") or A.exchange_id(pair, numbers[2])


def _level(level: int, what: str) -> str:
    """The reason a level outside 2-5 is refused, ``""`` for 2-5."""
    if level in A.EXCHANGE_LEVELS:
        return ""
    if level == 1:
        return f"level 1 never moves: {what} at level 2-5 (section 4)"
    return f"there is no level {level}: towers have levels 1-{A.NUM_LEVELS}, and {what} at level 2-5"


#: Why a game ended, by ``final_info()["end"]`` (:data:`maya_envs.maya2012.rules.END_REASONS`),
#: formatted with the final info: the one wording of :func:`maya_envs.notation.end_reason`.
END_TEXTS = {
    "declared": "player_{declared_by} declared the end (section 7)",
    "no_legal_exchange": "the player to move had no legal exchange (section 4)",
    "max_turns": "{turns} turns were played (the max_turns limit)",
}


def final_scores(rules: Any, state: Any) -> str:
    """The victory points of a finished game."""
    points = ", ".join(f"player_{s} {v}" for s, v in enumerate(rules.final_info(state)["victory_points"]))
    return f"victory points: {points}"
