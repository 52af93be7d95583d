"""The main job (``scripts/main.sh``, the default game's ``<n>p_main`` config): training bounded
by work, not by the clock (the same seed gives the same network on a slow machine), and its
evaluation (progress lines with the running win rate, a row written per finished match, the
network with search against its own list of bots, no checkpoint)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

from maya_envs.core.errors import ConfigError
from maya_envs.games import DEFAULT_GAME
from maya_envs.nn.model import load_network
from tests.conformance import shipped_config, turn_cap
from training.config import load_config
from training.exit.evaluation import ROWS_FILE
from training.train import main

ROOT = Path(__file__).resolve().parent.parent
MAIN = shipped_config(DEFAULT_GAME, "main")


def tiny(out: Path, *extra: str) -> list[str]:
    """The main config at a tiny scale (its own settings otherwise, ``max_seconds`` included)."""
    cap = [arg for k, v in turn_cap(DEFAULT_GAME, 12).items() for arg in ("--set", f"game_options.{k}={v}")]
    return [
        "--config", MAIN, "--set", "exit.iterations=2", "--set", "exit.imitation_games=4",
        "--set", "exit.games_per_iteration=2", "--set", "exit.games_in_flight=2", "--set", "exit.simulations=2",
        "--set", "exit.eval_simulations=2", "--set", "exit.actors=1", "--set", "progress_bar=false",
        "--set", f"output_dir={out}", *cap, *extra,
    ]  # fmt: skip


def run(out: Path, *extra: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    assert main(tiny(out, *extra)) == 0
    (run_dir,) = out.iterdir()
    return run_dir


def test_the_main_jobs_config_validates_and_a_tiny_version_of_it_runs(tmp_path, capsys):
    """scripts/main.sh trains the default game's main config; here with a tiny budget: the raw
    network meets every eval opponent, the network with search only the config's
    ``exit.eval_search_opponents``; each match is a row of evaluation.jsonl, and progress
    lines (a log: stderr is no terminal here) say games done / total and the running win rate."""
    assert MAIN in (ROOT / "scripts" / "main.sh").read_text()
    config = load_config(MAIN)
    assert config.algo == "exit" and config.exit.leaf_value == "hook" and config.exit.gate_games == 0
    assert config.exit.eval_simulations > 0 and config.exit.eval_search_opponents == ["heuristic"]
    run_dir = run(
        tmp_path, "--set", "eval_games=4", "--set", "eval_opponents=[random, mcts:4:depth=2]",
        "--set", "progress_bar=true",
    )  # fmt: skip
    results = json.loads((run_dir / "evaluation.json").read_text())["results"]
    assert [(r["candidate"], r["opponent"]) for r in results] == [
        ("main (raw)", "random"), ("main (raw)", "mcts:4:depth=2"), ("main (+2 sims, leaf=hook)", "heuristic"),
    ]  # fmt: skip
    rows = [json.loads(line) for line in (run_dir / ROWS_FILE).read_text().splitlines()]
    assert rows == results
    assert load_network(run_dir / "model.pt")[1]["leaf_value"] == "hook"
    assert not (run_dir / "checkpoint.pt").exists()  # exit.checkpoint: false (420 MB at full scale)
    err = capsys.readouterr().err
    # chunks of actors x games_in_flight = 2 games: a line at 2/4 with the running rate, then the last
    assert "main (+2 sims, leaf=hook) vs heuristic: 50% 2/4 games" in err
    assert "main (+2 sims, leaf=hook) vs heuristic: 100% 4/4 games" in err
    assert err.count("win rate ") >= 6 and "%, " in err.split("win rate ")[1]


def test_the_main_job_trains_the_same_network_on_a_slow_machine(tmp_path, monkeypatch):
    """Training is bounded by work alone: two runs of the main config (tiny scale) give the same
    weights, and so does a run whose clock says each iteration took 1,000 s (a loaded machine)."""
    first = run(tmp_path / "a", "--set", "eval_games=0")
    again = run(tmp_path / "b", "--set", "eval_games=0")
    calls = []

    def slow_clock() -> float:
        calls.append(None)
        return time.perf_counter() + 1000.0 * len(calls)

    import training.exit.loop as loop

    monkeypatch.setattr(loop, "time", SimpleNamespace(perf_counter=slow_clock, process_time=time.process_time))
    slow = run(tmp_path / "c", "--set", "eval_games=0")
    assert calls, "the loop reads its clock through training.exit.loop.time"
    histories = [json.loads((d / "history.json").read_text()) for d in (first, again, slow)]
    assert [[row["iteration"] for row in h] for h in histories] == [[0, 1, 2]] * 3
    assert histories[2][-1]["seconds"] > 2000  # the slow clock was read, and changed nothing below
    nets = [load_network(d / "model.pt")[0].state_dict() for d in (first, again, slow)]
    for name, weights in nets[0].items():
        assert torch.equal(weights, nets[1][name]) and torch.equal(weights, nets[2][name]), name


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("[]", r"exit.eval_search_opponents=\[\]; allowed: a non-empty list of bot names"),
        ("heuristic", r"exit.eval_search_opponents='heuristic'; allowed: a non-empty list"),
        ("[heuristic, no_such_bot]", r"exit.eval_search_opponents: .*no_such_bot"),
    ],
)
def test_eval_search_opponents_must_name_bots(value, message):
    with pytest.raises(ConfigError, match=message):
        load_config(MAIN, [f"exit.eval_search_opponents={value}"])
    with pytest.raises(ConfigError, match="exit.checkpoint"):
        load_config(MAIN, ["exit.checkpoint=maybe"])
