"""The main job end to end with a tiny budget, in a subprocess: train from the shipped
config, then evaluate against the bots and write the results."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from maya_envs.core.errors import ConfigError
from maya_envs.games import DEFAULT_GAME
from training.config import load_config

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / DEFAULT_GAME.key / "2p_quick.yaml"
ENV = DEFAULT_GAME.gym_id.split("/")[-1]  # a run directory starts with the Gymnasium id's name


def test_train_then_evaluate_with_a_tiny_budget(tmp_path):
    command = [
        sys.executable, "-m", "training.train", "--config", str(CONFIG),
        "--set", "total_timesteps=512", "--set", "n_envs=2", "--set", "n_steps=128", "--set", "batch_size=64",
        "--set", "eval_games=4", "--set", "progress_bar=false", "--set", f"output_dir={tmp_path}",
    ]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    (run_dir,) = list(tmp_path.iterdir())
    assert run_dir.name.startswith(f"{ENV}__maskable_ppo_quick__1__")
    assert (run_dir / "model.zip").is_file() and (run_dir / "config.yaml").is_file()
    assert any((run_dir / "tb").iterdir())
    results = json.loads((run_dir / "evaluation.json").read_text())["results"]
    assert [r["opponent"] for r in results] == ["random", "heuristic"]
    for r in results:
        assert r["games"] == 4 and r["wins"] + r["draws"] + r["losses"] == 4
        assert r["games_per_seat"] == [2, 2] and r["illegal_actions"] == 0
    table = (run_dir / "evaluation.md").read_text()
    assert "| maskable_ppo_quick | random | 4 |" in table and "| maskable_ppo_quick | random | 4 |" in done.stdout

    trained = (run_dir / "evaluation.json").read_text()
    evaluate = [sys.executable, "-m", "training.evaluate", "--checkpoint", str(run_dir / "model.zip"),
                "--games", "2", "--opponents", "random"]  # fmt: skip
    done = subprocess.run(evaluate, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (run_dir / "evaluation.json").read_text() == trained  # the training run's results stay
    (written,) = run_dir.glob("maya-eval_*.json")  # beside them, under a new name
    (result,) = json.loads(written.read_text())["results"]
    assert result["games"] == 2 and result["opponent"] == "random" and written.with_suffix(".md").is_file()
    assert "maskable_ppo_quick vs random" in done.stderr and "2/2" in done.stderr  # progress, named as in training


def test_missing_config_file_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match=r"config '.*nope.yaml' is neither a file nor a shipped config name"):
        load_config(tmp_path / "nope.yaml")


def test_eval_games_0_trains_without_an_evaluation_and_the_files_say_so(tmp_path, capsys, monkeypatch):
    """``eval_games: 0`` skips the evaluation: no game is played, ``evaluation.json`` has no
    results and a note, ``evaluation.md`` the note; ``maya-eval`` then asks for ``--games``."""
    from training.evaluate import NO_EVALUATION
    from training.evaluate import main as evaluate_main
    from training.train import train

    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)  # maya-eval's main sets it; restored after the test
    overrides = ["total_timesteps=128", "n_envs=1", "n_steps=128", "batch_size=64", "n_epochs=1", "net_arch=[16]",
                 "eval_games=0", "progress_bar=false", f"output_dir={tmp_path}"]  # fmt: skip
    run_dir = train(load_config(CONFIG, overrides))
    assert "no evaluation (eval_games: 0)" in capsys.readouterr().out
    evaluation = json.loads((run_dir / "evaluation.json").read_text())
    assert evaluation["results"] == [] and evaluation["evaluation"] == NO_EVALUATION
    assert evaluation["total_timesteps"] == 128 and evaluation["train_seconds"] > 0
    assert (run_dir / "evaluation.md").read_text() == NO_EVALUATION + "\n"
    with pytest.raises(SystemExit):
        evaluate_main(["--checkpoint", str(run_dir / "model.zip")])
    assert "eval_games is 0 (its run skipped the evaluation): pass --games N" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        evaluate_main(["--checkpoint", str(run_dir / "model.zip"), "--games", "0"])
    assert "--games 0; allowed: a positive int" in capsys.readouterr().err
