"""Maya (2012) state save/load: a versioned, JSON-able dict.

Schema ``{"schema": "maya2012.state", "version": 2, ...}`` (``n`` = number of players):

==============  =============================================================================
key             value
==============  =============================================================================
num_players     2, 3 or 4 (must match the config)
towers          9 lists of 5 colour indices 0-8, bottom (level 1) to top (level 5); ``null``
                for a slot not built yet (phase ``"draft"`` only)
monolith        ``[a, b]``, an adjacent tower pair (``a < b``), or ``null`` (off the board)
raven           level 2-5, or ``null`` (not set; always ``null`` with 3-4 players)
ladders         ``n`` lists (one per seat) of 9 ladder counts; all 0 with 3-4 players
priests         9 entries: the seat whose priest stands on the tower, or ``null``
ladders_left    ladders each seat still holds (``n`` ints; 0 with 3-4 players)
priests_left    priests each seat still holds (``n`` ints; 0 with 3-4 players)
to_move         seat ``0..n-1``
phase           ``"setup_monolith"``, ``"setup_raven"``, ``"exchange"``, ``"declare"``,
                ``"draft"``, ``"over"``, ``"truncated"``
turn            exchanges made so far
tasks           3-4p: ``n`` lists of 2 secret task colours (sorted); ``[]`` for 2p and
                during the draft (cards are dealt when the board is finished)
spare           3p: the 2 face-down cards (sorted); ``[]`` otherwise
declared        the seat that declared the end, or ``null``
draft_block     phase ``"draft"``: the colour of the drawn block to place; else ``null``
==============  =============================================================================

Version 1 dicts (two players, written before the 3-4p variants existed: the same keys
without the last five) still load under a two-player config.

:func:`from_dict` checks everything the rules imply (level permutations, towers without a
repeated colour, the Monolith on an adjacent pair, ladder spaces, piece conservation,
priests only on complete towers, task cards: every card exactly once with the centre card
set aside, a phase consistent with the other fields) and raises
:class:`~maya_envs.core.errors.StateError` naming the first bad field.

Pure: standard library only.
"""

from __future__ import annotations

from typing import Any

from maya_envs.core import state_dict as V
from maya_envs.core.errors import StateError
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.state import (
    CENTRE,
    DECLARE,
    DRAFT,
    EMPTY,
    EXCHANGE,
    NO_MONOLITH,
    NO_PRIEST,
    NO_RAVEN,
    NO_SEAT,
    OVER,
    PHASE_NAMES,
    SETUP_MONOLITH,
    SETUP_RAVEN,
    TRUNCATED,
    Maya2012Config,
    Maya2012State,
    declare_step_follows,
    draft_towers,
    legal_exchanges,
    may_declare,
)

GAME = "maya2012"
SCHEMA = "maya2012.state"
VERSION = 2
KEYS_V1 = (
    "schema", "version", "towers", "monolith", "raven", "ladders", "priests",
    "ladders_left", "priests_left", "to_move", "phase", "turn",
)  # fmt: skip
KEYS = KEYS_V1 + ("num_players", "tasks", "spare", "declared", "draft_block")


def to_dict(state: Maya2012State) -> dict[str, Any]:
    """The JSON-able dict of ``state`` (schema in the module docstring)."""
    return {
        **V.header(GAME, VERSION),
        "num_players": state.num_players,
        "towers": [[None if c == EMPTY else c for c in tower] for tower in state.towers],
        "monolith": list(A.PAIRS[state.monolith]) if state.monolith != NO_MONOLITH else None,
        "raven": state.raven if state.raven != NO_RAVEN else None,
        "ladders": [list(row) for row in state.ladders],
        "priests": [None if owner == NO_PRIEST else owner for owner in state.priests],
        "ladders_left": list(state.ladders_left),
        "priests_left": list(state.priests_left),
        "to_move": state.to_move,
        "phase": PHASE_NAMES[state.phase],
        "turn": state.turn,
        "tasks": [list(colours) for colours in state.tasks],
        "spare": list(state.spare),
        "declared": state.declared if state.declared != NO_SEAT else None,
        "draft_block": state.draft_block if state.draft_block >= 0 else None,
    }


