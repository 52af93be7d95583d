"""What the spec ``pretrained`` plays in every game, player count and variant, and what one of its
moves costs: CPU milliseconds per decision on one core (``time.process_time``, one torch
thread), over the default agent's decisions in seeded games against heuristic bots.

The default agent of a config is the registry's ``default_spec`` (:mod:`maya_envs.pretrained`);
issue 28 item 6 asks for the strongest shipped agent whose move costs at most about 50 ms on
one core. Strength is measured separately (``python -m training.exit.match``).

``--torch`` also times each network agent with its network run by torch, as it was before play
bots got the frozen numpy copy (:mod:`maya_envs.nn.frozen`), on the same games, and prints the
ratio and the share of identical moves (both sides are timed in one run, so the ratio holds on a
loaded machine too).

Usage::

    python benchmarks/bench_pretrained.py --games 2
    python benchmarks/bench_pretrained.py --only maya2012 --spec pretrained az:maya2012_2p_exit:48:leaf=hook
    python benchmarks/bench_pretrained.py --games 4 --torch
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


def move_cost(
    game: str, options: dict, games: int, seed: int = 0, spec: str = "pretrained", torch_forward: bool = False
) -> tuple[str, float, int, list[int]]:
    """``(the agent spec resolves to, CPU ms per decision, decisions timed, the moves played)``;
    ``spec`` is ``pretrained`` (the config's default) or a candidate for it
    (``az:<name>:48:leaf=hook``); ``torch_forward``: its network runs by torch, not by the frozen
    numpy copy (ValueError for an agent without a network)."""
    import torch

    torch.set_num_threads(1)
    rules = GAMES[game].make_rules(options)
    env = GAMES[game].make_aec_env(**options)
    shape = env.spec_card.observation_shape
    player = make_opponent(spec, rules, seed, observation_shape=shape)
    if torch_forward:
        network_evaluator(player).frozen = None
    spent, decisions, moves = 0.0, 0, []
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
                moves.append(action)
            else:
                action = bots[seat].act(env.game_state)
            env.step(action)
        del rng
    spec = player.spec if isinstance(player.spec, str) else type(player.spec).__name__
    return spec, 1000 * spent / max(decisions, 1), decisions, moves


def network_evaluator(player) -> object:
    """The :class:`~maya_envs.nn.agent.NetworkEvaluator` inside a resolved player (a ``policy:``
    bot's, or an ``az:`` bot's under its memo).

    Raises:
        ValueError: the player has no network (a rule bot, a MaskablePPO baseline).
    """
    found = getattr(player, "_bot", None)
    while found is not None and not hasattr(found, "frozen"):
        found = getattr(found, "evaluator", None) or getattr(found, "base", None)
    if found is None:
        raise ValueError(f"{player.spec!r} has no network evaluator to run by torch")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=(), help="game keys (default: all)")
    parser.add_argument(
        "--spec", nargs="*", default=("pretrained",),
        help="agents to time (default: pretrained, each config's default); a candidate such as "
        "az:<shipped network>:48:leaf=hook is timed in the configs it fits",
    )
    parser.add_argument(
        "--torch", action="store_true",
        help="also time each network agent with torch running its network (the same games), with the ratio",
    )
    args = parser.parse_args(argv)
    if args.torch:
        print(
            "| game | options | pretrained plays | CPU ms per decision | decisions | torch ms | torch / frozen "
            "| same moves |"
        )
        print("|---|---|---|---:|---:|---:|---:|---:|")
    else:
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
                spec, ms, count, moves = move_cost(game, config, args.games, spec=wanted)
            except ValueError as error:  # no shipped agent fits (e.g. a drafted Maya (2012) setup)
                if wanted == "pretrained":
                    print(f"| {game} | {config} | none: {str(error)[:60]}... | | |", flush=True)
                refused[wanted] = str(error)
                continue
            timed.add(wanted)
            row = f"| {game} | {config} | `{spec}` | {ms:.1f} | {count} |"
            if args.torch:
                try:
                    _, torch_ms, _, torch_moves = move_cost(game, config, args.games, spec=wanted, torch_forward=True)
                    same = sum(a == b for a, b in zip(moves, torch_moves, strict=False)) / max(len(moves), 1)
                    row += f" {torch_ms:.1f} | {torch_ms / ms:.2f} | {same:.1%} |"
                except ValueError:  # a MaskablePPO baseline: no network evaluator
                    row += " | | |"
            print(row, flush=True)
    missing = [w for w in args.spec if w != "pretrained" and w not in timed]
    for wanted in missing:  # a candidate no config took is a mistake to report, not an empty table
        print(f"{wanted!r} fits no config here: {refused.get(wanted, 'no config selected')}", file=sys.stderr)
    return 2 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
