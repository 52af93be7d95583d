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

:func:`from_dict` checks every field's type, length and range (the Monolith on an adjacent
pair, the Raven on an exchange level), then every invariant the rules keep
(:func:`maya_envs.maya2012.invariants.check_invariants`: level permutations, towers without a
repeated colour, ladder spaces, piece conservation, priests only on complete towers, task
cards: every card exactly once with the centre card set aside, a phase consistent with the
other fields), and raises :class:`~maya_envs.core.errors.StateError` naming the first bad
field. So a loaded state plays to the end with legal moves and in-bounds observations
(``tests/maya2012/test_state_fuzz.py`` checks thousands of mutated saves).

Pure: standard library only.
"""

from __future__ import annotations

from typing import Any

from maya_envs.core import state_dict as V
from maya_envs.core.checks import is_int
from maya_envs.core.errors import StateError
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012 import state as S
from maya_envs.maya2012.invariants import check_invariants
from maya_envs.maya2012.state import Maya2012Config, Maya2012State

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
        "towers": [[None if c == S.EMPTY else c for c in tower] for tower in state.towers],
        "monolith": list(A.PAIRS[state.monolith]) if state.monolith != S.NO_MONOLITH else None,
        "raven": state.raven if state.raven != S.NO_RAVEN else None,
        "ladders": [list(row) for row in state.ladders],
        "priests": [None if owner == S.NO_PRIEST else owner for owner in state.priests],
        "ladders_left": list(state.ladders_left),
        "priests_left": list(state.priests_left),
        "to_move": state.to_move,
        "phase": S.PHASE_NAMES[state.phase],
        "turn": state.turn,
        "tasks": [list(colours) for colours in state.tasks],
        "spare": list(state.spare),
        "declared": state.declared if state.declared != S.NO_SEAT else None,
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
    if data["phase"] not in S.PHASE_NAMES:
        raise StateError("phase", f"phase={data['phase']!r}; allowed: {list(S.PHASE_NAMES)}")
    phase = S.PHASE_NAMES.index(data["phase"])
    towers = _towers(data["towers"], drafting=phase == S.DRAFT)
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
    if data["to_move"] not in seats:
        raise StateError("to_move", f"to_move={data['to_move']!r}; allowed: {_either(seats)}")
    turn = V.int_field("turn", data["turn"], 0, config.max_turns)
    declared = data["declared"]
    if declared is not None and (declared not in seats or n == 2 or phase != S.OVER):
        raise StateError(
            "declared", f"declared={declared!r}; allowed: null, or a seat {seats} once a 3-4p game is over"
        )
    block = data["draft_block"]
    if (block is None) != (phase != S.DRAFT) or (block is not None and block not in range(9)):
        raise StateError("draft_block", f"draft_block={block!r}; allowed: a colour 0..8 in phase draft, else null")
    tasks, spare = _cards(data["tasks"], data["spare"], n, dealt=n > 2 and phase != S.DRAFT)
    state = Maya2012State(
        towers=towers,
        monolith=monolith,
        raven=S.NO_RAVEN if raven is None else raven,
        ladders=ladders,
        priests=tuple(S.NO_PRIEST if p is None else p for p in priests),
        ladders_left=ladders_left,
        priests_left=priests_left,
        to_move=data["to_move"],
        phase=phase,
        turn=turn,
        tasks=tasks,
        spare=spare,
        declared=S.NO_SEAT if declared is None else declared,
        draft_block=-1 if block is None else block,
    )
    check_invariants(state, config)
    return state


def _either(values: list[int]) -> str:
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


def _towers(value: Any, drafting: bool) -> tuple[tuple[int, ...], ...]:
    if drafting and isinstance(value, list):
        value = [[S.EMPTY if c is None else c for c in t] if isinstance(t, list) else t for t in value]
    towers = V.int_grid("towers", value, 9, 5, S.EMPTY if drafting else 0, 10**6)
    for tower, colours in enumerate(towers):
        if any(not S.EMPTY <= c <= 8 for c in colours):
            raise StateError("towers", f"tower {tower} has a colour outside 0..8: {list(colours)}")
    return towers


def _monolith(value: Any) -> int:
    if value is None:
        return S.NO_MONOLITH
    pair = tuple(value) if isinstance(value, list) else None
    if pair not in A.PAIRS:
        raise StateError("monolith", f"monolith={value!r}; allowed: null or one of {[list(p) for p in A.PAIRS]}")
    return A.PAIRS.index(pair)


def _cards(tasks: Any, spare: Any, n: int, dealt: bool) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Parse the task cards: undealt ``[]``/``[]``; dealt: ``n`` pairs and ``spare`` 2 cards
    (3p) or none (4p), all ints (which colours: :mod:`maya_envs.maya2012.invariants`)."""
    if not dealt:
        if tasks != [] or spare != []:
            field = "tasks" if tasks != [] else "spare"
            raise StateError(field, f"tasks={tasks!r}, spare={spare!r}; allowed: [] and [] (no cards dealt)")
        return (), ()
    spare_count = 2 if n == 3 else 0
    ok = isinstance(tasks, list) and len(tasks) == n and all(isinstance(t, list) and len(t) == 2 for t in tasks)
    ok = ok and isinstance(spare, list) and len(spare) == spare_count
    cards = [c for t in tasks for c in t] + list(spare) if ok else []
    if not ok or not all(is_int(c, numpy=False) for c in cards):
        field = (
            "spare" if isinstance(spare, list) and len(spare) != spare_count or not isinstance(spare, list) else "tasks"
        )
        raise StateError(
            field,
            f"tasks={tasks!r}, spare={spare!r}; allowed: {n} lists of 2 colours and {spare_count} spare colour(s)",
        )
    return tuple(tuple(t) for t in tasks), tuple(spare)
