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
    "O B G Y W = orange blue green yellow white, . empty"
)
"""The line under the header that explains the pyramid pictures."""


def pyramid_lines(rules: YaxhaRules, pyramid) -> list[str]:
    """The levels of one pyramid side by side, one text line per row of the base window, each
    level's rows labelled with ``y`` and its columns with ``x`` (the notation's coordinates)."""
    g = rules.geometry
    base = [g.coords[i] for i in g.base_cells if pyramid[i] >= 0]
    x0 = min(min((x for x, _, _ in base), default=0), g.side - 4)
    y0 = min(min((y for _, y, _ in base), default=0), g.side - 4)
    width = [2 + 4 - z for z in range(NUM_LEVELS)]  # "y " + the row
    blocks = []
    for z in range(NUM_LEVELS):
        size = 4 - z
        rows = [f"L{z + 1}", "  " + "".join(str(x0 + dx) for dx in range(size))]
        for dy in range(4):
            if dy >= size:
                rows.append("")
                continue
            row = ""
            for dx in range(size):
                cell = g.index[(x0 + dx, y0 + dy, z)]
                row += COLOUR_LETTERS[pyramid[cell]] if pyramid[cell] >= 0 else "."
            rows.append(f"{y0 + dy} {row}")
        blocks.append(rows)
    return ["  ".join(blocks[z][i].ljust(width[z]) for z in range(NUM_LEVELS)) for i in range(6)]


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
        choice = state.choices[seat]
        if choice < 0:
            choice_text = "-"
        elif hidden and state.phase == SELECT:
            choice_text = "chosen (hidden)"
        else:
            choice_text = f"tile {choice}"
        pyramid = list(state.pyramids[seat])
        if hidden:
            for cell in state.fresh[seat]:
                pyramid[cell] = -1
        lines.append(
            f"player_{seat}  initiative {state.initiative[seat]}  choice {choice_text}  "
            f"hand {_cubes(state.hands[seat]) if not hidden else '(tile taken)'}  "
            f"discarded {state.discarded[seat] if not hidden else '?'}"
        )
        lines.extend("  " + line for line in pyramid_lines(rules, pyramid))
    if state.phase > BUILD:
        lines.append("scores: " + ", ".join(f"player_{s} {t}" for s, t in enumerate(rules.final_info(state)["scores"])))
    return "\n".join(line.rstrip() for line in lines)
