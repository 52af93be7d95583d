"""Picture of a Maya (2012) state (``render_mode="rgb_array"``), 800 px wide.

The 3x3 board: each tower as five coloured blocks (level 1 at the bottom, the colour number
on the block; a dashed slot for a block not placed yet in the drafted setup); the Monolith as
a dark slab between its two towers; two players: the Raven as a black triangle beside its
level on every tower, the ladder spaces to the right of each tower (white/black ladders,
empty frames for free spaces) and a priest disc on a tower's top. Three and four players: a
row of task cards below the board: the face-up centre card, the observer's own cards face
up and every other card face down; ``observer=None`` turns every card face up (the
spectator's view). A legend under the board names the signs.

The layout is drawn once on a :class:`~maya_envs.drawing.Canvas` (:func:`draw`) and made a
PNG frame (:func:`render_image`, Pillow) or SVG text (:func:`render_svg`) from the same shapes.
:func:`action_targets` names the board elements (the ``key`` of their shapes) an action
concerns, so a page can take a move by clicks: an exchange its two blocks, the Monolith its
two towers (cell or blocks), the Raven every block of its level, a drafted block its tower.
"""

from __future__ import annotations

import numpy as np

from maya_envs.drawing import INK, MUTED, SPECTATOR_VIEW, Canvas, SvgPicture, card_back_swatch, text_colour
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import CENTRE, EMPTY, NO_PRIEST, PHASE_NAMES

#: One colour per block colour 0-8 (the number is printed on the block as well).
BLOCK_COLOURS = (
    (220, 60, 50),
    (245, 150, 40),
    (240, 215, 60),
    (90, 170, 70),
    (40, 140, 140),
    (60, 100, 200),
    (140, 80, 180),
    (230, 120, 170),
    (150, 105, 70),
)
PIECE_COLOURS = ((255, 255, 255), (30, 30, 30))  # White, Black
CELL_W, CELL_H, GAP = 230, 235, 30
BOARD_X, BOARD_Y = 25, 70
BLOCK_W, BLOCK_H = 84, 32


def _cell_origin(tower: int) -> tuple[int, int]:
    row, col = divmod(tower, 3)
    return BOARD_X + col * (CELL_W + GAP), BOARD_Y + row * (CELL_H + GAP)


def render_image(rules, state, observer: int | None = None) -> np.ndarray:
    """``(H, 800, 3)`` uint8 picture of ``state`` as ``observer`` (a seat, or ``None``) may see it."""
    return draw(rules, state, observer).array()


def render_svg(rules, state, observer: int | None = None) -> SvgPicture:
    """The same picture as SVG text."""
    return draw(rules, state, observer).svg()


def draw(rules, state, observer: int | None = None) -> Canvas:
    """The picture's shapes (see the module docstring); the ladder spaces come from ``rules.config``."""
    ladder_spaces = rules.config.ladder_spaces
    two = state.num_players == 2
    board_bottom = BOARD_Y + 3 * CELL_H + 2 * GAP
    canvas = Canvas(board_bottom + (40 if two else 130))
    _header(canvas, state, observer)
    for tower in range(A.NUM_TOWERS):
        _tower(canvas, state, tower, ladder_spaces[tower] if two else 0)
    if state.monolith >= 0:
        _monolith(canvas, *A.PAIRS[state.monolith])
    if two:
        _pieces_left(canvas, state, board_bottom + 10)
    elif state.tasks:
        _task_cards(canvas, state, observer, board_bottom + 10)
    # 3-4p name the face-down card before the draft has dealt any: one frame size a game (GIFs)
    canvas.legend(_legend(two))
    return canvas


