"""Yaxha (Helvetiq, 2024), 2-4 players: pure rules, observation, PettingZoo envs, bots.

See :mod:`maya_envs.yaxha.rules` for every rule decision and the module
``maya_envs.yaxha_v<version>`` (the version in the game's table entry) for the PettingZoo entry
points.
"""

from maya_envs.yaxha.rules import YaxhaConfig, YaxhaRules, YaxhaState

__all__ = ["YaxhaConfig", "YaxhaRules", "YaxhaState"]
