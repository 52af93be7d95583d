"""Selection for shipping (design D5 of the strong-agents study): of several candidate networks,
each measured by seat-rotated matches played with the search it ships with
(:func:`training.exit.match.measure` rows), ship the one with the best pooled score; then
confirm it on fresh games (the number to publish). No 60-game gate: such a gate keeps a
network 5 points worse about a quarter of the time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from maya_envs.evaluation.stats import wilson_interval


def pooled_score(rows: Sequence[Mapping[str, Any]]) -> tuple[float, int]:
    """``(score, games)`` over match rows (each with ``wins``, ``draws``, ``games``): wins plus
    half the draws over all games, so a row of more games weighs more.

    Raises:
        ValueError: no rows, or rows of 0 games in all.
    """
    games = sum(int(r["games"]) for r in rows)
    if not rows or games <= 0:
        raise ValueError(f"no games to score in {list(rows)!r}")
    return sum(int(r["wins"]) + 0.5 * int(r["draws"]) for r in rows) / games, games


def select_best(results: Mapping[str, Sequence[Mapping[str, Any]]]) -> tuple[str, dict[str, Any]]:
    """The candidate of best :func:`pooled_score` in ``results`` (``{candidate: match rows}``)
    and a summary ``{candidate: {"score", "games", "ci95"}}`` of all of them. Ties: more
    games, then the candidate named first in ``results`` (the caller's order, e.g. newest first).

    Raises:
        ValueError: no candidates, or a candidate without games.
    """
    if not results:
        raise ValueError("select_best needs at least one candidate")
    summary = {}
    for name, rows in results.items():
        score, games = pooled_score(rows)
        summary[name] = {"score": score, "games": games, "ci95": list(wilson_interval(score * games, games))}
    order = list(results)
    best = max(order, key=lambda n: (summary[n]["score"], summary[n]["games"], -order.index(n)))
    return best, summary
