"""Maya (2012) state save/load: a versioned, JSON-able dict.

Schema ``{"schema": "maya2012.state", "version": 1, ...}``:

==============  =============================================================================
key             value
==============  =============================================================================
towers          9 lists of 5 colour indices 0-8, bottom (level 1) to top (level 5)
monolith        ``[a, b]``, an adjacent tower pair (``a < b``), or ``null`` (not placed)
raven           level 2-5, or ``null`` (not set)
ladders         2 lists (seat 0, seat 1) of 9 ladder counts, one per tower
priests         9 entries: the seat whose priest stands on the tower, or ``null``
ladders_left    ladders each seat still holds (2 ints)
priests_left    priests each seat still holds (2 ints)
to_move         seat 0 or 1
phase           ``"setup_monolith"``, ``"setup_raven"``, ``"exchange"``, ``"over"``,
                ``"truncated"``
turn            exchanges made so far
==============  =============================================================================

:func:`from_dict` checks everything the rules imply (level permutations, towers without a
repeated colour, the Monolith on an adjacent pair, ladder spaces, piece conservation,
priests only on complete towers, a phase consistent with the other fields) and raises
:class:`~maya_envs.core.errors.ConfigError` naming the first problem.
"""

from __future__ import annotations

from typing import Any

from maya_envs.core.errors import ConfigError
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import (
    EXCHANGE,
    NO_MONOLITH,
    NO_PRIEST,
    NO_RAVEN,
    OVER,
    PHASE_NAMES,
    SETUP_MONOLITH,
    SETUP_RAVEN,
    TRUNCATED,
    Maya2012Config,
    Maya2012State,
    legal_exchanges,
)

SCHEMA = "maya2012.state"
VERSION = 1
KEYS = (
    "schema", "version", "towers", "monolith", "raven", "ladders", "priests",
    "ladders_left", "priests_left", "to_move", "phase", "turn",
)  # fmt: skip


def to_dict(state: Maya2012State) -> dict[str, Any]:
    """The JSON-able dict of ``state`` (schema in the module docstring)."""
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "towers": [list(tower) for tower in state.towers],
        "monolith": list(A.PAIRS[state.monolith]) if state.monolith != NO_MONOLITH else None,
        "raven": state.raven if state.raven != NO_RAVEN else None,
        "ladders": [list(row) for row in state.ladders],
        "priests": [None if owner == NO_PRIEST else owner for owner in state.priests],
        "ladders_left": list(state.ladders_left),
        "priests_left": list(state.priests_left),
        "to_move": state.to_move,
        "phase": PHASE_NAMES[state.phase],
        "turn": state.turn,
    }


