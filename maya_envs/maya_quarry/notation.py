"""Maya (quarry game): the move as a seat may see it (see :mod:`maya_envs.notation`).

Hidden parts of a move (rules file section 6, :mod:`maya_envs.maya_quarry.observation`):

* a worker card is played face down: the others see the quarry and the card's back (low for
  3, 4, 5; high for 6, 7, 8, -3), not its value: ``"worker q2 card ? (low back)"``;
* a bid (advanced variant) is sealed: the others read ``"bid ?"``.

Everything else (passes, -3 targets, markers, placements, blue markers) is done in view of
everyone and reads as its notation.
"""

from __future__ import annotations

from typing import Any

from maya_envs.maya_quarry import actions as A


def describe_action(rules: Any, state: Any, action: int, actor: int, viewer: int | None) -> str:
    """The notation of ``action``, or its public part for a ``viewer`` other than ``actor``."""
    full = rules.action_to_string(action)
    if viewer is None or viewer == actor:
        return full
    move = A.decode(action, rules.spec.num_actions)
    if move.kind == "worker":
        back = "low" if A.CARD_IS_LOW[move.b] else "high"
        return f"worker q{move.a} card ? ({back} back)"
    if move.kind == "bid":
        return "bid ?"
    return full


def end_reason(rules: Any, state: Any, info: Any) -> str:
    """Why a finished game ended, in words (:mod:`maya_envs.captions`): always the last scoring."""
    return "the third round was scored"


def public_scores(rules: Any, state: Any) -> str:
    """Every seat's gold (public)."""
    return "gold: " + ", ".join(f"player_{s} {g}" for s, g in enumerate(state.gold))
