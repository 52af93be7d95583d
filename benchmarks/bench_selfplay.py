"""Self-play throughput of expert iteration (``algo: exit``): positions recorded per second.

For every game and player count (the cases of ``bench_envs.py``), one process on one torch
thread plays ``--games`` games in lock step (:func:`training.exit.play.play_games`) two ways:

* ``teacher`` (the reference, the same run): iteration 0's games, the heuristic bot in every
  seat recording its choices;
* ``self-play``: a later iteration's games, the network with ``--sims`` guided (Gumbel)
  simulations per decision in every seat, recording the search policies (``learner`` of
  :mod:`training.exit.actors`; a randomly initialised network of the trainer's default width,
  since the cost does not depend on the weights).

Self-play runs once per ``--variants`` entry (:data:`VARIANTS`, search cost of issue 28 item 5):
``before`` the open-loop search with no node cache (what every search did before the cache),
``cache`` the default (each node keeps its state: perfect information without chance only, the
same games), ``reuse`` the cache plus tree reuse between moves (``GuidedConfig.reuse``; more
simulations behind each move, so other games), ``memo`` the cache plus the evaluation memo
(``GuidedConfig.memo``: the same games, repeated states not evaluated again). Where the cache
does not apply (hidden information, chance) ``cache`` and ``reuse`` are the ``before`` search and
are not run again (``memo`` runs in every game).

Reported: recorded positions per CPU second (``time.process_time``: the machine may be shared),
search simulations per CPU second (positions x ``--sims``), and the ratio of self-play to the
teacher and of each variant to ``before``. An actor process of the trainer runs one such loop, so
``exit.actors`` processes
multiply the rate on as many free cores.

Usage::

    python benchmarks/bench_selfplay.py                  # full run, writes benchmarks/results/
    python benchmarks/bench_selfplay.py --quick --out /tmp/bench
    python benchmarks/bench_selfplay.py --only "yaxha 2p" --games 8 --sims 32
    python benchmarks/bench_selfplay.py --only "maya2012 2p" --variants before cache reuse
"""

from __future__ import annotations

import platform
import sys
import time
from typing import Any

from bench_envs import Case, add_out_argument, case_parser, save, select_cases

VARIANTS: dict[str, dict[str, Any]] = {
    "before": {"cache": False},
    "cache": {},
    "reuse": {"reuse": True},
    "memo": {"memo": 100_000},
}
"""Self-play search variants: ``GuidedConfig`` overrides (module docstring)."""


def _agents(rules: Any, sims: int, seed: int, variants: list[str]) -> tuple[Any, Any, dict[str, Any]]:
    """``(inputs, teacher agent, {variant: self-play agent})`` for one case (variants the
    case's search cannot run, e.g. reuse with hidden information, are left out)."""
    import torch

    from maya_envs.bots.base import make_bot
    from maya_envs.bots.guided import GuidedConfig, node_cache
    from maya_envs.bots.search_common import determinizer
    from maya_envs.nn.agent import NetworkEvaluator
    from maya_envs.nn.inputs import NetworkInputs
    from maya_envs.nn.model import PolicyValueNet
    from training.exit.play import BotAgent, SearchAgent

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    inputs = NetworkInputs(rules)
    net = PolicyValueNet(inputs.board_dim, inputs.feature_dim, inputs.num_actions, rules.spec.num_players).eval()
    teacher = BotAgent(rules, make_bot("heuristic", rules, seed), record=True, rng=seed)
    learners = {}
    cache_applies = node_cache(rules, GuidedConfig(), determinizer(rules, None))
    for name in variants:
        if name in ("cache", "reuse") and not cache_applies:
            continue
        config = GuidedConfig(simulations=sims, **VARIANTS[name])
        learners[name] = SearchAgent(rules, NetworkEvaluator(net, inputs), config, True, rng=seed)
    return inputs, teacher, learners


