"""Speed benchmark: every game and player count against PettingZoo's ``connect_four_v3``.

Random legal play (a uniformly random id among the legal ones, the same policy for every
env), measured as agent-steps/s and games/s for

* ``aec``: our ``env()`` driven the PettingZoo way (``agent_iter``, ``last()`` with the
  observation and mask, ``step``), dead steps not counted;
* ``rules``: the rules engine alone (``initial_state``, ``legal_actions``, ``apply_action``
  on the state; the legal list is the mask's content, no observation);
* ``gym``: the single-agent view (``gym.make`` with ``opponent="random"``); a step is one
  learner decision, the opponents' moves run inside it;
* ``batched`` (the games with a ``batched`` hook in :mod:`maya_envs.games`: Maya (2012) 2p):
  the engine stepping N games at once with masks, observations, rewards and auto-reset;

and, in the same run, the references ``connect_four_v3.env()`` and ``raw_env()`` (needs the
``bench`` extra: ``pip install -e ".[bench]"``; without it the references are reported as
missing and the ratios are left out). Each measurement runs ``--repeats`` times for about
``--seconds`` each; the median is reported. Ratios are ours / reference ``env()``.

Memory: ``tracemalloc`` bytes held per env instance after ``reset`` (the mean over several
instances), and the batched engine's array bytes per game.

Usage::

    python benchmarks/bench_envs.py                 # full run, writes benchmarks/results/
    python benchmarks/bench_envs.py --quick --out /tmp/bench   # CI smoke mode
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import platform
import statistics
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from maya_envs.games import GAMES, Game

RESULTS_DIR = Path(__file__).resolve().parent / "results"


@dataclass(frozen=True)
class Case:
    """One game configuration: a label, the game's entry and the game options."""

    label: str
    game: Game
    options: dict[str, Any] = field(default_factory=dict)


def _cases() -> tuple[Case, ...]:
    """Every player count of every game of :mod:`maya_envs.games`, then each of its
    ``benchmark_variants`` at every player count (labels ``"<key> [<variant label> ]<n>p"``)."""
    cases = []
    for game in GAMES.values():
        for variant, label in {None: "", **game.benchmark_variants}.items():
            extra = {} if variant is None else {game.variant_option: variant}
            for n in game.player_counts:
                cases.append(
                    Case(" ".join(filter(None, [game.key, label, f"{n}p"])), game, {"num_players": n, **extra})
                )
    return tuple(cases)


CASES = _cases()
QUICK_CASES = tuple({case.game.key: case for case in reversed(CASES)}.values())[::-1]
"""The first case of every game (the CI smoke mode)."""


def select_cases(parser: Any, only: list[str] | None, quick: bool) -> tuple[Case, ...]:
    """The cases an ``--only LABEL ...`` option names (every case, or :data:`QUICK_CASES` with
    ``quick``, when it names none); an unknown label is a ``parser.error`` listing the known ones."""
    if not only:
        return QUICK_CASES if quick else CASES
    known = {case.label: case for case in CASES}
    unknown = [label for label in only if label not in known]
    if unknown:
        parser.error(f"unknown case(s) {unknown}; known: {list(known)}")
    return tuple(known[label] for label in only)


def _aec_factory(case: Case) -> Callable[[], Any]:
    return lambda: case.game.make_aec_env(**case.options)


def _reference_factories() -> dict[str, Callable[[], Any]] | None:
    try:
        from pettingzoo.classic import connect_four_v3
    except Exception:  # pygame missing: the bench extra is not installed
        return None
    return {"connect_four_v3 env()": connect_four_v3.env, "connect_four_v3 raw_env()": connect_four_v3.raw_env}


def _timed(run_once: Callable[[], tuple[int, int]], seconds: float) -> tuple[int, int, float]:
    """Call ``run_once`` (one game: ``(agent steps, games)``) until ``seconds`` have passed."""
    steps = games = 0
    start = time.perf_counter()
    while True:
        s, g = run_once()
        steps += s
        games += g
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps, games, elapsed


def aec_game(env: Any, rng: np.random.Generator) -> tuple[int, int]:
    """One random game through ``agent_iter``/``last``/``step``; dead steps not counted."""
    env.reset(seed=int(rng.integers(2**31)))
    steps = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps, 1


def rules_game(rules: Any, rng: np.random.Generator) -> tuple[int, int]:
    """One random game on the rules engine alone."""
    state = rules.initial_state(rng)
    steps = 0
    while not (rules.is_terminal(state) or rules.is_truncated(state)):
        legal = rules.legal_actions(state)
        state = rules.apply_action(state, legal[rng.integers(len(legal))], rng)
        steps += 1
    return steps, 1


def gym_game(env: Any, rng: np.random.Generator) -> tuple[int, int]:
    """One random episode of the single-agent view (learner decisions counted)."""
    env.reset(seed=int(rng.integers(2**31)))
    steps = 0
    while True:
        legal = np.flatnonzero(env.action_masks())
        _, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        if terminated or truncated:
            return steps, 1


