"""The ``az:`` bot: a player that makes the guided search's move (:class:`AZBot`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.bots.guided.config import Evaluator, GuidedConfig, node_cache
from maya_envs.bots.guided.evaluators import EvaluationMemo, leaf_evaluator
from maya_envs.bots.guided.reuse import TreeKeeper
from maya_envs.bots.guided.root import SearchResult
from maya_envs.bots.guided.search import search_many
from maya_envs.bots.search_common import determinizer, seat_to_act, with_overrides
from maya_envs.core.protocol import Rules
from maya_envs.core.rng import make_rng


class AZBot:
    """A bot that plays the guided search's move (``az:`` bots).

    Args:
        rules: the game's rules.
        evaluator: the search's evaluator (:mod:`maya_envs.bots.guided`).
        config: a :class:`GuidedConfig` (default ``GuidedConfig()``); keyword overrides of its
            fields may follow.
        seed: an int, ``None`` or a generator: the bot's own stream.

    Attributes:
        last_result: the :class:`SearchResult` of the latest :meth:`act`.

    Raises:
        ValueError: a bad setting.
    """

    def __init__(
        self,
        rules: Rules,
        evaluator: Evaluator,
        config: GuidedConfig | None = None,
        seed: int | np.random.Generator | None = None,
        **overrides: Any,
    ) -> None:
        config = with_overrides(config or GuidedConfig(), overrides, "guided search")
        # fail now, not in the middle of a game
        node_cache(rules, config, determinizer(rules, config.determinize))
        leaf_evaluator(rules, config, evaluator)  # a game without the hook fails now
        self.rules, self.config = rules, config
        self.evaluator = EvaluationMemo(evaluator, config.memo) if config.memo else evaluator
        self.rng = make_rng(seed)
        self.keeper = TreeKeeper() if config.reuse else None
        self.last_result: SearchResult | None = None

    def act(self, state: Any) -> int:
        """Search from ``state`` and return the chosen legal action of the seat to move.

        Raises:
            ValueError: the game is over.
        """
        seat = seat_to_act(self.rules, state, "AZBot")
        trees = None if self.keeper is None else self.keeper.find([state])
        self.last_result = search_many(self.rules, [state], [seat], self.evaluator, self.config, self.rng, trees)[0]
        if self.keeper is not None:
            self.keeper.keep([self.last_result])
        return self.last_result.action
