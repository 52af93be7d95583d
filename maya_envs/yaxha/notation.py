"""Yaxha: the move as a seat may see it (see :mod:`maya_envs.notation`).

Hidden parts of a move (decision 11, :mod:`maya_envs.yaxha.observation`):

* the tile choice while choices are being collected is secret until all are in:
  ``"pick tile ?"`` (a pending pick after a clash is public);
* the building is simultaneous: a seat's cubes placed this round stay hidden until the
  round's building ends, and so does whether a step was a placement or a discard:
  ``"cube ? (hidden until the building ends)"``.
"""

from __future__ import annotations

import re
from typing import Any

from maya_envs.yaxha.actions import COLOURS, NUM_LEVELS
from maya_envs.yaxha.rules import BUILD, PENDING, PHASES, SELECT


def describe_action(rules: Any, state: Any, action: int, actor: int, viewer: int | None) -> str:
    """The notation of ``action``, or its public part for a ``viewer`` other than ``actor``."""
    full = rules.action_to_string(action)
    if viewer is None or viewer == actor:
        return full
    if state.phase == SELECT:
        return "pick tile ?"
    if state.phase == BUILD:
        return "cube ? (hidden until the building ends)"
    return full


def why_illegal(rules: Any, state: Any, action: int) -> str | None:
    """Why ``action`` is not legal in ``state`` (section 4: taken tiles; section 5: cubes in
    hand, base adjacency and the 4 x 4 box, support and same-colour contact above; discards only
    without a legal cell), or ``None`` to let the caller say it generally."""
    move = rules.table.decode(action)
    phase = PHASES[state.phase]
    seat = rules.current_player(state)
    if move[0] == "pick":
        if state.phase == PENDING and state.owner[move[1]] >= 0:
            return f"tile {move[1]} is taken by player_{state.owner[move[1]]}"
        if state.phase not in (SELECT, PENDING):
            return f"no tile pick now: this is the {phase} phase"
        return None
    if state.phase != BUILD:
        return f"no {move[0]} now: this is the {phase} phase"
    colour = move[1]
    hand = state.hands[seat]
    if not hand[colour]:
        held = ", ".join(COLOURS[c] for c in range(len(hand)) if hand[c]) or "nothing"
        return f"you have no {COLOURS[colour]} cube to place (in hand: {held})"
    pyramid = state.pyramids[seat]
    if move[0] == "discard":
        return f"a {COLOURS[colour]} cube has a legal cell: a colour may be discarded only when it has none"
    g = rules.geometry
    cell = g.index[move[2]]
    name = g.cell_name(cell)
    if pyramid[cell] >= 0:
        return f"{name} already holds a cube"
    x, y, z = move[2]
    if z == 0:
        if all(pyramid[i] < 0 for i in g.base_cells):
            return None if g.anchor is None else f"the first cube goes on {g.cell_name(g.anchor)}"
        if not any(pyramid[j] >= 0 for j in g.orth[cell]):
            return f"{name} does not touch a cube of level 1 (a new base cube goes beside one)"
        return f"{name} would make level 1 wider than 4 x 4"
    if not all(pyramid[j] >= 0 for j in g.supports[cell]):
        return f"{name} needs the 4 cubes below it"
    return f"{name} touches no {COLOURS[colour]} cube beside or below it"


_PLACE = re.compile(r"place ([a-z]+) l(\d+) \( ?(\d+) ?, ?(\d+) ?\)")
_DISCARD = re.compile(r"discard ([a-z]+)")
_PICK = re.compile(r"pick tile (\d+)")


def read_move(rules: Any, text: str) -> int | str | None:
    """What ``text`` (lower case, single spaces) names in the notation's grammar: an action
    id, or the rule that no action can be written so (section 5 and decision 11: the five
    colours, levels L1-L4, the grid of each level; one market tile per player), or ``None``
    when ``text`` is not in the grammar."""
    found = _PICK.fullmatch(text)
    if found:
        tile, n = int(found[1]), rules.num_players
        return tile if tile < n else f"there is no tile {tile}: the market has tiles 0..{n - 1} ({n} players)"
    found = _PLACE.fullmatch(text) or _DISCARD.fullmatch(text)
    if not found:
        return None
    if found[1] not in COLOURS:
        return f"there is no {found[1]} cube: the colours are {', '.join(COLOURS)}"
    colour = COLOURS.index(found[1])
    if found.re is _DISCARD:
        return rules.table.discard(colour)
    level, x, y = int(found[2]), int(found[3]), int(found[4])
    g = rules.geometry
    if not 1 <= level <= NUM_LEVELS:
        return f"there is no level {level}: a pyramid has levels L1-L{NUM_LEVELS}"
    size = g.side - (level - 1)
    if not (x < size and y < size):
        return f"({x},{y}) is off the grid: level L{level} has x and y 0..{size - 1}"
    return rules.table.place(colour, g.index[(x, y, level - 1)])


#: Why a game ended, by ``final_info()["end"]``: the one wording of
#: :func:`maya_envs.notation.end_reason` (the tenth round's building is the game's only end).
END_TEXTS = {"last_round": "round 10's building is over (section 4)"}


def final_scores(rules: Any, state: Any) -> str:
    """The scores of a finished game."""
    return "scores: " + ", ".join(f"player_{s} {v}" for s, v in enumerate(rules.final_info(state)["scores"]))