def from_dict(data: dict[str, Any], config: Maya2012Config | None = None) -> Maya2012State:
    """Rebuild and validate a state written by :func:`to_dict` under ``config``.

    Raises:
        ConfigError: a wrong schema/version, a missing or unknown key, or an impossible state.
    """
    config = config or Maya2012Config()
    if not isinstance(data, dict):
        raise ConfigError(f"a state dict is required, got {type(data).__name__}")
    missing, unknown = sorted(set(KEYS) - set(data)), sorted(set(data) - set(KEYS))
    if missing or unknown:
        raise ConfigError(f"state dict keys: missing {missing}, unknown {unknown}; expected {list(KEYS)}")
    if data["schema"] != SCHEMA or data["version"] != VERSION:
        raise ConfigError(
            f"state schema {data['schema']!r} version {data['version']!r}; expected {SCHEMA!r} version {VERSION}"
        )
    towers = _towers(data["towers"])
    monolith = _monolith(data["monolith"])
    raven = data["raven"]
    if raven is not None and raven not in A.EXCHANGE_LEVELS:
        raise ConfigError(f"raven={raven!r}; allowed: 2..5 or null")
    ladders = _int_grid("ladders", data["ladders"], rows=2, cols=9)
    for tower in range(9):
        used = ladders[0][tower] + ladders[1][tower]
        if used > config.ladder_spaces[tower]:
            raise ConfigError(f"tower {tower} holds {used} ladders but has {config.ladder_spaces[tower]} spaces")
    priests = data["priests"]
    if not isinstance(priests, list) or len(priests) != 9 or any(p not in (None, 0, 1) for p in priests):
        raise ConfigError(f"priests={priests!r}; allowed: 9 entries, each 0, 1 or null")
    for tower, owner in enumerate(priests):
        if owner is not None and len(set(towers[tower])) != 1:
            raise ConfigError(f"a priest stands on tower {tower}, which is not complete: {list(towers[tower])}")
    ladders_left = _int_grid("ladders_left", [data["ladders_left"]], rows=1, cols=2)[0]
    priests_left = _int_grid("priests_left", [data["priests_left"]], rows=1, cols=2)[0]
    for seat in (0, 1):
        if sum(ladders[seat]) + ladders_left[seat] != config.ladders_per_player:
            raise ConfigError(f"seat {seat}: ladders placed + left != {config.ladders_per_player}")
        if priests.count(seat) + priests_left[seat] != config.priests_per_player:
            raise ConfigError(f"seat {seat}: priests placed + left != {config.priests_per_player}")
    if data["to_move"] not in (0, 1):
        raise ConfigError(f"to_move={data['to_move']!r}; allowed: 0 or 1")
    if data["phase"] not in PHASE_NAMES:
        raise ConfigError(f"phase={data['phase']!r}; allowed: {list(PHASE_NAMES)}")
    turn = data["turn"]
    if not isinstance(turn, int) or isinstance(turn, bool) or not 0 <= turn <= config.max_turns:
        raise ConfigError(f"turn={turn!r}; allowed: an int in 0..{config.max_turns}")
    state = Maya2012State(
        towers=towers,
        monolith=monolith,
        raven=NO_RAVEN if raven is None else raven,
        ladders=ladders,
        priests=tuple(NO_PRIEST if p is None else p for p in priests),
        ladders_left=ladders_left,
        priests_left=priests_left,
        to_move=data["to_move"],
        phase=PHASE_NAMES.index(data["phase"]),
        turn=turn,
    )
    _check_phase(state, config)
    return state


def _towers(value: Any) -> tuple[tuple[int, ...], ...]:
    towers = _int_grid("towers", value, rows=9, cols=5)
    for tower, colours in enumerate(towers):
        if any(not 0 <= c <= 8 for c in colours):
            raise ConfigError(f"tower {tower} has a colour outside 0..8: {list(colours)}")
    for level in range(5):
        if sorted(t[level] for t in towers) != list(range(9)):
            raise ConfigError(f"level {level + 1} is not a permutation of the 9 colours")
    return towers


def _monolith(value: Any) -> int:
    if value is None:
        return NO_MONOLITH
    pair = tuple(value) if isinstance(value, list) else None
    if pair not in A.PAIRS:
        raise ConfigError(f"monolith={value!r}; allowed: null or one of {[list(p) for p in A.PAIRS]}")
    return A.PAIRS.index(pair)


def _int_grid(name: str, value: Any, rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    ok = isinstance(value, list) and len(value) == rows
    ok = ok and all(isinstance(row, list) and len(row) == cols for row in value)
    ok = ok and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for row in value for x in row)
    if not ok:
        raise ConfigError(f"{name}={value!r}; allowed: {rows} list(s) of {cols} non-negative ints")
    return tuple(tuple(row) for row in value)


def _check_phase(state: Maya2012State, config: Maya2012Config) -> None:
    phase, placed = state.phase, (state.monolith != NO_MONOLITH, state.raven != NO_RAVEN)
    expected_pieces = {SETUP_MONOLITH: (False, False), SETUP_RAVEN: (True, False)}.get(phase, (True, True))
    if placed != expected_pieces:
        raise ConfigError(f"phase {PHASE_NAMES[phase]} does not match Monolith/Raven placement {placed}")
    if phase in (SETUP_MONOLITH, SETUP_RAVEN) and (state.turn or state.to_move != 1):
        raise ConfigError("setup phases happen before any exchange, with Black (seat 1) to move")
    has_move = bool(legal_exchanges(state.towers, state.monolith, state.raven))
    at_limit = state.turn >= config.max_turns
    if phase == EXCHANGE and (at_limit or not has_move):
        raise ConfigError("phase exchange needs a legal exchange and turn < max_turns")
    if phase == OVER and has_move and not (at_limit and config.at_max_turns == "score"):
        raise ConfigError("phase over needs no legal exchange, or max_turns reached with at_max_turns='score'")
    if phase == TRUNCATED and not (at_limit and config.at_max_turns == "truncate"):
        raise ConfigError("phase truncated needs max_turns reached with at_max_turns='truncate'")
