"""Gating: seat-rotated matches of one network against a bot or another network, and the
decision to keep a new network.

One candidate seat per game (game ``g`` seats it at ``g % num_players``), every other seat
the opponent. A win is a positive final value, a draw zero (half a win). The *parity score*
divides the candidate's win share by twice the fair share (``1/num_players``; one team of
two in the four-player Maya (2012) team game: ``1/2``), so 0.5 means "as good as the
table" at every player count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from maya_envs.evaluation import MatchResult
from maya_envs.evaluation.stats import wilson_interval, win_rate_successes


@dataclass
class Match:
    """A gating match's outcome from the candidate's seats."""

    opponent: str
    games: int
    wins: int
    draws: int
    fair_share: float
    CONVENTION = "draws_half"  # a draw counts half (maya_envs.evaluation.stats.WIN_RATE_CONVENTIONS)

    @property
    def win_rate(self) -> float:
        """Wins (draws as half) over games."""
        return win_rate_successes(self.CONVENTION, self.wins, self.draws) / self.games

    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson 95% interval of :attr:`win_rate`."""
        return wilson_interval(win_rate_successes(self.CONVENTION, self.wins, self.draws), self.games)

    @property
    def parity_score(self) -> float:
        """``win_rate / (2 * fair_share)``: 0.5 plays as well as the table."""
        return self.win_rate / (2 * self.fair_share)

    def match_result(self, candidate: str, values: np.ndarray) -> MatchResult:
        """The same games as a :class:`maya_envs.evaluation.MatchResult` (the results table of
        :mod:`training.evaluate`); ``values`` as for :func:`score_match`. The rules refuse an
        illegal action, so ``illegal_actions`` is 0."""
        n = values.shape[1]
        per_seat = np.bincount(np.arange(len(values)) % n, minlength=n)
        return MatchResult(
            candidate, self.opponent, self.games, self.wins, self.draws, self.games - self.wins - self.draws,
            0, [int(x) for x in per_seat],
        )  # fmt: skip

    def to_dict(self) -> dict:
        return {
            "opponent": self.opponent,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "win_rate": self.win_rate,
            "win_rate_ci95": list(self.ci95),
            "win_rate_convention": self.CONVENTION,
            "fair_share": self.fair_share,
        }


def match_lineups(candidate: str, opponent: str, games: int, num_players: int) -> list[list[str]]:
    """Lineups of agent specs (:mod:`training.exit.actors`): ``candidate`` at seat
    ``g % num_players`` of game ``g``, ``opponent`` everywhere else."""
    lineups = []
    for game in range(games):
        lineup = [opponent] * num_players
        lineup[game % num_players] = candidate
        lineups.append(lineup)
    return lineups


def score_match(opponent: str, values: np.ndarray, fair_share: float) -> Match:
    """The :class:`Match` of games played from :func:`match_lineups` (``values[g]`` the final
    values of game ``g``, seat order)."""
    n = values.shape[1]
    mine = values[np.arange(len(values)), np.arange(len(values)) % n]
    return Match(opponent, len(values), int((mine > 0).sum()), int((mine == 0).sum()), fair_share)


def fair_share(num_players: int, teams: tuple[tuple[int, ...], ...]) -> float:
    """One seat's share of wins at an even table: ``1/len(teams)`` in team play, else ``1/n``."""
    return 1.0 / (len(teams) if teams else num_players)


def keep(against_best: Match, threshold: float) -> bool:
    """Keep the candidate when its parity score against the last kept network reaches ``threshold``."""
    return against_best.parity_score >= threshold
