"""The game's heuristic bot, for :func:`maya_envs.bots.make_bot` and the search's heuristic
rollouts alike (one lookup, so the search need not import the bot factory that builds it)."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from maya_envs.core.protocol import Rules
from maya_envs.games import game_of_rules


def heuristic_bot(rules: Rules, seed: int | np.random.Generator | None = None) -> Any:
    """``HeuristicBot(rules, seed)`` from the game's ``bots`` module (the package that defines
    ``type(rules)``): a :class:`~maya_envs.bots.base.Bot`."""
    game_package = type(rules).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{game_package}.bots").HeuristicBot(rules, seed)


def game_heuristic_bot(rules: Rules, seed: int | np.random.Generator | None = None) -> Any:
    """The bot ``"heuristic"``: the ``heuristic_bot`` hook of the game of ``rules`` in
    :mod:`maya_envs.games` (its row in :data:`maya_envs.bot_kinds.BOT_KINDS`)."""
    return game_of_rules(rules).hook("heuristic_bot")(rules, seed)
