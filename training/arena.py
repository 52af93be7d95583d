"""Arena: any mix of agents over N games, seats rotated, with win rates, scores and ratings.

Usage::

    maya-arena --env yaxha --players 3 --agents random heuristic mcts:50 --games 300
    maya-arena --config maya_quarry/4p_basic_quick \\
        --agents ppo=runs/<run>/model.zip heuristic random --games 400
    maya-arena --agents runs/<run>/model.zip random          # env from the run's config.yaml

Agents: the bot specs (``random``, ``heuristic``, ``mcts:N[...]``, ``policy:<model>``, ...: every
row of ``maya_envs.bot_kinds.BOT_KINDS``), ``pretrained[:<name>]``, a MaskablePPO checkpoint
``.zip``, ``rllib:<path>``;
``label=spec`` names one. Seats follow a
balanced design (``--design latin``: cyclic rotations of every table of agents;
``permutations``: every ordering; see ``maya_envs.evaluation.arena.seating_plan``) and
``--games`` is rounded up to a whole number of design blocks, so every agent plays every
seat equally often. Per agent: wins/draws/losses (a seat-game is won with a positive final
return), win rate with a Wilson 95% interval, mean score (final return); OpenSkill
(Plackett-Luce) ratings for every player count, plus Elo and a head-to-head table in 2p.
Output: a printed table, ``arena.json``, ``arena.md`` and ``ratings.png`` in ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.cli import description
from maya_envs.cli.args import output_folder, seed_arg
from maya_envs.core.errors import ConfigError, shorten
from maya_envs.evaluation import play_arena, resolve_agent, seating_plan
from maya_envs.games import DEFAULT_GAME, find_game, game_names
from maya_envs.plain_yaml import load_yaml
from maya_envs.players import one_torch_thread, player_syntax
from training.config import load_config
from training.progress import game_progress
from training.run_dirs import new_run_dir


def env_factory(env_id: str, game_options: dict[str, Any]):
    """A function building the AEC env of the game ``env_id`` names (any name
    :func:`maya_envs.games.find_game` accepts) with ``game_options``."""
    game = find_game(env_id)

    def make():
        return game.make_aec_env(**game_options)

    return make


def _parse_options(items: list[str]) -> dict[str, Any]:
    options = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep:
            raise ValueError(f"--option {shorten(item)} must look like key=value")
        options[key.strip()] = load_yaml(raw, f"--option {shorten(item)}")  # a ConfigError (ValueError) names it
    return options


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``maya-arena`` (its agent help from the bot-kind table)."""
    parser = argparse.ArgumentParser(prog="maya-arena", description=description(__doc__))
    parser.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help=f"{player_syntax()}, a checkpoint .zip, rllib:<path>; name=SPEC labels one",
    )
    parser.add_argument("--env", help=f"a game: one of {game_names()}")
    parser.add_argument("--players", type=int, help="num_players game option")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    parser.add_argument(
        "--config", type=Path, help="a training config (file or shipped name): its env_id and game_options"
    )
    parser.add_argument("--games", type=int, default=400, help="games (rounded up to whole design blocks)")
    parser.add_argument("--no-round", action="store_true", help="play exactly --games (maybe unbalanced)")
    parser.add_argument("--design", choices=["latin", "permutations"], default="latin")
    parser.add_argument("--seed", type=seed_arg, default=0)
    parser.add_argument(
        "--out", type=Path, help="output folder (default: runs/arena__<env>__<time>); its arena.* files are replaced"
    )
    parser.add_argument("--no-plot", action="store_true", help="skip ratings.png")
    return parser


def main(argv: list[str] | None = None) -> int:
    one_torch_thread()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games <= 0:
        parser.error(f"--games must be > 0, got {args.games}")
    if args.out is not None:  # before the games: a result that cannot be written wastes them
        try:
            output_folder(args.out)
        except ValueError as error:
            parser.error(str(error))

    config_path = args.config
    if config_path is None and args.env is None:
        for spec in args.agents:
            candidate = Path(spec.partition("=")[2] or spec) if "=" in spec else Path(spec)
            if spec.endswith(".zip") and (candidate.parent / "config.yaml").is_file():
                config_path = candidate.parent / "config.yaml"
                break
    env_id, game_options = DEFAULT_GAME.gym_id, {}
    if config_path is not None:
        try:
            config = load_config(config_path)
        except ConfigError as error:
            parser.error(str(error))
        env_id, game_options = config.env_id, dict(config.game_options)
    if args.env is not None:
        try:
            env_id = find_game(args.env).gym_id
        except ValueError:
            parser.error(f"--env {shorten(args.env)}; allowed: {game_names()}")
    try:
        game_options.update(_parse_options(args.option))
    except ValueError as error:
        parser.error(str(error))
    if args.players is not None:
        game_options["num_players"] = args.players

    agents: dict[str, Any] = {}
    for spec in args.agents:
        try:
            name, agent = resolve_agent(spec)
        except ValueError as error:
            parser.error(str(error))
        if name in agents:
            parser.error(f"agent name {shorten(name)} given twice; label one as name=spec")
        agents[name] = agent
    make_env = env_factory(env_id, game_options)
    try:
        num_players = make_env().rules.spec.num_players
    except (ValueError, TypeError) as error:  # a bad game option or player count (ConfigError is a ValueError)
        parser.error(f"cannot make {env_id} with {game_options}: {error}")
    block = len(seating_plan(len(agents), num_players, args.design))
    games = args.games if args.no_round else block * math.ceil(args.games / block)
    if games != args.games:
        print(f"games rounded up from {args.games} to {games} (a multiple of the design block of {block})")
    started = time.perf_counter()
    try:
        with game_progress(games, "arena") as update:
            result = play_arena(make_env, agents, games, seed=args.seed, design=args.design, progress=update)
    except ValueError as error:
        parser.error(str(error))
    seconds = time.perf_counter() - started

    env_name = env_id.split("/")[-1]
    if args.out is None:
        out = new_run_dir("runs", f"arena__{env_name}")
    else:
        out = args.out
        out.mkdir(parents=True, exist_ok=True)
    payload = {
        "env_id": env_id,
        "game_options": game_options,
        "agent_specs": args.agents,
        "seed": args.seed,
        "seconds": seconds,
        **result.to_dict(),
    }
    table = result.markdown()
    print(table)
    (out / "arena.json").write_text(json.dumps(payload, indent=2))
    (out / "arena.md").write_text(f"# Arena: {env_name} {game_options}\n\n{table}\n")
    if not args.no_plot:
        from training.plots import plot_ratings

        plot_ratings(payload, out / "ratings.png", title=f"{env_name} {num_players}p: {games} games")
    print(f"wrote {out}/arena.json, arena.md" + ("" if args.no_plot else ", ratings.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
