"""Per-action features of Maya (Abacusspiele 2003): what the heuristic bot weighs, per legal action.

:class:`ActionFeatures` turns ``(state, seat, actions)`` into a ``float32`` array of shape
``(len(actions), F)``, one row per action: the action's kind and arguments, and every estimate
the heuristic bot (:mod:`maya_envs.maya_quarry.bots`) computes to decide between actions, for
every phase of both variants. The estimators live here (the bot calls them), so the features
and the bot's choices come from one computation: the bot's choice is a fixed function of the
rows (``tests/test_features_quarry.py`` states it and checks it over random positions).

Information: a row reads only what ``seat`` may see (rules file section 6; the observation
module's table). Other seats' cards lying face down in unrevealed quarries count as the mean
of their public back (:data:`LOW_MEAN`, :data:`HIGH_MEAN`); hands are read only for ``seat``;
sealed bids are never read. The building look-ahead (:func:`lookahead`) applies the action with
the rules where the result depends on public data only (setup and building), and only the
action's own effect during the reveal (free block, relocation), whose continuation would
reveal the next quarry's hidden cards.

Feature table (``F = 56``; every feature is 0 where it does not apply to the row's kind; the
estimates of a kind are filled only while the state is in that kind's phase; scales are
:attr:`ActionFeatures.scales`, fixed per rules, so each value lies in ``[-1, 1]``):

=========================  ======  ============================================================
names                      count   meaning (unit / scale)
=========================  ======  ============================================================
``kind_<kind>``            23      one-hot of the action's kind (:data:`~.actions.KINDS`)
``quarry``                 1       worker, protect, +2 points: ``(q + 1) / Q``
``pyramid``                1       place, free block, relocate: ``(p + 1) / P``
``level``                  1       place, relocate source: ``(l + 1) / H`` (H: tallest pyramid)
``seat_offset``            1       -3 target, start player: relative seat ``k / (n - 1)``
``card_points``            1       worker: the card's points (-3 counts 0) / 8
``card_low``, ``card_minus3`` 2    worker: the card has a low back; the card is the -3
``exp_blocks``             1       worker, worker pass, +2 points (and decline): blocks the
                                   seat expects to win over all quarries after the action,
                                   capped by ``transport_left`` (the bot's estimate: hidden
                                   cards at their back's mean, an own -3 hits the strongest
                                   rival, a first rank adds :data:`MARKER_VALUE`) / block scale
``exp_blocks_uncapped``    1       the same before the transport cap / block scale
``quarry_blocks_before``   1       worker, +2 points: expected blocks at the action's quarry
                                   now / quarry scale
``quarry_blocks_after``    1       the same after the action / quarry scale
``quarry_first``           1       worker, +2 points: expected first rank at that quarry after
``transport_left``         1       worker rows and pass: points on the cards still in hand
                                   after the action (+4 with BLUE_TRANSPORT_PLUS_4) / 41
``minus3_blocks``          1       -3 target or none: the seat's blocks from its rank at the
                                   quarry being resolved after this choice / quarry scale
``minus3_target_points``   1       -3 target: the target's positive card points there / 37
``protect_points``         1       protect: the seat's own points at that quarry / 37
``build_standing``         1       setup, building, free block, relocation target: own gold
                                   minus the others' mean gold if the board after the action
                                   were scored now / gold scale (sum of gold_first)
``build_blocks``           1       the same rows: own blocks on the board after / blocks_per_color
``build_payout_change``    1       the same rows: change of own gold if scored now / gold scale
``gold_change``            1       the same rows: own gold after minus now (the involuntary
                                   pass, a scoring the action ends in) / (gold scale + blocks)
``bid``                    1       bid: the bid / MAX_BID (30)
``bid_gold_left``          1       bid: gold after paying it, capped at MAX_BID / MAX_BID
``bid_margin``             1       bid: bid minus the most any rival can bid / MAX_BID
``blue_<marker>``          4       take blue: one-hot of the blue marker
``joker_<marker>``         6       joker: one-hot of the green marker it acts as
=========================  ======  ============================================================

Pure: standard library and numpy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import maya_envs.maya_quarry.actions as A
from maya_envs.core.checks import is_int
from maya_envs.maya_quarry.rules import MayaQuarryRules, MayaQuarryState, building
from maya_envs.maya_quarry.rules.config import BLUE_MARKERS, BLUE_TRANSPORT_PLUS_4, MARKERS
from maya_envs.maya_quarry.rules.quarry import BLUE_TRANSPORT_BONUS, PLUS2_POINTS
from maya_envs.maya_quarry.rules.scoring import level_payouts
from maya_envs.maya_quarry.rules.state import (
    BUILD,
    DOUBLE,
    FREE_BLOCK_CHOICE,
    MINUS3,
    PLUS2_CHOICE,
    PROTECT_CHOICE,
    RELOCATE_DST,
    SETUP,
    WORKERS,
)

LOW_MEAN = 4.0
"""Mean of a low back's values (3, 4, 4, 5)."""
HIGH_MEAN = 5.25
"""Mean of a high back's values for its owner's score (6, 7, 8 and the -3, which adds 0)."""
MARKER_VALUE = 1.0
"""Blocks a first rank's green marker is worth in the estimate."""