def _header(canvas: Canvas, state, observer) -> None:
    view = SPECTATOR_VIEW if observer is None else f"player_{observer}"
    canvas.text((BOARD_X, 12), "Maya (2012)", size=22)
    canvas.text((760, 16), f"view: {view}", size=14, fill=MUTED, anchor="ra")
    mover = f"player_{state.to_move}" + (f" ({'WB'[state.to_move]})" if state.num_players == 2 else "")
    status = f"phase {PHASE_NAMES[state.phase]}   exchanges {state.turn}   to move {mover}"
    if state.num_players == 2:
        status += f"   Raven {'L' + str(state.raven) if state.raven else 'not set'}"
    if state.draft_block >= 0:
        status += f"   block to place: colour {state.draft_block}"
    canvas.text((BOARD_X, 42), status, size=15)


def _tower(canvas: Canvas, state, tower: int, spaces: int) -> None:
    x, y = _cell_origin(tower)
    canvas.box(
        (x, y, x + CELL_W, y + CELL_H), fill=(232, 224, 205), outline=(200, 190, 170), radius=8, key=f"tower:{tower}"
    )
    canvas.text((x + 8, y + 6), f"t{tower}", size=16)
    bx, bottom = x + (40 if spaces else (CELL_W - BLOCK_W) // 2), y + CELL_H - 25
    for level in range(A.NUM_LEVELS):
        top = bottom - (level + 1) * BLOCK_H
        colour = state.towers[tower][level]
        key = f"block:{tower}:{level + 1}"
        if colour == EMPTY:
            canvas.box((bx, top, bx + BLOCK_W, top + BLOCK_H), fill=None, outline=MUTED, key=key)
        else:
            fill = BLOCK_COLOURS[colour]
            canvas.box((bx, top, bx + BLOCK_W, top + BLOCK_H), fill=fill, outline=INK, width=2, key=key)
            canvas.text(
                (bx + BLOCK_W / 2, top + BLOCK_H / 2), str(colour), size=16, fill=text_colour(fill), anchor="mm"
            )
        canvas.text((bx - 6, top + BLOCK_H / 2), f"L{level + 1}", size=11, fill=MUTED, anchor="rm")
        if state.raven == level + 1:
            _raven(canvas, bx - 32, top + 6)
    if state.priests[tower] != NO_PRIEST:
        cx, cy = bx + BLOCK_W / 2, bottom - 5 * BLOCK_H - 14
        canvas.ellipse((cx - 12, cy - 12, cx + 12, cy + 12), fill=PIECE_COLOURS[state.priests[tower]], outline=INK)
        canvas.text((cx + 16, cy), "priest", size=11, fill=MUTED, anchor="lm")
    if spaces:
        _ladders(canvas, state, tower, spaces, bx + BLOCK_W + 16, bottom)


def _ladders(canvas: Canvas, state, tower: int, spaces: int, x: int, bottom: int) -> None:
    owners = [0] * state.ladders[0][tower] + [1] * state.ladders[1][tower]
    canvas.text((x, bottom - spaces * 30 - 16), "ladders", size=11, fill=MUTED)
    for slot in range(spaces):
        top = bottom - (slot + 1) * 30 + 4
        box = (x, top, x + 40, top + 22)
        if slot < len(owners):
            _ladder(canvas, box, owners[slot])
        else:
            canvas.box(box, fill=None, outline=MUTED)


def _monolith(canvas: Canvas, a: int, b: int) -> None:
    ax, ay = _cell_origin(a)
    if b == a + 1:  # side by side: a slab in the vertical gap
        x = ax + CELL_W + GAP / 2
        box = (x - 9, ay + 40, x + 9, ay + CELL_H - 20)
    else:  # one above the other: a slab in the horizontal gap
        y = ay + CELL_H + GAP / 2
        box = (ax + 30, y - 9, ax + CELL_W - 30, y + 9)
    canvas.box(box, fill=(70, 70, 78), outline=INK, width=2, radius=4)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    canvas.text((cx, cy), "M", size=13, fill=(255, 255, 255), anchor="mm")


def _pieces_left(canvas: Canvas, state, y: int) -> None:
    text = "   ".join(
        f"{name}: {state.ladders_left[s]} ladders, {state.priests_left[s]} priests left"
        for s, name in enumerate(("White player_0", "Black player_1"))
    )
    canvas.text((BOARD_X, y + 4), text, size=15)


def _task_cards(canvas: Canvas, state, observer: int | None, y: int) -> None:
    """Task cards: centre face up, own (or all, for a spectator) face up, the rest face down."""
    canvas.text((BOARD_X, y), "task cards", size=15)
    x = BOARD_X
    centre = state.towers[CENTRE][0]
    groups = [("centre", [centre], True)]
    groups += [
        (f"player_{s}", list(state.tasks[s]), observer is None or observer == s) for s in range(len(state.tasks))
    ]
    if state.spare:
        groups.append(("face down", list(state.spare), observer is None))
    for label, cards, face_up in groups:
        canvas.text((x, y + 24), label, size=13, fill=MUTED)
        for i, colour in enumerate(cards):
            box = (x + i * 46, y + 44, x + i * 46 + 40, y + 100)
            canvas.card(box, str(colour) if face_up else None, BLOCK_COLOURS[colour] if face_up else None)
        x += max(2, len(cards)) * 46 + 24


def _raven(canvas: Canvas, x: float, y: float) -> None:
    """The Raven's sign: a black triangle pointing at its level (20 px tall from ``y``)."""
    canvas.polygon([(x + 6, y), (x + 6, y + 20), (x, y + 10)], fill=INK)


def _ladder(canvas: Canvas, box, owner: int) -> None:
    x0, top, x1, bottom = box
    canvas.box(box, fill=PIECE_COLOURS[owner], outline=INK, width=2)
    step = (bottom - top) / 4
    for rung in (top + step, top + 2 * step, top + 3 * step):
        canvas.line((x0 + 7, rung, x1 - 7, rung), fill=PIECE_COLOURS[1 - owner], width=1)


def _legend(two: bool) -> list:
    """The legend's items: 2p the Raven, ladders and priests; 3-4p the face-down task card."""
    items = [
        (lambda c, x, y: c.box((x, y, x + 18, y + 16), fill=BLOCK_COLOURS[2], outline=INK, width=2), "block (colour)"),
        (lambda c, x, y: c.box((x, y, x + 18, y + 16), fill=None, outline=MUTED), "slot not built yet"),
        (
            lambda c, x, y: c.box((x, y, x + 12, y + 18), fill=(70, 70, 78), outline=INK, width=2, radius=3),
            "M Monolith (its two towers may not exchange)",
        ),
    ]
    if two:
        items += [
            (lambda c, x, y: _raven(c, x + 6, y - 1), "Raven (no exchange from its level)"),
            (lambda c, x, y: _ladder(c, (x - 4, y - 2, x + 20, y + 18), 0), "ladder of White (player_0)"),
            (lambda c, x, y: _ladder(c, (x - 4, y - 2, x + 20, y + 18), 1), "ladder of Black (player_1)"),
            (lambda c, x, y: c.ellipse((x, y, x + 16, y + 16), fill=PIECE_COLOURS[0], outline=INK), "priest"),
        ]
    else:
        items.append((card_back_swatch, "task card face down (hidden)"))
    return items


def action_targets(rules, state, action: int) -> tuple[str, ...]:
    """The keys of the picture's shapes that ``action`` concerns (see the module docstring);
    ``()`` for the moves with no board element (declare the end, continue)."""
    move = A.decode(action)
    if move.kind == "exchange":
        a, b = A.PAIRS[move.pair]
        return (f"block:{a}:{move.level}", f"block:{b}:{move.level}")
    if move.kind == "monolith":
        return tuple(key for tower in A.PAIRS[move.pair] for key in _tower_keys(tower))
    if move.kind == "raven":
        return tuple(f"block:{t}:{move.level}" for t in range(A.NUM_TOWERS))
    if move.kind == "draft":
        return _tower_keys(move.tower)
    return ()


def _tower_keys(tower: int) -> tuple[str, ...]:
    """A tower's cell and its five blocks: a click anywhere on the tower."""
    return (f"tower:{tower}",) + tuple(f"block:{tower}:{k}" for k in range(1, A.NUM_LEVELS + 1))