def _measure(run_once: Callable[[], tuple[int, int]], seconds: float, repeats: int) -> dict[str, Any]:
    rates, game_rates = [], []
    run_once()  # warm-up (imports, caches)
    for _ in range(repeats):
        steps, games, elapsed = _timed(run_once, seconds)
        rates.append(steps / elapsed)
        game_rates.append(games / elapsed)
    return {
        "steps_per_s": statistics.median(rates),
        "games_per_s": statistics.median(game_rates),
        "steps_per_s_all": [round(r, 1) for r in rates],
    }


def measure_batched(engine_class: type, num_envs: int, seconds: float, repeats: int, seed: int = 0) -> dict[str, Any]:
    """Self-play throughput of a batched engine (a game's ``batched`` hook): every game applies
    a random legal action per step (N agent-steps per batch step), observations and masks built."""
    engine = engine_class(num_envs, seed=seed)
    engine.reset()
    rng = np.random.default_rng(seed)

    def run_once() -> tuple[int, int]:
        steps = games = 0
        for _ in range(20):
            actions = engine.sample_legal(rng)
            out = engine.step(actions)
            steps += num_envs
            games += int(out.done.sum())
        return steps, games

    result = _measure(run_once, seconds, repeats)
    result["num_envs"] = num_envs
    result["backend"] = engine.backend
    result["bytes_per_game"] = engine.nbytes() / num_envs
    return result


def memory_per_instance(factory: Callable[[], Any], count: int = 8) -> float:
    """Mean ``tracemalloc`` bytes held by one env after ``reset`` (``count`` instances)."""
    first = factory()  # imports and module caches outside the measurement
    first.reset(seed=0)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    envs = []
    for i in range(count):
        env = factory()
        env.reset(seed=i)
        envs.append(env)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del envs
    return held / count


def bench_meta(**settings: Any) -> dict[str, Any]:
    """A results file's ``meta``: the Python and numpy versions and the machine, then
    ``settings`` in the order given, then the local ``time`` of the run."""
    return {
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "machine": platform.machine(),
        **settings,
        "time": time.strftime("%Y-%m-%d %H:%M:%S"),
    }


def run(quick: bool, seconds: float, repeats: int, batch_sizes: tuple[int, ...], seed: int = 0) -> dict[str, Any]:
    """Measure everything; returns the JSON-able results dict."""
    import gymnasium as gym

    import maya_envs  # noqa: F401  (registers the gym ids)

    warnings.filterwarnings("ignore")
    rng = np.random.default_rng(seed)
    results: dict[str, Any] = {
        "meta": bench_meta(processor=platform.processor(), quick=quick, seconds=seconds, repeats=repeats),
        "reference": {},
        "games": {},
        "batched": [],
    }
    references = _reference_factories()
    if references is None:
        results["reference_missing"] = "pettingzoo[classic] (pygame) not installed: pip install -e '.[bench]'"
    else:
        for name, factory in references.items():
            env = factory()
            entry = _measure(lambda env=env: aec_game(env, rng), seconds, repeats)
            entry["bytes_per_instance"] = memory_per_instance(factory)
            results["reference"][name] = entry
    ref = results["reference"].get("connect_four_v3 env()", {}).get("steps_per_s")
    cases = QUICK_CASES if quick else CASES
    for case in cases:
        factory = _aec_factory(case)
        aec = factory()
        entry: dict[str, Any] = {"options": case.options}
        entry["aec"] = _measure(lambda aec=aec: aec_game(aec, rng), seconds, repeats)
        rules = aec.rules
        entry["rules"] = _measure(lambda rules=rules: rules_game(rules, rng), seconds, repeats)
        view = gym.make(case.game.gym_id, opponent="random", **case.options).unwrapped
        entry["gym"] = _measure(lambda view=view: gym_game(view, rng), seconds, repeats)
        entry["bytes_per_instance"] = memory_per_instance(factory)
        if ref:
            for kind in ("aec", "rules", "gym"):
                entry[kind]["ratio_to_reference_env"] = entry[kind]["steps_per_s"] / ref
        results["games"][case.label] = entry
        print(f"{case.label:26s} aec {entry['aec']['steps_per_s']:10.0f}  rules {entry['rules']['steps_per_s']:10.0f}"
              f"  gym {entry['gym']['steps_per_s']:10.0f} steps/s", flush=True)  # fmt: skip
    batched = [(game, game.hook("batched")) for game in GAMES.values() if game.hooks["batched"]]
    for (game, engine_class), n in itertools.product(batched, batch_sizes):
        entry = measure_batched(engine_class, n, seconds, repeats, seed)
        entry["game"] = game.key
        if ref:
            entry["ratio_to_reference_env"] = entry["steps_per_s"] / ref
        results["batched"].append(entry)
        rate = entry["steps_per_s"]
        print(f"batched {game.key} N={n:5d} {rate:12.0f} agent-steps/s ({entry['backend']})", flush=True)
    return results


