"""Bots: the bot protocol and the game-agnostic bots.

Game-specific heuristic bots live in ``maya_envs.<game>.bots``; :func:`make_bot` resolves a
name such as ``"random"``, ``"heuristic"`` or ``"mcts:200"`` for any game; search bots
(UCT and information-set MCTS) are in :mod:`maya_envs.bots.mcts`; the network-guided search
(PUCT / Gumbel, batched evaluator, ``search_many``, ``AZBot``) is in :mod:`maya_envs.bots.guided`.
"""

from maya_envs.bots.base import Bot, make_bot
from maya_envs.bots.mcts import MCTSBot, MCTSConfig
from maya_envs.bots.random_bot import RandomBot

__all__ = ["Bot", "MCTSBot", "MCTSConfig", "RandomBot", "make_bot"]
