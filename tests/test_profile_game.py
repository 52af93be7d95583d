"""``benchmarks/profile_game.py`` profiles a game's rules engine and AEC loop and prints the
costliest functions (no timing assertions: only that the game's own code is in the profile)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from maya_envs.games import DEFAULT_GAME

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "profile_game.py"


@pytest.mark.parametrize("kind", ["rules", "aec"])
def test_profile_lists_the_games_own_functions(kind):
    game = DEFAULT_GAME
    players = str(game.player_counts[-1])
    args = [sys.executable, str(SCRIPT), game.key, "--players", players, "--kind", kind, "--games", "1", "--top", "60"]
    out = subprocess.run(args, capture_output=True, text=True, check=True, timeout=120).stdout
    assert "function calls" in out and f"{game.key}/rules.py" in out
    if kind == "aec":
        assert f"{game.key}/observation.py" in out
