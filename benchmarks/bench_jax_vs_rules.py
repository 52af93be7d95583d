"""One game's JAX engine against its Python rules engine and Pgx ``backgammon``, per CPU second.

Random legal play with the observation on every step (batch ``--batch``, ``--chunk`` steps per
jitted call), interleaved with the Python rules engine (one game at a time, the mover's
observation after each step) and Pgx ``backgammon`` in the same process; prints agent-steps per
CPU second and the ratios (issue 46's targets: >= 10x the rules engine, >= backgammon)::

    python benchmarks/bench_jax_vs_rules.py --game <key> --players 2 4 --seconds 2 --repeats 3

(``<key>``: a game of the JAX engine table, :mod:`maya_envs.jax.engines`; docs/jax.md gives
the figures measured for each.)
"""

from __future__ import annotations

import argparse
import sys

from bench_jax import engine_case, pgx_case, rules_case


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a game key of the JAX engine table")
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--chunk", type=int, default=32, help="steps per jitted call")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args(argv)
    gammon = pgx_case("backgammon", args.batch, args.chunk, args.seconds, args.repeats)["steps_per_cpu_s"]
    print(f"pgx backgammon @ {args.batch}: {gammon:,.0f} steps per CPU s", flush=True)
    for n in args.players:
        rules = rules_case(args.game, n, args.seconds, args.repeats, observe=True)["steps_per_cpu_s"]
        jax_case = engine_case(args.game, n, args.batch, args.chunk, args.seconds, args.repeats, True)
        jax_rate = jax_case["steps_per_cpu_s"]
        print(f"{args.game} {n}p: JAX {jax_rate:,.0f}, rules {rules:,.0f} steps per CPU s; "
              f"{jax_rate / rules:.2f}x the rules engine, {jax_rate / gammon:.2f}x backgammon", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
