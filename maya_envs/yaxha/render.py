"""Text rendering of a Yaxha state (``render_mode="ansi"``/``"human"``).

Header (round, phase, bonus cards, bag), the market with each tile's cubes and taker, then one
block per seat: initiative, cubes in hand, choice, discards, and its pyramid level by level
side by side (``L1`` the 4 x 4 base ... ``L4`` the top; letters ``OBGYW``, ``.`` empty),
cropped to the base's 4 x 4 window. Rows and columns are labelled with the notation's
coordinates (``y`` down the left of each level, ``x`` across the top), so a cube shown at row
``y``, column ``x`` of level ``L2`` is the cell of ``place <colour> L2 (x,y)``; with the floating
footprint the window moves over the 7 x 7 grid and the labels move with it. With an
``observer`` seat the picture holds only what that seat may see: other seats' hidden choices
and their cubes placed this round are left out.
"""

from __future__ import annotations

from maya_envs.yaxha.actions import COLOUR_LETTERS, COLOURS, NUM_LEVELS
from maya_envs.yaxha.rules import BUILD, PENDING, PHASES, SELECT, YaxhaRules, YaxhaState
from maya_envs.yaxha.scoring import BONUS_CARDS


def _cubes(counts) -> str:
    return "".join(COLOUR_LETTERS[c] * k for c, k in enumerate(counts)) or "-"


LEGEND = (
    "board: row y, column x of each level as in 'place <colour> L<level> (x,y)'; "
    "O B G Y W = orange blue green yellow white, . empty, + empty where a cube in hand may go"
)
"""The line under the header that explains the pyramid pictures."""


def pyramid_lines(rules: YaxhaRules, pyramid, marks=frozenset()) -> list[str]:
    """The levels of one pyramid side by side, one text line per row, each level's rows
    labelled with ``y`` and its columns with ``x`` (the notation's coordinates).

    The window covers the base's cubes and every empty base cell where a cube may go next
    (section 5: beside a base cube, the base within 4 x 4), at least 4 x 4 (so up to 6 x 6
    with the floating footprint); level ``Lk`` shows the cells resting on it. ``marks``: cells
    drawn ``+`` (where a cube in hand may go) when empty."""
    g = rules.geometry
    seen = [g.coords[i] for i in g.base_cells if pyramid[i] >= 0]
    seen += [g.coords[i] for i in rules.base_candidates(tuple(pyramid))]
    (x0, x1), (y0, y1) = (_span([c[axis] for c in seen], g.side) for axis in (0, 1))
    blocks = []
    for z in range(NUM_LEVELS):
        xs, ys = range(x0, x1 + 1 - z), range(y0, y1 + 1 - z)
        rows = [f"L{z + 1}", "  " + "".join(str(x) for x in xs)]
        for y in ys:
            row = ""
            for x in xs:
                cell = g.index.get((x, y, z))
                if cell is None:
                    row += " "
                elif pyramid[cell] >= 0:
                    row += COLOUR_LETTERS[pyramid[cell]]
                else:
                    row += "+" if cell in marks else "."
            rows.append(f"{y} {row}")
        blocks.append(rows)
    height = max(len(b) for b in blocks)
    width = [len(b[1]) for b in blocks]
    return [
        "  ".join((blocks[z][i] if i < len(blocks[z]) else "").ljust(width[z]) for z in range(NUM_LEVELS))
        for i in range(height)
    ]


def _span(values: list[int], side: int) -> tuple[int, int]:
    """``(lo, hi)`` covering ``values``, widened to at least 4 cells inside ``0 .. side-1``."""
    lo, hi = min(values, default=0), max(values, default=0)
    while hi - lo < 3:
        if hi < side - 1:
            hi += 1
        else:
            lo -= 1
    return lo, hi


def hand_text(state: YaxhaState, seat: int, hidden: bool) -> str:
    """The cubes ``seat`` holds as a viewer may know them (``hidden``: the viewer is another
    seat): while the building runs, another seat's hand is only the tile it took (what it
    placed of it is hidden); outside the building nobody holds cubes (``-``), which everyone
    knows. The text board and the picture say the same."""
    if hidden and state.phase == BUILD:
        return f"from tile {state.owner.index(seat)} (what is left is hidden)"
    return _cubes(state.hands[seat])


def choice_label(state: YaxhaState, seat: int, hidden: bool, hidden_word: str) -> str:
    """The market tile ``seat`` chose as a viewer may know it (``hidden``: the viewer is another
    seat): ``-`` before it chooses, ``hidden_word`` while the selection is secret, else
    ``tile N``. The text board and the picture say the same."""
    choice = state.choices[seat]
    if choice < 0:
        return "-"
    if hidden and state.phase == SELECT:
        return hidden_word
    return f"tile {choice}"


def render_text(rules: YaxhaRules, state: YaxhaState, observer: int | None = None) -> str:
    """Multi-line picture of ``state`` as seen by ``observer`` (``None``: everything)."""
    n = rules.num_players
    round_text = f"{state.round + 1}/10" if state.round < 10 else "over"
    lines = [
        f"Yaxha  round {round_text}  phase {PHASES[state.phase]}  to move: "
        + (f"player_{rules.current_player(state)}" if state.phase <= BUILD else "-"),
        "bonus cards: " + "; ".join(f"{c} {BONUS_CARDS[c]}" for c in state.bonus_cards),
        "bag: " + " ".join(f"{COLOURS[c]} {k}" for c, k in enumerate(state.bag)),
        LEGEND,
        "market: "
        + "  ".join(
            f"[{t}] {_cubes(tile)}" + (f" -> player_{state.owner[t]}" if state.owner[t] >= 0 else "")
            for t, tile in enumerate(state.market)
        ),
    ]
    if state.phase == PENDING:
        lines.append("pending picks: " + ", ".join(f"player_{s}" for s in state.pending))
    for seat in range(n):
        hidden = observer is not None and seat != observer
        choice_text = choice_label(state, seat, hidden, "chosen (hidden)")
        pyramid = list(state.pyramids[seat])
        building = state.phase == BUILD
        marks: set[int] = set()
        if hidden and building:
            for cell in state.fresh[seat]:
                pyramid[cell] = -1
        elif building:
            hand = state.hands[seat]
            marks = {cell for c in range(len(hand)) if hand[c] for cell in rules.legal_cells(state.pyramids[seat], c)}
        lines.append(
            f"player_{seat}  initiative {state.initiative[seat]}  choice {choice_text}  "
            f"hand {hand_text(state, seat, hidden)}  "
            f"discarded {'?' if hidden and building else state.discarded[seat]}"
        )
        lines.extend("  " + line for line in pyramid_lines(rules, pyramid, marks))
    if state.phase > BUILD:
        lines.append("scores: " + ", ".join(f"player_{s} {t}" for s, t in enumerate(rules.final_info(state)["scores"])))
    return "\n".join(line.rstrip() for line in lines)
