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

Three and four players (hidden task cards): the bot reads the board, the Monolith, the
phase and **only its own** task cards (``state.tasks[seat]``); the other hands are unknown
to it. The 6 unknown colours (not mine, not the centre's) are spread over the other hands
(and, 3p, the face-down pair), each belonging to a given other hand with probability 1/3,
so the expected score margin over an average rival is ``mine - (sum of unknown colours'
scores) / 3`` in 3p; in 4p (my team minus the other) it is the same formula. For each
legal exchange the bot values the board after it:

* if it may declare after it: ``1000 * P(win)`` when ``P(win) >= 0.5`` (it will declare),
  where ``P(win)`` is estimated over ``samples`` (default 32) random deals of the unknown
  colours consistent with its own cards, counting its centre bonus when the exchange
  completes the centre tower, and ties as half;
* otherwise the expected margin above.

At its declare decision it declares exactly when ``P(win) >= 0.5``. Drafted setup (any
player count): a uniformly random legal tower (the cards are dealt after the draft, so no
seat has private goals yet).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.core.rng import make_rng
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.features import (
    ALL_DEALS,
    exchange_prospects,
    result_terms,
    white_setup_joins,
    win_probability,
)
from maya_envs.maya2012.rules import (
    CENTRE_BONUS,
    DECLARE,
    DRAFT,
    SETUP_MONOLITH,
    Maya2012Rules,
    Maya2012State,
    colour_scores,
    last_exchange_completed_centre,
    unknown_colours,
)

WIN_VALUE = 1000.0
DECLARE_THRESHOLD = 0.5


def evaluate(state: Maya2012State, seat: int) -> float:
    """The evaluation in the module docstring, from ``seat``'s point of view (its terms are
    :func:`~maya_envs.maya2012.features.result_terms`)."""
    ends, result, vp, priests, ladders, reply = result_terms(state, seat)
    if ends:
        return WIN_VALUE * result
    return 10.0 * vp + 3.0 * priests + ladders - 2.0 * reply


class HeuristicBot:
    """One-ply lookahead bot (see the module docstring).

    Args:
        rules: a :class:`~maya_envs.maya2012.rules.Maya2012Rules`.
        seed: seed or generator for tie-breaking (and, 3-4p, for sampling deals).
        samples: 3-4p: random deals of the unknown colours used to estimate ``P(win)``;
            ``None``: the exact chance over all 90 deals
            (:data:`~maya_envs.maya2012.features.ALL_DEALS`, the value of the ``win_chance``
            feature).
    """

    def __init__(
        self, rules: Maya2012Rules, seed: int | np.random.Generator | None = None, samples: int | None = 32
    ) -> None:
        self.rules = rules
        self.rng = make_rng(seed)
        self.samples = samples

    def act(self, state: Maya2012State) -> int:
        legal = self.rules.legal_actions(state)
        if not legal:
            raise ValueError("HeuristicBot.act called on a finished game")
        if state.phase == DRAFT:
            return int(legal[self.rng.integers(len(legal))])
        if state.num_players > 2:
            return self._act_multi(state, legal)
        if state.phase == SETUP_MONOLITH:
            return self._choose_setup(state, legal)
        seat = state.to_move
        scores = [evaluate(self.rules.apply_action(state, action), seat) for action in legal]
        return self._pick_best(legal, scores)

    def _choose_setup(self, state: Maya2012State, legal: list[int]) -> int:
        scores = []
        for action in legal:
            pair = action - A.MONOLITH_BASE
            scores.append(-white_setup_joins(state, pair))
        return self._pick_best(legal, scores)

    def _act_multi(self, state: Maya2012State, legal: list[int]) -> int:
        """Three and four players; reads only the board and ``state.tasks[seat]``."""
        seat = state.to_move
        mine = state.tasks[seat]
        deals = self._sample_deals(state, mine)
        if state.phase == DECLARE:
            if len(legal) == 1:
                return legal[0]
            bonus = CENTRE_BONUS if last_exchange_completed_centre(state) else 0
            per_colour = colour_scores(state.towers, self.rules.config.three_plus_two)
            p_win = win_probability(per_colour, mine, bonus, deals, state.num_players)
            return A.DECLARE_END if p_win >= DECLARE_THRESHOLD else A.CONTINUE
        prospects = exchange_prospects(state, seat, self.rules.config)
        n = state.num_players
        scores = []
        for action in legal:
            my_score, unknown_score, can, completes, per_colour = prospects[action]
            value = my_score - unknown_score / 3
            if can:
                p_win = win_probability(per_colour, mine, CENTRE_BONUS if completes else 0, deals, n)
                if p_win >= DECLARE_THRESHOLD:
                    value = WIN_VALUE * p_win
            scores.append(value)
        return self._pick_best(legal, scores)

    def _sample_deals(self, state: Maya2012State, mine: tuple[int, ...]) -> np.ndarray:
        """``(samples, 6)`` shuffles of the unknown colours (every deal once with
        ``samples=None``): columns ``2k, 2k+1`` are the hand of the k-th other seat clockwise
        after me; 3p columns 4-5 the face-down pair."""
        unknown = np.asarray(unknown_colours(state.towers, mine), np.intp)
        if self.samples is None:
            return unknown[ALL_DEALS]
        return self.rng.permuted(np.tile(unknown, (self.samples, 1)), axis=1)

    def _pick_best(self, legal: list[int], scores: list[Any]) -> int:
        best = max(scores)
        candidates = [action for action, score in zip(legal, scores, strict=True) if score == best]
        return int(candidates[self.rng.integers(len(candidates))])