def measure_case(case: Case, games: int, sims: int, seed: int, variants: list[str]) -> dict[str, Any]:
    """Teacher and self-play rates of one case (module docstring)."""
    from training.exit.play import play_games

    rules = case.game.make_rules(case.options)
    inputs, teacher, learners = _agents(rules, sims, seed, variants)
    seeds = [seed + g for g in range(games)]
    n = rules.spec.num_players
    out: dict[str, Any] = {}
    agents = [("teacher", teacher)] + [(f"self_play_{name}", agent) for name, agent in learners.items()]
    for name, agent in agents:
        started = time.process_time()
        played = play_games(rules, [[agent] * n for _ in range(games)], seeds, inputs, in_flight=games)
        cpu = max(time.process_time() - started, 1e-9)
        out[name] = {
            "games": games,
            "positions": len(played.positions),
            "cpu_seconds": round(cpu, 3),
            "positions_per_cpu_s": len(played.positions) / cpu,
        }
    first = f"self_play_{next(iter(learners))}"
    for name in learners:
        entry = out[f"self_play_{name}"]
        entry["sims"] = sims
        entry["sims_per_cpu_s"] = entry["positions_per_cpu_s"] * sims
        entry["ratio_to_teacher"] = entry["positions_per_cpu_s"] / out["teacher"]["positions_per_cpu_s"]
        entry["ratio_to_first"] = entry["positions_per_cpu_s"] / out[first]["positions_per_cpu_s"]
    return out


def run(cases: tuple[Case, ...], games: int, sims: int, seed: int, variants: list[str]) -> dict[str, Any]:
    results = {
        "benchmark": "bench_selfplay",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "games": games,
        "sims": sims,
        "seed": seed,
        "variants": variants,
        "cases": {},
    }
    for case in cases:
        results["cases"][case.label] = measure_case(case, games, sims, seed, variants)
        print(f"{case.label}: done", file=sys.stderr)
    return results


def to_markdown(results: dict[str, Any]) -> str:
    lines = [
        f"Self-play throughput per CPU second, one process, torch threads 1, {results['games']} games in lock step, "
        f"{results['sims']} guided simulations per decision (Python {results['python']}).",
        "",
        f"Variants (module docstring): {', '.join(results['variants'])}; the last column is each one's rate over "
        f"the first's ({results['variants'][0]}) in the same run.",
        "",
        "| case | variant | teacher positions/s | self-play positions/s | self-play sims/s | self-play / teacher "
        "| / first |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for label, r in results["cases"].items():
        for name in results["variants"]:
            entry = r.get(f"self_play_{name}")
            if entry is None:
                lines.append(f"| {label} | {name} | | n/a (no node cache: hidden information or chance) | | | |")
                continue
            lines.append(
                f"| {label} | {name} | {r['teacher']['positions_per_cpu_s']:,.0f} | "
                f"{entry['positions_per_cpu_s']:,.1f} | "
                f"{entry['sims_per_cpu_s']:,.0f} | {entry['ratio_to_teacher']:.4f} | {entry['ratio_to_first']:.2f} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = case_parser(__doc__, "smoke mode: one case per game, 1 game, 2 simulations", only=True, repeats_default=None)
    parser.add_argument("--games", type=int, default=None, help="games per case, in lock step (default 4; quick 1)")
    parser.add_argument("--sims", type=int, default=None, help="guided simulations per decision (default 16; quick 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--variants", nargs="+", choices=list(VARIANTS), default=["before", "cache", "reuse"],
        help="self-play search variants, the first being the reference of the last column (module docstring)",
    )
    add_out_argument(parser)
    args = parser.parse_args(argv)
    cases = select_cases(parser, args.only, args.quick)
    games = args.games if args.games is not None else (1 if args.quick else 4)
    sims = args.sims if args.sims is not None else (2 if args.quick else 16)
    if games < 1 or sims < 1:
        parser.error(f"--games {games} / --sims {sims}; allowed: ints >= 1")
    try:
        import torch  # noqa: F401
    except ImportError:
        parser.error("the self-play benchmark needs torch (the train extra)")
    results = run(cases, games, sims, args.seed, args.variants)
    save(results, to_markdown(results), args.out / ("bench_selfplay_quick" if args.quick else "bench_selfplay"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
