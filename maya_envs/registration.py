"""Gymnasium and PettingZoo registration, derived from the game table (:mod:`maya_envs.games`).

Importing :mod:`maya_envs` calls :func:`register_envs`; registering twice is a no-op. A config's
``env_id`` may leave the version out (``maya_envs/<gym_name>``): :func:`resolve_env_id` names
the registered id it means.

PettingZoo (1.27 and later) has its own registry: ``pettingzoo.make("aec",
"maya_envs/<key>-v<version>")`` and, for a game with a Parallel env, ``pettingzoo.make("parallel",
...)`` with the same id.
:data:`PETTINGZOO_IDS` lists one ``("aec" | "parallel", id)`` per game's PettingZoo module
(``"parallel"`` where it defines ``parallel_env``), found without importing the game modules.
``pettingzoo.make("parallel", id)`` of a game without one (its seats move one at a time) raises
:class:`NoParallelApiError` saying so, not PettingZoo's "not found in registry".
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
from typing import Any

import gymnasium

from maya_envs.core.errors import ConfigError, shorten
from maya_envs.games import GAMES, RENAMED_ENVS, renamed_to

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


class NoParallelApiError(ValueError):
    """``pettingzoo.make("parallel", id)`` of a game that has only the AEC API; the message
    names the id and what is allowed."""


AEC_ONLY_IDS: list[str] = [
    env_id for kind, env_id in PETTINGZOO_ENTRIES if ("parallel", env_id) not in PETTINGZOO_ENTRIES
]
"""PettingZoo ids of the games with no Parallel env (registered in PettingZoo's parallel
registry only to raise :class:`NoParallelApiError`)."""


def _refuse_parallel(env_id: str, **_options) -> None:
    """The Parallel creator of an AEC-only game: raises :class:`NoParallelApiError`."""
    parallel = [i for kind, i in PETTINGZOO_ENTRIES if kind == "parallel"]
    raise NoParallelApiError(
        f"{shorten(env_id)}: this game has no Parallel API (its seats move one at a time, each move deciding who "
        f"moves next); allowed: pettingzoo.make('aec', {shorten(env_id)}), or pettingzoo.make('parallel', id) "
        f"with id one of {parallel}"
    )


def _renamed_ids() -> dict[str, tuple[str, str]]:
    """Old id -> (new id, what changed), for the Gymnasium id and the PettingZoo ids of each
    entry of :data:`~maya_envs.games.RENAMED_ENVS` (``<key>_v0`` -> ``<key>_v1``)."""
    out = {}
    for old_module in RENAMED_ENVS:
        new_module, change = renamed_to(old_module)
        key, old = re.fullmatch(r"(.+)_v(\d+)", old_module).groups()
        game, new = GAMES[key], new_module.rpartition("_v")[2]
        out[f"maya_envs/{game.gym_name}-v{old}"] = (f"maya_envs/{game.gym_name}-v{new}", change)
        out[f"maya_envs/{key}-v{old}"] = (f"maya_envs/{key}-v{new}", change)
    return out


RENAMED_IDS: dict[str, tuple[str, str]] = _renamed_ids()
"""Old Gymnasium and PettingZoo id -> (new id, what changed)."""


VERSIONLESS_IDS: dict[str, str] = {game.versionless_gym_id: game.gym_id for game in GAMES.values()}
"""Versionless Gymnasium id (``maya_envs/<gym_name>``) -> the game's current id in :data:`ENV_IDS`."""


def resolve_env_id(env_id: Any) -> str:
    """The registered Gymnasium id (one of :data:`ENV_IDS`) that ``env_id`` names: a versionless
    id (``maya_envs/<gym_name>``, :data:`VERSIONLESS_IDS`) is the game's current id, a current
    versioned id is itself.

    Configs write the versionless id so that a version bump (the game's entry in
    :data:`maya_envs.games.GAMES`) edits none of them, and a versioned one keeps working for old
    configs and users. The id is resolved here rather than handed to ``gymnasium.make`` as is:
    Gymnasium would take the highest registered version too, but it warns on every make (an
    error where warnings are errors), and what a run records (its ``config.yaml``, its run
    directory ``<gym_name>-v<N>__<exp>__<seed>__<time>``, a published model's ``env_id``) must
    name the version it trained on, so that after a bump an old run is not silently read as the
    new env.

    Raises:
        ConfigError: ``env_id`` is not a string, the old id of a renamed env (the message names
            the new id and what changed), a version the game does not have, or no game's id;
            every message names the value and lists the allowed ids.
    """
    reason = ""
    if isinstance(env_id, str):  # a YAML list or mapping is not hashable: no lookups for it
        if env_id in ENV_IDS:
            return env_id
        if env_id in VERSIONLESS_IDS:
            return VERSIONLESS_IDS[env_id]
        versioned = re.fullmatch(r"(.+)-v(\d+)", env_id)
        if env_id in RENAMED_IDS:
            new_id, change = RENAMED_IDS[env_id]
            reason = f" was renamed {shorten(new_id)} (what changed: {change}; README 'Versions')"
        elif versioned and versioned[1] in VERSIONLESS_IDS:
            base, version = versioned.groups()
            reason = f": {base} has no version v{version} (current: {shorten(VERSIONLESS_IDS[base])})"
    raise ConfigError(f"env_id={shorten(env_id)}{reason}; allowed: {sorted([*VERSIONLESS_IDS, *ENV_IDS])}")


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
        for old_id in (old for old, (new, _) in RENAMED_IDS.items() if new == env_id):  # every older version
            if old_id not in registries[kind]:
                register(kind, old_id, entry_point=functools.partial(_refuse_renamed, old_id))
    for env_id in AEC_ONLY_IDS:
        if env_id not in parallel_registry:
            register("parallel", env_id, entry_point=functools.partial(_refuse_parallel, env_id))
