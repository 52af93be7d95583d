"""Yaxha per-action features (issue 16 item 1): every quantity the heuristic bot weighs, per
legal action, from what the acting seat may see. Pure: standard library and numpy.

:class:`ActionFeatures` (the game table's ``features`` hook) returns ``float32 (A, F)`` for
``A`` actions of one seat, one row per action, ``F = len(names)`` columns:

=========================  ==========================================================================
name                       meaning (unit / scale)
=========================  ==========================================================================
``is_pick``                1 for a tile pick (hidden choice or pending pick), else 0
``is_place``               1 for placing a cube, else 0
``is_discard``             1 for discarding a cube, else 0
``is_wait``                1 for the wait id of a seat that does not act in the current step
``value_change``           the heuristic's pyramid value after the action minus now, points / 32
                           (:func:`heuristic_value`); a tile is valued after the heuristic's greedy
                           three-cube build of it (:func:`greedy_build`); a discard is 0.
                           The heuristic bot plays an argmax of this column (ties: see below)
``colour_points_change``   change of my colour points (largest visible group per colour, section 7),
                           points / 32
``margin_change``          change of my margin, points / 32; the margin is my total (colour points
                           and bonus cards, sections 7-8) minus the best other total, all on the
                           pyramids as I see them (the other seats' cubes placed this round left out)
``margin_after``           that margin after the action, points / 64
``group_size``             visible group holding the new cube (a tile: the largest group holding
                           one of its cubes after the greedy build), cubes / 12, capped at 1
``level``                  level of the new cube (a tile: the highest one of the build), 0..3 / 3
``hides``                  cubes of mine covered (hidden, section 6) by the action, cubes / 4
``discards``               cubes the action discards (a tile: cubes of the greedy build with no
                           legal cell), cubes / 3
``card{k}_term``           k = 0, 1, 2: change of the heuristic's term for the k-th bonus card in play
                           (``state.bonus_cards`` order; 0 for cards 13 and 15, which it ignores),
                           points / 8
``card{k}_won``            k = 0, 1, 2: change of whether I score that card (-1, 0 or +1) on the
                           pyramids as I see them
``rivals_ahead``           tile picks, hidden choice: other seats with a lower initiative (they win
                           a clash with me, section 4.3) whose heuristic best tiles include this one,
                           / (N - 1); 0 for a pending pick and for cubes
``rivals_behind``          hidden choice: the same for seats with a higher initiative (I win the
                           clash and give up initiative); pending pick: pending seats after me whose
                           best remaining tiles include this one (I take it from them); / (N - 1)
``initiative_gain``        my initiative number now minus after this round's swaps (section 4.4),
                           / (N - 1): positive = I pick earlier next round. Hidden choice: assuming
                           every other seat picks the lowest id among its heuristic best tiles;
                           pending pick: the actual swaps (the choices are revealed); cubes: 0
``rival_value_change``     the best ``value_change`` (points / 32) of this tile for another seat
                           that may still take it (hidden choice: any other seat; pending pick:
                           the pending seats after me), each on its own visible pyramid; cubes: 0
=========================  ==========================================================================

The columns are not clipped: clipping would merge values that the heuristic tells apart. In
play they stay within about [-1, 1] (``margin_after`` and the point changes can pass 1 in a
lopsided position: a cube that joins two large groups). Every value is finite.

**Heuristic tie rule.** :class:`maya_envs.yaxha.bots.HeuristicBot` plays
``ties[rng.integers(len(ties))]`` when ``len(ties) > 1``, else ``ties[0]``, where ``ties`` are
the given actions, in their order, whose ``value_change`` equals the column's maximum
exactly (values are multiples of 0.5 point divided by a power of two, so float32 keeps their
order and their equalities) and ``rng`` is the bot's generator (``tests/test_features_yaxha.py``
checks it over random positions of 2, 3 and 4 players).

**Hidden information** (decision 11): the rows read the market, initiative, the taken tiles,
the pending seats, the bonus cards, my own pyramid and hand, and the other seats' pyramids
without their cubes placed this round (:func:`visible_pyramids`). They never read another
seat's hidden tile choice, hand or discards this round, nor the bag (``determinize`` resamples
all of those, and the features do not change).

The one-cube real-score calculator (:class:`ScoreView`) is also what the observation's
optional ``action_features`` part (:mod:`maya_envs.yaxha.observation`) is written from.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from maya_envs.core.checks import is_int
from maya_envs.core.errors import IllegalActionError
from maya_envs.yaxha.actions import NUM_COLOURS, WAIT, Geometry
from maya_envs.yaxha.rules import BUILD, NUM_BONUS_IN_PLAY, PENDING, SELECT, YaxhaRules, YaxhaState, swap_initiative
from maya_envs.yaxha.scoring import (
    GROUP_POINTS,
    Group,
    PyramidStats,
    bonus_card_winners,
    group_points,
    pyramid_stats,
    visible_cells,
)

POINT_SCALE = 32.0
"""Divisor of the point changes (a power of two: float32 keeps the heuristic's ties)."""
MARGIN_SCALE = 64.0
CARD_TERM_SCALE = 8.0

NAMES = (
    "is_pick",
    "is_place",
    "is_discard",
    "is_wait",
    "value_change",
    "colour_points_change",
    "margin_change",
    "margin_after",
    "group_size",
    "level",
    "hides",
    "discards",
    *(f"card{k}_term" for k in range(NUM_BONUS_IN_PLAY)),
    *(f"card{k}_won" for k in range(NUM_BONUS_IN_PLAY)),
    "rivals_ahead",
    "rivals_behind",
    "initiative_gain",
    "rival_value_change",
)
"""Feature names, in column order (the module table)."""
_COL = {name: i for i, name in enumerate(NAMES)}
_TERM, _WON = _COL["card0_term"], _COL["card0_won"]


# -- the heuristic's value --------------------------------------------------------------------


@lru_cache(maxsize=8192)
def heuristic_terms(geometry: Geometry, pyramid: tuple[int, ...], cards: tuple[int, ...]) -> tuple[float, tuple]:
    """The heuristic's value of ``pyramid`` and its bonus-card terms (one per card of ``cards``).

    The value is the reference-card points of the largest visible group of each colour
    (sections 6-7) plus the terms: 0.5 per cube of the colour a colour card (0-9) names, 0.5
    per cube of the largest group (10), 0.5 per level-1 cube of the best level-1 group (11),
    1 per level of the tallest group (12), 1 per colour visible on level 1 (14) or level 2
    (17), -2 per colour beyond 3 (16), 0 for cards 13 and 15. Memoised.
    """
    links, covers, coverable, level = geometry.links, geometry.covers, geometry.fully_coverable, geometry.level
    occupied = [c for c, colour in enumerate(pyramid) if colour >= 0]
    visible = {c for c in occupied if not (coverable[c] and all(pyramid[k] >= 0 for k in covers[c]))}
    largest = [0] * NUM_COLOURS
    best_level1 = best_levels = 0
    seen: set[int] = set()
    by_level: list[set[int]] = [set(), set(), set(), set()]
    for start in visible:
        colour = pyramid[start]
        by_level[level[start]].add(colour)
        if start in seen:
            continue
        seen.add(start)
        stack, size, level1, levels = [start], 0, 0, set()
        while stack:
            cell = stack.pop()
            size += 1
            level1 += level[cell] == 0
            levels.add(level[cell])
            for nb in links[cell]:
                if nb not in seen and nb in visible and pyramid[nb] == colour:
                    seen.add(nb)
                    stack.append(nb)
        largest[colour] = max(largest[colour], size)
        best_level1 = max(best_level1, level1)
        best_levels = max(best_levels, len(levels))
    value = float(sum(GROUP_POINTS[min(n, 12)] for n in largest))
    terms = []
    for card in cards:
        if card < 10:
            term = 0.5 * largest[card % 5]
        elif card == 10:
            term = 0.5 * max(largest)
        elif card == 11:
            term = 0.5 * best_level1
        elif card == 12:
            term = float(best_levels)
        elif card == 14:
            term = float(len(by_level[0]))
        elif card == 17:
            term = float(len(by_level[1]))
        elif card == 16:
            term = -2.0 * max(0, len(set().union(*by_level)) - 3)
        else:
            term = 0.0
        value += term
        terms.append(term)
    return value, tuple(terms)


def heuristic_value(geometry: Geometry, pyramid: tuple[int, ...], cards: tuple[int, ...]) -> float:
    """The heuristic's value of ``pyramid`` with bonus ``cards`` (see :func:`heuristic_terms`)."""
    return heuristic_terms(geometry, pyramid, cards)[0]


@lru_cache(maxsize=4096)
def greedy_build(
    rules: YaxhaRules, pyramid: tuple[int, ...], tile: tuple[int, ...], cards: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """The heuristic's build of ``tile`` (5 colour counts) on a copy of ``pyramid``: cube after
    cube, the legal (colour, cell) with the best :func:`heuristic_value` (the first one in
    colour then cell order on equal values); a cube is discarded only when no cube in hand
    has a legal cell. Returns ``(pyramid after, cells placed in order, cubes discarded)``.
    Memoised."""
    geometry = rules.geometry
    hand = list(tile)
    placed: list[int] = []
    discarded = 0
    for _ in range(sum(hand)):
        best, best_colour, best_cell = None, None, -1
        for colour in range(NUM_COLOURS):
            if not hand[colour]:
                continue
            cells = rules.legal_cells(pyramid, colour)
            for cell in cells:
                p = pyramid[:cell] + (colour,) + pyramid[cell + 1 :]
                v = heuristic_terms(geometry, p, cards)[0]
                if best is None or v > best:
                    best, best_colour, best_cell = v, colour, cell
            if not cells and best is None:
                best_colour = colour
        if best is None:
            discarded += 1
        else:
            placed.append(best_cell)
            pyramid = rules.place_cube(pyramid, best_colour, best_cell)  # its frontier derived, not rebuilt
        hand[best_colour] -= 1
    return pyramid, tuple(placed), discarded


def tile_value(rules: YaxhaRules, pyramid: tuple[int, ...], tile: tuple[int, ...], cards: tuple[int, ...]) -> float:
    """The heuristic's value of ``pyramid`` after its :func:`greedy_build` of ``tile``."""
    return heuristic_terms(rules.geometry, greedy_build(rules, pyramid, tile, cards)[0], cards)[0]


# -- what a seat sees -------------------------------------------------------------------------


def visible_pyramids(state: YaxhaState, seat: int) -> tuple[tuple[int, ...], ...]:
    """Every seat's pyramid as ``seat`` sees it: its own whole, the others' without their cubes
    placed this round (decision 11: simultaneous building)."""
    out = []
    for other, pyramid in enumerate(state.pyramids):
        fresh = state.fresh[other]
        if other != seat and fresh:
            cells = list(pyramid)
            for cell in fresh:
                cells[cell] = -1
            pyramid = tuple(cells)
        out.append(pyramid)
    return tuple(out)


# -- real scores of one view (shared with the observation's action_features part) -------------


@lru_cache(maxsize=1024)
def pyramid_view(geometry: Geometry, pyramid: tuple[int, ...]) -> tuple[PyramidStats, list[bool]]:
    """``pyramid_stats`` and ``visible_cells`` of a pyramid (memoised: most pyramids stay the
    same from one state to the next)."""
    return pyramid_stats(geometry, pyramid), visible_cells(geometry, pyramid)


@lru_cache(maxsize=64)
def score_view(rules: YaxhaRules, cards: tuple[int, ...], seat: int, pyramids: tuple) -> ScoreView:
    """The :class:`ScoreView` of ``seat`` over ``pyramids`` as it sees them (memoised: a seat's
    tile pick and its first cube of the round see the same pyramids)."""
    return ScoreView(rules, cards, seat, list(pyramids))


class ScoreView:
    """Real scores (sections 7-8) of one seat's view: its own pyramid and the other seats'
    visible pyramids, and the consequences of one more cube on its own pyramid (memoised).

    Args:
        rules: the rules.
        cards: the bonus cards in play.
        seat: the seat whose pyramid changes.
        pyramids: every seat's pyramid as ``seat`` sees it (:func:`visible_pyramids`).
    """

    def __init__(self, rules: YaxhaRules, cards: tuple[int, ...], seat: int, pyramids: list[tuple[int, ...]]) -> None:
        self.rules, self.me = rules, seat
        g = rules.geometry
        self.geometry = g
        self.cards = cards
        self.zero_ties = rules.config.bonus_zero_ties_score
        self.stats = [pyramid_view(g, p)[0] for p in pyramids]
        self.colour_points = [sum(group_points(size) for size in s.largest) for s in self.stats]
        self.pyramid = pyramids[self.me]
        self.visible = pyramid_view(g, self.pyramid)[1]
        mine = self.stats[self.me]
        self.group_of = {cell: group for group in mine.groups for cell in group.cells}
        self.margin, self.won = self.outcome(mine, self.colour_points[self.me])
        self.memo: dict[tuple[int, int], tuple[int, int, int, tuple[bool, ...]]] = {}
        self.sides = self._sides() if 15 in self.cards else None

    def _sides(self) -> list[tuple[dict, dict]]:
        """Card 15 bookkeeping of my pyramid (as ``scoring.single_colour_side``): per side, the
        outermost visible cube of each row (row -> (position, colour)) and a count of those
        cubes per colour."""
        sides = []
        for side in range(4):
            rows: dict = {}
            for cell, colour in enumerate(self.pyramid):
                if self.visible[cell]:
                    key, pos = self.geometry.side_rows[cell][side]
                    if key not in rows or pos < rows[key][0]:
                        rows[key] = (pos, colour)
            counts: dict[int, int] = {}
            for _, colour in rows.values():
                counts[colour] = counts.get(colour, 0) + 1
            sides.append((rows, counts))
        return sides

    def _side_after(self, colour: int, cell: int) -> bool:
        """Card 15 after adding a visible ``colour`` cube on ``cell`` (nothing hidden by it)."""
        for side, (rows, counts) in enumerate(self.sides):
            key, pos = self.geometry.side_rows[cell][side]
            old = rows.get(key)
            if old is not None and old[0] <= pos:
                if len(counts) == 1:
                    return True
                continue
            after = dict(counts)
            after[colour] = after.get(colour, 0) + 1
            if old is not None:
                after[old[1]] -= 1
                if not after[old[1]]:
                    del after[old[1]]
            if len(after) == 1:
                return True
        return False

    def outcome(self, mine: PyramidStats, my_colour_points: int) -> tuple[int, tuple[bool, ...]]:
        """(my total minus the best other total, whether I score each card in play), with my
        pyramid's stats ``mine`` and colour points ``my_colour_points``."""
        stats = list(self.stats)
        stats[self.me] = mine
        totals = list(self.colour_points)
        totals[self.me] = my_colour_points
        won = []
        for card in self.cards:
            winners = bonus_card_winners(card, stats, self.zero_ties)
            for seat, w in enumerate(winners):
                totals[seat] += 5 * w
            won.append(bool(winners[self.me]))
        return totals[self.me] - max(t for seat, t in enumerate(totals) if seat != self.me), tuple(won)

    def _after(self, colour: int, cell: int) -> tuple[PyramidStats, int]:
        """My stats after placing ``colour`` on ``cell`` and the size of the new cube's group."""
        g, pyramid = self.geometry, self.pyramid
        after = pyramid[:cell] + (colour,) + pyramid[cell + 1 :]
        hides = any(g.fully_coverable[s] and all(after[k] >= 0 for k in g.covers[s]) for s in g.supports[cell])
        if hides:  # a cube below gets covered: groups may split, recount everything
            stats = pyramid_stats(g, after)
            return stats, next(gr.size for gr in stats.groups if cell in gr.cells)
        mine = self.stats[self.me]
        merged = {
            id(gr): gr for k in g.links[cell] if self.visible[k] and pyramid[k] == colour for gr in [self.group_of[k]]
        }
        cells = sorted([cell, *(c for gr in merged.values() for c in gr.cells)])
        level = g.level
        new = Group(colour, tuple(cells), sum(level[c] == 0 for c in cells), len({level[c] for c in cells}))
        largest = list(mine.largest)
        largest[colour] = max(largest[colour], new.size)
        by_level = list(mine.colours_by_level)
        by_level[level[cell]] = by_level[level[cell]] | {colour}
        side = mine.single_colour_side
        if self.sides is not None:
            side = self._side_after(colour, cell)
        groups = tuple(gr for gr in mine.groups if id(gr) not in merged) + (new,)
        return PyramidStats(tuple(largest), groups, tuple(by_level), side), new.size

    def place(self, colour: int, cell: int) -> tuple[int, int, int, tuple[bool, ...]]:
        """(colour-point change, margin change, new group size, cards I score after) of placing
        ``colour`` on ``cell`` (memoised)."""
        done = self.memo.get((colour, cell))
        if done is None:
            stats, size = self._after(colour, cell)
            points = sum(group_points(s) for s in stats.largest)
            margin, won = self.outcome(stats, points)
            done = points - self.colour_points[self.me], margin - self.margin, size, won
            self.memo[colour, cell] = done
        return done


# -- the features -----------------------------------------------------------------------------


class ActionFeatures:
    """Per-action features of one :class:`~maya_envs.yaxha.rules.YaxhaRules` (the module table).

    Args:
        rules: the rules.

    Attributes:
        names: the ``F`` feature names (:data:`NAMES`), the same for every rules object.
    """

    names = NAMES

    def __init__(self, rules: YaxhaRules) -> None:
        self.rules = rules
        self.geometry = rules.geometry
        t = rules.table
        self._place_start, self._discard_start, self._num_cells = t.place_start, t.discard_start, t.num_cells
        self._num_actions = t.num_actions
        self._seat_scale = 1.0 / max(rules.num_players - 1, 1)

    def __call__(self, state: YaxhaState, seat: int, actions: Sequence[int]) -> np.ndarray:
        """``float32 (len(actions), F)``: one row per action (module table).

        ``actions`` are legal ids of ``seat`` in ``state`` (usually ``rules.legal_actions(state)``
        for the current player), or ``[WAIT]`` for a seat that does not act in the current step.

        Raises:
            ValueError: ``seat`` is not a seat of this game.
            IllegalActionError: an action that ``seat`` may not take now (named, with the legal ids).
        """
        rules = self.rules
        n = rules.num_players
        if not is_int(seat) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} is out of range: allowed 0..{n - 1}")
        seat = int(seat)
        key = ("features", seat, rules)
        rows = state._cache.get(key)
        if rows is None:
            legal = rules.legal_actions_for(state, seat)
            rows = state._cache[key] = (
                legal,
                {a: i for i, a in enumerate(legal)},
                self._rows(state, seat, legal),
            )
        legal, index, table = rows
        out = np.zeros((len(actions), len(NAMES)), np.float32)
        for i, action in enumerate(actions):
            row = index.get(action) if is_int(action) else None
            if row is not None:
                out[i] = table[row]
            elif not legal and action == WAIT and not isinstance(action, bool):
                out[i, _COL["is_wait"]] = 1.0
            else:
                allowed = legal if legal else [WAIT]
                raise IllegalActionError(
                    f"action {action!r} is not legal for seat {seat} in this state; legal ids: {allowed}"
                )
        return out

    def _rows(self, state: YaxhaState, seat: int, legal: list[int]) -> np.ndarray:
        """Rows of every legal id of ``seat``, in ``legal``'s order."""
        out = np.zeros((len(legal), len(NAMES)), np.float32)
        if not legal:
            return out
        pyramids = visible_pyramids(state, seat)
        view = score_view(self.rules, state.bonus_cards, seat, pyramids)
        if state.phase == BUILD:
            self._build_rows(out, state, view, legal)
        else:
            self._tile_rows(out, state, seat, view, pyramids, legal)
        return out

    def _build_rows(self, out: np.ndarray, state: YaxhaState, view: ScoreView, legal: list[int]) -> None:
        g, cards, pyramid = self.geometry, state.bonus_cards, view.pyramid
        value_now, terms_now = heuristic_terms(g, pyramid, cards)
        won_now = view.won
        level, supports, covers, coverable = g.level, g.supports, g.covers, g.fully_coverable
        c = _COL
        for i, action in enumerate(legal):
            row = out[i]
            if action >= self._discard_start:
                row[c["is_discard"]] = 1.0
                row[c["discards"]] = 1.0 / 3.0
                row[c["margin_after"]] = view.margin / MARGIN_SCALE
                continue
            colour, cell = divmod(action - self._place_start, self._num_cells)
            after = pyramid[:cell] + (colour,) + pyramid[cell + 1 :]
            value, terms = heuristic_terms(g, after, cards)
            points, margin, size, won = view.place(colour, cell)
            hidden = sum(1 for s in supports[cell] if coverable[s] and all(after[k] >= 0 for k in covers[s]))
            row[c["is_place"]] = 1.0
            row[c["value_change"]] = (value - value_now) / POINT_SCALE
            row[c["colour_points_change"]] = points / POINT_SCALE
            row[c["margin_change"]] = margin / POINT_SCALE
            row[c["margin_after"]] = (view.margin + margin) / MARGIN_SCALE
            row[c["group_size"]] = min(size / 12, 1.0)
            row[c["level"]] = level[cell] / 3
            row[c["hides"]] = hidden / 4
            for k in range(len(cards)):
                row[_TERM + k] = (terms[k] - terms_now[k]) / CARD_TERM_SCALE
                row[_WON + k] = float(won[k]) - float(won_now[k])

    def _tile_rows(
        self,
        out: np.ndarray,
        state: YaxhaState,
        seat: int,
        view: ScoreView,
        pyramids: tuple[tuple[int, ...], ...],
        legal: list[int],
    ) -> None:
        rules, g, cards, pyramid = self.rules, self.geometry, state.bonus_cards, view.pyramid
        n, init = rules.num_players, state.initiative
        value_now, terms_now = heuristic_terms(g, pyramid, cards)
        visible_now = sum(view.visible)
        c = _COL
        # The other seats that may still take a tile, and how they would value each.
        if state.phase == SELECT:
            tiles = range(n)
            rivals = [s for s in range(n) if s != seat]
        else:  # PENDING: I am state.pending[0]; the tiles left are ``legal``
            tiles = legal
            rivals = list(state.pending[1:])
        rival_gain = {s: {t: self._gain(pyramids[s], state.market[t], cards) for t in tiles} for s in rivals}
        rival_best = {}
        for s, gains in rival_gain.items():
            top = max(gains.values())
            rival_best[s] = [t for t in tiles if gains[t] == top]
        if state.phase == PENDING:
            after = swap_initiative(init, state.choices)
            gain_constant = (init[seat] - after[seat]) * self._seat_scale
        for i, tile in enumerate(legal):
            row = out[i]
            final, placed, discarded = greedy_build(rules, pyramid, state.market[tile], cards)
            value, terms = heuristic_terms(g, final, cards)
            stats, visible = pyramid_view(g, final)
            points = sum(group_points(s) for s in stats.largest)
            margin, won = view.outcome(stats, points)
            row[c["is_pick"]] = 1.0
            row[c["value_change"]] = (value - value_now) / POINT_SCALE
            row[c["colour_points_change"]] = (points - view.colour_points[seat]) / POINT_SCALE
            row[c["margin_change"]] = (margin - view.margin) / POINT_SCALE
            row[c["margin_after"]] = margin / MARGIN_SCALE
            row[c["group_size"]] = min(
                max((gr.size for gr in stats.groups if set(placed) & set(gr.cells)), default=0) / 12, 1.0
            )
            row[c["level"]] = max((g.level[cell] for cell in placed), default=0) / 3
            row[c["hides"]] = (visible_now + len(placed) - sum(visible)) / 4
            row[c["discards"]] = discarded / 3
            for k in range(len(cards)):
                row[_TERM + k] = (terms[k] - terms_now[k]) / CARD_TERM_SCALE
                row[_WON + k] = float(won[k]) - float(view.won[k])
            if state.phase == SELECT:
                ahead = sum(1 for s in rivals if init[s] < init[seat] and tile in rival_best[s])
                behind = sum(1 for s in rivals if init[s] > init[seat] and tile in rival_best[s])
                predicted = [rival_best[s][0] if s != seat else tile for s in range(n)]
                gain = (init[seat] - swap_initiative(init, tuple(predicted))[seat]) * self._seat_scale
            else:
                ahead = 0
                behind = sum(1 for s in rivals if tile in rival_best[s])
                gain = gain_constant
            row[c["rivals_ahead"]] = ahead * self._seat_scale
            row[c["rivals_behind"]] = behind * self._seat_scale
            row[c["initiative_gain"]] = gain
            row[c["rival_value_change"]] = max((rival_gain[s][tile] for s in rivals), default=0.0) / POINT_SCALE

    def _gain(self, pyramid: tuple[int, ...], tile: tuple[int, ...], cards: tuple[int, ...]) -> float:
        """The heuristic's value change of taking ``tile`` on ``pyramid`` (points)."""
        g = self.geometry
        return tile_value(self.rules, pyramid, tile, cards) - heuristic_terms(g, pyramid, cards)[0]
