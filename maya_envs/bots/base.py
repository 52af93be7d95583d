"""The bot protocol.

A bot decides for the seat to move in a rules state: ``bot.act(state) -> action id``. It is
built for one rules object and owns its own generator, so two bots never share a stream and
no bot touches the env's generator.

Information discipline: a bot for a hidden-information game reads only what the acting seat
may know (its own private data and the public state); each game's bot module says which
fields it reads.

:func:`make_bot`, :data:`BOT_NAMES`, :data:`BOT_KINDS` and :data:`NETWORK_BOTS` come from the one
table of bot kinds, :mod:`maya_envs.bot_kinds` (kept here as the old import path).
"""

from __future__ import annotations

from typing import Any, Protocol

from maya_envs.bot_kinds import BOT_KINDS, BOT_NAMES, NETWORK_BOTS, make_bot

__all__ = ["BOT_KINDS", "BOT_NAMES", "NETWORK_BOTS", "Bot", "make_bot"]


class Bot(Protocol):
    """Anything that picks a legal action for the current player of a state."""

    def act(self, state: Any) -> int:
        """Return a legal action id for ``rules.current_player(state)``."""
