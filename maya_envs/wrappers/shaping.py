"""Potential-based reward shaping (Ng, Harada & Russell, 1999) for the single-agent view.

With a potential ``phi(state, seat)`` the learner's reward for a decision becomes
``r + scale * (gamma * phi(s') - phi(s))``, where ``s`` is the state at the learner's
decision and ``s'`` the state at its next decision (after the opponents replied); at the end
of the episode ``phi(s') = 0``. Shaping of this form leaves the optimal policy unchanged, so
the game's own result stays the objective; it only gives earlier credit. Off unless asked for.

Each game names its potential in the game table (:mod:`maya_envs.games`, hook
``shaping_potential``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from maya_envs.core.errors import ConfigError
from maya_envs.games import GAMES, find_game

Potential = Callable[[Any, int], float]


def load_potential(game: str) -> Potential:
    """The shaping potential of ``game`` (any name :func:`maya_envs.games.find_game` accepts).

    Raises:
        ConfigError: the game is unknown or has no potential; the message lists the games that have one.
    """
    try:
        potential = find_game(game).hook("shaping_potential")
    except ValueError:
        potential = None
    if potential is None:
        available = sorted(g.gym_id for g in GAMES.values() if g.hooks["shaping_potential"])
        raise ConfigError(f"no shaping potential for {game!r}; available for: {available}")
    return potential
