"""The README results table: one row per finished training run, with an arena rating.

Usage::

    python -m training.results maya2012/2p_quick=runs/<run> yaxha/2p_quick=runs/<run> ... \\
        [--arena-games 200] [--out results.md]

For each ``CONFIG_NAME=RUN_DIR`` pair it reads the run's ``config.yaml`` and
``evaluation.json`` (written by ``maya-train``), plays an arena (``maya-arena``) between the
trained agent (an expert-iteration run's raw network), the heuristic bot and random bots (as
many random bots as it takes to fill a table: 2-3 players play {agent, heuristic, random};
4-5 players add random2, random3) unless
``RUN_DIR/arena/arena.json`` exists, and prints a Markdown table: game, players, config,
steps (expert iteration: positions learnt from), training seconds, win rate against random
and against the heuristic (with Wilson 95% intervals, from the run's evaluation; an
expert-iteration run shows its raw network and the network with search) and the OpenSkill
mu of the agent and of the heuristic in the arena.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from maya_envs.cli import description
from maya_envs.cli.args import output_file
from maya_envs.games import find_game
from maya_envs.plain_yaml import load_yaml
from training import arena


def arena_agents(run_dir: Path, num_players: int) -> list[str]:
    """The arena line-up for a run: the agent (``model.zip`` of a MaskablePPO run, else the raw
    network ``policy:<run>/model.pt`` of an expert-iteration run), the heuristic, and random bots
    up to the table size."""
    randoms = ["random"] + [f"random{i}=random" for i in range(2, max(num_players - 1, 1))]
    agent = run_dir / "model.zip"
    if not agent.is_file() and (run_dir / "model.pt").is_file():
        return [f"agent=policy:{run_dir / 'model.pt'}", "heuristic", *randoms]
    return [f"agent={agent}", "heuristic", *randoms]


def ensure_arena(run_dir: Path, num_players: int, games: int) -> dict:
    """``RUN_DIR/arena/arena.json``, playing the arena first when it is missing."""
    path = run_dir / "arena" / "arena.json"
    if not path.is_file():
        argv = ["--config", str(run_dir / "config.yaml"), "--agents", *arena_agents(run_dir, num_players)]
        arena.main([*argv, "--games", str(games), "--out", str(path.parent)])
    return json.loads(path.read_text())


def _rate(result: dict) -> str:
    low, high = result["win_rate_ci95"]
    return f"{result['win_rate']:.1%} [{low:.1%}, {high:.1%}]"


def _rates(rows: list[dict]) -> str:
    """One cell: the win rate of the run's one candidate, or of each candidate of an
    expert-iteration run (raw network, then with search), labelled by its suffix."""
    if len(rows) == 1:
        return _rate(rows[0])
    return "; ".join(f"{r['candidate'].rpartition('(')[2].rstrip(')')} {_rate(r)}" for r in rows)


def row(config_name: str, run_dir: Path, arena_games: int) -> str:
    """One Markdown table row for a finished run (see the module docstring).

    Raises:
        ValueError: a run directory without ``config.yaml`` or ``evaluation.json``.
    """
    for needed in ("config.yaml", "evaluation.json"):
        if not (run_dir / needed).is_file():
            raise ValueError(f"{str(run_dir)!r} has no {needed}; is it a finished maya-train run?")
    config = load_yaml((run_dir / "config.yaml").read_text(), f"{str(run_dir)!r}/config.yaml")
    evaluation = json.loads((run_dir / "evaluation.json").read_text())
    by_opponent: dict[str, list[dict]] = {}
    for r in evaluation["results"]:
        by_opponent.setdefault(r["opponent"], []).append(r)
    options = config.get("game_options", {})
    entry = find_game(config["env_id"])
    num_players = entry.make_rules(options).spec.num_players
    result = ensure_arena(run_dir, num_players, arena_games)
    mu = {name: rating["mu"] for name, rating in result["openskill"].items()}
    # each game names its variant option (setup, variant, footprint): the table's title shows it
    variant = options.get(entry.variant_option)
    game = entry.short_title + (f" {variant}" if variant is not None else "")
    cells = [
        game,
        str(num_players),
        f"`{config_name}`",
        f"{evaluation.get('total_timesteps', evaluation.get('positions', 0)):,}",
        f"{evaluation['train_seconds']:.0f}",
        _rates(by_opponent["random"]) if "random" in by_opponent else "-",
        _rates(by_opponent["heuristic"]) if "heuristic" in by_opponent else "-",
        f"{mu['agent']:.1f} / {mu['heuristic']:.1f}",
    ]
    return "| " + " | ".join(cells) + " |"


HEADER = (
    "| game | players | config | steps | train s | vs random (95% CI) | vs heuristic (95% CI) "
    "| OpenSkill mu agent / heuristic |\n|---|---:|---|---:|---:|---|---|---|"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.results", description=description(__doc__))
    parser.add_argument("runs", nargs="+", metavar="CONFIG_NAME=RUN_DIR")
    parser.add_argument("--arena-games", type=int, default=200, help="arena games per run (when none is saved)")
    parser.add_argument("--out", type=Path, help="also write the table to this file (replaced if it exists)")
    args = parser.parse_args(argv)
    if args.out is not None:  # before the arena games a run may need
        try:
            output_file(args.out)
        except ValueError as error:
            parser.error(str(error))
    rows = []
    for item in args.runs:
        name, sep, run_dir = item.partition("=")
        if not sep or not name or not run_dir:
            parser.error(f"{item!r} must look like CONFIG_NAME=RUN_DIR")
        try:
            rows.append(row(name, Path(run_dir), args.arena_games))
        except ValueError as error:
            parser.error(str(error))
    table = "\n".join([HEADER, *rows])
    print(table)
    if args.out is not None:
        args.out.write_text(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
