"""Running a benchmark script of ``benchmarks/`` in its quick mode from a test."""

from __future__ import annotations

import importlib.util
import sys

from maya_envs.games import GAMES
from tests.helpers import ROOT

BENCHMARKS = ROOT / "benchmarks"


def quick_labels() -> dict[str, object]:
    """Label -> rules of the quick mode's cases: each game's default at its smallest player count."""
    smallest = {key: game.player_counts[0] for key, game in GAMES.items()}
    return {f"{key} {n}p": GAMES[key].make_rules({"num_players": n}) for key, n in smallest.items()}


def load_benchmark(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up; bench_search imports bench_envs
    spec.loader.exec_module(module)
    return module


def run_benchmark(name: str, argv: list[str]) -> int:
    """``benchmarks/<name>.py``'s ``main(argv)``, with ``bench_envs`` (the case benchmarks import
    it) loaded first and both modules forgotten after."""
    try:
        load_benchmark("bench_envs")
        return load_benchmark(name).main(argv)
    finally:
        sys.modules.pop("bench_envs", None)
        sys.modules.pop(name, None)
