"""The self-play throughput benchmark runs in its short mode and writes its JSON and Markdown
(no timing assertions: only that every case recorded positions at a positive rate and that
the simulation rate is the position rate x sims)."""

from __future__ import annotations

import json

import pytest

from tests.helpers.bench import quick_labels, run_benchmark

pytest.importorskip("torch")


def test_quick_mode_writes_results(tmp_path):
    assert run_benchmark("bench_selfplay", ["--quick", "--out", str(tmp_path)]) == 0
    results = json.loads((tmp_path / "bench_selfplay_quick.json").read_text())
    labels = quick_labels()
    assert set(results["cases"]) == set(labels)
    # the node cache and tree reuse run only where the game has perfect information and no chance
    cached = {label: rules.spec.information == "perfect" and not rules.spec.chance for label, rules in labels.items()}
    for label, entry in results["cases"].items():
        variants = ["before", "cache", "reuse"] if cached[label] else ["before"]
        assert sorted(k for k in entry if k.startswith("self_play_")) == sorted(f"self_play_{v}" for v in variants)
        teacher = entry["teacher"]
        assert teacher["positions"] > 0 and teacher["positions_per_cpu_s"] > 0
        for variant in variants:
            self_play = entry[f"self_play_{variant}"]
            assert self_play["positions"] > 0 and self_play["positions_per_cpu_s"] > 0
            assert self_play["sims_per_cpu_s"] == pytest.approx(self_play["positions_per_cpu_s"] * 2)  # --quick: 2 sims
        # the cache plays the very same games as the search without it
        before = entry["self_play_before"]
        assert before["positions"] == entry.get("self_play_cache", before)["positions"]
    table = (tmp_path / "bench_selfplay_quick.md").read_text()
    uncached = next(label for label, has_cache in cached.items() if not has_cache)
    assert f"| {uncached} | before |" in table and f"| {uncached} | reuse | | n/a" in table
    assert "self-play / teacher" in table


def test_bad_counts_are_clear_errors(capsys):
    for argv in (["--quick", "--sims", "0"], ["--only", "chess 2p"]):
        with pytest.raises(SystemExit):
            run_benchmark("bench_selfplay", argv)
    err = capsys.readouterr().err
    assert "--sims 0; allowed: ints >= 1" in err and "unknown case(s) ['chess 2p']" in err
