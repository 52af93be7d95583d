"""Profile one game's rules engine or AEC env under random play (the ``bench_envs.py`` loops),
with the standard library's ``cProfile``; prints the functions that take the most time.

Usage::

    python benchmarks/profile_game.py maya2012 --players 3 --kind aec --games 15
    python benchmarks/profile_game.py maya2012 --players 2 --kind rules --games 60 --sort cumtime
    python benchmarks/profile_game.py yaxha --players 4 --kind rules --options '{"footprint": "fixed"}'

``--kind rules``: ``initial_state``, ``legal_actions`` and ``apply_action`` only;
``--kind aec``: the PettingZoo loop with the observation and the mask. Profiling slows the
code several fold and evenly enough to rank hot spots; speed itself is measured by
``bench_envs.py`` and ``bench_search.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_envs  # noqa: E402  (the benchmark's own game loops)

from maya_envs.games import find_game  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game name (any name maya_envs.games.find_game accepts)")
    parser.add_argument("--players", type=int, default=None, help="num_players (default: the game's default)")
    parser.add_argument("--kind", choices=("rules", "aec"), default="rules", help="what to profile (default rules)")
    parser.add_argument("--games", type=int, default=20, help="random games profiled (default 20)")
    parser.add_argument("--options", default="{}", help="more game options as a JSON object")
    parser.add_argument("--sort", default="tottime", help="pstats sort key (default tottime)")
    parser.add_argument("--top", type=int, default=25, help="rows printed (default 25)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random play (default 0)")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    options = json.loads(args.options)
    if args.players is not None:
        options["num_players"] = args.players
    env = find_game(args.game).make_aec_env(**options)
    rng = np.random.default_rng(args.seed)
    if args.kind == "rules":

        def play() -> None:
            bench_envs.rules_game(env.rules, rng)
    else:

        def play() -> None:
            bench_envs.aec_game(env, rng)

    play()  # imports and module caches outside the profile
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.games):
        play()
    profile.disable()
    pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
