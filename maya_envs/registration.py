"""The one table of Gymnasium ids: id -> "module:callable" entry point, and the PettingZoo
registry entries.

Importing :mod:`maya_envs` calls :func:`register_envs`; registering twice is a no-op.

PettingZoo (1.27 and later) has its own registry: ``pettingzoo.make("aec",
"maya_envs/maya2012-v0")`` and ``pettingzoo.make("parallel", "maya_envs/yaxha-v0")``.
:data:`PETTINGZOO_IDS` lists one ``("aec" | "parallel", id)`` per PettingZoo module
``maya_envs/<game>_vN.py`` (``"parallel"`` where it defines ``parallel_env``), found without
importing the game modules. With an older PettingZoo that has no registry nothing is
registered there (the modules' ``env()`` works as before).
"""

from __future__ import annotations

import re
from pathlib import Path

import gymnasium

ENV_IDS: dict[str, str] = {
    "maya_envs/Maya2012-v1": "maya_envs.maya2012.single_agent:make_single_agent_env",
    "maya_envs/MayaQuarry-v1": "maya_envs.maya_quarry.single_agent:make_single_agent_env",
    "maya_envs/Yaxha-v1": "maya_envs.yaxha.single_agent:make_single_agent_env",
}


_PACKAGE = Path(__file__).resolve().parent


def _pettingzoo_entries() -> dict[tuple[str, str], str]:
    entries = {}
    for path in sorted(_PACKAGE.glob("*_v[0-9]*.py")):
        match = re.fullmatch(r"(\w+)_v(\d+)", path.stem)
        if not match:
            continue
        env_id = f"maya_envs/{match[1]}-v{match[2]}"
        entries["aec", env_id] = f"maya_envs.{path.stem}:env"
        if re.search(r"\bparallel_env\b", path.read_text(encoding="utf-8")):
            entries["parallel", env_id] = f"maya_envs.{path.stem}:parallel_env"
    return entries


PETTINGZOO_ENTRIES: dict[tuple[str, str], str] = _pettingzoo_entries()
PETTINGZOO_IDS: list[tuple[str, str]] = list(PETTINGZOO_ENTRIES)


def register_envs() -> None:
    """Register every id in :data:`ENV_IDS` with Gymnasium and every entry of
    :data:`PETTINGZOO_IDS` with PettingZoo's registry where it has one (idempotent)."""
    for env_id, entry_point in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point, disable_env_checker=False)
    try:
        from pettingzoo import aec_registry, parallel_registry, register
    except ImportError:  # PettingZoo < 1.27: no registry
        return
    registries = {"aec": aec_registry, "parallel": parallel_registry}
    for (kind, env_id), entry_point in PETTINGZOO_ENTRIES.items():
        if env_id not in registries[kind]:
            register(kind, env_id, entry_point=entry_point)
