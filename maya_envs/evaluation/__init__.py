"""Evaluation: matches and arenas with seats rotated, win rates with confidence intervals, ratings."""

from maya_envs.evaluation.arena import (
    AgentStats,
    ArenaResult,
    MatchResult,
    checkpoint_name,
    play_arena,
    play_match,
    resolve_agent,
    seating_plan,
)
from maya_envs.evaluation.stats import wilson_interval

__all__ = [
    "AgentStats",
    "ArenaResult",
    "MatchResult",
    "checkpoint_name",
    "play_arena",
    "play_match",
    "resolve_agent",
    "seating_plan",
    "wilson_interval",
]
