"""Bots: the bot protocol and the game-agnostic bots.

Game-specific heuristic bots live in ``maya_envs.<game>.bots``; :func:`make_bot` resolves a
name such as ``"random"`` or ``"heuristic"`` for any game.
"""

from maya_envs.bots.base import Bot, make_bot
from maya_envs.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "make_bot"]
