"""Yaxha: the move as a seat may see it (see :mod:`maya_envs.notation`).

Hidden parts of a move (decision 11, :mod:`maya_envs.yaxha.observation`):

* the tile choice while choices are being collected is secret until all are in:
  ``"pick tile ?"`` (a pending pick after a clash is public);
* the building is simultaneous: a seat's cubes placed this round stay hidden until the
  round's building ends, and so does whether a step was a placement or a discard:
  ``"cube ? (hidden until the building ends)"``.
"""

from __future__ import annotations

from typing import Any

from maya_envs.yaxha.rules import BUILD, SELECT


def describe_action(rules: Any, state: Any, action: int, actor: int, viewer: int | None) -> str:
    """The notation of ``action``, or its public part for a ``viewer`` other than ``actor``."""
    full = rules.action_to_string(action)
    if viewer is None or viewer == actor:
        return full
    if state.phase == SELECT:
        return "pick tile ?"
    if state.phase == BUILD:
        return "cube ? (hidden until the building ends)"
    return full


def end_reason(rules: Any, state: Any, info: Any) -> str:
    """Why a finished game ended, in words (:mod:`maya_envs.captions`): always the last round."""
    return "the tenth round was built and scored"
