"""Picture of a Yaxha state (``render_mode="rgb_array"``), 800 px wide.

From the top: round, phase and who moves; the three bonus cards; the bag; the market tiles
with their three cubes and the seat that took each; then one panel per seat (initiative,
tile choice, cubes in hand, discards) with its pyramid level by level: ``L1`` the 4 x 4
base window, then 3 x 3, 2 x 2 and the top cube, each cube in its colour.

With an ``observer`` seat only what that seat may know is drawn, as in the text view: other
seats' tile choices while choosing, their cubes in hand and discards, and the cubes they
placed this round (those cells are drawn empty) are left out. ``observer=None`` shows
everything. Pillow is imported only when a picture is drawn.
"""

from __future__ import annotations

import numpy as np

from maya_envs.drawing import MUTED, SEAT_COLOURS, WIDTH, Canvas, text_colour
from maya_envs.yaxha.actions import COLOUR_LETTERS, NUM_LEVELS
from maya_envs.yaxha.rules import BUILD, PENDING, PHASES, SELECT, YaxhaRules, YaxhaState
from maya_envs.yaxha.scoring import BONUS_CARDS

#: Cube colours in the order of :data:`~maya_envs.yaxha.actions.COLOURS` (orange, blue, green, yellow, white).
CUBE_COLOURS = ((240, 140, 40), (50, 100, 210), (60, 160, 70), (240, 210, 50), (252, 252, 252))
MARGIN, CUBE, PANEL_W, PANEL_H = 20, 24, 370, 180


def render_image(rules: YaxhaRules, state: YaxhaState, observer: int | None = None) -> np.ndarray:
    """``(H, 800, 3)`` uint8 picture of ``state`` as ``observer`` (``None``: everything) may see it."""
    n = rules.num_players
    panels_y = 190
    canvas = Canvas(panels_y + ((n + 1) // 2) * (PANEL_H + 12) + 8)
    _header(canvas, rules, state, observer)
    _market(canvas, state, 118)
    for seat in range(n):
        row, col = divmod(seat, 2)
        x, y = MARGIN + col * (PANEL_W + 20), panels_y + row * (PANEL_H + 12)
        _seat_panel(canvas, rules, state, seat, observer, x, y)
    return canvas.array()


def _cube(canvas: Canvas, x: float, y: float, colour: int, size: int = CUBE) -> None:
    fill = CUBE_COLOURS[colour]
    canvas.box((x, y, x + size - 2, y + size - 2), fill=fill, radius=3)
    canvas.text(
        (x + size / 2 - 1, y + size / 2 - 1), COLOUR_LETTERS[colour], size=11, fill=text_colour(fill), anchor="mm"
    )


def _header(canvas: Canvas, rules, state, observer) -> None:
    round_text = f"{state.round + 1}/10" if state.round < 10 else "over"
    mover = f"player_{rules.current_player(state)}" if state.phase <= BUILD else "-"
    view = "all (omniscient)" if observer is None else f"player_{observer}"
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
        canvas.box((x, y, x + step - 10, y + 58), fill=(232, 224, 205), outline=outline, width=3, radius=6)
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
    choice = state.choices[seat]
    if choice < 0:
        choice_text = "-"
    elif hidden and state.phase == SELECT:
        choice_text = "hidden"
    else:
        choice_text = f"tile {choice}"
    discarded = "?" if hidden else str(state.discarded[seat])
    canvas.text(
        (x + 90, y + 10), f"initiative {state.initiative[seat]}  choice {choice_text}  discarded {discarded}", size=12
    )
    canvas.text((x + 10, y + 34), "hand", size=12, fill=MUTED)
    if hidden:
        canvas.text((x + 50, y + 34), "(not shown)", size=12, fill=MUTED)
    else:
        cubes = [c for c, k in enumerate(state.hands[seat]) for _ in range(k)]
        for i, colour in enumerate(cubes):
            _cube(canvas, x + 50 + i * 20, y + 30, colour, size=20)
    pyramid = list(state.pyramids[seat])
    if hidden:
        for cell in state.fresh[seat]:
            pyramid[cell] = -1
    _pyramid(canvas, rules, pyramid, x + 10, y + 58)


def _pyramid(canvas: Canvas, rules, pyramid, x: int, y: int) -> None:
    """The levels side by side, cropped to the 4 x 4 window of the base (as the text view)."""
    g = rules.geometry
    base = [g.coords[i] for i in g.base_cells if pyramid[i] >= 0]
    x0 = min(min((cx for cx, _, _ in base), default=0), g.side - 4)
    y0 = min(min((cy for _, cy, _ in base), default=0), g.side - 4)
    left = x
    for z in range(NUM_LEVELS):
        canvas.text((left, y), f"L{z + 1}", size=11, fill=MUTED)
        for dy in range(4 - z):
            for dx in range(4 - z):
                cell = g.index.get((x0 + dx, y0 + dy, z))
                cx, cy = left + dx * CUBE, y + 16 + dy * CUBE
                if cell is not None and pyramid[cell] >= 0:
                    _cube(canvas, cx, cy, pyramid[cell])
                else:
                    canvas.box((cx, cy, cx + CUBE - 2, cy + CUBE - 2), fill=None, outline=(190, 180, 160))
        left += (4 - z) * CUBE + 14
