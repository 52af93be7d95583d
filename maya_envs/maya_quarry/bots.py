"""Maya (Abacusspiele 2003) heuristic bot.

Information discipline: the bot reads only what its seat may know. Fields read: its own
``hands`` row; ``columns`` (owners, positions and low/high backs of every card; card values
only of its own cards and of revealed quarries, through :func:`visible_value`); and the public
``board``, ``held``, ``pool``, ``gold``, ``holder``, ``deduct``, ``protect_*``, ``resolving``,
``start``, ``phase``. Building decisions apply candidate moves with the rules (a one-ply
look-ahead over public data only).

Decisions:

* **Setup:** the pyramid whose level 1 holds the fewest opponent blocks.
* **Worker placement (bids where it can win ranks, keeps enough transport):** for each legal
  card it estimates the blocks it would win in every quarry (opponents' hidden cards count as
  their back's mean: low 4, high 5.25), capped by the transport left after playing the card;
  a first rank adds ``MARKER_VALUE``. It plays the best card if that beats passing by more
  than ``MIN_GAIN``, else passes. Lower cards win ties (they cost less transport).
* **-3 target:** the target that most improves its own blocks at that quarry; ties go to the
  seat with the highest score there. **Protection:** the unrevealed quarry where it has the
  most points. **Start player:** itself. **Relocation:** declined. **Free block:** the pyramid
  with the best building value.
* **Building (builds for majorities):** each placement is scored by the change in
  ``own gold - mean opponent gold`` if the board were scored now; a free double move is taken
  when available; paid double moves and voluntary passes are never chosen.

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
from maya_envs.maya_quarry.rules import MayaQuarryRules, MayaQuarryState
from maya_envs.maya_quarry.rules.config import (
    BLUE_EXTRA_BLOCK,
    BLUE_JOKER,
    BLUE_PLUS_2,
    BLUE_TRANSPORT_PLUS_4,
    FREE_BLOCK,
    FREE_DOUBLE,
)
from maya_envs.maya_quarry.rules.quarry import BLUE_TRANSPORT_BONUS, PLUS2_POINTS
from maya_envs.maya_quarry.rules.scoring import level_payouts
from maya_envs.maya_quarry.rules.state import (
    APPOINT,
    BID,
    BLUE_CHOICE,
    BUILD,
    DOUBLE,
    FREE_BLOCK_CHOICE,
    JOKER_CHOICE,
    MINUS3,
    PLUS2_CHOICE,
    PROTECT_CHOICE,
    RELOCATE_DST,
    RELOCATE_SRC,
    SETUP,
    WORKERS,
)

LOW_MEAN = 4.0  # mean of 3, 4, 4, 5
HIGH_MEAN = 5.25  # mean of 6, 7, 8 and the -3 (which adds 0 to its owner)
MARKER_VALUE = 1.0
MIN_GAIN = 0.25
BID_GOLD = 2
BLUE_PREFERENCE = (BLUE_TRANSPORT_PLUS_4, BLUE_PLUS_2, BLUE_EXTRA_BLOCK, BLUE_JOKER)
JOKER_PREFERENCE = (FREE_BLOCK, FREE_DOUBLE)


def visible_value(state: MayaQuarryState, quarry: int, owner: int, card: int, seat: int) -> float:
    """What ``seat`` may use as the value of a card: the value if own or revealed, else the
    mean of the card's back (``-3`` counts 0 for its owner's score)."""
    revealed = state.resolving < 0 or quarry >= state.resolving
    if revealed or owner == seat:
        return float(max(A.CARD_VALUES[card], 0))
    return LOW_MEAN if A.CARD_IS_LOW[card] else HIGH_MEAN


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
        if phase == WORKERS:
            return self._workers(state, seat, legal)
        if phase in (BUILD, DOUBLE, FREE_BLOCK_CHOICE, SETUP):
            return self._build(state, seat, legal)
        if phase == MINUS3:
            return self._minus3(state, seat, legal)
        if phase == PROTECT_CHOICE:
            mine = [
                sum(
                    visible_value(state, a - A.PROTECT_BASE, o, c, seat)
                    for o, c in state.columns[a - A.PROTECT_BASE]
                    if o == seat
                )
                for a in legal
            ]
            return self._best(legal, mine)
        if phase == APPOINT:
            return A.APPOINT_BASE  # +0: itself
        if phase == RELOCATE_SRC:
            return A.RELOCATE_DECLINE
        if phase == RELOCATE_DST:
            return legal[0]
        if phase == BID:
            return A.BID_BASE + min(state.gold[seat], BID_GOLD, A.MAX_BID)
        if phase == BLUE_CHOICE:
            return next(A.BLUE_CHOOSE_BASE + m for m in BLUE_PREFERENCE if A.BLUE_CHOOSE_BASE + m in legal)
        if phase == PLUS2_CHOICE:
            return self._plus2(state, seat, legal)
        if phase == JOKER_CHOICE:
            for green in JOKER_PREFERENCE:
                action = A.JOKER_BASE + A.JOKER_GREEN.index(green)
                if action in legal:
                    return action
        return self._pick(legal)

    # -- worker placement -----------------------------------------------------------------

    def _expected_blocks(
        self, state: MayaQuarryState, seat: int, columns, hand_points: float, bonus_q: int = -1
    ) -> float:
        """Estimated blocks ``seat`` wins over all quarries (capped by ``hand_points``), with
        the +2 quarry points at ``bonus_q`` (if >= 0)."""
        comp = self.rules.components
        total = 0.0
        for q, column in enumerate(columns):
            if q != bonus_q and (not column or all(o != seat for o, _ in column)):
                continue
            scores: dict[int, float] = {}
            first: dict[int, int] = {}
            minus3 = False
            for index, (owner, card) in enumerate(column):
                scores[owner] = scores.get(owner, 0.0) + visible_value(state, q, owner, card, seat)
                first.setdefault(owner, index)
                if owner == seat and card == A.MINUS3_CARD:
                    minus3 = True
            if q == bonus_q:
                scores[seat] = scores.get(seat, 0.0) + PLUS2_POINTS
                first.setdefault(seat, len(column))
            if minus3:  # assume the own -3 hits the strongest rival
                rivals = [o for o in scores if o != seat]
                if rivals:
                    strongest = max(rivals, key=lambda o: scores[o])
                    scores[strongest] -= 3
            order = sorted((o for o in scores if scores[o] > 0), key=lambda o: (-scores[o], first[o]))
            if seat in order:
                rank = order.index(seat)
                ranks = comp.quarries[q].ranks
                if rank < len(ranks):
                    total += ranks[rank]
                if rank == 0 and comp.quarries[q].marker >= 0:
                    total += MARKER_VALUE
        return min(total, hand_points)

    def _hand_points(self, state: MayaQuarryState, seat: int) -> float:
        """Transport left: points on unplayed cards, +4 with BLUE_TRANSPORT_PLUS_4."""
        hand = state.hand(seat)
        points = float(sum(c * max(v, 0) for c, v in zip(hand, A.CARD_VALUES, strict=True)))
        if state.blue_holder[BLUE_TRANSPORT_PLUS_4] == seat:
            points += BLUE_TRANSPORT_BONUS
        return points

    def _plus2(self, state: MayaQuarryState, seat: int, legal: list[int]) -> int:
        points = self._hand_points(state, seat)
        base = self._expected_blocks(state, seat, state.columns, points)
        values = [
            base - 0.01
            if action == A.PLUS2_DECLINE
            else self._expected_blocks(state, seat, state.columns, points, bonus_q=action - A.PLUS2_BASE)
            for action in legal
        ]
        return self._best(legal, values)

    def _workers(self, state: MayaQuarryState, seat: int, legal: list[int]) -> int:
        points = self._hand_points(state, seat)
        base = self._expected_blocks(state, seat, state.columns, points)
        values, candidates = [], []
        for action in legal:
            if action == A.WORKER_PASS:
                continue
            q, card = divmod(action - A.WORKER_BASE, A.NUM_CARD_TYPES)
            columns = [col if i != q else col + [(seat, card)] for i, col in enumerate(state.columns)]
            left = points - max(A.CARD_VALUES[card], 0)
            value = self._expected_blocks(state, seat, columns, left) - 0.01 * max(A.CARD_VALUES[card], 0)
            values.append(value)
            candidates.append(action)
        if not candidates or max(values) <= base + MIN_GAIN:
            return A.WORKER_PASS
        return self._best(candidates, values)

    # -- -3 target ------------------------------------------------------------------------

    def _minus3(self, state: MayaQuarryState, seat: int, legal: list[int]) -> int:
        q, n = state.resolving, state.num_players
        scores = [0.0] * n
        for owner, card in state.columns[q]:
            scores[owner] += max(A.CARD_VALUES[card], 0)
        values = []
        for action in legal:
            trial = [scores[s] - state.deduct[s] for s in range(n)]
            if action != A.MINUS3_NONE:
                target = (seat + action - A.MINUS3_BASE + 1) % n
                trial[target] -= 3
                values.append(self._rank_blocks(state, q, seat, trial) + 0.001 * scores[target])
            else:
                values.append(self._rank_blocks(state, q, seat, trial) - 0.01)
        return self._best(legal, values)

    def _rank_blocks(self, state: MayaQuarryState, q: int, seat: int, scores: list[float]) -> float:
        order = []
        for owner, _card in state.columns[q]:
            if owner not in order:
                order.append(owner)
        ranked = sorted((o for o in order if scores[o] > 0), key=lambda o: -scores[o])
        ranks = self.rules.components.quarries[q].ranks
        if seat in ranked and ranked.index(seat) < len(ranks):
            return float(ranks[ranked.index(seat)])
        return 0.0

    # -- building -------------------------------------------------------------------------

    def _standing(self, state: MayaQuarryState, seat: int) -> float:
        n = state.num_players
        gold = [0.0] * n
        for p, pyramid in enumerate(self.rules.components.pyramids):
            for level, (_spaces, first, second) in enumerate(pyramid.levels):
                pay = level_payouts(state.level_counts(p, level), first, second)
                for s in range(n):
                    gold[s] += pay[s]
        return gold[seat] - (sum(gold) - gold[seat]) / (n - 1)

    def _build(self, state: MayaQuarryState, seat: int, legal: list[int]) -> int:
        if A.DOUBLE_FREE in legal:
            return A.DOUBLE_FREE
        options = [a for a in legal if a not in (A.DOUBLE_PAY, A.PASS_PAY, A.PASS_FREE, A.FREE_BLOCK_DECLINE)]
        if not options:
            return self._pick(legal)
        values = []
        for action in options:
            # A throwaway generator: the look-ahead may end the round, and the advanced
            # variant then draws the next auction's markers, which the evaluation ignores.
            after = self.rules.apply_action(state, action, np.random.default_rng(0))
            values.append(self._standing(after, seat) + 0.5 * sum(after.board[seat :: state.num_players]))
        return self._best(options, values)

    # -- helpers --------------------------------------------------------------------------

    def _best(self, actions: list[int], values: list[Any]) -> int:
        top = max(values)
        best = [a for a, v in zip(actions, values, strict=True) if v >= top - 1e-9]
        return self._pick(best)

    def _pick(self, actions: list[int]) -> int:
        return int(actions[self.rng.integers(len(actions))])
