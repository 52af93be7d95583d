"""RLlib sampling throughput (env steps/s) of one game with 0, 1, 2 ... env runners.

Usage (in the venv of scripts/test_compat.sh, see training/RLLIB.md)::

    .venv-compat/bin/python benchmarks/bench_rllib_sampling.py --config rllib/maya2012_2p \
        --runners 1 2 --steps 4000

For each runner count it builds the algorithm of the config, lets every runner sample a
warm-up batch, then times ``--steps`` env steps per runner sampled in parallel (the masked
module's exploration forward pass included, no learning) and prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import time

import ray

from training.rllib_train import build_algorithm_config, load_rllib_config


def measure(config_path: str, runners: int, steps: int, overrides: list[str]) -> dict:
    config = load_rllib_config(config_path, [*overrides, f"num_env_runners={runners}"])
    algo = build_algorithm_config(config).build_algo()
    local = runners == 0

    def sample(n):
        return lambda runner: sum(len(episode) for episode in runner.sample(num_timesteps=n, random_actions=False))

    try:
        algo.env_runner_group.foreach_env_runner(sample(200), local_env_runner=local)
        started = time.perf_counter()
        counts = algo.env_runner_group.foreach_env_runner(sample(steps), local_env_runner=local)
        seconds = time.perf_counter() - started
    finally:
        algo.stop()
    total = int(sum(counts))
    return {
        "game": config.game,
        "game_options": config.game_options,
        "env_runners": runners,
        "env_steps": total,
        "seconds": round(seconds, 3),
        "steps_per_s": round(total / seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", required=True)
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--steps", type=int, default=4000, help="env steps per runner")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--num-cpus", type=int, default=None)
    args = parser.parse_args(argv)
    ray.init(num_cpus=args.num_cpus, include_dashboard=False)
    try:
        for runners in args.runners:
            print(json.dumps(measure(args.config, runners, args.steps, args.set)), flush=True)
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
