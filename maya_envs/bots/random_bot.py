"""Uniform random play over the legal actions, with the bot's own generator."""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.core.protocol import Rules
from maya_envs.core.rng import make_rng


class RandomBot:
    """Picks uniformly among ``rules.legal_actions(state)``.

    Args:
        rules: the game's rules.
        seed: an int, ``None`` or a generator (see :func:`maya_envs.core.rng.make_rng`).
    """

    def __init__(self, rules: Rules, seed: int | np.random.Generator | None = None) -> None:
        self.rules = rules
        self.rng = make_rng(seed)

    def act(self, state: Any) -> int:
        legal = self.rules.legal_actions(state)
        if not legal:
            raise ValueError("RandomBot.act called on a state with no legal action (the game is over)")
        return int(legal[self.rng.integers(len(legal))])
