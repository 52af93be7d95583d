"""Evaluation: head-to-head matches with seats rotated, win rates with confidence intervals."""

from maya_envs.evaluation.arena import MatchResult, play_match
from maya_envs.evaluation.stats import wilson_interval

__all__ = ["MatchResult", "play_match", "wilson_interval"]
