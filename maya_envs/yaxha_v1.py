"""PettingZoo module for Yaxha: ``env()``, ``raw_env()`` and ``parallel_env()``.

See :mod:`maya_envs.yaxha.env` for the spec card.
"""

from maya_envs.yaxha.env import YaxhaEnv, env, parallel_env, raw_env

__all__ = ["YaxhaEnv", "env", "parallel_env", "raw_env"]
