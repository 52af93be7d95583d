"""Text rendering of a Maya (2012) state (``render_mode="ansi"``/``"human"``).

Each tower is drawn as a column of its five colours, top level first, with the ladders
(``W``/``B`` counts over free spaces) and a priest marker (``*W``/``*B``) under it. The
Monolith and Raven are listed below the board. Everything is public in the two-player game,
so every observer sees the same picture.
"""

from __future__ import annotations

from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import NO_PRIEST, PHASE_NAMES

SEAT_LETTERS = ("W", "B")
CELL = 12


def render_text(state, observer: int | None = None, ladder_spaces=(2, 3, 2, 3, 4, 3, 2, 3, 2)) -> str:
    """Multi-line text picture of ``state``; ``observer`` is accepted for symmetry with the
    hidden-information games and changes nothing here."""
    lines = []
    for row in range(3):
        towers = range(3 * row, 3 * row + 3)
        lines.append("".join(f"{'t' + str(t):<{CELL}}" for t in towers).rstrip())
        for level in range(A.NUM_LEVELS, 0, -1):
            lines.append("".join(f"{f'L{level} [{state.towers[t][level - 1]}]':<{CELL}}" for t in towers).rstrip())
        lines.append("".join(f"{_pieces(state, t, ladder_spaces[t]):<{CELL}}" for t in towers).rstrip())
        lines.append("")
    monolith = "off the board" if state.monolith < 0 else "t{}|t{}".format(*A.PAIRS[state.monolith])
    raven = f"L{state.raven}" if state.raven else "not set"
    lines.append(f"Monolith: {monolith}   Raven: {raven}   exchanges: {state.turn}")
    lines.append(
        f"phase: {PHASE_NAMES[state.phase]}   to move: player_{state.to_move} ({SEAT_LETTERS[state.to_move]})"
        f"   pieces left W {state.ladders_left[0]}L/{state.priests_left[0]}P,"
        f" B {state.ladders_left[1]}L/{state.priests_left[1]}P"
    )
    return "\n".join(lines)


def _pieces(state, tower: int, spaces: int) -> str:
    white, black = state.ladders[0][tower], state.ladders[1][tower]
    free = spaces - white - black
    ladders = "W" * white + "B" * black + "." * free
    priest = state.priests[tower]
    marker = f"*{SEAT_LETTERS[priest]}" if priest != NO_PRIEST else "  "
    return f"{ladders:<5}{marker}"
