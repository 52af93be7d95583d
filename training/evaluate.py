"""Evaluate an agent (a MaskablePPO checkpoint or a bot) against the bots, seats alternated.

Usage::

    maya-eval --checkpoint runs/<run>/model.zip [--games 400] [--opponents random heuristic]
    maya-eval --agent heuristic --games 400          # a bot as the candidate
    maya-eval --checkpoint model.zip --game yaxha --players 2   # a file without its run's config.yaml

The env id and game options come from the run's ``config.yaml`` beside the checkpoint (or one
folder up), or from ``--config``, or ``--game``/``--players``; without any of them ``maya-eval``
stops and names the games whose observation shape fits the model. The candidate is named as
in every table (:func:`maya_envs.evaluation.checkpoint_name`: the run's ``exp_name``). Results
are printed as a table and written as ``maya-eval_<time>.json`` and ``.md`` in ``--out``
(default: the checkpoint's directory, beside the training run's own ``evaluation.*``, which are
never overwritten). Progress per opponent shows on stderr (a bar on a terminal, lines in a log).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.cli import description
from maya_envs.cli.args import output_folder
from maya_envs.core.errors import ConfigError, shorten
from maya_envs.core.paths import claim_new, timestamp
from maya_envs.evaluation import MatchResult, checkpoint_name, play_match
from maya_envs.games import find_game, game_names
from maya_envs.players import one_torch_thread
from training.config import TrainConfig, load_config
from training.progress import game_progress


def aec_factory(config: TrainConfig):
    """A function building the AEC env of the game ``config.env_id`` names (its entry in
    :mod:`maya_envs.games`) with the game options."""
    game = find_game(config.env_id)

    def make():
        return game.make_aec_env(**config.game_options)

    return make


def evaluate_against_bots(
    agent: Any, config: TrainConfig, name: str = "agent", games: int | None = None, progress: bool | None = None
) -> list[MatchResult]:
    """One match of ``games`` (default ``config.eval_games``) games per bot in ``config.eval_opponents``,
    with a progress bar per match on stderr (``progress``; ``None``: ``config.progress_bar``);
    no match (``[]``) for 0 games: the evaluation is skipped."""
    games = config.eval_games if games is None else games
    results = []
    for bot in config.eval_opponents if games else ():
        with game_progress(games, f"{name} vs {bot}", config.progress_bar if progress is None else progress) as update:
            results.append(
                play_match(aec_factory(config), agent, bot, games, seed=config.seed + 10_000, candidate_name=name,
                           opponent_name=bot, progress=update)
            )  # fmt: skip
    return results


def results_markdown(results: list[MatchResult]) -> str:
    """A Markdown table of match results."""
    lines = [
        "| agent | opponent | games | wins | draws | losses | win rate | 95% CI (Wilson) | illegal |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|",
    ]
    for r in results:
        low, high = r.win_rate_ci95
        lines.append(
            f"| {r.candidate} | {r.opponent} | {r.games} | {r.wins} | {r.draws} | {r.losses} | "
            f"{r.win_rate:.1%} | [{low:.1%}, {high:.1%}] | {r.illegal_actions} |"
        )
    return "\n".join(lines)


NO_EVALUATION = "no evaluation: eval_games is 0 (evaluate the model with maya-eval, or train with eval_games >= 1)"
"""What a run's results files say when ``eval_games: 0`` skipped the evaluation."""


def evaluating(config: TrainConfig) -> str:
    """The end of a run's "trained ..." line: ``"evaluating..."``, or that ``eval_games: 0`` skips it."""
    return "evaluating..." if config.eval_games else "no evaluation (eval_games: 0)"


def write_results(
    results: list[MatchResult], out_dir: Path, extra: dict[str, Any] | None = None, stem: str = "evaluation"
) -> Path:
    """Print the table and write ``<stem>.json`` / ``<stem>.md`` to ``out_dir``; the ``.json`` path.
    No results (``eval_games: 0``): both files say :data:`NO_EVALUATION` instead of a table (the
    JSON as ``"evaluation"`` beside an empty ``results``)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    table = results_markdown(results) if results else NO_EVALUATION
    print(table)
    payload = {"results": [r.to_dict() for r in results], **({} if results else {"evaluation": NO_EVALUATION})}
    payload.update(extra or {})
    (out_dir / f"{stem}.json").write_text(json.dumps(payload, indent=2))
    (out_dir / f"{stem}.md").write_text(table + "\n")
    return out_dir / f"{stem}.json"


def config_beside(checkpoint: Path) -> Path | None:
    """The ``config.yaml`` of a checkpoint's run: beside it, or one folder up (``checkpoints/``)."""
    for folder in (checkpoint.parent, checkpoint.parent.parent):
        if (folder / "config.yaml").is_file():
            return folder / "config.yaml"
    return None


