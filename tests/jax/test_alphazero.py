"""training/jax_alphazero.py (issue 33) runs end to end at tiny scale: Gumbel self-play over the
JAX engine, training, the saved network, and its bot playing seat-rotated games against the
heuristic in the project's arena."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")
pytest.importorskip("mctx")
pytest.importorskip("flax")
pytest.importorskip("optax")

ROOT = Path(__file__).resolve().parents[2]


def test_tiny_alphazero_run_trains_saves_and_plays_the_heuristic(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "training.jax_alphazero", "--tiny", "--out", str(tmp_path), "--match-games", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    (run,) = tmp_path.iterdir()
    rows = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert [row["iteration"] for row in rows] == [0, 1]
    assert all(row["positions"] > 0 and row["loss"] > 0 for row in rows)
    assert (run / "params.msgpack").stat().st_size > 1000
    result = json.loads((run / "match.json").read_text())
    assert result["games"] == 2 and result["games_per_seat"] == [1, 1]
    assert result["illegal_actions"] == 0
    assert result["wins"] + result["draws"] + result["losses"] == 2