def from_dict(data: dict[str, Any], config: Maya2012Config | None = None) -> Maya2012State:
    """Rebuild and validate a state written by :func:`to_dict` under ``config``.

    Raises:
        StateError: a wrong schema/version, a missing or unknown key, a player count other
            than ``config.num_players``, or an impossible state (the field is named).
    """
    config = config or Maya2012Config()
    version = V.read_header(data, GAME, (1, VERSION))
    V.check_keys(data, KEYS_V1 if version == 1 else KEYS)
    if data["version"] == 1:  # two players only; the new keys take their 2p values
        data = {**data, "num_players": 2, "tasks": [], "spare": [], "declared": None, "draft_block": None}
    n = data["num_players"]
    if n != config.num_players:
        raise StateError("num_players", f"num_players={n!r} but the config has num_players={config.num_players}")
    seats = list(range(n))
    if data["phase"] not in PHASE_NAMES:
        raise StateError("phase", f"phase={data['phase']!r}; allowed: {list(PHASE_NAMES)}")
    phase = PHASE_NAMES.index(data["phase"])
    towers = _towers(data["towers"], drafting=phase == DRAFT)
    monolith = _monolith(data["monolith"])
    raven = data["raven"]
    if raven is not None and (raven not in A.EXCHANGE_LEVELS or n > 2):
        raise StateError("raven", f"raven={raven!r}; allowed: 2..5 or null (always null with 3-4 players)")
    ladders = V.int_grid("ladders", data["ladders"], n, 9, 0, 10**6)
    priests = data["priests"]
    if not isinstance(priests, list) or len(priests) != 9 or any(p not in [None, *seats] for p in priests):
        raise StateError("priests", f"priests={priests!r}; allowed: 9 entries, each a seat {seats} or null")
    ladders_left = tuple(V.int_list("ladders_left", data["ladders_left"], n, 0, 10**6))
    priests_left = tuple(V.int_list("priests_left", data["priests_left"], n, 0, 10**6))
    _check_pieces(config, towers, ladders, priests, ladders_left, priests_left)
    if data["to_move"] not in seats:
        raise StateError("to_move", f"to_move={data['to_move']!r}; allowed: {_either(seats)}")
    turn = V.int_field("turn", data["turn"], 0, config.max_turns)
    declared = data["declared"]
    if declared is not None and (declared not in seats or n == 2 or phase != OVER):
        raise StateError(
            "declared", f"declared={declared!r}; allowed: null, or a seat {seats} once a 3-4p game is over"
        )
    block = data["draft_block"]
    if (block is None) != (phase != DRAFT) or (block is not None and block not in range(9)):
        raise StateError("draft_block", f"draft_block={block!r}; allowed: a colour 0..8 in phase draft, else null")
    tasks, spare = _cards(data["tasks"], data["spare"], n, towers, dealt=n > 2 and phase != DRAFT)
    state = Maya2012State(
        towers=towers,
        monolith=monolith,
        raven=NO_RAVEN if raven is None else raven,
        ladders=ladders,
        priests=tuple(NO_PRIEST if p is None else p for p in priests),
        ladders_left=ladders_left,
        priests_left=priests_left,
        to_move=data["to_move"],
        phase=phase,
        turn=turn,
        tasks=tasks,
        spare=spare,
        declared=NO_SEAT if declared is None else declared,
        draft_block=-1 if block is None else block,
    )
    _check_phase(state, config)
    return state


def _either(values: list[int]) -> str:
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


