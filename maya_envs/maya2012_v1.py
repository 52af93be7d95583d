"""PettingZoo module for Maya (2012): ``env()`` and ``raw_env()``.

See :mod:`maya_envs.maya2012.env` for the spec card.
"""

from maya_envs.maya2012.env import Maya2012Env, env, raw_env

__all__ = ["Maya2012Env", "env", "raw_env"]
