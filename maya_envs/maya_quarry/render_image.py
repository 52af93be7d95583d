"""Picture of a Maya (Abacusspiele 2003) state (``render_mode="rgb_array"``), 800 px wide.

From the top: the round, phase and whose decision it is; one row per seat in the seat's
colour (gold, held blocks, pool, green markers held, its hand as cards); the advanced
variant's auction line; the quarries left to right with their rank rewards, card limit,
marker, and the column of cards placed there (a coloured stripe names the owner); the
pyramids level by level with the players' blocks and each level's gold for first/second.

What an observer seat may not know is drawn face down: other seats' cards in unrevealed
quarries and in hand show only their back (``L`` low 3-5, ``H`` high 6-8 or -3), sealed bids
show ``?``. ``observer=None`` shows every card (the spectator's view). A legend under the
pyramids names the signs.

The layout is drawn once on a :class:`~maya_envs.drawing.Canvas` (:func:`draw`) and made a
PNG frame (:func:`render_image`, Pillow) or SVG text (:func:`render_svg`) from the same shapes.
:func:`action_targets` names the picture's elements an action concerns (a worker card: its
quarry and the card in the mover's hand; a placement: the pyramid level; a -3 target or a
start player: the seat's row; ...), so a page can take a move by clicks. Only face-up cards
carry a key, so the SVG says nothing about a hidden card.
"""

from __future__ import annotations

import numpy as np

from maya_envs.drawing import MUTED, SEAT_COLOURS, SPECTATOR_VIEW, WIDTH, Canvas, SvgPicture, card_back_swatch
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.actions import CARD_IS_LOW, CARD_VALUES, MAX_LEVELS
from maya_envs.maya_quarry.notation import BLUE_TITLES, MARKER_TITLES, marker_title
from maya_envs.maya_quarry.rules.state import BID, PHASE_NAMES

MARGIN, ROW_H, CARD_W, CARD_H = 20, 34, 30, 26


def render_image(rules, state, observer: int | None = None) -> np.ndarray:
    """``(H, 800, 3)`` uint8 picture of ``state`` as ``observer`` (a seat or ``None``) may see it."""
    return draw(rules, state, observer).array()


def render_svg(rules, state, observer: int | None = None) -> SvgPicture:
    """The same picture as SVG text."""
    return draw(rules, state, observer).svg()


def draw(rules, state, observer: int | None = None) -> Canvas:
    """The picture's shapes (see the module docstring)."""
    comp, n = rules.components, rules.num_players
    quarry_h = 84 + max(q.max_cards for q in comp.quarries) * (CARD_H + 4)
    players_y = 66
    quarries_y = players_y + n * ROW_H + (34 if rules.advanced else 10)
    pyramids_y = quarries_y + quarry_h + 14
    canvas = Canvas(pyramids_y + _pyramid_height(comp) + 10)
    _header(canvas, rules, state, observer)
    for seat in range(n):
        _player_row(canvas, state, seat, observer, players_y + seat * ROW_H)
    if rules.advanced:
        canvas.text((MARGIN, quarries_y - 26), _auction_text(state, observer), size=13)
    _quarries(canvas, comp, state, observer, quarries_y, quarry_h)
    _pyramids(canvas, comp, state, n, pyramids_y)
    canvas.legend(LEGEND)
    return canvas


def _header(canvas: Canvas, rules, state, observer) -> None:
    actor = "-" if state.actor < 0 else f"player_{state.actor}"
    view = SPECTATOR_VIEW if observer is None else f"player_{observer}"
    canvas.text((MARGIN, 10), "Maya (Abacusspiele 2003)", size=22)
    canvas.text((WIDTH - MARGIN, 14), f"view: {view}", size=14, fill=MUTED, anchor="ra")
    status = (
        f"round {state.round + 1}/3   phase {PHASE_NAMES[state.phase]}   start player_{state.start}   to act {actor}"
    )
    if not rules.components.canonical:
        status += "   (component table: non-canonical proposal)"
    canvas.text((MARGIN, 40), status, size=14)