#: Phases whose rows carry the building look-ahead (``build_*``, ``gold_change``).
BUILD_PHASES = (SETUP, BUILD, DOUBLE, FREE_BLOCK_CHOICE, RELOCATE_DST)
#: Of those, the phases decided during the reveal: only the action's own effect is applied.
REVEAL_PHASES = (FREE_BLOCK_CHOICE, RELOCATE_DST)

_HAND_POINTS = sum(count * max(value, 0) for count, value in zip(A.CARD_COUNTS, A.CARD_VALUES, strict=True))


# -- the heuristic's estimators (the bot calls these) ------------------------------------------


def visible_value(state: MayaQuarryState, quarry_index: int, owner: int, card: int, seat: int) -> float:
    """What ``seat`` may use as the value of a card: the value if own or revealed, else the
    mean of the card's back (``-3`` counts 0 for its owner's score)."""
    revealed = state.resolving < 0 or quarry_index >= state.resolving
    if revealed or owner == seat:
        return float(max(A.CARD_VALUES[card], 0))
    return LOW_MEAN if A.CARD_IS_LOW[card] else HIGH_MEAN


def hand_points(state: MayaQuarryState, seat: int) -> float:
    """Transport left: points on ``seat``'s unplayed cards, +4 with BLUE_TRANSPORT_PLUS_4."""
    hand = state.hand(seat)
    points = float(sum(c * max(v, 0) for c, v in zip(hand, A.CARD_VALUES, strict=True)))
    if state.blue_holder[BLUE_TRANSPORT_PLUS_4] == seat:
        points += BLUE_TRANSPORT_BONUS
    return points


def quarry_estimate(
    rules: MayaQuarryRules,
    state: MayaQuarryState,
    seat: int,
    q: int,
    column: Sequence[tuple[int, int]],
    bonus: bool = False,
) -> tuple[float, int]:
    """``(blocks, rank)``: the blocks ``seat`` expects at quarry ``q`` holding ``column`` (its
    rank's yield, +:data:`MARKER_VALUE` for a first rank with a marker) and its 0-based rank
    among the positive scores (``-1`` without one). Other seats' face-down cards count as
    their back's mean; an own -3 is assumed to hit the strongest rival; ``bonus`` adds the
    +2 quarry points (joining after every card placer). 0 blocks, rank -1 where ``seat`` has
    no card there and no bonus."""
    if not bonus and all(o != seat for o, _ in column):
        return 0.0, -1
    scores: dict[int, float] = {}
    first: dict[int, int] = {}
    minus3 = False
    for index, (owner, card) in enumerate(column):
        scores[owner] = scores.get(owner, 0.0) + visible_value(state, q, owner, card, seat)
        first.setdefault(owner, index)
        if owner == seat and card == A.MINUS3_CARD:
            minus3 = True
    if bonus:
        scores[seat] = scores.get(seat, 0.0) + PLUS2_POINTS
        first.setdefault(seat, len(column))
    if minus3:  # assume the own -3 hits the strongest rival
        rivals = [o for o in scores if o != seat]
        if rivals:
            strongest = max(rivals, key=lambda o: scores[o])
            scores[strongest] -= 3
    order = sorted((o for o in scores if scores[o] > 0), key=lambda o: (-scores[o], first[o]))
    if seat not in order:
        return 0.0, -1
    rank = order.index(seat)
    spec = rules.components.quarries[q]
    blocks = 0.0
    if rank < len(spec.ranks):
        blocks += spec.ranks[rank]
    if rank == 0 and spec.marker >= 0:
        blocks += MARKER_VALUE
    return blocks, rank


