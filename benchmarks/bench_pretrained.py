"""What the spec ``pretrained`` plays in every game, player count and variant, and what one of its
moves costs: CPU milliseconds per decision on one core (``time.process_time``, one torch
thread), over the default agent's decisions in seeded games against heuristic bots.

The default agent of a config is the registry's ``default_spec`` (:mod:`maya_envs.pretrained`);
issue 28 item 6 asks for the strongest shipped agent whose move costs at most about 50 ms on
one core. Strength is measured separately (``python -m training.exit.match``).

Usage::

    python benchmarks/bench_pretrained.py --games 2
    python benchmarks/bench_pretrained.py --only maya2012 --spec pretrained az:maya2012_2p_exit:48:leaf=hook
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np

from maya_envs.bots import make_bot
from maya_envs.games import GAMES
from maya_envs.wrappers.opponents import make_opponent


def table_configs() -> list[dict]:
    """Game options of every game x player count x variant of the game table (the variant
    option's values from each game's ``variants`` hook)."""
    out = []
    for key, game in GAMES.items():
        for n in game.player_counts:
            for variant in game.hook("variants") or (None,):
                options = {"num_players": n}
                if variant is not None:
                    options[game.variant_option] = variant
                out.append({"game": key, **options})
    return out


def move_cost(game: str, options: dict, games: int, seed: int = 0, spec: str = "pretrained") -> tuple[str, float, int]:
    """``(the agent spec resolves to, CPU ms per decision, decisions timed)``; ``spec`` is
    ``pretrained`` (the config's default) or a candidate for it (``az:<name>:48:leaf=hook``)."""
    import torch

    torch.set_num_threads(1)
    rules = GAMES[game].make_rules(options)
    env = GAMES[game].make_aec_env(**options)
    shape = env.spec_card.observation_shape
    player = make_opponent(spec, rules, seed, observation_shape=shape)
    spent, decisions = 0.0, 0
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        bots = [make_bot("heuristic", rules, seed + g + seat) for seat in range(rules.spec.num_players)]
        env.reset(seed=seed + g)
        mine = g % rules.spec.num_players
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            if seat == mine:
                started = time.process_time()
                action = player.choose(env, agent)
                spent += time.process_time() - started
                decisions += 1
            else:
                action = bots[seat].act(env.game_state)
            env.step(action)
        del rng
    spec = player.spec if isinstance(player.spec, str) else type(player.spec).__name__
    return spec, 1000 * spent / max(decisions, 1), decisions


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=(), help="game keys (default: all)")
    parser.add_argument(
        "--spec", nargs="*", default=("pretrained",),
        help="agents to time (default: pretrained, each config's default); a candidate such as "
        "az:<shipped network>:48:leaf=hook is timed in the configs it fits",
    )
    args = parser.parse_args(argv)
    print("| game | options | pretrained plays | CPU ms per decision | decisions |")
    print("|---|---|---|---:|---:|")
    refused: dict[str, str] = {}  # candidate -> why the last config refused it (shown if none took it)
    timed: set[str] = set()
    for config in table_configs():
        game = config.pop("game")
        if args.only and game not in args.only:
            continue
        for wanted in args.spec:
            try:
                spec, ms, count = move_cost(game, config, args.games, spec=wanted)
            except ValueError as error:  # no shipped agent fits (e.g. a drafted Maya (2012) setup)
                if wanted == "pretrained":
                    print(f"| {game} | {config} | none: {str(error)[:60]}... | | |", flush=True)
                refused[wanted] = str(error)
                continue
            timed.add(wanted)
            print(f"| {game} | {config} | `{spec}` | {ms:.1f} | {count} |", flush=True)
    missing = [w for w in args.spec if w != "pretrained" and w not in timed]
    for wanted in missing:  # a candidate no config took is a mistake to report, not an empty table
        print(f"{wanted!r} fits no config here: {refused.get(wanted, 'no config selected')}", file=sys.stderr)
    return 2 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