def _card(
    canvas: Canvas, x: int, y: int, card: int, visible: bool, owner: int | None = None, key: str | None = None
) -> None:
    """One worker card: its value, or its back (L/H) when hidden; a stripe in the owner's colour.
    ``key`` only on a visible card."""
    box = (x, y, x + CARD_W, y + CARD_H)
    if visible:
        canvas.box(box, fill=(255, 255, 255), radius=4, key=key)
        canvas.text((x + CARD_W / 2 + 2, y + CARD_H / 2), str(CARD_VALUES[card]), size=14, anchor="mm")
    else:
        canvas.card(box, None)
        label = "L" if CARD_IS_LOW[card] else "H"
        canvas.text((x + CARD_W / 2 + 2, y + CARD_H / 2), label, size=13, fill=(255, 235, 200), anchor="mm")
    if owner is not None:
        canvas.box((x + 1, y + 3, x + 5, y + CARD_H - 3), fill=SEAT_COLOURS[owner], outline=None)


def _player_row(canvas: Canvas, state, seat: int, observer, y: int) -> None:
    colour = SEAT_COLOURS[seat]
    canvas.box((MARGIN - 4, y, WIDTH - MARGIN + 4, y + ROW_H - 2), fill=None, outline=None, key=f"seat:{seat}")
    canvas.box((MARGIN, y + 4, MARGIN + 22, y + 26), fill=colour, radius=4)
    held = [MARKER_TITLES[m] for m, h in enumerate(state.holder) if h == seat]
    text = f"player_{seat}  gold {state.gold[seat]}  held {state.held[seat]}  pool {state.pool[seat]}"
    text += "  passed" if state.passed[seat] else ""
    canvas.text((MARGIN + 30, y + 8), text, size=14)
    if held:
        canvas.text((WIDTH - MARGIN, y + 8), "markers: " + ", ".join(held), size=12, fill=MUTED, anchor="ra")
    hand = state.hand(seat)
    visible = observer is None or observer == seat
    # A hidden hand shows only its backs: low cards first, then high (counts are public).
    cards = [t for t in range(len(hand)) for _ in range(hand[t])]
    if not visible:
        cards = sorted(cards, key=lambda t: not CARD_IS_LOW[t])
    for i, card in enumerate(cards):
        _card(canvas, 330 + i * (CARD_W + 3), y + 3, card, visible, key=f"hand:{seat}:{card}" if visible else None)


def _quarries(canvas: Canvas, comp, state, observer, y: int, height: int) -> None:
    count = len(comp.quarries)
    width = (WIDTH - 2 * MARGIN - (count - 1) * 8) / count
    for q, quarry in enumerate(comp.quarries):
        x = MARGIN + q * (width + 8)
        canvas.box(
            (x, y, x + width, y + height), fill=(222, 214, 196), outline=(190, 180, 160), radius=6, key=f"quarry:{q}"
        )
        canvas.text((x + 6, y + 6), f"quarry {q}", size=14)
        canvas.text((x + 6, y + 24), f"ranks {'/'.join(map(str, quarry.ranks))}", size=11)
        canvas.text((x + 6, y + 38), f"max {quarry.max_cards} cards", size=11)
        marker = marker_title(quarry.marker)
        canvas.text((x + 6, y + 52), marker, size=11, fill=MUTED)
        shields = [
            (state.protect_q, state.protect_seat, "protects"),
            (state.joker_protect_q, state.joker_seat, "protects"),
        ]
        shields.append((state.plus2_q, state.plus2_seat, "+2 for"))
        for where, seat, what in shields:
            if where == q:
                canvas.text((x + 6, y + height - 18), f"{what} player_{seat}", size=11, fill=SEAT_COLOURS[seat])
        revealed = state.resolving < 0 or q >= state.resolving
        for i, (owner, card) in enumerate(state.columns[q]):
            visible = revealed or observer is None or observer == owner
            _card(canvas, int(x + 8), y + 74 + i * (CARD_H + 4), card, visible, owner)


def _pyramid_layout(comp) -> tuple[float, int]:
    """Width of one pyramid's area and the side of one block slot."""
    count = len(comp.pyramids)
    width = (WIDTH - 2 * MARGIN - (count - 1) * 12) / count
    return width, min(20, int((width - 40) / max(level[0] for p in comp.pyramids for level in p.levels)))


