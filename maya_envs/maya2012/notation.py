"""Maya (2012): the move as a seat may see it (see :mod:`maya_envs.notation`).

Every action is public: exchanges, the Monolith, the Raven and draft placements are made on
the board in view of everyone, and the declare/continue decision is said aloud (with
``declare_step="eligible"`` the turn order already shows who is offered it, issue 23). So
every seat reads the full notation of :mod:`maya_envs.maya2012.actions`.
"""

from __future__ import annotations

from typing import Any

from maya_envs.maya2012 import actions as A


def describe_action(rules: Any, state: Any, action: int, actor: int, viewer: int | None) -> str:
    """The notation of ``action`` (nothing in a Maya (2012) move is hidden)."""
    return A.action_to_string(action)


END_REASONS = {
    "declared": "a player declared the end",
    "no_legal_exchange": "the player to move had no legal exchange",
    "max_turns": "the exchange limit (max_turns) was reached",
}


def end_reason(rules: Any, state: Any, info: Any) -> str:
    """Why a finished game ended, in words, from its final ``info`` (:mod:`maya_envs.captions`)."""
    if info.get("truncated"):
        return "truncated at the exchange limit"
    if info.get("end") == "declared" and info.get("declared_by") is not None:
        return f"player_{info['declared_by']} declared the end"
    return END_REASONS.get(info.get("end"), str(info.get("end")))


def public_scores(rules: Any, state: Any) -> str:
    """Two players: the victory points now (all public); 3-4 players: ``""`` (they depend on
    the hidden task cards)."""
    if rules.spec.num_players != 2:
        return ""
    points = rules.final_info(state)["victory_points"]
    return "victory points now: " + ", ".join(f"player_{s} {p}" for s, p in enumerate(points))