def expected_blocks(
    rules: MayaQuarryRules, state: MayaQuarryState, seat: int, columns, points: float, bonus_q: int = -1
) -> float:
    """Blocks ``seat`` expects to win over all quarries holding ``columns`` (per quarry
    :func:`quarry_estimate`), capped by the transport ``points``; the +2 quarry points at
    ``bonus_q`` (if >= 0)."""
    total = sum(quarry_estimate(rules, state, seat, q, column, q == bonus_q)[0] for q, column in enumerate(columns))
    return min(total, points)


def rank_blocks(rules: MayaQuarryRules, state: MayaQuarryState, q: int, seat: int, scores: Sequence[float]) -> float:
    """Blocks ``seat``'s rank yields at the revealed quarry ``q`` with final ``scores`` per
    seat (ties to the earlier first card)."""
    order: list[int] = []
    for owner, _card in state.columns[q]:
        if owner not in order:
            order.append(owner)
    ranked = sorted((o for o in order if scores[o] > 0), key=lambda o: -scores[o])
    ranks = rules.components.quarries[q].ranks
    if seat in ranked and ranked.index(seat) < len(ranks):
        return float(ranks[ranked.index(seat)])
    return 0.0


def minus3_scores(state: MayaQuarryState) -> list[float]:
    """Positive card points per seat at the quarry being resolved (revealed, so public)."""
    scores = [0.0] * state.num_players
    for owner, card in state.columns[state.resolving]:
        scores[owner] += max(A.CARD_VALUES[card], 0)
    return scores


def minus3_value(rules: MayaQuarryRules, state: MayaQuarryState, seat: int, action: int, scores) -> float:
    """Blocks ``seat``'s rank yields at the quarry being resolved after the -3 choice
    ``action`` (a target id or MINUS3_NONE), with this round's deductions."""
    n = state.num_players
    trial = [scores[s] - state.deduct[s] for s in range(n)]
    if action != A.MINUS3_NONE:
        trial[(seat + action - A.MINUS3_BASE + 1) % n] -= 3
    return rank_blocks(rules, state, state.resolving, seat, trial)


def scored_now(rules: MayaQuarryRules, state: MayaQuarryState) -> list[int]:
    """Gold each seat would be paid if the board were scored now (rules phase 3)."""
    n = state.num_players
    gold = [0] * n
    for p, pyramid in enumerate(rules.components.pyramids):
        for level, (_spaces, first, second) in enumerate(pyramid.levels):
            pay = level_payouts(state.level_counts(p, level), first, second)
            for s in range(n):
                gold[s] += pay[s]
    return gold


def standing(rules: MayaQuarryRules, state: MayaQuarryState, seat: int) -> float:
    """Own gold minus the others' mean gold if the board were scored now."""
    gold = scored_now(rules, state)
    return gold[seat] - (sum(gold) - gold[seat]) / (state.num_players - 1)


def board_blocks(state: MayaQuarryState, seat: int) -> int:
    """``seat``'s blocks on the board."""
    return sum(state.board[seat :: state.num_players])


