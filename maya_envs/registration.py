"""Gymnasium registration, derived from the game table (:mod:`maya_envs.games`).

Importing :mod:`maya_envs` calls :func:`register_envs`; registering twice is a no-op.
"""

from __future__ import annotations

import gymnasium

from maya_envs.games import GAMES

ENTRY_POINT = "maya_envs.wrappers.single_agent:make_single_agent_env"
"""The one single-agent factory; each id passes its game's key as ``game=``."""

ENV_IDS: dict[str, str] = {game.gym_id: game.key for game in GAMES.values()}
"""Gymnasium id -> game key, one per entry of :data:`maya_envs.games.GAMES`."""


def register_envs() -> None:
    """Register every id in :data:`ENV_IDS` with Gymnasium (idempotent)."""
    for env_id, key in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs={"game": key}, disable_env_checker=False)
