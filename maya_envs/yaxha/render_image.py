"""Picture of a Yaxha state (``render_mode="rgb_array"``), 800 px wide.

From the top: round, phase and who moves; the three bonus cards; the bag; the market tiles
with their three cubes and the seat that took each; then one panel per seat (initiative,
tile choice, cubes in hand, discards) with its pyramid level by level, each cube in its
colour: ``L1`` the base window, the part of the base grid where cubes may still go (the
rules' ``base_window``: up to 7 x 7 cells for the floating footprint while the base is small,
4 x 4 once it spans 4, always 4 x 4 for the fixed board), then each level above it one cell
narrower. Columns and rows are labelled with the notation's ``x``/``y`` (``place blue L2
(1,0)``). A legend under the panels names the signs.

With an ``observer`` seat only what that seat may know is drawn, as in the text view: other
seats' tile choices while choosing, their cubes in hand and discards, and the cubes they
placed this round (those cells are drawn empty) are left out. ``observer=None`` shows
everything.

The layout is drawn once on a :class:`~maya_envs.drawing.Canvas` (:func:`draw`) and made a
PNG frame (:func:`render_image`, Pillow) or SVG text (:func:`render_svg`) from the same shapes.
:func:`action_targets` names the picture's elements an action concerns (a pick: its market
tile; a placement: the cube colour in the mover's hand and the cell; a discard: the colour),
so a page can take a move by clicks.
"""

from __future__ import annotations

import numpy as np

from maya_envs.drawing import MUTED, SEAT_COLOURS, SPECTATOR_VIEW, WIDTH, Canvas, SvgPicture, text_colour
from maya_envs.yaxha.actions import COLOUR_LETTERS, COLOURS, NUM_COLOURS, NUM_LEVELS
from maya_envs.yaxha.render import choice_label, hand_text
from maya_envs.yaxha.rules import BUILD, PENDING, PHASES, YaxhaRules, YaxhaState
from maya_envs.yaxha.scoring import BONUS_CARDS

#: Cube colours in the order of :data:`~maya_envs.yaxha.actions.COLOURS` (orange, blue, green, yellow, white).
CUBE_COLOURS = ((240, 140, 40), (50, 100, 210), (60, 160, 70), (240, 210, 50), (252, 252, 252))
MARGIN, CUBE, PANEL_W, PANEL_H = 20, 24, 370, 180


def render_image(rules: YaxhaRules, state: YaxhaState, observer: int | None = None) -> np.ndarray:
    """``(H, 800, 3)`` uint8 picture of ``state`` as ``observer`` (``None``: everything) may see it."""
    return draw(rules, state, observer).array()


def render_svg(rules: YaxhaRules, state: YaxhaState, observer: int | None = None) -> SvgPicture:
    """The same picture as SVG text."""
    return draw(rules, state, observer).svg()