def lookahead(
    rules: MayaQuarryRules, state: MayaQuarryState, action: int, rng: np.random.Generator | None = None
) -> MayaQuarryState:
    """The state after the current player takes ``action``, as far as ``seat``'s building
    look-ahead may see it: in setup and building, ``rules.apply_action`` with ``rng`` (default
    a fresh ``default_rng(0)``; a round that ends draws the next auction's markers, which
    never change the board or the gold read here, so one throwaway generator may serve all the
    actions of a state); during the reveal (free block, relocation target), only the action's
    own effect on a copy, since the game would go on to reveal hidden cards.

    Raises:
        IllegalActionError: ``action`` is not legal (setup and building).
    """
    if state.phase not in REVEAL_PHASES:
        return rules.apply_action(state, action, np.random.default_rng(0) if rng is None else rng)
    after = state.clone()
    comp, cfg, seat = rules.components, rules.config, state.actor
    if A.FREE_BLOCK_BASE <= action < A.FREE_BLOCK_DECLINE:
        p = action - A.FREE_BLOCK_BASE
        level = building.lowest_buildable_level(after, comp, cfg, seat, p)
        building.place_block(after, comp, cfg, seat, p, level, from_pool=True, special=True)
    elif A.RELOCATE_DST_BASE <= action < A.RELOCATE_DECLINE and state.phase == RELOCATE_DST:
        after.board[state.reloc_src * state.num_players + seat] -= 1
        if cfg.relocate_unsupported == "cascade":
            building.remove_unsupported(after, comp, seat, state.reloc_src // A.MAX_LEVELS)
        after.held[seat] += 1
        building.place_block(after, comp, cfg, seat, action - A.RELOCATE_DST_BASE, 0, special=True)
    return after


def building_value(rules: MayaQuarryRules, after: MayaQuarryState, seat: int) -> float:
    """The heuristic's building value of a look-ahead state: :func:`standing` + 0.5 per own
    block on the board."""
    return standing(rules, after, seat) + 0.5 * board_blocks(after, seat)


# -- the feature table ---------------------------------------------------------------------


class ActionFeatures:
    """Per-action features of one rules object (the module docstring has the table).

    Args:
        rules: the game's rules (either variant, 3-5 players).

    Attributes:
        names: the ``F`` feature names, in column order.
        scales: feature name -> the divisor that maps its unit into ``[-1, 1]`` (1 for flags).
    """

    def __init__(self, rules: MayaQuarryRules) -> None:
        self.rules = rules
        comp = rules.components
        n = rules.num_players
        self.num_actions = rules.spec.num_actions
        block_scale = sum(q.ranks[0] + (MARKER_VALUE if q.marker >= 0 else 0.0) for q in comp.quarries)
        quarry_scale = max(q.ranks[0] for q in comp.quarries) + MARKER_VALUE
        gold_scale = float(sum(level[1] for p in comp.pyramids for level in p.levels))
        scales: dict[str, float] = {f"kind_{kind}": 1.0 for kind in A.KINDS}
        scales.update(
            quarry=float(rules.num_quarries),
            pyramid=float(rules.num_pyramids),
            level=float(comp.num_levels),
            seat_offset=float(n - 1),
            card_points=float(max(A.CARD_VALUES)),
            card_low=1.0,
            card_minus3=1.0,
            exp_blocks=block_scale,
            exp_blocks_uncapped=block_scale,
            quarry_blocks_before=quarry_scale,
            quarry_blocks_after=quarry_scale,
            quarry_first=1.0,
            transport_left=float(_HAND_POINTS + BLUE_TRANSPORT_BONUS),
            minus3_blocks=quarry_scale,
            minus3_target_points=float(_HAND_POINTS),
            protect_points=float(_HAND_POINTS),
            build_standing=gold_scale,
            build_blocks=float(comp.blocks_per_color),
            build_payout_change=gold_scale,
            gold_change=gold_scale + comp.blocks_per_color,
            bid=float(A.MAX_BID),
            bid_gold_left=float(A.MAX_BID),
            bid_margin=float(A.MAX_BID),
        )
        scales.update({_blue_name(m): 1.0 for m in range(A.NUM_BLUE)})
        scales.update({_joker_name(j): 1.0 for j in range(len(A.JOKER_GREEN))})
        self.scales = scales
        self.names: tuple[str, ...] = tuple(scales)
        self._column = {name: i for i, name in enumerate(self.names)}
        self._divisor = np.array([scales[name] for name in self.names], np.float64)
        self._moves = [A.decode(a, self.num_actions) for a in range(self.num_actions)]
        self._kind_column = {kind: self._column[f"kind_{kind}"] for kind in A.KINDS}

    def __call__(self, state: MayaQuarryState, seat: int, actions: Sequence[int]) -> np.ndarray:
        """Features of ``actions`` for ``seat`` in ``state``.

        Args:
            state: a state of this rules object.
            seat: the deciding seat (normally ``rules.current_player(state)``).
            actions: action ids (normally ``rules.legal_actions(state)``).

        Returns:
            ``float32`` array ``(len(actions), F)``, finite, each value in ``[-1, 1]``.

        Raises:
            ValueError: ``seat`` is not a seat, or an action id is out of range.
            IllegalActionError: a setup or building action that is not legal (the look-ahead
                applies it).
        """
        n = state.num_players
        if not is_int(seat) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} is not a seat: allowed 0..{n - 1}")
        ids = [int(a) for a in actions]
        for a in ids:
            if not 0 <= a < self.num_actions:
                raise ValueError(f"action {a!r} is out of range: allowed ids are 0..{self.num_actions - 1}")
        seat = int(seat)
        rows = np.zeros((len(ids), len(self.names)), np.float64)
        cache: dict[str, object] = {}  # what every action of this call reads, computed once
        for i, action in enumerate(ids):
            move = self._moves[action]
            self._move_columns(rows[i], move, state, seat)
            self._phase_columns(rows[i], move, action, state, seat, cache)
        return (rows / self._divisor).astype(np.float32)

    def _move_columns(self, row: np.ndarray, move: A.Move, state: MayaQuarryState, seat: int) -> None:
        """The move's own columns: its kind, its quarry, pyramid, level, seat offset, bid, blue
        marker or joker choice, and a worker's card."""
        col = self._column
        kind = move.kind
        n = state.num_players
        kind = move.kind
        row[self._kind_column[kind]] = 1.0
        if kind in ("worker", "protect", "plus2"):
            row[col["quarry"]] = move.a + 1
        elif kind in ("place", "relocate_src", "relocate_dst", "free_block"):
            row[col["pyramid"]] = move.a + 1
            if kind in ("place", "relocate_src"):
                row[col["level"]] = move.b + 1
        elif kind in ("minus3", "appoint"):
            row[col["seat_offset"]] = move.a
        elif kind == "bid":
            gold = state.gold[seat]
            rival = max(min(state.gold[s], A.MAX_BID) for s in range(n) if s != seat)
            row[col["bid"]] = move.a
            row[col["bid_gold_left"]] = min(gold - move.a, A.MAX_BID)
            row[col["bid_margin"]] = move.a - rival
        elif kind == "blue_choose":
            row[col[_blue_name(move.a)]] = 1.0
        elif kind == "joker":
            row[col[_joker_name(move.a)]] = 1.0

        if kind == "worker":
            card = move.b
            points = max(A.CARD_VALUES[card], 0)
            row[col["card_points"]] = points
            row[col["card_low"]] = A.CARD_IS_LOW[card]
            row[col["card_minus3"]] = card == A.MINUS3_CARD

    def _phase_columns(
        self, row: np.ndarray, move: A.Move, action: int, state: MayaQuarryState, seat: int, cache: dict[str, object]
    ) -> None:
        """The look-ahead columns of the phase's decision: expected blocks of a worker or a +2
        choice, the -3 target's cost, a protected quarry's points, a build's standing after it."""
        col = self._column
        kind = move.kind
        phase = state.phase
        rules = self.rules
        n = state.num_players
        if phase == WORKERS and kind in ("worker", "worker_pass"):
            per_q, total, hand = self._workers_base(state, seat, cache)
            if kind == "worker":
                q = move.a
                after, rank = quarry_estimate(rules, state, seat, q, state.columns[q] + [(seat, move.b)])
                left = hand - max(A.CARD_VALUES[move.b], 0)
                total_after = total - per_q[q] + after
                self._quarry_row(row, per_q[q], after, rank)
            else:
                left, total_after = hand, total
            row[col["exp_blocks"]] = min(total_after, left)
            row[col["exp_blocks_uncapped"]] = total_after
            row[col["transport_left"]] = left
        elif phase == PLUS2_CHOICE and kind in ("plus2", "plus2_decline"):
            per_q, total, hand = self._workers_base(state, seat, cache)
            total_after = total
            if kind == "plus2":
                q = move.a
                after, rank = quarry_estimate(rules, state, seat, q, state.columns[q], bonus=True)
                total_after = total - per_q[q] + after
                self._quarry_row(row, per_q[q], after, rank)
            row[col["exp_blocks"]] = min(total_after, hand)
            row[col["exp_blocks_uncapped"]] = total_after
            row[col["transport_left"]] = hand
        elif phase == MINUS3 and kind in ("minus3", "minus3_none"):
            if "minus3" not in cache:
                cache["minus3"] = minus3_scores(state)
            scores = cache["minus3"]
            row[col["minus3_blocks"]] = minus3_value(rules, state, seat, action, scores)
            if kind == "minus3":
                row[col["minus3_target_points"]] = scores[(seat + move.a) % n]  # type: ignore[index]
        elif phase == PROTECT_CHOICE and kind == "protect":
            q = move.a
            row[col["protect_points"]] = sum(
                visible_value(state, q, o, c, seat) for o, c in state.columns[q] if o == seat
            )
        elif phase in BUILD_PHASES and kind not in ("relocate_src", "relocate_decline"):
            gold_now, own_gold, throwaway = self._build_now(state, seat, cache)
            after = lookahead(rules, state, action, throwaway)
            gold_after = scored_now(rules, after)
            others = (sum(gold_after) - gold_after[seat]) / (n - 1)
            row[col["build_standing"]] = gold_after[seat] - others
            row[col["build_blocks"]] = board_blocks(after, seat)
            row[col["build_payout_change"]] = gold_after[seat] - gold_now[seat]
            row[col["gold_change"]] = after.gold[seat] - own_gold

    def _workers_base(
        self, state: MayaQuarryState, seat: int, cache: dict[str, object]
    ) -> tuple[list[float], float, float]:
        """Each quarry's expected blocks for ``seat`` as it stands, their sum and the hand's points (once a call)."""
        if "base" not in cache:
            per_q = [quarry_estimate(self.rules, state, seat, q, column)[0] for q, column in enumerate(state.columns)]
            cache["base"] = (per_q, sum(per_q), hand_points(state, seat))
        return cache["base"]  # type: ignore[return-value]

    def _build_now(
        self, state: MayaQuarryState, seat: int, cache: dict[str, object]
    ) -> tuple[list[int], int, np.random.Generator]:
        """The scores now, ``seat``'s gold and the look-ahead's throwaway generator (once a call)."""
        if "build" not in cache:
            cache["build"] = (scored_now(self.rules, state), state.gold[seat], np.random.default_rng(0))
        return cache["build"]  # type: ignore[return-value]

    def _quarry_row(self, row: np.ndarray, before: float, after: float, rank: int) -> None:
        col = self._column
        row[col["quarry_blocks_before"]] = before
        row[col["quarry_blocks_after"]] = after
        row[col["quarry_first"]] = rank == 0


def _blue_name(marker: int) -> str:
    """Feature name of blue marker ``marker``, e.g. ``"blue_transport_plus_4"``."""
    return "blue_" + BLUE_MARKERS[marker].removeprefix("BLUE_").lower()


def _joker_name(index: int) -> str:
    """Feature name of the joker option ``index`` (into JOKER_GREEN), e.g. ``"joker_free_pass"``."""
    return "joker_" + MARKERS[A.JOKER_GREEN[index]].lower()
