"""``maya-stats``: play N seeded games of any game, player count, variant and bot lineup and
report the game's shape, balance and cost (Markdown, JSON and PNG plots).

Examples::

    maya-stats --game maya2012 --players 3 --games 1000 --workers 2
    maya-stats --game quarry --players 4 --option variant=advanced --lineup heuristic
    maya-stats --game maya2012 --lineup heuristic,random --rotate --games 400
    maya-stats --game maya2012 --players 2 --compare setup=random     # two option sets side by side
    maya-stats --readme README.md --games 1000 --workers 2              # the README's tables

The report goes to ``--out`` (default ``maya-stats/``): ``report.md``, ``report.json`` (every
figure; the same seed gives the same file apart from its ``"timing"`` fields, whatever
``--workers``) and ``branching.png``, ``length.png``, ``seats.png``. Lineup specs (comma-separated
in seat order; one spec fills every seat): ``random``, ``heuristic``, ``mcts:N[...]``,
``ismcts...``, ``policy:<model>``, ``az:<model>``, ``pretrained[:<name>]``, a MaskablePPO ``.zip``
(see ``maya-play --help``). A progress bar is shown when stderr is a terminal.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from maya_envs.cli import description
from maya_envs.cli.args import capped_workers, output_file, output_folder, seed_arg
from maya_envs.cli.play import parse_option
from maya_envs.games import DEFAULT_GAME, find_game, game_names
from maya_envs.players import player_syntax
from maya_envs.stats.collect import StatsConfig, Table
from maya_envs.stats.report import markdown, run, to_json


def progress_bar(total: int, label: str):
    """``(update, close)``: a tqdm bar on a terminal's stderr, else no-ops."""
    if not sys.stderr.isatty():
        return None, lambda: None
    try:
        from tqdm import tqdm
    except ImportError:
        return None, lambda: None
    bar = tqdm(total=total, desc=label, unit="game", file=sys.stderr)
    return bar.update, bar.close


def play_run(config: StatsConfig, games: int, seed: int, workers: int) -> dict[str, Any]:
    """:func:`maya_envs.stats.report.run` with a progress bar on a terminal."""
    from maya_envs.stats.report import label

    update, close = progress_bar(games, label(config))
    try:
        return run(config, games, seed=seed, workers=workers, progress=update)
    finally:
        close()


