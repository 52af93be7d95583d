"""Gymnasium and PettingZoo registration, derived from the game table (:mod:`maya_envs.games`).

Importing :mod:`maya_envs` calls :func:`register_envs`; registering twice is a no-op.

PettingZoo (1.27 and later) has its own registry: ``pettingzoo.make("aec",
"maya_envs/maya2012-v1")`` and ``pettingzoo.make("parallel", "maya_envs/yaxha-v1")``.
:data:`PETTINGZOO_IDS` lists one ``("aec" | "parallel", id)`` per game's PettingZoo module
(``"parallel"`` where it defines ``parallel_env``), found without importing the game modules.
With an older PettingZoo that has no registry nothing is registered there (the modules'
``env()`` works as before).

The old ids of a renamed env (:data:`maya_envs.games.RENAMED_ENVS`: ``maya_envs/Maya2012-v0``,
PettingZoo's ``maya_envs/maya2012-v0``) are registered too, as :data:`RENAMED_IDS`, each to a
creator that raises :class:`RenamedEnvIdError` naming the new id and what changed (README
"Versions"), instead of Gymnasium's generic "deprecated" line or PettingZoo's
``VersionNotFound``.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import gymnasium

from maya_envs.games import GAMES, RENAMED_ENVS

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


class RenamedEnvIdError(gymnasium.error.DeprecatedEnv):
    """``gym.make`` / ``pettingzoo.make`` of an id an env no longer has; the message names the
    new id and what changed (a :class:`gymnasium.error.DeprecatedEnv`, so code that catches
    Gymnasium's error still does)."""


def _renamed_ids() -> dict[str, tuple[str, str]]:
    """Old id -> (new id, what changed), for the Gymnasium id and the PettingZoo ids of each
    entry of :data:`~maya_envs.games.RENAMED_ENVS` (``<key>_v0`` -> ``<key>_v1``)."""
    out = {}
    for old_module, (new_module, change) in RENAMED_ENVS.items():
        key, old = re.fullmatch(r"(.+)_v(\d+)", old_module).groups()
        game, new = GAMES[key], new_module.rpartition("_v")[2]
        out[f"maya_envs/{game.gym_name}-v{old}"] = (f"maya_envs/{game.gym_name}-v{new}", change)
        out[f"maya_envs/{key}-v{old}"] = (f"maya_envs/{key}-v{new}", change)
    return out


RENAMED_IDS: dict[str, tuple[str, str]] = _renamed_ids()
"""Old Gymnasium and PettingZoo id -> (new id, what changed)."""


def _refuse_renamed(old_id: str, **_options) -> None:
    """The creator of an old id: raises :class:`RenamedEnvIdError`."""
    new_id, change = RENAMED_IDS[old_id]
    how = f"gymnasium.make({new_id!r})" if new_id in ENV_IDS else f"pettingzoo.make('aec' or 'parallel', {new_id!r})"
    raise RenamedEnvIdError(f"{old_id} was renamed {new_id} (what changed: {change}; README 'Versions'): use {how}")


def register_envs() -> None:
    """Register every id in :data:`ENV_IDS` with Gymnasium and every entry of
    :data:`PETTINGZOO_IDS` with PettingZoo's registry where it has one (idempotent)."""
    for env_id, key in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs={"game": key}, disable_env_checker=False)
    for old_id in RENAMED_IDS:
        if old_id.lower() != old_id and old_id not in gymnasium.registry:  # Gymnasium ids are CamelCase
            gymnasium.register(id=old_id, entry_point=functools.partial(_refuse_renamed, old_id))
    try:
        from pettingzoo import aec_registry, parallel_registry, register
    except ImportError:  # PettingZoo < 1.27: no registry
        return
    registries = {"aec": aec_registry, "parallel": parallel_registry}
    for (kind, env_id), entry_point in PETTINGZOO_ENTRIES.items():
        if env_id not in registries[kind]:
            register(kind, env_id, entry_point=entry_point)
        old_id = next((old for old, (new, _) in RENAMED_IDS.items() if new == env_id), None)
        if old_id is not None and old_id not in registries[kind]:
            register(kind, old_id, entry_point=functools.partial(_refuse_renamed, old_id))
