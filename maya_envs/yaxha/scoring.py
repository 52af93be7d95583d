"""Yaxha end-of-game scoring (pure): visibility, groups, colour points, the 18 bonus cards.

Rules file sections 6-8 and decision 11:

* A cube is **hidden** iff all four cells resting on it at the next level are occupied
  (section 6); a full pyramid hides exactly 5 cubes. Hidden cubes are removed before
  grouping, so they never bridge two groups.
* **Groups**: visible same-colour cubes joined through same-level orthogonal neighbours, the
  cubes resting on them and the cubes they rest on (groups span levels).
* **Colour points**: the largest visible group of each colour through :data:`GROUP_POINTS`
  (1..12+ -> 1, 2, 4, 6, 9, 12, 15, 18, 21, 25, 30, 36).
* **Bonus cards** (5 points each, :data:`BONUS_CARDS`): competitive cards (0-4, 10-13) go
  to every player with the best value; with ``zero_ties_score=False`` (default, PROPOSAL)
  the best value must be at least 1, with ``True`` a 0 = 0 tie scores as on BGA. Pairwise
  cards 5-9 compare each seat with its right-hand neighbour ``(seat + 1) % n`` with ``>=``
  (ties score, also at 0: the option concerns competitive cards only, as decision 11
  says). Threshold cards 14-17 go to everyone who meets them. All cards read visible cubes
  only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from maya_envs.yaxha.actions import COLOURS, NUM_COLOURS, NUM_LEVELS, Geometry

GROUP_POINTS = (0, 1, 2, 4, 6, 9, 12, 15, 18, 21, 25, 30, 36)
"""Reference card (section 7): points of a largest group of size ``n`` (``n >= 12`` -> 36)."""
BONUS_POINTS = 5
BONUS_CARDS = (
    "largest orange group",
    "largest blue group",
    "largest green group",
    "largest yellow group",
    "largest white group",
    "orange group >= right neighbour's",
    "blue group >= right neighbour's",
    "green group >= right neighbour's",
    "yellow group >= right neighbour's",
    "white group >= right neighbour's",
    "largest group of any colour",
    "largest group on level 1",
    "group spanning the most levels",
    "second-largest group",
    "all 5 colours visible on level 1",
    "one side of the pyramid in a single colour",
    "exactly 3 colours visible",
    "all 5 colours visible on level 2",
)
"""Bonus card names by id (section 8)."""
NUM_BONUS_CARDS = len(BONUS_CARDS)
FIRST_GAME_CARDS = (0, 1, 2, 3, 4, 10, 11, 12)
"""The cards marked with a triangle (BGA's first-game set, section 8)."""
PAIRWISE_CARDS = (5, 6, 7, 8, 9)
"""Excluded from random draws with 2 players (section 9)."""


def group_points(size: int) -> int:
    """Reference-card points of a group of ``size`` cubes (section 7)."""
    return GROUP_POINTS[min(size, 12)]


def visible_cells(geometry: Geometry, pyramid: tuple[int, ...]) -> list[bool]:
    """Per cell: occupied and not fully covered from above (section 6). Length ``num_cells``."""
    covering = geometry.covering
    out = [False] * len(pyramid)
    for cell in [cell for cell, colour in enumerate(pyramid) if colour >= 0]:
        above = covering[cell]
        out[cell] = above is None or min(above(pyramid)) < 0
    return out


@dataclass(frozen=True)
class Group:
    """One visible connected single-colour group: its colour, cells (sorted indices), and
    how many of them are on level 1 and how many distinct levels it touches."""

    colour: int
    cells: tuple[int, ...]
    level1: int
    levels: int

    @property
    def size(self) -> int:
        return len(self.cells)


def find_groups(geometry: Geometry, pyramid: tuple[int, ...], visible: list[bool] | None = None) -> list[Group]:
    """All visible groups of ``pyramid`` (section 6), in order of their lowest cell index
    (``visible``: :func:`visible_cells` of ``pyramid`` when the caller has it)."""
    vis = visible_cells(geometry, pyramid) if visible is None else visible
    links, level = geometry.links, geometry.level
    unseen = {cell for cell, v in enumerate(vis) if v}  # visible cells not grouped yet
    groups = []
    for start in sorted(unseen):
        if start not in unseen:
            continue
        unseen.discard(start)
        colour = pyramid[start]
        stack, cells = [start], []
        while stack:
            cell = stack.pop()
            cells.append(cell)
            for nb in links[cell]:
                if nb in unseen and pyramid[nb] == colour:
                    unseen.discard(nb)
                    stack.append(nb)
        cells.sort()
        levels = [level[c] for c in cells]
        groups.append(Group(colour, tuple(cells), levels.count(0), len(set(levels))))
    return groups


@dataclass(frozen=True)
class PyramidStats:
    """What the bonus cards read from one pyramid (visible cubes only).

    Attributes:
        largest: size of the largest visible group per colour, shape (5,).
        groups: every visible group.
        colours_by_level: visible colours on each level (4 frozensets).
        single_colour_side: card 15 (see :func:`single_colour_side`); ``None`` where not
            computed (``pyramid_stats(..., side=False)``).
    """

    largest: tuple[int, ...]
    groups: tuple[Group, ...]
    colours_by_level: tuple[frozenset, ...]
    single_colour_side: bool | None

    @property
    def colours(self) -> frozenset:
        return frozenset().union(*self.colours_by_level)


def single_colour_side(geometry: Geometry, pyramid: tuple[int, ...], visible: list[bool]) -> bool:
    """Card 15 (section 8, BGA): for one of the four sides, the outermost visible cube of every
    row on every level has the same colour. An empty pyramid has no such side."""
    sides: list[dict[tuple[int, int], tuple[int, int]]] = [{}, {}, {}, {}]
    side_rows = geometry.side_rows
    for cell, colour in enumerate(pyramid):
        if not visible[cell]:
            continue
        # (row key, position along the row): the outermost cube has the smallest position.
        for rows, (key, pos) in zip(sides, side_rows[cell], strict=True):
            best = rows.get(key)
            if best is None or pos < best[0]:
                rows[key] = (pos, colour)
    return any(rows and len({colour for _, colour in rows.values()}) == 1 for rows in sides)


def pyramid_stats(geometry: Geometry, pyramid: tuple[int, ...], side: bool = True) -> PyramidStats:
    """Visible groups and colour facts of one pyramid (``side=False``: card 15 is not needed,
    ``single_colour_side`` is left ``None`` instead of computed)."""
    vis = visible_cells(geometry, pyramid)
    groups = find_groups(geometry, pyramid, vis)
    largest = [0] * NUM_COLOURS
    for g in groups:
        largest[g.colour] = max(largest[g.colour], g.size)
    by_level: list[set[int]] = [set() for _ in range(NUM_LEVELS)]
    level = geometry.level
    for g in groups:
        for cell in g.cells:
            by_level[level[cell]].add(g.colour)
    return PyramidStats(
        tuple(largest),
        tuple(groups),
        tuple(frozenset(s) for s in by_level),
        single_colour_side(geometry, pyramid, vis) if side else None,
    )


def _competitive(values: list[int], zero_ties_score: bool) -> list[bool]:
    best = max(values)
    if best <= 0 and not zero_ties_score:
        return [False] * len(values)
    return [v == best for v in values]


def bonus_card_winners(card: int, stats: list[PyramidStats], zero_ties_score: bool = False) -> list[bool]:
    """Which seats score ``card`` (section 8), given every seat's :class:`PyramidStats`.

    Raises:
        ValueError: ``card`` outside ``0..17``.
    """
    n = len(stats)
    if 0 <= card <= 4:
        return _competitive([s.largest[card] for s in stats], zero_ties_score)
    if 5 <= card <= 9:
        c = card - 5
        return [stats[i].largest[c] >= stats[(i + 1) % n].largest[c] for i in range(n)]
    if card == 10:
        return _competitive([max(s.largest) for s in stats], zero_ties_score)
    if card == 11:
        return _competitive([max((g.level1 for g in s.groups), default=0) for s in stats], zero_ties_score)
    if card == 12:
        return _competitive([max((g.levels for g in s.groups), default=0) for s in stats], zero_ties_score)
    if card == 13:
        sizes = sorted({g.size for s in stats for g in s.groups}, reverse=True)
        if len(sizes) < 2:
            return [False] * n
        return [any(g.size == sizes[1] for g in s.groups) for s in stats]
    if card == 14:
        return [len(s.colours_by_level[0]) == NUM_COLOURS for s in stats]
    if card == 15:
        return [s.single_colour_side for s in stats]
    if card == 16:
        return [len(s.colours) == 3 for s in stats]
    if card == 17:
        return [len(s.colours_by_level[1]) == NUM_COLOURS for s in stats]
    raise ValueError(f"bonus card {card!r} does not exist; allowed ids: 0..{NUM_BONUS_CARDS - 1}")


def score_pyramids(
    geometry: Geometry,
    pyramids: tuple[tuple[int, ...], ...],
    bonus_cards: tuple[int, ...],
    zero_ties_score: bool = False,
) -> list[dict[str, Any]]:
    """Score every seat (sections 7-8).

    Returns:
        One JSON-able dict per seat: ``"total"`` (int), ``"colour_points"`` and
        ``"largest_group"`` (colour name -> int), ``"bonus"`` (card id as str -> 0 or 5).
    """
    side = 15 in bonus_cards
    stats = [pyramid_stats(geometry, p, side) for p in pyramids]
    winners = {card: bonus_card_winners(card, stats, zero_ties_score) for card in bonus_cards}
    out = []
    for seat, s in enumerate(stats):
        colour_points = {COLOURS[c]: group_points(s.largest[c]) for c in range(NUM_COLOURS)}
        bonus = {str(card): BONUS_POINTS * winners[card][seat] for card in bonus_cards}
        out.append(
            {
                "total": sum(colour_points.values()) + sum(bonus.values()),
                "colour_points": colour_points,
                "largest_group": {COLOURS[c]: s.largest[c] for c in range(NUM_COLOURS)},
                "bonus": bonus,
            }
        )
    return out
