"""Statistics for evaluation results."""

from __future__ import annotations

import math

WIN_RATE_CONVENTIONS: dict[str, str] = {
    "wins": "wins / games: a draw counts as no win",
    "draws_half": "(wins + draws / 2) / games: a draw counts half",
}
"""How a ``win_rate`` (and its Wilson interval) counts draws: the value of a result row's
``win_rate_convention``. The arena, ``maya-eval`` and a training run's evaluation count wins
(``wins``); the expert-iteration gates and ``training.exit.match`` count a draw half
(``draws_half``)."""


def win_rate_successes(convention: str, wins: int, draws: int) -> float:
    """The successes a ``win_rate`` of ``convention`` counts (:data:`WIN_RATE_CONVENTIONS`).

    Raises:
        ValueError: an unknown convention.
    """
    if convention not in WIN_RATE_CONVENTIONS:
        raise ValueError(f"win_rate_convention={convention!r}; allowed: {list(WIN_RATE_CONVENTIONS)}")
    return wins + 0.5 * draws if convention == "draws_half" else float(wins)


def wilson_interval(successes: float, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    Args:
        successes: number of successes (a draw may count as 0.5).
        trials: number of trials (> 0).
        z: normal quantile of the two-sided level.

    Returns:
        ``(low, high)`` in ``[0, 1]``.

    Raises:
        ValueError: ``trials <= 0`` or ``successes`` outside ``[0, trials]``.
    """
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, got {successes}/{trials}")
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
