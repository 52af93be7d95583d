"""Yaxha action table and pyramid geometry (pure: standard library only).

One ``Discrete(num_actions)`` space per config, shared by every agent and every phase
(rules file section 11: "three micro-actions of (cube colour, cell), plus a per-colour
discard"). With ``N = num_players`` and ``C`` pyramid cells (126 for
``footprint="floating"``, 30 for ``"fixed"``):

=====================  ===============================  =========================================
ids                    meaning                          readable string
=====================  ===============================  =========================================
``[0, N)``             pick market tile ``t = id``      ``"pick tile 2"``
                       (hidden choice, or a pending
                       pick after a clash)
``[N, N + 5C)``        place a cube of colour           ``"place blue L2 (1,0)"``
                       ``c = (id - N) // C`` on cell
                       ``k = (id - N) % C``
``[N + 5C, N + 5C+5)`` discard a cube of colour         ``"discard white"``
                       ``c = id - N - 5C`` (legal only
                       when that colour has no legal
                       cell, section 5)
=====================  ===============================  =========================================

The wait id: in a Parallel step, a seat that does not act (one waiting while a clash's pending
pick is made) sends :data:`WAIT` (id 0, OpenSpiel's simultaneous-move convention: a player
with no decision passes 0); its ``action_mask`` holds only that id, and it changes nothing.
It shares the id of ``pick tile 0``, which such a seat could never play in that step, so the
action space and every id above are those of v0 (and the AEC and Gymnasium views never ask a
waiting seat).

So ``num_actions = N + 5C + 5``: 639 for 4 players with the floating footprint, 157 for 2
players with the fixed one.

Colours (index = the colour's card id among bonus cards 0-4, section 8): 0 orange, 1 blue,
2 green, 3 yellow, 4 white.

Cells (section 5 / decision 11). A cell is ``(x, y, z)``, ``z = 0..3`` the level (``z = 0``
is "level 1", written ``L1``). Level ``z`` is a ``(G - z) x (G - z)`` square, ``G = 7`` for
the floating footprint (a 7 x 7 virtual base grid, the first cube always at ``(3, 3, 0)``,
the base's bounding box kept within 4 x 4) and ``G = 4`` for the fixed 4 x 4 board. Cell
index ``k`` runs level by level, row ``y`` by row, ``x`` fastest: 49 + 36 + 25 + 16 = 126
cells (floating) or 16 + 9 + 4 + 1 = 30 (fixed). The cube at ``(x, y, z >= 1)`` rests on
``(x, y)``, ``(x+1, y)``, ``(x, y+1)``, ``(x+1, y+1)`` at level ``z - 1``.
"""

from __future__ import annotations

from operator import itemgetter

COLOURS = ("orange", "blue", "green", "yellow", "white")
"""Colour names by index (section 3; order = bonus card ids 0-4, section 8)."""
COLOUR_LETTERS = "OBGYW"
WAIT = 0
"""The id an idle seat sends in a Parallel step (see the module docstring)."""
NUM_COLOURS = 5
NUM_LEVELS = 4
FOOTPRINTS = {"floating": 7, "fixed": 4}
"""Grid side ``G`` of the base level for each footprint (decision 11)."""

Move = tuple  # ("pick", int) | ("place", int, (int, int, int)) | ("discard", int)
"""A decoded action: ``("pick", tile)``, ``("place", colour, (x, y, z))`` or ``("discard", colour)``."""


