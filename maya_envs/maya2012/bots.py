"""Maya (2012) heuristic bot: one-ply lookahead with a documented evaluation.

For every legal action the bot applies it on a copy and scores the result from its own
seat's point of view:

* a finished game: +1000 for a win, -1000 for a loss, 0 for a draw;
* otherwise ``10 * (VP difference) + 3 * (priest difference) + 1 * (ladders-on-board
  difference) - 2 * (joins the opponent's best reply would form)``, where "joins" counts the
  towers (0-2) in which an exchange closes a same-colour seam, the event that earns a ladder
  (rules section 4). The last term is a cheap look at the reply, without applying it.

Setup decisions (Black, ``setup="choose"``): the Monolith and the Raven are chosen together
to minimise the joins of White's best first exchange. Ties are broken at random with the
bot's own generator. Everything in two-player Maya (2012) is public, so the bot reads the
whole state.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.core.rng import make_rng
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import (
    EXCHANGE,
    OVER,
    SETUP_MONOLITH,
    Maya2012Rules,
    Maya2012State,
    legal_exchanges,
    victory_points,
    winner,
)

WIN_VALUE = 1000.0


def joins_formed(towers: tuple[tuple[int, ...], ...], action: int) -> int:
    """Number of the two towers whose seam joins a colour after exchange ``action`` (0-47)."""
    pair, offset = divmod(action, 4)
    i = offset + 1  # index of the base level k = offset + 2
    a, b = A.PAIRS[pair]
    return int(towers[a][i - 1] == towers[b][i]) + int(towers[b][i - 1] == towers[a][i])


def best_reply_joins(state: Maya2012State) -> int:
    """Most joins any legal exchange of the player to move would form (0-2)."""
    moves = legal_exchanges(state.towers, state.monolith, state.raven)
    return max((joins_formed(state.towers, move) for move in moves), default=0)


def evaluate(state: Maya2012State, seat: int) -> float:
    """The evaluation in the module docstring, from ``seat``'s point of view."""
    opp = 1 - seat
    if state.phase == OVER:
        win = winner(state)
        return 0.0 if win is None else (WIN_VALUE if win == seat else -WIN_VALUE)
    vp = victory_points(state)
    priests = state.priests.count(seat) - state.priests.count(opp)
    ladders = sum(state.ladders[seat]) - sum(state.ladders[opp])
    reply = best_reply_joins(state) if state.phase == EXCHANGE and state.to_move == opp else 0
    return 10.0 * (vp[seat] - vp[opp]) + 3.0 * priests + ladders - 2.0 * reply


class HeuristicBot:
    """One-ply lookahead bot (see the module docstring).

    Args:
        rules: a :class:`~maya_envs.maya2012.rules.Maya2012Rules`.
        seed: seed or generator for tie-breaking.
    """

    def __init__(self, rules: Maya2012Rules, seed: int | np.random.Generator | None = None) -> None:
        self.rules = rules
        self.rng = make_rng(seed)

    def act(self, state: Maya2012State) -> int:
        legal = self.rules.legal_actions(state)
        if not legal:
            raise ValueError("HeuristicBot.act called on a finished game")
        if state.phase == SETUP_MONOLITH:
            return self._choose_setup(state, legal)
        seat = state.to_move
        scores = [evaluate(self.rules.apply_action(state, action), seat) for action in legal]
        return self._pick_best(legal, scores)

    def _choose_setup(self, state: Maya2012State, legal: list[int]) -> int:
        scores = []
        for action in legal:
            pair = action - A.MONOLITH_BASE
            scores.append(-min(_white_joins(state, pair, raven) for raven in A.EXCHANGE_LEVELS))
        return self._pick_best(legal, scores)

    def _pick_best(self, legal: list[int], scores: list[Any]) -> int:
        best = max(scores)
        candidates = [action for action, score in zip(legal, scores, strict=True) if score == best]
        return int(candidates[self.rng.integers(len(candidates))])


def _white_joins(state: Maya2012State, pair: int, raven: int) -> int:
    moves = legal_exchanges(state.towers, pair, raven)
    return max((joins_formed(state.towers, move) for move in moves), default=-1)