def make_config(args: argparse.Namespace, extra: dict[str, Any] | None = None) -> StatsConfig:
    """The config the arguments name (``extra`` options over ``--option``).

    Raises:
        ValueError: an unknown game, or a ``--players`` that contradicts ``num_players=``.
    """
    game = find_game(args.game)
    options = dict(args.option)
    if args.players is not None:
        if options.get("num_players", args.players) != args.players:
            raise ValueError(f"--players {args.players} and --option num_players={options['num_players']} disagree")
        options["num_players"] = args.players
    options.setdefault("num_players", game.player_counts[0])
    options.update(extra or {})
    lineup = [spec.strip() for spec in args.lineup.split(",")]
    if any(not spec for spec in lineup):
        raise ValueError(f"--lineup {args.lineup!r} has an empty spec")
    n = options["num_players"]
    if len(lineup) == 1 and isinstance(n, int):
        lineup *= n
    return StatsConfig(
        game=game.key,
        options=options,
        lineup=tuple(lineup),
        rotate=args.rotate,
        hidden_games=args.hidden_games,
        world_samples=args.world_samples,
        probe_every=args.probe_every,
    )


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _samples(text: str) -> int:
    value = int(text)
    if value < 2:
        raise argparse.ArgumentTypeError(f"must be >= 2 (worlds are counted from coinciding pairs), got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="maya-stats", description=description(__doc__), formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default=DEFAULT_GAME.key, help=f"a game name (default {DEFAULT_GAME.key}); known: "
                        + ", ".join(game_names()))  # fmt: skip
    parser.add_argument("--players", type=int, help="num_players (default: the game's smallest count)")
    parser.add_argument("--option", type=parse_option, action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, e.g. setup=random (repeatable; VALUE read as JSON when it parses)")  # fmt: skip
    parser.add_argument("--lineup", default="random", help="agent specs in seat order, comma-separated; "
                        f"one spec fills every seat (default random): {player_syntax()}, "
                        "a checkpoint .zip")  # fmt: skip
    parser.add_argument("--rotate", action="store_true", help="game i shifts the lineup by i seats")
    parser.add_argument("--games", type=_positive, default=None, help="games per run (default 200; --readme: 1000)")
    parser.add_argument("--seed", type=seed_arg, default=0)
    parser.add_argument("--workers", type=_positive, default=1,
                        help="worker processes (same figures as 1; at most the games and the cores)")  # fmt: skip
    parser.add_argument("--compare", type=parse_option, action="append", default=[], metavar="KEY=VALUE",
                        help="also run with these options over the others and report both side by side")  # fmt: skip
    parser.add_argument("--hidden-games", type=_non_negative, default=10,
                        help="probe hidden information in the first N games (default 10; 0: off)")  # fmt: skip
    parser.add_argument("--world-samples", type=_samples, default=32,
                        help="determinizations per probed decision (default 32)")  # fmt: skip
    parser.add_argument("--probe-every", type=_positive, default=4,
                        help="probe every K-th decision of a probed game (default 4)")  # fmt: skip
    parser.add_argument("--out", type=Path, default=Path("maya-stats"),
                        help="report folder (default maya-stats/); its report files are replaced")  # fmt: skip
    parser.add_argument("--no-plots", action="store_true", help="write no PNG (no matplotlib needed)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--readme", type=Path, metavar="README",
                      help="play every config of the game table (random and heuristic lineups) and rewrite the "
                      "game-statistics tables in README")  # fmt: skip
    mode.add_argument("--check-readme", type=Path, metavar="README",
                      help="exit 1 if README's game-statistics tables differ from the stored results")  # fmt: skip
    parser.add_argument("--results", type=Path, default=None, metavar="JSON",
                        help="with --readme / --check-readme: the stored results (default "
                        "benchmarks/results/game_stats.json in the current directory)")  # fmt: skip
    return parser


def check_arguments(args: argparse.Namespace, readme_games: int) -> None:
    """Check the paths of ``args`` and cap ``args.workers`` at the games and the cores (the
    note printed on stderr), before any work: ``--readme`` / ``--check-readme`` an existing
    file (``--readme`` one that may be rewritten), ``--out`` a folder that can be written
    (:func:`maya_envs.cli.args.output_folder`; its report files are replaced).

    Raises:
        ValueError: a path that cannot serve, named with what is allowed.
    """
    for option, path in (("--readme", args.readme), ("--check-readme", args.check_readme)):
        if path is not None and not path.is_file():
            raise ValueError(f"{option} {str(path)[:120]!r}: no such file; allowed: an existing README to read")
    if args.readme is not None:
        output_file(args.readme, "--readme")
    elif args.check_readme is None:
        output_folder(args.out)
    games = args.games or (readme_games if args.readme else 200)
    args.workers, note = capped_workers(args.workers, games)
    if note:
        print(f"maya-stats: {note}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from maya_envs.stats import readme

    if args.results is not None and args.readme is None and args.check_readme is None:
        parser.error(f"--results {str(args.results)[:120]!r} is read only with --readme or --check-readme")
    try:  # every argument checked before any game is played
        check_arguments(args, readme.README_GAMES)
    except ValueError as error:
        parser.error(str(error))
    if args.check_readme:
        try:
            stale = readme.stale(args.check_readme, args.results or readme.RESULTS)
        except (OSError, UnicodeDecodeError, ValueError) as error:  # unreadable, or no game-statistics block
            parser.error(f"--check-readme {str(args.check_readme)[:120]!r}: {error}")
        if stale:
            print(f"{args.check_readme}: {stale}")
            return 1
        return 0
    if args.readme:
        readme.regenerate(args.readme, games=args.games or readme.README_GAMES, seed=args.seed,
                          workers=args.workers, play=play_run, path=args.results or readme.RESULTS)  # fmt: skip
        return 0
    games = args.games or 200
    try:
        configs = [make_config(args)]
        if args.compare:
            configs.append(make_config(args, dict(args.compare)))
        for config in configs:  # every config's errors before any game is played
            Table(config)
        runs = [play_run(config, games, args.seed, args.workers) for config in configs]
    except (ValueError, ImportError) as error:
        parser.error(str(error))
    command = "maya-stats " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    args.out.mkdir(parents=True, exist_ok=True)
    plots: list[str] = []
    if not args.no_plots:
        from maya_envs.stats.plots import write_plots

        plots = [p.name for p in write_plots(runs, args.out)]
    (args.out / "report.json").write_text(to_json(runs, command), encoding="utf-8")
    (args.out / "report.md").write_text(markdown(runs, command, plots), encoding="utf-8")
    print(markdown(runs, command).split("\n## ")[0])
    print(f"report: {args.out / 'report.md'}, {args.out / 'report.json'}" + (f", plots: {', '.join(plots)}" if plots else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
