"""Expert-iteration test helpers: a tiny run of the default game's exit config, synthetic
position rows, and a game played to its end by heuristic bots."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from maya_envs.bots.base import make_bot
from maya_envs.core.rng import make_rng
from maya_envs.games import DEFAULT_GAME, find_game
from tests.conformance import shipped_config, turn_cap
from training.exit.data import Positions
from training.train import main

EXIT = shipped_config(DEFAULT_GAME, "exit")  # the default game's first expert-iteration config


def cap_overrides(max_turns: int) -> list[str]:
    """``--set game_options.max_turns=N`` where the default game has a turn cap, else nothing."""
    return [arg for k, v in turn_cap(DEFAULT_GAME, max_turns).items() for arg in ("--set", f"game_options.{k}={v}")]


TINY = [
    # what the tests below check, pinned here rather than taken from the shipped recipe (which may
    # use a rollout-search teacher, a fixed leaf or another name)
    "--set", "exp_name=exit", "--set", "exit.imitation=heuristic", "--set", "exit.leaf_value=auto",
    "--set", "exit.hidden=128", "--set", "exit.search={}", "--set", "eval_opponents=[random, heuristic]",
    "--set", "exit.iterations=1", "--set", "exit.imitation_games=4", "--set", "exit.imitation_epochs=1",
    "--set", "exit.games_per_iteration=2", "--set", "exit.games_in_flight=2", "--set", "exit.simulations=4",
    "--set", "exit.gate_games=2", "--set", "exit.eval_simulations=2", "--set", "exit.actors=1",
    "--set", "eval_games=2", "--set", "n_epochs=1", "--set", "progress_bar=false",
    *cap_overrides(16),  # short games: a turn cap ends them
]  # fmt: skip


def run_exit(tmp_path: Path, *extra: str) -> Path:
    tmp_path.mkdir(exist_ok=True)
    before = set(tmp_path.iterdir())
    assert main(["--config", EXIT, *TINY, "--set", f"output_dir={tmp_path}", *extra]) == 0
    (run_dir,) = set(tmp_path.iterdir()) - before
    return run_dir


def synthetic_positions(games: list[int], actions_per_row: int = 2, values=(1.0, -1.0)) -> Positions:
    """Synthetic rows, one per entry of ``games`` (its game id); the board's first entry is the
    row's index, so a row can be traced through the window."""
    n = len(games)
    offsets = np.arange(n + 1, dtype=np.int64) * actions_per_row
    return Positions(
        boards=np.stack([np.arange(n), np.zeros(n)], axis=1).astype(np.float16),
        actions=np.tile(np.arange(actions_per_row, dtype=np.int64), n),
        features=np.zeros((n * actions_per_row, 1), np.float16),
        policies=np.full(n * actions_per_row, 1.0 / actions_per_row, np.float32),
        offsets=offsets,
        seats=np.arange(n, dtype=np.int64) % 2,
        values=np.tile(np.asarray(values, np.float32), (n, 1)),
        games=np.asarray(games, np.int64),
    )


def finished(key: str, n: int, seed: int = 0, **options):
    """A game of ``key`` at ``n`` players played to its end by heuristic bots: (rules, state)."""
    rules = find_game(key).make_rules({"num_players": n, **options})
    rng = make_rng(seed)
    bots = [make_bot("heuristic", rules, make_rng(seed * 10 + seat)) for seat in range(n)]
    state = rules.initial_state(rng)
    while rules.current_player(state) >= 0:
        state = rules.apply_action(state, bots[rules.current_player(state)].act(state), rng)
    return rules, state
