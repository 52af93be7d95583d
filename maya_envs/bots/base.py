"""The bot protocol.

A bot decides for the seat to move in a rules state: ``bot.act(state) -> action id``. It is
built for one rules object and owns its own generator, so two bots never share a stream and
no bot touches the env's generator.

Information discipline: a bot for a hidden-information game reads only what the acting seat
may know (its own private data and the public state); each game's bot module says which
fields it reads.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from maya_envs.core.errors import did_you_mean
from maya_envs.core.protocol import Rules
from maya_envs.games import game_of_rules

BOT_NAMES = (
    "random",
    "heuristic",
    "mcts[:SIMULATIONS][:ROLLOUT][:KEY=VALUE...]",
    "ismcts[...]",
    "policy:<model>",
    "az:<model>[:SIMULATIONS][:KEY=VALUE...]",
)
NETWORK_BOTS = ("policy", "az")
"""Bot kinds played by a policy-value network (:mod:`maya_envs.nn.agent`; need torch)."""


class Bot(Protocol):
    """Anything that picks a legal action for the current player of a state."""

    def act(self, state: Any) -> int:
        """Return a legal action id for ``rules.current_player(state)``."""


def make_bot(name: str, rules: Rules, seed: int | np.random.Generator | None = None) -> Bot:
    """Build the bot called ``name`` for ``rules``.

    ``"random"`` works for every game; ``"heuristic"`` is the game's ``heuristic_bot``
    hook in :mod:`maya_envs.games`. ``"mcts..."`` and
    ``"ismcts..."`` build a :class:`~maya_envs.bots.mcts.MCTSBot` (syntax in
    :data:`maya_envs.bots.mcts.SPEC_SYNTAX`, e.g. ``"mcts:200"``, ``"mcts:200:heuristic"``,
    ``"mcts:1000:time=0.5"``); ``"mcts"`` searches over determinizations exactly when the
    game has hidden information, ``"ismcts"`` always. ``"policy:<model>"`` (the raw network)
    and ``"az:<model>[:SIMULATIONS][:KEY=VALUE...]"`` (network-guided search,
    :data:`maya_envs.bots.guided.AZ_SYNTAX`) play a policy-value network, ``<model>`` a ``.pt``
    checkpoint or a shipped network name (:mod:`maya_envs.nn.agent`; they need torch).

    Raises:
        ValueError: an unknown name (the message lists the known names) or a malformed
            search spec (the message names the bad part and gives the syntax), an unknown
            model or one that does not fit ``rules``.
        ImportError: a network bot without torch installed (the message names the extra).
    """
    if name == "random":
        from maya_envs.bots.random_bot import RandomBot

        return RandomBot(rules, seed)
    if name == "heuristic":
        return game_of_rules(rules).hook("heuristic_bot")(rules, seed)
    if isinstance(name, str) and name.split(":", 1)[0] in ("mcts", "ismcts"):
        from maya_envs.bots.mcts import make_search_bot

        return make_search_bot(name, rules, seed)
    if isinstance(name, str) and name.split(":", 1)[0] in NETWORK_BOTS:
        return _network_bot(name, rules, seed)
    raise ValueError(f"unknown bot {name!r}{_near_bot(name)}; known bots: {', '.join(BOT_NAMES)}")


#: The first part of every bot spec (:data:`BOT_NAMES`), for suggestions.
BOT_KINDS = ("random", "heuristic", "mcts", "ismcts", *NETWORK_BOTS)


def _near_bot(name: object) -> str:
    """A suggestion for a mistyped bot spec: its kind corrected, the rest kept
    (``"mtcs:200"`` -> `` (did you mean 'mcts:200'?)``), or ``""``."""
    if not isinstance(name, str):
        return ""
    kind, sep, rest = name.partition(":")
    return did_you_mean(kind.lower(), BOT_KINDS, lambda match: f"{match}{sep}{rest}")


def _network_bot(name: str, rules: Rules, seed: int | np.random.Generator | None) -> Bot:
    """A ``policy:``/``az:`` bot, with a clear error where torch is missing."""
    try:
        import torch  # noqa: F401
    except ImportError as error:
        raise ImportError(
            f"bot {name!r} plays a neural network and needs torch, from the train extra: pip install 'maya-envs[train]'"
        ) from error
    from maya_envs.nn.agent import make_network_bot

    return make_network_bot(name, rules, seed)