def matching_games(observation_shape: tuple[int, ...], num_actions: int) -> list[str]:
    """``--game KEY --players N --set game_options.VARIANT=VALUE`` of every game, player count
    and variant whose observation shape and action count are the model's (the README's env
    table, :func:`maya_envs.env_table.rows`): what to pass to ``maya-eval`` for a checkpoint
    without its run's ``config.yaml``."""
    from maya_envs.env_table import rows
    from maya_envs.games import GAMES

    keys = {game.name: key for key, game in GAMES.items()}
    return [
        f"--game {keys[row.module]} --players {spec.num_players} --set game_options.{row.option}={row.value}"
        for row in rows()
        for spec in row.specs
        if tuple(spec.observation_shape) == tuple(observation_shape) and spec.num_actions == num_actions
    ]


def main(argv: list[str] | None = None) -> int:
    one_torch_thread()
    parser = argparse.ArgumentParser(prog="maya-eval", description=description(__doc__))
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--checkpoint", type=Path, help="a MaskablePPO .zip saved by maya-train")
    source.add_argument("--agent", choices=["random", "heuristic"], help="evaluate a bot instead")
    parser.add_argument(
        "--config",
        type=Path,
        help="config YAML file or shipped config name (default: the run's config.yaml beside the checkpoint)",
    )
    parser.add_argument("--game", help=f"the game, where no config names it: one of {game_names()}")
    parser.add_argument("--players", type=int, help="num_players game option (with --game)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="config override")
    parser.add_argument("--games", type=int, help="games per opponent (default: the config's eval_games)")
    parser.add_argument("--opponents", nargs="+", help="bots to play against (default: the config's)")
    parser.add_argument("--out", type=Path, help="output directory (default: the checkpoint's directory)")
    args = parser.parse_args(argv)
    if args.out is not None:  # before the games: a result that cannot be written wastes them
        try:
            output_folder(args.out)
        except ValueError as error:
            parser.error(str(error))

    agent, name = args.agent, args.agent
    if args.checkpoint is not None:
        from maya_envs.sb3_zip import load_maskable_ppo

        if not args.checkpoint.is_file():
            parser.error(f"checkpoint {str(args.checkpoint)!r} does not exist")
        try:
            agent, name = load_maskable_ppo(args.checkpoint, device="cpu"), checkpoint_name(args.checkpoint)
        except Exception as error:  # a corrupt, crafted or foreign file: sb3 and torch raise many kinds
            parser.error(f"checkpoint {str(args.checkpoint)!r} is not a loadable MaskablePPO model: {error}")
    config_path = args.config
    if config_path is None and args.checkpoint is not None:
        config_path = config_beside(args.checkpoint)
        if config_path is None and args.game is None:
            space = agent.observation_space  # the single-agent view's Box (or a Dict with "observation")
            shape = (space["observation"] if hasattr(space, "spaces") else space).shape
            actions = agent.action_space.n
            choices = "; ".join(matching_games(shape, actions)) or f"none matches its {shape} observation"
            parser.error(
                f"no config.yaml beside {str(args.checkpoint)!r} (nor one folder up) to say its game: pass "
                f"--config (the run's config.yaml or a shipped name, see maya-train --list-configs) or --game; "
                f"for this model's observation {shape} and {actions} actions: {choices}"
            )
    overrides = []
    if args.game is not None:
        try:
            overrides.append(f"env_id={find_game(args.game).gym_id}")
        except ValueError:
            parser.error(f"--game {shorten(args.game)}; allowed: {game_names()}")
    if args.players is not None:
        overrides.append(f"game_options.num_players={args.players}")
    overrides += list(args.set)
    if args.games is not None:
        if args.games < 1:  # a config's eval_games may be 0 (training without evaluation); maya-eval plays
            parser.error(f"--games {args.games}; allowed: a positive int (games per opponent)")
        overrides.append(f"eval_games={args.games}")
    if args.opponents:
        overrides.append(f"eval_opponents={json.dumps(args.opponents)}")
    try:
        config = load_config(config_path, overrides)
    except ConfigError as error:
        parser.error(str(error).replace("eval_games=", "--games / eval_games="))
    if not config.eval_games:
        parser.error("the config's eval_games is 0 (its run skipped the evaluation): pass --games N (N >= 1)")
    try:
        results = evaluate_against_bots(agent, config, name=name, progress=True)
    except ValueError as error:  # e.g. a checkpoint of another game
        parser.error(str(error))
    out = args.out or (args.checkpoint.parent if args.checkpoint else Path(config.output_dir) / f"eval_{name}")
    stem = claim_new(out, f"maya-eval_{timestamp()}", suffix=".json").stem  # unique within the second
    written = write_results(results, out, stem=stem)
    print(f"written: {written} and {written.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
