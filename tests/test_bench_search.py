"""The search benchmark runs in its short mode and writes its JSON and Markdown (no timing
assertions: only that every measurement produced a positive rate, on the same sampled
positions for the same seed)."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from maya_envs.games import GAMES
from tests.helpers.bench import load_benchmark, quick_labels, run_benchmark


def test_quick_mode_writes_results(tmp_path):
    assert run_benchmark("bench_search", ["--quick", "--seconds", "0.02", "--sims", "4", "--out", str(tmp_path)]) == 0
    results = json.loads((tmp_path / "bench_search_quick.json").read_text())
    labels = quick_labels()
    assert set(results["games"]) == set(labels)
    has_torch = importlib.util.find_spec("torch") is not None
    for entry in results["games"].values():
        assert entry["steps"]["steps_per_s"] > 0 and entry["mcts"]["steps_per_s"] > 0
        if has_torch:  # the network-guided search, one position at a time and all in lock step
            assert entry["az"]["steps_per_s"] > 0 and entry["az_lock_step"]["steps_per_s"] > 0
    assert results["reference"] or "reference_missing" in results
    table = (tmp_path / "bench_search_quick.md").read_text()
    hidden = {label: rules.spec.information != "perfect" for label, rules in labels.items()}
    perfect = next(label for label, is_hidden in hidden.items() if not is_hidden)
    imperfect = next(label for label, is_hidden in hidden.items() if is_hidden)
    assert f"| {perfect} |" in table and f"| {imperfect} (IS-MCTS) |" in table


@pytest.mark.parametrize("key", sorted(GAMES))
def test_sampled_positions_are_seeded_and_undecided(key):
    try:
        load_benchmark("bench_envs")
        bench = load_benchmark("bench_search")
    finally:
        sys.modules.pop("bench_envs", None)
        sys.modules.pop("bench_search", None)
    game = GAMES[key]
    rules = game.make_rules({"num_players": game.player_counts[-1]})
    first, second = bench.sample_positions(rules, 4, seed=5), bench.sample_positions(rules, 4, seed=5)
    assert [rules.state_to_dict(s) for s in first] == [rules.state_to_dict(s) for s in second]
    assert all(rules.current_player(s) >= 0 and rules.legal_actions(s) for s in first)
