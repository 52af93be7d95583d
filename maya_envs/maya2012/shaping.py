"""Shaping potential for Maya (2012) training (see :mod:`maya_envs.wrappers.shaping`)."""

from __future__ import annotations

from maya_envs.maya2012.rules import victory_points


def victory_point_margin(state, seat: int) -> float:
    """``(my VP - best opponent VP) / 9``, in ``[-1, 1]`` for two players (9 towers)."""
    vp = victory_points(state)
    return (vp[seat] - max(v for s, v in enumerate(vp) if s != seat)) / 9.0
