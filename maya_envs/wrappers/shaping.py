"""Potential-based reward shaping (Ng, Harada & Russell, 1999) for the single-agent view.

With a potential ``phi(state, seat)`` the learner's reward for a decision becomes
``r + scale * (gamma * phi(s') - phi(s))``, where ``s`` is the state at the learner's
decision and ``s'`` the state at its next decision (after the opponents replied); at the end
of the episode ``phi(s') = 0``. Shaping of this form leaves the optimal policy unchanged, so
the game's own result stays the objective; it only gives earlier credit. Off unless asked for.

Each game names its potential in :data:`POTENTIALS` (``env_id -> "module:function"``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

POTENTIALS: dict[str, str] = {
    "maya_envs/Maya2012-v1": "maya_envs.maya2012.shaping:victory_point_margin",
}

Potential = Callable[[Any, int], float]


def load_potential(env_id: str) -> Potential:
    """The potential function registered for ``env_id``.

    Raises:
        ValueError: no potential is registered for ``env_id``.
    """
    if env_id not in POTENTIALS:
        raise ValueError(f"no shaping potential for {env_id!r}; available for: {sorted(POTENTIALS)}")
    module, name = POTENTIALS[env_id].split(":")
    return getattr(importlib.import_module(module), name)
