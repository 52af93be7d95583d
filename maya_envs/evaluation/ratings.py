"""Ratings from arena games: Elo for two-player games, OpenSkill (Plackett-Luce) for any count.

Both are updated game by game in the order the games were played.

* :class:`EloTable`: the classic logistic Elo (base 10, scale 400) with a fixed ``k``; a win
  scores 1, a draw 0.5, a loss 0. Only for two seats per game.
* :class:`OpenSkillTable`: Weng-Lin Bayesian ratings with the Plackett-Luce model of the
  ``openskill`` package (``train`` extra, imported on first use). Every seat is one team of
  one player ranked by its final return (ties share a rank, so partners in the 4-player Maya
  (2012) team game, who get equal returns, tie). An agent that sits in several seats of one
  game (fewer agents than seats) gets the mean of its per-seat updates.
  ``ordinal = mu - 3 * sigma`` is the conservative estimate the tables sort by.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

ELO_START = 1500.0
ELO_K = 16.0


def elo_expected(rating_a: float, rating_b: float) -> float:
    """Expected score of A against B: ``1 / (1 + 10 ** ((rb - ra) / 400))``."""
    return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / 400.0))


class EloTable:
    """Elo ratings of named agents, starting at ``start``, updated with ``k`` per game."""

    def __init__(self, names: Sequence[str], start: float = ELO_START, k: float = ELO_K) -> None:
        self.k = float(k)
        self.ratings = {name: float(start) for name in names}

    def update(self, name_a: str, name_b: str, score_a: float) -> None:
        """One game: ``score_a`` is 1 (A won), 0.5 (draw) or 0 (B won).

        Raises:
            ValueError: a score outside ``[0, 1]``.
        """
        if not 0.0 <= score_a <= 1.0:
            raise ValueError(f"score_a must be in [0, 1], got {score_a}")
        if name_a == name_b:
            return  # a mirror game carries no rating information
        ra, rb = self.ratings[name_a], self.ratings[name_b]
        expected = elo_expected(ra, rb)
        self.ratings[name_a] = ra + self.k * (score_a - expected)
        self.ratings[name_b] = rb - self.k * (score_a - expected)

    def to_dict(self) -> dict[str, float]:
        return dict(self.ratings)


class OpenSkillTable:
    """Plackett-Luce ratings (``openskill.models.PlackettLuce`` with its defaults:
    ``mu = 25``, ``sigma = 25 / 3``, ``beta = 25 / 6``, ``tau = 25 / 300``)."""

    def __init__(self, names: Sequence[str], **model_options: Any) -> None:
        try:
            from openskill.models import PlackettLuce
        except ImportError as error:  # pragma: no cover - the train extra brings it
            raise ImportError(
                "OpenSkill ratings need the 'openskill' package: pip install 'maya-envs[train]'"
            ) from error
        self.model = PlackettLuce(**model_options)
        self.ratings = {name: self.model.rating(name=name) for name in names}

    def update(self, seat_names: Sequence[str], returns: Sequence[float]) -> None:
        """One game: ``seat_names[s]`` sat in seat ``s`` and got the final return ``returns[s]``."""
        if len(set(seat_names)) < 2:
            return  # everyone is the same agent: nothing to learn
        teams = [[self.model.rating(mu=self.ratings[name].mu, sigma=self.ratings[name].sigma)] for name in seat_names]
        rated = self.model.rate(teams, scores=[float(r) for r in returns])
        sums: dict[str, list[float]] = {}
        for name, (rating,) in zip(seat_names, rated, strict=True):
            acc = sums.setdefault(name, [0.0, 0.0, 0.0])
            acc[0] += rating.mu
            acc[1] += rating.sigma
            acc[2] += 1
        for name, (mu, sigma, count) in sums.items():
            self.ratings[name].mu = mu / count
            self.ratings[name].sigma = sigma / count

    def to_dict(self) -> dict[str, dict[str, float]]:
        return {
            name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3.0 * r.sigma} for name, r in self.ratings.items()
        }
