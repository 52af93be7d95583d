"""training.results: the README results table from finished runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from maya_envs.games import DEFAULT_GAME, GAMES, find_game
from tests.conformance import ALL_CASES, shipped_ppo_baseline
from training.results import arena_agents, row

#: A shipped baseline whose training options name a variant (the row's game cell shows it).
NAME, INFO = shipped_ppo_baseline(lambda info: find_game(info.env_id).variant_option in info.game_options)
GAME = find_game(INFO.env_id)


def fake_run(tmp_path: Path, env_id: str = INFO.env_id, game_options: dict | None = None) -> Path:
    """A finished run's files (the shipped baseline's config unless ``env_id``/``game_options``)."""
    run = tmp_path / "run"
    (run / "arena").mkdir(parents=True)
    options = INFO.game_options if game_options is None else game_options
    (run / "config.yaml").write_text(yaml.safe_dump({"env_id": env_id, "game_options": options}))
    results = [
        {"opponent": "random", "win_rate": 0.935, "win_rate_ci95": [0.907, 0.9553]},
        {"opponent": "heuristic", "win_rate": 0.0425, "win_rate_ci95": [0.0267, 0.0670]},
    ]
    (run / "evaluation.json").write_text(
        json.dumps({"results": results, "total_timesteps": 100352, "train_seconds": 551.6})
    )
    ratings = {"agent": {"mu": 22.96}, "heuristic": {"mu": 38.2}, "random": {"mu": 18.8}}
    (run / "arena" / "arena.json").write_text(json.dumps({"openskill": ratings}))
    return run


def test_a_row_carries_the_runs_own_numbers(tmp_path):
    line = row(INFO.config, fake_run(tmp_path), arena_games=10)
    variant = INFO.game_options[GAME.variant_option]
    assert line == (
        f"| {GAME.short_title} {variant} | {INFO.num_players} | `{INFO.config}` | 100,352 | 552 | 93.5% [90.7%, 95.5%] "
        "| 4.2% [2.7%, 6.7%] | 23.0 / 38.2 |"
    )


@pytest.mark.parametrize("key", list(GAMES))
def test_the_game_cell_names_the_variant_by_the_games_own_option(tmp_path, key):
    """Each game names its variant under its own option (``Game.variant_option``): a run of its
    last variant shows that value in the game cell, and a run naming none shows the title only."""
    game = GAMES[key]
    last = list(game.hook("variants"))[-1]
    n = next(o["num_players"] for k, o in ALL_CASES if k == key and o[game.variant_option] == last)
    named = row("x", fake_run(tmp_path / "named", game.gym_id, {"num_players": n, game.variant_option: last}), 10)
    assert named.startswith(f"| {game.short_title} {last} | {n} |")
    plain = row("x", fake_run(tmp_path / "plain", game.gym_id, {"num_players": n}), 10)
    assert plain.startswith(f"| {game.short_title} | {n} |")


def test_a_run_without_its_evaluation_is_a_clear_error(tmp_path):
    run = fake_run(tmp_path)
    (run / "evaluation.json").unlink()
    with pytest.raises(ValueError, match=r"has no evaluation.json; is it a finished maya-train run"):
        row("x", run, arena_games=10)


@pytest.mark.parametrize(("players", "randoms"), [(2, 1), (3, 1), (4, 2), (5, 3)])
def test_the_arena_line_up_fills_a_table_with_random_bots(players, randoms):
    agents = arena_agents(Path("r"), players)
    assert agents[:2] == [f"agent={Path('r') / 'model.zip'}", "heuristic"]
    assert len(agents) - 2 == randoms and len(agents) >= min(players, 3)


def test_an_expert_iteration_run_shows_the_raw_network_and_the_search(tmp_path):
    run = fake_run(tmp_path)
    results = [
        {"candidate": "exit (raw)", "opponent": "heuristic", "win_rate": 0.5, "win_rate_ci95": [0.45, 0.55]},
        {"candidate": "exit (+32 sims)", "opponent": "heuristic", "win_rate": 0.9, "win_rate_ci95": [0.87, 0.92]},
    ]
    (run / "evaluation.json").write_text(json.dumps({"results": results, "positions": 1234, "train_seconds": 60}))
    (run / "model.pt").write_bytes(b"")
    line = row(f"{DEFAULT_GAME.key}/2p_exit", run, arena_games=10)
    assert "| 1,234 | 60 | - | raw 50.0% [45.0%, 55.0%]; +32 sims 90.0% [87.0%, 92.0%] |" in line
    assert arena_agents(run, 2)[0] == f"agent=policy:{run / 'model.pt'}"


def test_a_run_without_an_evaluation_shows_dashes(tmp_path):
    """``eval_games: 0``: ``evaluation.json`` has no results; the rate cells say ``-``."""
    run = fake_run(tmp_path)
    evaluation = json.loads((run / "evaluation.json").read_text())
    (run / "evaluation.json").write_text(json.dumps({**evaluation, "results": []}))
    assert "| 100,352 | 552 | - | - | 23.0 / 38.2 |" in row(INFO.config, run, arena_games=10)