def to_markdown(results: dict[str, Any]) -> str:
    """The README table of ``results``."""
    ref = results["reference"].get("connect_four_v3 env()", {}).get("steps_per_s")
    meta = results["meta"]

    def ratio(value: float) -> str:
        return f"{value / ref:.2f}x" if ref else "n/a"

    lines = [
        f"Measured {meta['time']}, Python {meta['python']}, numpy {meta['numpy']}, "
        f"median of {meta['repeats']} x {meta['seconds']} s{' (quick mode)' if meta['quick'] else ''}.",
        "",
        "| env | AEC `env()` steps/s | vs C4 `env()` | games/s | rules steps/s | vs C4 | gym steps/s | memory/env |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, entry in results["reference"].items():
        lines.append(
            f"| {name} (reference) | {entry['steps_per_s']:,.0f} | {ratio(entry['steps_per_s'])} | "
            f"{entry['games_per_s']:,.0f} | | | | {entry['bytes_per_instance'] / 1024:,.1f} KiB |"
        )
    for label, entry in results["games"].items():
        aec, rules, gym_ = entry["aec"], entry["rules"], entry["gym"]
        lines.append(
            f"| {label} | {aec['steps_per_s']:,.0f} | {ratio(aec['steps_per_s'])} | {aec['games_per_s']:,.1f} | "
            f"{rules['steps_per_s']:,.0f} | {ratio(rules['steps_per_s'])} | {gym_['steps_per_s']:,.0f} | "
            f"{entry['bytes_per_instance'] / 1024:,.1f} KiB |"
        )
    if results["batched"]:
        lines += [
            "",
            "| batched engine | agent-steps/s | vs C4 `env()` | games/s | memory/game | backend |",
            "|---|---:|---:|---:|---:|---|",
        ]
        for entry in results["batched"]:
            lines.append(
                f"| {entry.get('game', '')} N = {entry['num_envs']} | {entry['steps_per_s']:,.0f} | "
                f"{ratio(entry['steps_per_s'])} | "
                f"{entry['games_per_s']:,.0f} | {entry['bytes_per_game'] / 1024:,.1f} KiB | {entry['backend']} |"
            )
    lines += reference_missing_lines(results)
    return "\n".join(lines) + "\n"


def case_parser(doc: str, quick_help: str, *, only: bool, repeats_default: int | None) -> argparse.ArgumentParser:
    """The options the case benchmarks share, in this order: ``--quick`` (help ``quick_help``),
    ``--only LABEL ...`` where ``only`` (see :func:`select_cases`), and ``--seconds``/``--repeats``
    where ``repeats_default`` is given (the non-quick repeat count named in the help). The caller
    adds its own options, then :func:`add_out_argument`."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=quick_help)
    if only:
        parser.add_argument("--only", nargs="*", default=None, help=f"case labels to run, e.g. '{CASES[0].label}'")
    if repeats_default is not None:
        parser.add_argument("--seconds", type=float, default=None, help="time per repeat (default 2.0; quick 0.05)")
        parser.add_argument(
            "--repeats", type=int, default=None, help=f"repeats, median reported (default {repeats_default}; quick 1)"
        )
    return parser


def add_out_argument(parser: argparse.ArgumentParser) -> None:
    """``--out DIR``: the folder :func:`save` writes to (default :data:`RESULTS_DIR`)."""
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="output folder for JSON and Markdown")


def reference_missing_lines(results: dict[str, Any]) -> list[str]:
    """The Markdown note closing a table whose reference measurement was skipped (none if measured)."""
    if "reference_missing" in results:
        return ["", f"Reference not measured: {results['reference_missing']}."]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = case_parser(__doc__, "CI smoke mode: 3 games, 1 short repeat, N=64", only=False, repeats_default=5)
    parser.add_argument("--batch", type=int, nargs="*", default=None, help="batched N values (default 64 256 1024)")
    add_out_argument(parser)
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.05 if args.quick else 2.0)
    repeats = args.repeats if args.repeats is not None else (1 if args.quick else 5)
    batch = tuple(args.batch) if args.batch is not None else ((64,) if args.quick else (64, 256, 1024))
    results = run(args.quick, seconds, repeats, batch)
    save(results, to_markdown(results), args.out / ("bench_envs_quick" if args.quick else "bench_envs"))
    return 0


def save(results: dict[str, Any], markdown: str, stem: Path) -> None:
    """Write ``<stem>.json`` and ``<stem>.md`` (creating the folder) and print the table."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    stem.with_suffix(".json").write_text(json.dumps(results, indent=2) + "\n")
    stem.with_suffix(".md").write_text(markdown)
    print(markdown)


if __name__ == "__main__":
    raise SystemExit(main())