def _pyramid_height(comp) -> int:
    return 22 + max(len(p.levels) for p in comp.pyramids) * (_pyramid_layout(comp)[1] + 6)


def _pyramids(canvas: Canvas, comp, state, n: int, y: int) -> None:
    width, slot = _pyramid_layout(comp)
    bottom = y + _pyramid_height(comp)
    for p, pyramid in enumerate(comp.pyramids):
        x = MARGIN + p * (width + 12)
        canvas.text((x + width / 2, y), pyramid.name, size=14, anchor="ma")
        for level, (spaces, first, second) in enumerate(pyramid.levels):
            top = bottom - (level + 1) * (slot + 6)
            left = x + (width - 34 - spaces * slot) / 2
            counts = state.board[(p * MAX_LEVELS + level) * n : (p * MAX_LEVELS + level + 1) * n]
            owners = [seat for seat, c in enumerate(counts) for _ in range(c)]
            for i in range(spaces):
                box = (left + i * slot, top, left + (i + 1) * slot - 2, top + slot - 2)
                fill = SEAT_COLOURS[owners[i]] if i < len(owners) else None
                canvas.box(box, fill=fill, outline=(90, 84, 76) if fill else (180, 170, 150), key=f"level:{p}:{level}")
            canvas.text(
                (left + spaces * slot + 4, top + slot / 2 - 1), f"{first}/{second}", size=11, fill=MUTED, anchor="lm"
            )


def _auction_text(state, observer: int | None) -> str:
    """Blue markers on offer, bids (``?`` while sealed for this observer) and who holds which."""
    bids = []
    for seat, bid in enumerate(state.bids):
        sealed = state.phase == BID and observer is not None and observer != seat
        bids.append("-" if bid < 0 else "?" if sealed else str(bid))
    offer = ", ".join(BLUE_TITLES[m] for m in state.blue_offer)
    held = ", ".join(f"{BLUE_TITLES[m]}: p{h}" for m, h in enumerate(state.blue_holder) if h >= 0)
    joker = f"   Joker as {MARKER_TITLES[state.joker_as]}" if state.joker_as >= 0 else ""
    return f"auction: offer {offer}   bids {' '.join(bids)}   blue held {held or '-'}{joker}"


def _owned_card_swatch(canvas: Canvas, x: float, y: float) -> None:
    _card(canvas, int(x), int(y - 4), 0, True, owner=1)


def _hidden_card_swatch(canvas: Canvas, x: float, y: float) -> None:
    _card(canvas, int(x), int(y - 4), 0, False)


LEGEND = (
    (_owned_card_swatch, "worker card face up (stripe: owner's colour)", CARD_W + 6),
    (_hidden_card_swatch, "face down: L = low 3-5, H = high 6-8 or -3", CARD_W + 6),
    (card_back_swatch, "(hidden hand: backs only, low first)"),
    (
        lambda c, x, y: c.box((x, y, x + 16, y + 16), fill=SEAT_COLOURS[0], outline=(90, 84, 76)),
        "block on a pyramid (owner's colour); x/y = gold for 1st/2nd",
    ),
    (lambda c, x, y: c.box((x, y, x + 16, y + 16), fill=None, outline=(180, 170, 150)), "free space"),
    (None, "ranks a/b/c: quarry reward by rank"),
)


def action_targets(rules, state, action: int) -> tuple[str, ...]:
    """The keys of the picture's shapes that ``action`` concerns (see the module docstring);
    ``()`` for moves with no element (passes, declines, bids, blue markers, joker)."""
    move = A.decode(action, rules.spec.num_actions)
    actor, n = state.actor, rules.num_players
    if move.kind == "worker":
        return (f"quarry:{move.a}", f"hand:{actor}:{move.b}")
    if move.kind in ("protect", "plus2"):
        return (f"quarry:{move.a}",)
    if move.kind in ("minus3", "appoint"):
        return (f"seat:{(actor + move.a) % n}",)
    if move.kind in ("relocate_src", "place"):
        return (f"level:{move.a}:{move.b}",)
    if move.kind == "relocate_dst":
        return (f"level:{move.a}:0",)
    if move.kind == "free_block":
        return tuple(f"level:{move.a}:{level}" for level in range(len(rules.components.pyramids[move.a].levels)))
    return ()
