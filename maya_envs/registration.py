"""The one table of Gymnasium ids: id -> "module:callable" entry point.

Importing :mod:`maya_envs` calls :func:`register_envs`; registering twice is a no-op.
"""

from __future__ import annotations

import gymnasium

ENV_IDS: dict[str, str] = {
    "maya_envs/Maya2012-v1": "maya_envs.maya2012.single_agent:make_single_agent_env",
    "maya_envs/MayaQuarry-v0": "maya_envs.maya_quarry.single_agent:make_single_agent_env",
    "maya_envs/Yaxha-v1": "maya_envs.yaxha.single_agent:make_single_agent_env",
}


def register_envs() -> None:
    """Register every id in :data:`ENV_IDS` with Gymnasium (idempotent)."""
    for env_id, entry_point in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point, disable_env_checker=False)
