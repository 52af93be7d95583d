"""PettingZoo module for Maya (Abacusspiele 2003): ``env()`` and ``raw_env()``.

See :mod:`maya_envs.maya_quarry.env` for the spec card.
"""

from maya_envs.maya_quarry.env import MayaQuarryEnv, env, raw_env

__all__ = ["MayaQuarryEnv", "env", "raw_env"]
