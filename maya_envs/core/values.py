"""Value arithmetic every search and every game's search hooks share: the value scale of a
finished game (:func:`terminal_values`) and the per-seat leads and leaf values from scores
(:func:`relative_leads`, :func:`relative_values`). Pure numpy, so a game's ``determinize.py``
stands on ``core`` only."""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.core.protocol import Rules


def terminal_values(rules: Rules, state: Any) -> np.ndarray:
    """``float64 (num_players,)``: a finished game's ``rules.returns(state)`` divided by the
    largest absolute reward of ``rules.spec.reward_range``, so in [-1, 1] in every game (zeros
    after a truncation). The value scale of both searches and of the network's value head."""
    low, high = rules.spec.reward_range
    return np.asarray(rules.returns(state), np.float64) * (1.0 / max(abs(low), abs(high), 1e-12))


def relative_leads(scores: list[float] | np.ndarray) -> np.ndarray:
    """``float64 (n,)``: each seat's score minus the mean of the others' (n >= 2)."""
    scores = np.asarray(scores, np.float64)
    n = len(scores)
    return scores - (scores.sum() - scores) / (n - 1)


def relative_values(scores: list[float] | np.ndarray, scale: float) -> np.ndarray:
    """Leaf values in (-1, 1) from per-seat scores: ``tanh((own - mean of the others) / scale)``.

    A smooth stand-in for a win/loss outcome, for the games' ``leaf_values`` hooks.
    """
    return np.tanh(relative_leads(scores) / scale)
