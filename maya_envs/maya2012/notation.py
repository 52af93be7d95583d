"""Maya (2012): the move as a seat may see it (see :mod:`maya_envs.notation`).

Every action is public: exchanges, the Monolith, the Raven and draft placements are made on
the board in view of everyone, and the declare/continue decision is said aloud (with the
default ``declare_step="possible"`` every mover is offered it once the board allows a
declaration, so ``continue`` tells nothing; with the leaking option ``"eligible"`` the turn
order already shows who is offered it, issue 23). So every seat reads the full notation of
:mod:`maya_envs.maya2012.actions`.
"""

from __future__ import annotations

from typing import Any

from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import DRAFT, EXCHANGE, PHASE_NAMES, draft_towers


def describe_action(rules: Any, state: Any, action: int, actor: int, viewer: int | None) -> str:
    """The notation of ``action`` (nothing in a Maya (2012) move is hidden)."""
    return A.action_to_string(action)


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


END_REASONS = {
    "declared": "player_{declared} declared the end (section 7)",
    "no_legal_exchange": "the player to move had no legal exchange (section 4)",
    "max_turns": "{turns} turns were played (the max_turns limit)",
}


def describe_end(rules: Any, state: Any) -> tuple[str, str]:
    """(why the game ended, the victory points) of a finished game."""
    info = rules.final_info(state)
    reason = END_REASONS[info["end"]].format(declared=info.get("declared_by"), turns=info["turns"])
    points = ", ".join(f"player_{s} {v}" for s, v in enumerate(info["victory_points"]))
    return reason, f"victory points: {points}"
