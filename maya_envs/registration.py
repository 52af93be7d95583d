"""Gymnasium and PettingZoo registration, derived from the game table (:mod:`maya_envs.games`).

Importing :mod:`maya_envs` calls :func:`register_envs`; registering twice is a no-op.

PettingZoo (1.27 and later) has its own registry: ``pettingzoo.make("aec",
"maya_envs/maya2012-v1")`` and ``pettingzoo.make("parallel", "maya_envs/yaxha-v1")``.
:data:`PETTINGZOO_IDS` lists one ``("aec" | "parallel", id)`` per game's PettingZoo module
(``"parallel"`` where it defines ``parallel_env``), found without importing the game modules.
With an older PettingZoo that has no registry nothing is registered there (the modules'
``env()`` works as before).
"""

from __future__ import annotations

import re
from pathlib import Path

import gymnasium

from maya_envs.games import GAMES

ENTRY_POINT = "maya_envs.wrappers.single_agent:make_single_agent_env"
"""The one single-agent factory; each id passes its game's key as ``game=``."""

ENV_IDS: dict[str, str] = {game.gym_id: game.key for game in GAMES.values()}
"""Gymnasium id -> game key, one per entry of :data:`maya_envs.games.GAMES`."""

_PACKAGE = Path(__file__).resolve().parent


def _pettingzoo_entries() -> dict[tuple[str, str], str]:
    entries = {}
    for game in GAMES.values():
        env_id = f"maya_envs/{game.key}-v{game.version}"
        entries["aec", env_id] = f"{game.env_module}:env"
        source = (_PACKAGE / f"{game.name}.py").read_text(encoding="utf-8")
        if re.search(r"\bparallel_env\b", source):
            entries["parallel", env_id] = f"{game.env_module}:parallel_env"
    return entries


PETTINGZOO_ENTRIES: dict[tuple[str, str], str] = _pettingzoo_entries()
PETTINGZOO_IDS: list[tuple[str, str]] = list(PETTINGZOO_ENTRIES)


def register_envs() -> None:
    """Register every id in :data:`ENV_IDS` with Gymnasium and every entry of
    :data:`PETTINGZOO_IDS` with PettingZoo's registry where it has one (idempotent)."""
    for env_id, key in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs={"game": key}, disable_env_checker=False)
    try:
        from pettingzoo import aec_registry, parallel_registry, register
    except ImportError:  # PettingZoo < 1.27: no registry
        return
    registries = {"aec": aec_registry, "parallel": parallel_registry}
    for (kind, env_id), entry_point in PETTINGZOO_ENTRIES.items():
        if env_id not in registries[kind]:
            register(kind, env_id, entry_point=entry_point)
