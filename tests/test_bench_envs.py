"""The speed benchmark runs in its short mode and writes its JSON and Markdown (no timing
assertions: only that every measurement produced a positive rate)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_envs.py"


def test_quick_mode_writes_results(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_envs", BENCH)
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench_envs"] = bench  # dataclasses look their module up
    try:
        spec.loader.exec_module(bench)
    finally:
        sys.modules.pop("bench_envs", None)
    assert bench.main(["--quick", "--seconds", "0.02", "--batch", "16", "--out", str(tmp_path)]) == 0
    results = json.loads((tmp_path / "bench_envs_quick.json").read_text())
    assert results["games"], "no game measured"
    for entry in results["games"].values():
        for kind in ("aec", "rules", "gym"):
            assert entry[kind]["steps_per_s"] > 0 and entry[kind]["games_per_s"] > 0
        assert entry["bytes_per_instance"] > 0
    assert results["batched"][0]["num_envs"] == 16 and results["batched"][0]["steps_per_s"] > 0
    assert results["reference"] or "reference_missing" in results
    table = (tmp_path / "bench_envs_quick.md").read_text()
    assert all(f"| {label} |" in table for label in results["games"]), table  # a row per measured game
