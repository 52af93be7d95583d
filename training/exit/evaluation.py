"""The final evaluation of an expert-iteration run: the last kept network, raw and with its
search, in seat-rotated matches against bots, played by the actors (both cores), with progress
in the log and each finished match written to the run directory at once.

A match is played in chunks of ``actors x exit.games_in_flight`` games (the games the actors
hold in lock step anyway), so that after each chunk a progress line says the games done, the
total and the running win rate with its Wilson 95% interval, and a run stopped half-way keeps
the matches it finished (``evaluation.jsonl``, one :class:`maya_envs.evaluation.MatchResult`
row per line). The games depend on the run's seed and the actor count alone, never on how fast
the machine plays them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from maya_envs.evaluation import MatchResult
from maya_envs.evaluation.stats import wilson_interval
from training.exit.gating import fair_share, match_lineups, score_match
from training.progress import progress

ROWS_FILE = "evaluation.jsonl"
"""The run directory's file of finished evaluation matches, one JSON row each, appended as each ends."""


def running_rate(values: np.ndarray) -> str:
    """``"win rate 87.0% [83.4%, 90.0%]"`` of the candidate over the match games in ``values``
    (``(games, num_players)`` final values, game ``g`` with the candidate at seat ``g % n``; a
    win is a positive value, draws count as no win: :class:`MatchResult`'s convention)."""
    if not len(values):
        return ""
    mine = values[np.arange(len(values)), np.arange(len(values)) % values.shape[1]]
    wins = int((mine > 0).sum())
    low, high = wilson_interval(wins, len(values))
    return f"win rate {wins / len(values):.1%} [{low:.1%}, {high:.1%}]"


def play_in_chunks(
    trainer, actors, candidate: str, opponent: str, games: int, nets: dict[str, Any], done: Callable[[np.ndarray], None]
) -> np.ndarray:
    """Play :meth:`training.exit.loop.ExitTrainer.match`'s games of ``candidate`` against
    ``opponent`` (agent specs of :mod:`training.exit.actors`) in chunks of
    ``actors.count x exit.games_in_flight`` games; after each, ``done(values so far)``. The
    final values ``(games, num_players)``, float, seat order."""
    lineups = match_lineups(candidate, opponent, games, trainer.num_players)
    seeds = trainer._seeds(games)
    base = trainer._seeds(1)[0]
    size = actors.count * trainer.config.exit.games_in_flight
    values: list[np.ndarray] = []
    for chunk, start in enumerate(range(0, games, size)):
        # each chunk's actor generators get their own seeds: base + chunk * count + actor
        played = actors.play(
            lineups[start : start + size], seeds[start : start + size], nets, base + chunk * actors.count, trainer.leaf
        )
        trainer.gate_cpu += played.cpu_seconds
        values.append(played.values)
        done(np.concatenate(values))
    return np.concatenate(values) if values else np.zeros((0, trainer.num_players))


def evaluation_matches(config, leaf: str, label: str) -> list[tuple[str, str, str]]:
    """``(candidate name, agent spec, opponent bot)`` of every evaluation match: the raw network
    (``policy:best``) against ``eval_opponents``, then, with ``exit.eval_simulations`` > 0, the
    network with that many guided simulations (``az:best``) against ``exit.eval_search_opponents``
    (``null``: ``eval_opponents``)."""
    ex = config.exit
    matches = [(f"{label} (raw)", "policy:best", bot) for bot in config.eval_opponents]
    if ex.eval_simulations:
        name = f"{label} (+{ex.eval_simulations} sims, leaf={leaf})"
        searched = config.eval_opponents if ex.eval_search_opponents is None else ex.eval_search_opponents
        matches += [(name, "az:best", bot) for bot in searched]
    return matches


def evaluate(trainer, actors, label: str, run_dir: Path | None = None) -> list[MatchResult]:
    """The evaluation matches (:func:`evaluation_matches`) of ``trainer``'s last kept network,
    ``eval_games`` games each, as :class:`MatchResult` rows; progress on stderr (lines in a log,
    unless ``progress_bar: false``) and, with ``run_dir``, each row appended to
    :data:`ROWS_FILE` there when its match ends. ``eval_games: 0``: no match, ``[]``."""
    config = trainer.config
    if not config.eval_games:
        return []
    fair = fair_share(trainer.num_players, trainer.game.teams(trainer.num_players))
    results = []
    for name, spec, bot in evaluation_matches(config, trainer.leaf, label):
        with progress(config.eval_games, f"{name} vs {bot}", "game", config.progress_bar) as update:
            values = play_in_chunks(
                trainer, actors, spec, f"bot:{bot}", config.eval_games, {"best": trainer.best},
                lambda so_far: update(len(so_far), running_rate(so_far)),
            )  # fmt: skip
        result = score_match(bot, values, fair).match_result(name, values)
        results.append(result)
        if run_dir is not None:
            with (run_dir / ROWS_FILE).open("a") as rows:
                rows.write(json.dumps(result.to_dict()) + "\n")
    return results
