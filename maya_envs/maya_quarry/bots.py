"""Maya (Abacusspiele 2003) heuristic bot.

Information discipline: the bot reads only what its seat may know. Fields read: its own
``hands`` row; ``columns`` (owners, positions and low/high backs of every card; card values
only of its own cards and of revealed quarries, through :func:`visible_value`); and the public
``board``, ``held``, ``pool``, ``gold``, ``holder``, ``deduct``, ``protect_*``, ``resolving``,
``start``, ``phase``. Building decisions apply candidate moves with the rules (a one-ply
look-ahead over public data only; a free block or relocation during the reveal applies only its
own effect, since the game would go on to reveal hidden cards). The estimators are
:mod:`maya_envs.maya_quarry.features`' (the per-action features hold every value compared here).

Decisions:

* **Setup:** as building: the level-1 placement with the best building value.
* **Worker placement (bids where it can win ranks, keeps enough transport):** for each legal
  card it estimates the blocks it would win in every quarry (opponents' hidden cards count as
  their back's mean: low 4, high 5.25), capped by the transport left after playing the card;
  a first rank adds ``MARKER_VALUE``. It plays the best card if that beats passing by more
  than ``MIN_GAIN``, else passes. Lower cards win ties (they cost less transport).
* **-3 target:** the target that most improves its own blocks at that quarry; ties go to the
  seat with the highest score there. **Protection:** the unrevealed quarry where it has the
  most points. **Start player:** itself. **Relocation:** declined. **Free block:** the pyramid
  with the best building value.
* **Building (builds for majorities):** each placement is scored by its building value,
  ``own gold - mean opponent gold`` if the board after it were scored now, + 0.5 per own block
  on the board; a free double move is taken when available; paid double moves and voluntary
  passes are never chosen.

Advanced variant (it never reads another seat's sealed bid):

* **Bid:** ``min(gold, BID_GOLD)`` (2 gold): a marker is worth a few blocks, and gold is the
  score, so it bids low and often ends as the refunded lowest bidder against free spenders.
* **Blue marker:** the first still on offer in :data:`BLUE_PREFERENCE` (+4 transport, +2
  quarry points, extra block, joker). Its transport bonus counts in worker placement.
* **+2 quarry points:** the quarry where 2 more points raise its expected blocks most (same
  estimate as worker placement; 2 more points never cost a rank, so it never declines).
* **Joker:** FREE_BLOCK_FROM_POOL if it can take effect, else FREE_DOUBLE_MOVE.

Ties are broken at random with the bot's own generator.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.core.rng import make_rng
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.features import (
    HIGH_MEAN,
    LOW_MEAN,
    MARKER_VALUE,
    building_value,
    expected_blocks,
    hand_points,
    lookahead,
    minus3_scores,
    minus3_value,
    visible_value,
)
from maya_envs.maya_quarry.rules import MayaQuarryRules, MayaQuarryState, Phase
from maya_envs.maya_quarry.rules import config as C

__all__ = ["HIGH_MEAN", "LOW_MEAN", "MARKER_VALUE", "HeuristicBot", "visible_value"]

MIN_GAIN = 0.25
BID_GOLD = 2
BLUE_PREFERENCE = (C.BLUE_TRANSPORT_PLUS_4, C.BLUE_PLUS_2, C.BLUE_EXTRA_BLOCK, C.BLUE_JOKER)
JOKER_PREFERENCE = (C.FREE_BLOCK, C.FREE_DOUBLE)


class HeuristicBot:
    """Rule-of-thumb player (see the module docstring).

    Args:
        rules: the game's rules.
        seed: an int, ``None`` or a generator for tie-breaks.
    """

    def __init__(self, rules: MayaQuarryRules, seed: int | np.random.Generator | None = None) -> None:
        self.rules = rules
        self.rng = make_rng(seed)

    def act(self, state: MayaQuarryState) -> int:
        legal = self.rules.legal_actions(state)
        if not legal:
            raise ValueError("HeuristicBot.act called on a state with no legal action (the game is over)")
        if len(legal) == 1:
            return legal[0]
        seat, phase = state.actor, state.phase
        if phase == Phase.WORKERS:
            return self._workers(state, seat, legal)
        if phase in (Phase.BUILD, Phase.DOUBLE, Phase.FREE_BLOCK_CHOICE, Phase.SETUP):
            return self._build(state, seat, legal)
        if phase == Phase.MINUS3:
            return self._minus3(state, seat, legal)
        if phase == Phase.PROTECT_CHOICE:
            mine = [
                sum(
                    visible_value(state, a - A.PROTECT_BASE, o, c, seat)
                    for o, c in state.columns[a - A.PROTECT_BASE]
                    if o == seat
                )
                for a in legal
            ]
            return self._best(legal, mine)
        if phase == Phase.APPOINT:
            return A.APPOINT_BASE  # +0: itself
        if phase == Phase.RELOCATE_SRC:
            return A.RELOCATE_DECLINE
        if phase == Phase.RELOCATE_DST:
            return legal[0]
        if phase == Phase.BID:
            return A.BID_BASE + min(state.gold[seat], BID_GOLD, A.MAX_BID)
        if phase == Phase.BLUE_CHOICE:
            return next(A.BLUE_CHOOSE_BASE + m for m in BLUE_PREFERENCE if A.BLUE_CHOOSE_BASE + m in legal)
        if phase == Phase.PLUS2_CHOICE:
            return self._plus2(state, seat, legal)
        if phase == Phase.JOKER_CHOICE:
            for green in JOKER_PREFERENCE:
                action = A.JOKER_BASE + A.JOKER_GREEN.index(green)
                if action in legal:
                    return action
        return self._pick(legal)

    # -- worker placement -----------------------------------------------------------------

    def _plus2(self, state: MayaQuarryState, seat: int, legal: list[int]) -> int:
        rules = self.rules
        points = hand_points(state, seat)
        base = expected_blocks(rules, state, seat, state.columns, points)
        values = [
            base - 0.01
            if action == A.PLUS2_DECLINE
            else expected_blocks(rules, state, seat, state.columns, points, bonus_q=action - A.PLUS2_BASE)
            for action in legal
        ]
        return self._best(legal, values)

    def _workers(self, state: MayaQuarryState, seat: int, legal: list[int]) -> int:
        rules = self.rules
        points = hand_points(state, seat)
        base = expected_blocks(rules, state, seat, state.columns, points)
        values, candidates = [], []
        for action in legal:
            if action == A.WORKER_PASS:
                continue
            q, card = divmod(action - A.WORKER_BASE, A.NUM_CARD_TYPES)
            columns = [col if i != q else col + [(seat, card)] for i, col in enumerate(state.columns)]
            left = points - max(A.CARD_VALUES[card], 0)
            value = expected_blocks(rules, state, seat, columns, left) - 0.01 * max(A.CARD_VALUES[card], 0)
            values.append(value)
            candidates.append(action)
        if not candidates or max(values) <= base + MIN_GAIN:
            return A.WORKER_PASS
        return self._best(candidates, values)

    # -- -3 target ------------------------------------------------------------------------

    def _minus3(self, state: MayaQuarryState, seat: int, legal: list[int]) -> int:
        n = state.num_players
        scores = minus3_scores(state)
        values = []
        for action in legal:
            blocks = minus3_value(self.rules, state, seat, action, scores)
            if action != A.MINUS3_NONE:
                values.append(blocks + 0.001 * scores[(seat + action - A.MINUS3_BASE + 1) % n])
            else:
                values.append(blocks - 0.01)
        return self._best(legal, values)

    # -- building -------------------------------------------------------------------------

    def _build(self, state: MayaQuarryState, seat: int, legal: list[int]) -> int:
        if A.DOUBLE_FREE in legal:
            return A.DOUBLE_FREE
        options = [a for a in legal if a not in (A.DOUBLE_PAY, A.PASS_PAY, A.PASS_FREE, A.FREE_BLOCK_DECLINE)]
        if not options:
            return self._pick(legal)
        throwaway = np.random.default_rng(0)  # the look-ahead's draws never reach its values
        values = [
            building_value(self.rules, lookahead(self.rules, state, action, throwaway), seat) for action in options
        ]
        return self._best(options, values)

    # -- helpers --------------------------------------------------------------------------

    def _best(self, actions: list[int], values: list[Any]) -> int:
        top = max(values)
        best = [a for a, v in zip(actions, values, strict=True) if v >= top - 1e-9]
        return self._pick(best)

    def _pick(self, actions: list[int]) -> int:
        return int(actions[self.rng.integers(len(actions))])