def _towers(value: Any, drafting: bool) -> tuple[tuple[int, ...], ...]:
    if drafting and isinstance(value, list):
        value = [[EMPTY if c is None else c for c in t] if isinstance(t, list) else t for t in value]
    towers = V.int_grid("towers", value, 9, 5, EMPTY if drafting else 0, 10**6)
    for tower, colours in enumerate(towers):
        if any(not EMPTY <= c <= 8 for c in colours):
            raise StateError("towers", f"tower {tower} has a colour outside 0..8: {list(colours)}")
    full_levels = 5
    if drafting:
        filled = [sum(t[level] != EMPTY for t in towers) for level in range(5)]
        full_levels = next((level for level, count in enumerate(filled) if count < 9), None)
        if full_levels is None:
            raise StateError("towers", "phase draft needs a slot not built yet")
        if filled[full_levels + 1 :] != [0] * (4 - full_levels) or any(
            len({c for c in t if c != EMPTY}) != 5 - t.count(EMPTY) for t in towers
        ):
            raise StateError("towers", "a drafted board is built level by level, without a repeated colour in a tower")
        placed = [t[full_levels] for t in towers if t[full_levels] != EMPTY]
        if len(set(placed)) != len(placed):
            raise StateError("towers", f"level {full_levels + 1} repeats a colour")
    for level in range(full_levels):
        if sorted(t[level] for t in towers) != list(range(9)):
            raise StateError("towers", f"level {level + 1} is not a permutation of the 9 colours")
    return towers


def _monolith(value: Any) -> int:
    if value is None:
        return NO_MONOLITH
    pair = tuple(value) if isinstance(value, list) else None
    if pair not in A.PAIRS:
        raise StateError("monolith", f"monolith={value!r}; allowed: null or one of {[list(p) for p in A.PAIRS]}")
    return A.PAIRS.index(pair)


def _check_pieces(config, towers, ladders, priests, ladders_left, priests_left) -> None:
    if config.num_players > 2:
        if any(map(any, ladders)) or any(p is not None for p in priests) or any(ladders_left + priests_left):
            raise StateError(
                "ladders", "with 3-4 players no ladders or priests are used: all counts must be 0 and priests null"
            )
        return
    for tower in range(9):
        used = ladders[0][tower] + ladders[1][tower]
        if used > config.ladder_spaces[tower]:
            raise StateError(
                "ladders", f"tower {tower} holds {used} ladders but has {config.ladder_spaces[tower]} spaces"
            )
    for tower, owner in enumerate(priests):
        if owner is not None and len(set(towers[tower])) != 1:
            raise StateError(
                "priests", f"a priest stands on tower {tower}, which is not complete: {list(towers[tower])}"
            )
    for seat in (0, 1):
        if sum(ladders[seat]) + ladders_left[seat] != config.ladders_per_player:
            raise StateError("ladders_left", f"seat {seat}: ladders placed + left != {config.ladders_per_player}")
        if priests.count(seat) + priests_left[seat] != config.priests_per_player:
            raise StateError("priests_left", f"seat {seat}: priests placed + left != {config.priests_per_player}")


