"""Statistics for evaluation results."""

from __future__ import annotations

import math


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
