"""Episode-edge helpers: an opponent that plays one illegal id, and the check that a mask is
accepted by the action space and by sb3-contrib's masked distribution."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces


class IllegalOnce:
    """An opponent that plays an illegal id on its ``at``-th decision only, else random legal ids."""

    def __init__(self, at: int = 1):
        self.calls, self.at = 0, at
        self.rng = np.random.default_rng(0)

    def __call__(self, observation):
        self.calls += 1
        mask = observation["action_mask"]
        pool = np.flatnonzero(mask == 0) if self.calls == self.at else np.flatnonzero(mask)
        return int(self.rng.choice(pool))


def assert_mask_accepted(mask: np.ndarray, n: int) -> None:
    assert mask.dtype == np.int8 and mask.shape[-1] == n and mask.any()
    space = spaces.Discrete(n)
    for row in np.atleast_2d(mask):
        assert row[space.sample(mask=row)] == 1
    try:
        from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
    except ImportError:  # the train extra is not installed
        return
    import torch

    dist = MaskableCategoricalDistribution(n).proba_distribution(torch.zeros((len(np.atleast_2d(mask)), n)))
    dist.apply_masking(mask)
    chosen = dist.sample().numpy()
    assert (np.atleast_2d(mask)[np.arange(len(chosen)), chosen] == 1).all()