class Geometry:
    """Cells of one footprint and their neighbour tables (section 5 and 6).

    Attributes (all tuples indexed by cell index, built once):
        coords: ``(x, y, z)`` of each cell.
        level: ``z`` of each cell.
        orth: same-level orthogonal neighbours.
        supports: the 4 cells a cell rests on (empty for ``z = 0``).
        covers: the cells at ``z + 1`` resting on it, those that exist in the grid.
        fully_coverable: whether all 4 covering cells exist (else the cell is always visible).
        covering: per cell, an ``operator.itemgetter`` of its 4 covering cells (``None`` where
            not fully coverable): ``min(covering[c](pyramid)) >= 0`` means ``c`` is covered.
        touch: ``orth + supports``, the cells that satisfy the same-colour rule (5 b).
        links: ``orth + covers + supports``, same-colour connectivity for groups (section 6).
        base_cells / upper_cells: indices with ``z = 0`` / ``z >= 1``.
        anchor: the only legal first cube for ``"floating"`` (``(3, 3, 0)``), else ``None``.
        side_rows: per cell, for each of the 4 sides of the pyramid (card 15), the cell's row
            seen from that side and its position along the row (smallest = outermost).

    Raises:
        ValueError: an unknown ``footprint``; the message lists ``"floating"`` and ``"fixed"``.
    """

    def __init__(self, footprint: str = "floating") -> None:
        if footprint not in FOOTPRINTS:
            raise ValueError(f"footprint={footprint!r}; allowed: {sorted(FOOTPRINTS)}")
        side = FOOTPRINTS[footprint]
        self.footprint = footprint
        self.side = side
        coords = [(x, y, z) for z in range(NUM_LEVELS) for y in range(side - z) for x in range(side - z)]
        index = {c: i for i, c in enumerate(coords)}
        self.coords: tuple[tuple[int, int, int], ...] = tuple(coords)
        self.index: dict[tuple[int, int, int], int] = index
        self.num_cells = len(coords)
        self.level = tuple(z for _, _, z in coords)

        def existing(cells):
            return tuple(index[c] for c in cells if c in index)

        self.orth = tuple(existing([(x - 1, y, z), (x + 1, y, z), (x, y - 1, z), (x, y + 1, z)]) for x, y, z in coords)
        self.supports = tuple(
            existing([(x, y, z - 1), (x + 1, y, z - 1), (x, y + 1, z - 1), (x + 1, y + 1, z - 1)]) if z > 0 else ()
            for x, y, z in coords
        )
        self.covers = tuple(
            existing([(x, y, z + 1), (x - 1, y, z + 1), (x, y - 1, z + 1), (x - 1, y - 1, z + 1)]) for x, y, z in coords
        )
        self.fully_coverable = tuple(len(c) == 4 for c in self.covers)
        self.covering = tuple(itemgetter(*c) if len(c) == 4 else None for c in self.covers)
        self.touch = tuple(o + s for o, s in zip(self.orth, self.supports, strict=True))
        self.links = tuple(o + c + s for o, c, s in zip(self.orth, self.covers, self.supports, strict=True))
        self.base_cells = tuple(i for i, z in enumerate(self.level) if z == 0)
        self.upper_cells = tuple(i for i, z in enumerate(self.level) if z > 0)
        self.anchor = index[(3, 3, 0)] if footprint == "floating" else None
        self.side_rows = tuple((((y, z), x), ((y, z), -x), ((x, z), y), ((x, z), -y)) for x, y, z in coords)

    def cell_name(self, cell: int) -> str:
        """``"L<level> (x,y)"`` with the 1-based level of the rules text, e.g. ``"L1 (3,3)"``."""
        x, y, z = self.coords[cell]
        return f"L{z + 1} ({x},{y})"


class ActionTable:
    """Encode, decode and name the action ids of one config (see the module table).

    Args:
        num_players: 2, 3 or 4 (= number of market tiles).
        footprint: ``"floating"`` or ``"fixed"``.
    """

    def __init__(self, num_players: int, footprint: str = "floating") -> None:
        self.num_players = num_players
        self.geometry = Geometry(footprint)
        self.num_cells = self.geometry.num_cells
        self.place_start = num_players
        self.discard_start = num_players + NUM_COLOURS * self.num_cells
        self.num_actions = self.discard_start + NUM_COLOURS

    # -- ids ----------------------------------------------------------------------------
    def pick(self, tile: int) -> int:
        """Id of "pick tile ``tile``"."""
        return tile

    def place(self, colour: int, cell: int) -> int:
        """Id of "place a ``colour`` cube on cell index ``cell``"."""
        return self.place_start + colour * self.num_cells + cell

    def discard(self, colour: int) -> int:
        """Id of "discard a ``colour`` cube"."""
        return self.discard_start + colour

    # -- moves --------------------------------------------------------------------------
    def encode(self, move: Move) -> int:
        """Action id of a decoded move (the inverse of :meth:`decode`).

        Raises:
            ValueError: a malformed move or one outside this config (tile, colour or cell).
        """
        kind = move[0]
        if kind == "pick" and len(move) == 2 and 0 <= move[1] < self.num_players:
            return self.pick(move[1])
        if kind == "discard" and len(move) == 2 and 0 <= move[1] < NUM_COLOURS:
            return self.discard(move[1])
        if kind == "place" and len(move) == 3 and 0 <= move[1] < NUM_COLOURS and move[2] in self.geometry.index:
            return self.place(move[1], self.geometry.index[move[2]])
        raise ValueError(
            f"cannot encode move {move!r}: expected ('pick', tile<{self.num_players}), "
            f"('place', colour<5, (x, y, z)) on a {self.geometry.footprint} cell, or ('discard', colour<5)"
        )

    def decode(self, action: int) -> Move:
        """The move of an id: ``("pick", t)``, ``("place", c, (x, y, z))`` or ``("discard", c)``.

        Raises:
            ValueError: ``action`` outside ``[0, num_actions)``.
        """
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is out of range: allowed ids are 0..{self.num_actions - 1}")
        if action < self.place_start:
            return ("pick", action)
        if action < self.discard_start:
            colour, cell = divmod(action - self.place_start, self.num_cells)
            return ("place", colour, self.geometry.coords[cell])
        return ("discard", action - self.discard_start)

    def to_string(self, action: int) -> str:
        """Readable notation: ``"pick tile 1"``, ``"place green L1 (3,3)"``, ``"discard white"``."""
        move = self.decode(action)
        if move[0] == "pick":
            return f"pick tile {move[1]}"
        if move[0] == "discard":
            return f"discard {COLOURS[move[1]]}"
        x, y, z = move[2]
        return f"place {COLOURS[move[1]]} L{z + 1} ({x},{y})"
