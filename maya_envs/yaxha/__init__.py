"""Yaxha (Helvetiq, 2024), 2-4 players: pure rules, observation, PettingZoo envs, bots.

See :mod:`maya_envs.yaxha.rules` for every rule decision and :mod:`maya_envs.yaxha_v1` for
the PettingZoo entry points.
"""

from maya_envs.yaxha.rules import YaxhaConfig, YaxhaRules, YaxhaState

__all__ = ["YaxhaConfig", "YaxhaRules", "YaxhaState"]
