"""One seeded random game, as the statistics tests collect it."""

from __future__ import annotations

from maya_envs.games import GAMES
from maya_envs.stats.collect import GameRecord, StatsConfig, collect


def one_random_game(key: str) -> GameRecord:
    """The record of one random game of ``key`` at its smallest player count (the per-game
    tests of rounds and turns read it)."""
    n = GAMES[key].player_counts[0]
    (r,) = collect(StatsConfig(key, {"num_players": n}, ("random",) * n, hidden_games=0), 1)
    return r
