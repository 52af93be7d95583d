"""The game's heuristic bot, for :func:`maya_envs.bots.make_bot` and the search's heuristic
rollouts alike (one lookup, so the search need not import the bot factory that builds it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.core.protocol import Rules
from maya_envs.games import game_of_rules


def heuristic_bot(rules: Rules, seed: int | np.random.Generator | None = None) -> Any:
    """``HeuristicBot(rules, seed)``: the ``heuristic_bot`` hook of the game whose rules these
    are (:func:`maya_envs.games.game_of_rules`), a :class:`~maya_envs.bots.base.Bot`.

    Raises:
        ValueError: ``rules`` is no game's rules object, or its game has no heuristic bot.
    """
    game = game_of_rules(rules)
    bot = game.hook("heuristic_bot")
    if bot is None:
        raise ValueError(f"{game.key} has no heuristic bot (its entry's heuristic_bot hook is None)")
    return bot(rules, seed)

