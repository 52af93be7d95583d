"""Text rendering of a Maya (2012) state (``render_mode="ansi"``/``"human"``).

Each tower is drawn as a column of its five colours, top level first (``.`` for a slot not
built yet in the drafted setup). Two players: the ladders (``W``/``B`` counts over free
spaces) and a priest marker (``*W``/``*B``) under each tower, and the Monolith and Raven
below the board; everything is public, so every observer sees the same picture.

Three and four players: the Monolith, the face-up centre card, and the task cards. With an
``observer`` seat only that seat's own cards are shown (and its current task score);
``observer=None`` is the spectator's view with every hand and the face-down pair. The
single-agent view always renders for the learner's seat.
"""

from __future__ import annotations

from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import (
    CENTRE,
    DRAFT,
    EMPTY,
    NO_PRIEST,
    PHASE_NAMES,
    colour_scores,
)

LEGEND = (
    "board: towers t0..t8 in a 3x3 grid (t0 t1 t2 / t3 t4 t5 / t6 t7 t8), each drawn top level (L5) first; "
    "[c] = a block of colour c (0-8), . = not built yet. 2 players: under each tower the ladders "
    "(W/B on a space, . free) and a priest (*W/*B). Monolith: the towers beside it cannot be exchanged; "
    "Raven: no exchange from its level. 'swap t0-t1 @L3' exchanges levels 3-5 of t0 and t1."
)
"""What the text board's marks mean (``maya-play`` prints it once)."""

SEAT_LETTERS = ("W", "B")
CELL = 12


def render_text(rules, state, observer: int | None = None) -> str:
    """Multi-line text picture of ``state`` for ``observer`` (a seat, or ``None`` for a
    spectator); hidden cards of other seats never appear in a seat's picture. The ladder
    spaces and the task scoring come from ``rules.config``."""
    ladder_spaces, three_plus_two = rules.config.ladder_spaces, rules.config.three_plus_two
    two = state.num_players == 2
    lines = []
    for row in range(3):
        towers = range(3 * row, 3 * row + 3)
        lines.append("".join(f"{'t' + str(t):<{CELL}}" for t in towers).rstrip())
        for level in range(A.NUM_LEVELS, 0, -1):
            cells = (_slot(state.towers[t][level - 1]) for t in towers)
            lines.append("".join(f"{f'L{level} [{c}]':<{CELL}}" for c in cells).rstrip())
        if two:
            lines.append("".join(f"{_pieces(state, t, ladder_spaces[t]):<{CELL}}" for t in towers).rstrip())
        lines.append("")
    monolith = "off the board" if state.monolith < 0 else "t{}|t{}".format(*A.PAIRS[state.monolith])
    mover = f"player_{state.to_move}" + (f" ({SEAT_LETTERS[state.to_move]})" if two else "")
    if state.phase == DRAFT:
        lines.append(f"drafting: player_{state.to_move} places the drawn block of colour {state.draft_block}")
    if two:
        raven = f"L{state.raven}" if state.raven else "not set"
        lines.append(f"Monolith: {monolith}   Raven: {raven}   exchanges: {state.turn}")
        lines.append(
            f"phase: {PHASE_NAMES[state.phase]}   to move: {mover}"
            f"   pieces left W {state.ladders_left[0]}L/{state.priests_left[0]}P,"
            f" B {state.ladders_left[1]}L/{state.priests_left[1]}P"
        )
        return "\n".join(lines)
    lines.append(f"Monolith: {monolith}   exchanges: {state.turn}")
    lines.append(f"phase: {PHASE_NAMES[state.phase]}   to move: {mover}")
    if state.tasks:
        lines.append(f"centre card (face up): {state.towers[CENTRE][0]}")
        lines.extend(_hands(state, observer, three_plus_two))
    return "\n".join(lines)


def _hands(state, observer: int | None, three_plus_two: str) -> list[str]:
    scores = colour_scores(state.towers, three_plus_two)
    seats = range(state.num_players) if observer is None else (observer,)
    lines = []
    for seat in seats:
        colours = state.tasks[seat]
        points = sum(scores[c] for c in colours)
        lines.append(f"player_{seat} task cards: {list(colours)}   task score now: {points}")
    if observer is None and state.spare:
        lines.append(f"face-down cards: {list(state.spare)}")
    return lines


def _slot(colour: int) -> str:
    return "." if colour == EMPTY else str(colour)


def _pieces(state, tower: int, spaces: int) -> str:
    white, black = state.ladders[0][tower], state.ladders[1][tower]
    free = spaces - white - black
    ladders = "W" * white + "B" * black + "." * free
    priest = state.priests[tower]
    marker = f"*{SEAT_LETTERS[priest]}" if priest != NO_PRIEST else "  "
    return f"{ladders:<5}{marker}"