def _cards(tasks: Any, spare: Any, n: int, towers, dealt: bool) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Validate the task cards: undealt ``[]``/``[]``; dealt: ``n`` sorted pairs, ``spare``
    2 sorted cards (3p) or none (4p), together with the centre card every colour once."""
    if not dealt:
        if tasks != [] or spare != []:
            field = "tasks" if tasks != [] else "spare"
            raise StateError(field, f"tasks={tasks!r}, spare={spare!r}; allowed: [] and [] (no cards dealt)")
        return (), ()
    spare_count = 2 if n == 3 else 0
    ok = isinstance(tasks, list) and len(tasks) == n and all(isinstance(t, list) and len(t) == 2 for t in tasks)
    ok = ok and isinstance(spare, list) and len(spare) == spare_count
    cards = [c for t in tasks for c in t] + list(spare) if ok else []
    if not ok or any(isinstance(c, bool) or not isinstance(c, int) for c in cards):
        field = (
            "spare" if isinstance(spare, list) and len(spare) != spare_count or not isinstance(spare, list) else "tasks"
        )
        raise StateError(
            field,
            f"tasks={tasks!r}, spare={spare!r}; allowed: {n} lists of 2 colours and {spare_count} spare colour(s)",
        )
    centre = towers[CENTRE][0]
    if sorted(cards + [centre]) != list(range(9)):
        raise StateError(
            "tasks", f"task cards {cards} with the centre card {centre} must hold every colour 0..8 exactly once"
        )
    if any(t != sorted(t) for t in tasks) or list(spare) != sorted(spare):
        raise StateError("tasks", f"tasks={tasks!r}, spare={spare!r}; each hand must be sorted")
    return tuple(tuple(t) for t in tasks), tuple(spare)


def _check_phase(state: Maya2012State, config: Maya2012Config) -> None:
    phase, n = state.phase, config.num_players
    placed = (state.monolith != NO_MONOLITH, state.raven != NO_RAVEN)
    if phase == DRAFT:
        if config.setup != "draft" or state.turn or state.monolith != NO_MONOLITH or state.raven != NO_RAVEN:
            raise StateError("phase", "phase draft needs setup='draft', no exchange yet and no Monolith or Raven")
        built = sum(5 - t.count(EMPTY) for t in state.towers)
        if state.to_move != built % n:
            raise StateError(
                "to_move", f"in the draft placement {built} is made by seat {built % n}, not {state.to_move}"
            )
        if not draft_towers(state.towers, state.draft_block):
            raise StateError("draft_block", f"draft_block={state.draft_block} cannot be placed on this level")
        return
    if n > 2:
        if phase in (SETUP_MONOLITH, SETUP_RAVEN) or placed[1]:
            raise StateError("phase", f"phase {PHASE_NAMES[phase]} does not exist with {n} players")
        if state.turn == 0 and placed[0]:
            raise StateError("monolith", "with 3-4 players the Monolith starts off the board")
        if state.turn and not placed[0]:
            raise StateError("monolith", "after an exchange the Monolith stands between the exchanged towers")
    else:
        expected_pieces = {SETUP_MONOLITH: (False, False), SETUP_RAVEN: (True, False)}.get(phase, (True, True))
        if phase == DECLARE:
            raise StateError("phase", "phase declare exists only with 3-4 players")
        if placed != expected_pieces:
            raise StateError("phase", f"phase {PHASE_NAMES[phase]} does not match Monolith/Raven placement {placed}")
        if phase in (SETUP_MONOLITH, SETUP_RAVEN) and (state.turn or state.to_move != 1):
            raise StateError("phase", "setup phases happen before any exchange, with Black (seat 1) to move")
    if phase == DECLARE:
        if state.turn == 0 or not declare_step_follows(config.declare_step, state.towers, state.tasks[state.to_move]):
            raise StateError(
                "phase", f"phase declare does not follow this exchange with declare_step={config.declare_step!r}"
            )
        return
    if state.declared != NO_SEAT and not may_declare(state.towers, state.tasks[state.declared]):
        raise StateError("declared", f"seat {state.declared} declared the end without being allowed to")
    has_move = bool(legal_exchanges(state.towers, state.monolith, state.raven))
    at_limit = state.turn >= config.max_turns
    if phase == EXCHANGE and (at_limit or not has_move):
        raise StateError("phase", "phase exchange needs a legal exchange and turn < max_turns")
    ended = state.declared != NO_SEAT or not has_move or (at_limit and config.at_max_turns == "score")
    if phase == OVER and not ended:
        raise StateError(
            "phase", "phase over needs no legal exchange, a declaration, or max_turns reached with at_max_turns='score'"
        )
    if phase == TRUNCATED and not (at_limit and has_move and config.at_max_turns == "truncate"):
        raise StateError(
            "phase",
            "phase truncated needs max_turns reached with at_max_turns='truncate' and a legal exchange left "
            "(a real end wins over the turn limit)",
        )