def draw(rules: YaxhaRules, state: YaxhaState, observer: int | None = None) -> Canvas:
    """The picture's shapes (see the module docstring)."""
    n = rules.num_players
    panels_y = 190
    canvas = Canvas(panels_y + ((n + 1) // 2) * (PANEL_H + 12) + 8)
    _header(canvas, rules, state, observer)
    _market(canvas, state, 118)
    for seat in range(n):
        row, col = divmod(seat, 2)
        x, y = MARGIN + col * (PANEL_W + 20), panels_y + row * (PANEL_H + 12)
        _seat_panel(canvas, rules, state, seat, observer, x, y)
    canvas.legend(LEGEND)
    return canvas


def _cube(canvas: Canvas, x: float, y: float, colour: int, size: int = CUBE, key: str | None = None) -> None:
    fill = CUBE_COLOURS[colour]
    canvas.box((x, y, x + size - 2, y + size - 2), fill=fill, radius=3, key=key)
    canvas.text(
        (x + size / 2 - 1, y + size / 2 - 1),
        COLOUR_LETTERS[colour],
        size=min(11, size - 5),
        fill=text_colour(fill),
        anchor="mm",
    )


def _header(canvas: Canvas, rules, state, observer) -> None:
    round_text = f"{state.round + 1}/10" if state.round < 10 else "over"
    mover = f"player_{rules.current_player(state)}" if state.phase <= BUILD else "-"
    view = SPECTATOR_VIEW if observer is None else f"player_{observer}"
    canvas.text((MARGIN, 10), "Yaxha", size=22)
    canvas.text((WIDTH - MARGIN, 14), f"view: {view}", size=14, fill=MUTED, anchor="ra")
    status = f"round {round_text}   phase {PHASES[state.phase]}   to move {mover}"
    if state.phase == PENDING:
        status += "   pending picks: " + ", ".join(f"player_{s}" for s in state.pending)
    canvas.text((MARGIN + 90, 16), status, size=14)
    for i, card in enumerate(state.bonus_cards):
        x = MARGIN + i * 254
        canvas.box((x, 42, x + 246, 78), fill=(255, 250, 236), radius=5)
        lines = canvas.wrap(f"bonus {card}: {BONUS_CARDS[card]}", 11, 230)[:2]
        for i, line in enumerate(lines):
            canvas.text((x + 8, 60 + (i - (len(lines) - 1) / 2) * 14), line, size=11, anchor="lm")
    x = MARGIN
    canvas.text((x, 92), "bag", size=13, fill=MUTED)
    for colour, count in enumerate(state.bag):
        _cube(canvas, x + 34 + colour * 62, 86, colour)
        canvas.text((x + 60 + colour * 62, 97), str(count), size=13, anchor="lm")


def _market(canvas: Canvas, state, y: int) -> None:
    canvas.text((MARGIN, y + 20), "market", size=13, fill=MUTED)
    step = min(176, (WIDTH - MARGIN - 60) // max(1, len(state.market)))
    for tile, counts in enumerate(state.market):
        x = MARGIN + 60 + tile * step
        owner = state.owner[tile]
        outline = SEAT_COLOURS[owner] if owner >= 0 else (180, 170, 150)
        canvas.box(
            (x, y, x + step - 10, y + 58), fill=(232, 224, 205), outline=outline, width=3, radius=6, key=f"tile:{tile}"
        )
        canvas.text((x + 8, y + 6), f"tile {tile}", size=12)
        cubes = [c for c, k in enumerate(counts) for _ in range(k)]
        for i, colour in enumerate(cubes):
            _cube(canvas, x + 8 + i * 26, y + 26, colour)
        if owner >= 0:
            canvas.text((x + step - 18, y + 38), f"player_{owner}", size=11, fill=MUTED, anchor="rm")


def _seat_panel(canvas: Canvas, rules, state, seat: int, observer, x: int, y: int) -> None:
    hidden = observer is not None and seat != observer
    canvas.box((x, y, x + PANEL_W, y + PANEL_H), fill=(236, 229, 212), outline=SEAT_COLOURS[seat], width=3, radius=8)
    canvas.text((x + 10, y + 8), f"player_{seat}", size=15, fill=SEAT_COLOURS[seat])
    choice_text = choice_label(state, seat, hidden, "hidden")
    building = state.phase == BUILD
    discarded = "?" if hidden and building else str(state.discarded[seat])
    canvas.text(
        (x + 90, y + 10), f"initiative {state.initiative[seat]}  choice {choice_text}  discarded {discarded}", size=12
    )
    canvas.text((x + 10, y + 34), "hand", size=12, fill=MUTED)
    if hidden and building:
        canvas.text((x + 50, y + 34), hand_text(state, seat, hidden), size=12, fill=MUTED)
    else:
        cubes = [c for c, k in enumerate(state.hands[seat]) for _ in range(k)]
        for i, colour in enumerate(cubes):
            _cube(canvas, x + 50 + i * 20, y + 30, colour, size=20, key=f"hand:{seat}:{colour}")
    pyramid = list(state.pyramids[seat])
    if hidden and building:
        for cell in state.fresh[seat]:
            pyramid[cell] = -1
    _pyramid(canvas, rules, tuple(pyramid), seat, x + 10, y + 56)


def _window(rules, pyramid) -> tuple[int, int, int, int]:
    """``(x0, x1, y0, y1)`` of the base cells drawn: the rules' base window within the grid."""
    side = rules.geometry.side
    window = rules.base_window(pyramid)
    if window is None:  # empty base: the whole grid (floating: the first cube goes to (3, 3))
        return 0, side - 1, 0, side - 1
    lo_x, hi_x, lo_y, hi_y = window
    return max(lo_x, 0), min(hi_x, side - 1), max(lo_y, 0), min(hi_y, side - 1)


def _pyramid(canvas: Canvas, rules, pyramid, seat: int, x: int, y: int) -> None:
    """The levels side by side over the base window, columns ``x`` and rows ``y`` labelled."""
    g = rules.geometry
    x0, x1, y0, y1 = _window(rules, pyramid)
    wide, tall = x1 - x0 + 1, y1 - y0 + 1
    columns = sum(max(wide - z, 0) for z in range(NUM_LEVELS))
    cube = min(CUBE, (PANEL_W - 36 - 3 * 12) // columns, (PANEL_H - 56 - 30) // tall)
    top = y + 26
    for dy in range(tall):
        canvas.text((x + 4, top + dy * cube + cube / 2 - 1), str(y0 + dy), size=9, fill=MUTED, anchor="mm")
    left = x + 12
    for z in range(NUM_LEVELS):
        canvas.text((left, y), f"L{z + 1}", size=11, fill=MUTED)
        for dx in range(wide - z):
            canvas.text((left + dx * cube + cube / 2 - 1, y + 18), str(x0 + dx), size=9, fill=MUTED, anchor="mm")
        for dy in range(tall - z):
            for dx in range(wide - z):
                cell = g.index.get((x0 + dx, y0 + dy, z))
                cx, cy = left + dx * cube, top + dy * cube
                key = None if cell is None else f"cell:{seat}:{cell}"
                if cell is not None and pyramid[cell] >= 0:
                    _cube(canvas, cx, cy, pyramid[cell], size=cube, key=key)
                else:
                    canvas.box((cx, cy, cx + cube - 2, cy + cube - 2), fill=None, outline=(190, 180, 160), key=key)
        left += max(wide - z, 1) * cube + 12


LEGEND = tuple(
    (lambda c, x, y, colour=colour: _cube(c, x, y - 2, colour, size=20), name) for colour, name in enumerate(COLOURS)
) + (
    (
        lambda c, x, y: c.box((x, y - 2, x + 18, y + 16), fill=None, outline=(190, 180, 160)),
        "empty cell (another seat's cubes of this round look empty too)",
    ),
    (
        lambda c, x, y: c.box((x, y - 2, x + 18, y + 16), fill=(232, 224, 205), outline=SEAT_COLOURS[1], width=3),
        "market tile taken (outline: the taker's colour)",
    ),
    (None, "L1-L4: pyramid levels; x across, y down"),
)


def action_targets(rules: YaxhaRules, state: YaxhaState, action: int) -> tuple[str, ...]:
    """The keys of the picture's shapes that ``action`` concerns (see the module docstring);
    ``()`` for an action with no element."""
    table, seat = rules.table, rules.current_player(state)
    if action < table.place_start:
        return (f"tile:{action}",)
    if action < table.discard_start:
        colour, cell = divmod(action - table.place_start, table.num_cells)
        return (f"hand:{seat}:{colour}", f"cell:{seat}:{cell}")
    if action < table.discard_start + NUM_COLOURS:
        return (f"hand:{seat}:{action - table.discard_start}",)
    return ()
