"""Yaxha observation encoder (pure): one flat ``float32`` vector in [0, 1] per seat.

Seats appear relative to the observer: ``r = (seat - observer) % N``, so ``r = 0`` is always
"me" (decision 11: all pyramids, the market, initiative, bonus cards, the round and my own
cubes are visible; another seat's hidden tile choice and its cubes placed this round are not,
and the bag is seen only as colour counts). ``N = num_players``, ``C`` = cells (126
floating, 30 fixed; cell order as in :mod:`maya_envs.yaxha.actions`).

==============  ===========  ===================================================================
slice name      length       meaning
==============  ===========  ===================================================================
``pyramids``    ``N*C*5``    index ``(r*C + cell)*5 + colour``: 1 if seat ``r`` has that colour
                             on that cell. Another seat's cubes placed during the current
                             round's building are left out until the round's building ends.
``initiative``  ``N*N``      ``r*N + (initiative - 1)``: one-hot initiative of seat ``r``.
``market``      ``N*5``      ``tile*5 + colour``: cubes of that colour on the tile / 3.
``owner``       ``N*N``      ``tile*N + r``: 1 if seat ``r`` has taken the tile this round.
``choices``     ``N*N``      ``r*N + tile``: the tile seat ``r`` chose this round. While choices
                             are being collected only ``r = 0`` (my own) is shown; after the
                             reveal (pending picks, building) every seat's.
``pending``     ``N``        ``r``: 1 if seat ``r`` still has to pick after a clash.
``hand``        ``5``        my cubes still to place this round, per colour / 3.
``bag``         ``5``        cubes left in the bag per colour / ``cubes_per_colour``.
``bonus``       ``18``       1 for each bonus card in play.
``round``       ``10``       one-hot round (all 0 once the game is over).
``phase``       ``4``        one-hot: select, pending, build, over.
``features``    ``3*A``      only with ``action_features=True`` (part ``action_features``,
                             shape ``(3, A)``; an option of the observer): per-action
                             features, ``A = N + 5C`` (every id but the discards): index
                             ``f*A + id`` is feature ``f`` of action ``id``; 0 for an id not
                             legal now (see below).
==============  ===========  ===================================================================

Sizes: 2 players floating 1326, 3 players 1977, 4 players 2634; fixed footprint 366, 537, 714.
With ``action_features=True``: 3222, 3876, 4536; fixed 822, 996, 1176.

**Per-action features** (the ``action_features`` part, read by name by
``training.policies.ActionFeaturePolicy`` through the observer's layout): the one-step
consequences of each legal id, computed exactly with :mod:`maya_envs.yaxha.scoring` from what
the observer may know: its own pyramid and hand, and the other seats' pyramids as the
``pyramids`` part shows them (their cubes of the current building left out). ``D(x)`` maps a
point change ``x`` to ``clip(0.5 + x / 12, 0, 1)``.

* Placing a cube (colour ``c`` on ``cell``), during my building: ``f = 0``: ``D(change of my
  colour points)`` (largest visible group per colour, section 7); ``f = 1``: ``D(change of my
  margin)``, the margin being my total (colour points and bonus cards) minus the best other
  total, all judged on the visible pyramids; ``f = 2``: size of the visible group holding the
  new cube / 12 (capped at 1).
* Picking tile ``t`` (hidden choice or pending pick): each of the tile's cubes is valued alone
  on my current pyramid by its best legal cell: ``f = 0``: ``D(sum of the best colour-point
  changes)``; ``f = 1``: ``D(sum of the best margin changes)``; ``f = 2``: the tile's cubes that
  have no legal cell now / 3.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from maya_envs.core.errors import ConfigError
from maya_envs.core.layout import ACTION_FEATURES, Layout
from maya_envs.yaxha.actions import NUM_COLOURS
from maya_envs.yaxha.rules import YaxhaRules, YaxhaState
from maya_envs.yaxha.scoring import (
    NUM_BONUS_CARDS,
    Group,
    PyramidStats,
    bonus_card_winners,
    group_points,
    pyramid_stats,
    visible_cells,
)

NUM_ROUNDS = 10
NUM_PHASES = 4
NUM_FEATURES = 3
"""Rows of the ``action_features`` part (colour-point change, margin change, group size or
discards)."""
_SELECT, _PENDING, _BUILD = 0, 1, 2
_COLOUR_RANGE = np.arange(NUM_COLOURS, dtype=np.int8)


def observation_layout(num_players: int, num_cells: int, action_features: bool = False) -> Layout:
    """The named parts of the vector (the module table), in order; ``action_features`` (shape
    ``(NUM_FEATURES, N + 5C)``) only with ``action_features``."""
    n = num_players
    parts: list[tuple[str, int | tuple[int, ...]]] = [
        ("pyramids", n * num_cells * NUM_COLOURS),
        ("initiative", n * n),
        ("market", n * NUM_COLOURS),
        ("owner", n * n),
        ("choices", n * n),
        ("pending", n),
        ("hand", NUM_COLOURS),
        ("bag", NUM_COLOURS),
        ("bonus", NUM_BONUS_CARDS),
        ("round", NUM_ROUNDS),
        ("phase", NUM_PHASES),
    ]
    if action_features:
        parts.append((ACTION_FEATURES, (NUM_FEATURES, n + NUM_COLOURS * num_cells)))
    return Layout(parts)


def observation_size(num_players: int, num_cells: int, action_features: bool = False) -> int:
    """Length of the observation vector."""
    return observation_layout(num_players, num_cells, action_features).size


class YaxhaObserver:
    """The observation encoder of one :class:`~maya_envs.yaxha.rules.YaxhaRules` (the
    :class:`~maya_envs.core.layout.Observer` protocol).

    Args:
        rules: the rules.
        action_features: append the per-action feature block (part ``action_features``; not a
            rule: it only changes what the observation holds). Default ``False``.

    Raises:
        ConfigError: ``action_features`` is not a bool.
    """

    def __init__(self, rules: YaxhaRules, action_features: bool = False) -> None:
        if not isinstance(action_features, bool):
            raise ConfigError(f"action_features={action_features!r}; allowed: True, False")
        self.rules = rules
        self.action_features = action_features
        self.layout = observation_layout(rules.num_players, rules.geometry.num_cells, action_features)

    def encode(self, state: YaxhaState, seat: int) -> np.ndarray:
        """Observation of ``seat`` as ``float32`` of ``layout.shape`` in [0, 1].

        Raises:
            ValueError: ``seat`` is not a seat of this game.
        """
        return encode(self.rules, state, seat, self.layout)


def observe(rules: YaxhaRules, state: YaxhaState, seat: int) -> np.ndarray:
    """``seat``'s observation of ``state`` by the default :class:`YaxhaObserver` of ``rules`` (for
    tests and tools; an env keeps its own observer)."""
    return YaxhaObserver(rules).encode(state, seat)


def encode(rules: YaxhaRules, state: YaxhaState, observer: int, layout: Layout | None = None) -> np.ndarray:
    """Observation of ``observer`` (a seat) as ``float32`` of ``layout``'s shape (default: the
    layout without the action features).

    Raises:
        ValueError: ``observer`` is not a seat of this game.
    """
    n = rules.num_players
    if not 0 <= observer < n:
        raise ValueError(f"observer seat {observer!r} is out of range: allowed 0..{n - 1}")
    num_cells = rules.geometry.num_cells
    layout = layout if layout is not None else observation_layout(n, num_cells)
    with_features = ACTION_FEATURES in layout
    obs = np.zeros(layout.size, np.float32)
    seats = [(observer + r) % n for r in range(n)]  # absolute seat of relative seat r

    cells = np.empty((n, num_cells), np.int8)
    for r, seat in enumerate(seats):
        cells[r] = state.pyramids[seat]
        if r and state.fresh[seat]:
            cells[r, list(state.fresh[seat])] = -1
    obs[layout["pyramids"]] = (cells[:, :, None] == _COLOUR_RANGE).reshape(-1)

    part = obs[layout["initiative"]]
    for r, seat in enumerate(seats):
        part[r * n + state.initiative[seat] - 1] = 1.0
    obs[layout["market"]] = np.asarray(state.market, np.float32).reshape(-1) / 3.0
    part = obs[layout["owner"]]
    for tile, seat in enumerate(state.owner):
        if seat >= 0:
            part[tile * n + (seat - observer) % n] = 1.0
    part = obs[layout["choices"]]
    revealed = state.phase in (1, 2)  # PENDING, BUILD
    for r, seat in enumerate(seats):
        tile = state.choices[seat]
        if tile >= 0 and (revealed or r == 0):
            part[r * n + tile] = 1.0
    part = obs[layout["pending"]]
    for seat in state.pending:
        part[(seat - observer) % n] = 1.0
    obs[layout["hand"]] = np.asarray(state.hands[observer], np.float32) / 3.0
    obs[layout["bag"]] = np.asarray(state.bag, np.float32) / rules.config.cubes_per_colour
    part = obs[layout["bonus"]]
    part[list(state.bonus_cards)] = 1.0
    if state.round < NUM_ROUNDS:
        obs[layout["round"].start + state.round] = 1.0
    obs[layout["phase"].start + state.phase] = 1.0
    if not with_features:
        return obs
    legal = rules.legal_actions_for(state, observer) if state.phase in (_SELECT, _PENDING, _BUILD) else []
    if legal:
        visible = [None] * n  # absolute seat -> pyramid as the observer sees it
        for r, seat in enumerate(seats):
            visible[seat] = state.pyramids[seat] if r == 0 else tuple(cells[r].tolist())
        features = layout.view(obs, ACTION_FEATURES)
        _features(rules, state.bonus_cards, observer, tuple(visible)).write(features, state, legal)
    return obs


def _points(change: float) -> float:
    """``D``: a point change mapped into [0, 1] (0 -> 0.5; -6 and +6 and beyond -> 0 and 1)."""
    return min(max(0.5 + change / 12.0, 0.0), 1.0)


def _side_row(coords: tuple[int, int, int], side: int) -> tuple[tuple[int, int], int]:
    """(row, position along it) of a cell for one of the 4 sides, as ``scoring.single_colour_side``
    orders them: the outermost cube of a row has the smallest position."""
    x, y, z = coords
    return (((y, z), x), ((y, z), -x), ((x, z), y), ((x, z), -y))[side]


@lru_cache(maxsize=1024)
def _stats(geometry, pyramid: tuple[int, ...]) -> tuple[PyramidStats, list[bool]]:
    """``pyramid_stats`` and ``visible_cells`` of a pyramid (memoised: most pyramids stay the
    same from one observation to the next)."""
    return pyramid_stats(geometry, pyramid), visible_cells(geometry, pyramid)


@lru_cache(maxsize=64)
def _features(rules: YaxhaRules, cards: tuple[int, ...], observer: int, pyramids: tuple) -> _ActionFeatures:
    """The feature calculator of one view (memoised: a seat's tile pick and its first cube of
    the round see the same pyramids)."""
    return _ActionFeatures(rules, cards, observer, list(pyramids))


class _ActionFeatures:
    """The ``features`` part for one observer (module docstring): one-cube consequences on
    the observer's pyramid, scored against the other seats' visible pyramids."""

    def __init__(
        self, rules: YaxhaRules, cards: tuple[int, ...], observer: int, pyramids: list[tuple[int, ...]]
    ) -> None:
        self.rules, self.me = rules, observer
        g = rules.geometry
        self.geometry = g
        self.cards = cards
        self.zero_ties = rules.config.bonus_zero_ties_score
        self.stats = [_stats(g, p)[0] for p in pyramids]
        self.colour_points = [sum(group_points(size) for size in s.largest) for s in self.stats]
        self.pyramid = pyramids[self.me]
        self.visible = _stats(g, self.pyramid)[1]
        mine = self.stats[self.me]
        self.group_of = {cell: group for group in mine.groups for cell in group.cells}
        self.margin = self._margin(mine, self.colour_points[self.me])
        self.memo: dict[tuple[int, int], tuple[float, float, int]] = {}
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
                    key, pos = _side_row(self.geometry.coords[cell], side)
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
            key, pos = _side_row(self.geometry.coords[cell], side)
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

    def _margin(self, mine: PyramidStats, my_colour_points: int) -> float:
        """My total minus the best other total, with my pyramid's stats ``mine``."""
        stats = list(self.stats)
        stats[self.me] = mine
        totals = list(self.colour_points)
        totals[self.me] = my_colour_points
        for card in self.cards:
            for seat, won in enumerate(bonus_card_winners(card, stats, self.zero_ties)):
                totals[seat] += 5 * won
        return totals[self.me] - max(t for seat, t in enumerate(totals) if seat != self.me)

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

    def _place(self, colour: int, cell: int) -> tuple[float, float, int]:
        """(colour-point change, margin change, new group size) of one placement (memoised)."""
        done = self.memo.get((colour, cell))
        if done is None:
            stats, size = self._after(colour, cell)
            points = sum(group_points(s) for s in stats.largest)
            done = points - self.colour_points[self.me], self._margin(stats, points) - self.margin, size
            self.memo[colour, cell] = done
        return done

    def write(self, out: np.ndarray, state: YaxhaState, legal: list[int]) -> None:
        """Fill ``out`` (``NUM_FEATURES`` x ``N + 5C``) at the ``legal`` ids of ``state``."""
        t = self.rules.table
        if state.phase == _BUILD:
            for action in legal:
                if action < t.discard_start:
                    colour, cell = divmod(action - t.place_start, t.num_cells)
                    points, margin, size = self._place(colour, cell)
                    out[0, action], out[1, action], out[2, action] = (
                        _points(points),
                        _points(margin),
                        min(size / 12, 1.0),
                    )
            return
        best: dict[int, tuple[float, float] | None] = {}
        rules, pyramid, touch = self.rules, self.pyramid, self.geometry.touch
        base, upper = rules.base_candidates(pyramid), rules.upper_candidates(pyramid)
        for tile in legal:
            points = margin = stuck = 0
            for colour, count in enumerate(state.market[tile]):
                if not count:
                    continue
                if colour not in best:
                    cells = base + [i for i in upper if any(pyramid[j] == colour for j in touch[i])]  # legal_cells
                    options = [self._place(colour, cell)[:2] for cell in cells]
                    best[colour] = (max(p for p, _ in options), max(m for _, m in options)) if options else None
                if best[colour] is None:
                    stuck += count
                else:
                    points += count * best[colour][0]
                    margin += count * best[colour][1]
            out[0, tile], out[1, tile], out[2, tile] = _points(points), _points(margin), stuck / 3
