"""Yaxha state save/load: a versioned, JSON-able dict (the contract of
:mod:`maya_envs.core.state_dict`).

Schema ``{"schema": "yaxha.state", "version": 2, ...}``, then ``num_players``, ``footprint``
and every :class:`~maya_envs.yaxha.state.YaxhaState` field as ints and lists, with ``phase``
as its name (:data:`~maya_envs.yaxha.state.PHASES`). Version 1 dicts (``{"version": 1,
"game": "yaxha", ...}``, the same fields) still load.

:func:`from_dict` checks every field's type, length and range, then every invariant the rules
keep (:func:`maya_envs.yaxha.invariants.check_invariants`: cubes conserved between the bag,
the market, the hands, the pyramids and the discards; pyramids built by the placement rules;
each phase holding only what it can hold; a legal action for the seat to move), and raises
:class:`~maya_envs.core.errors.StateError` naming the first bad field. So a loaded state plays
to the end with legal moves and observations inside ``Box(0, 1)``
(``tests/yaxha/test_state_fuzz.py`` checks thousands of mutated saves).

Pure: standard library only.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from maya_envs.core import state_dict as V
from maya_envs.core.errors import StateError
from maya_envs.yaxha.actions import NUM_COLOURS
from maya_envs.yaxha.invariants import check_invariants
from maya_envs.yaxha.scoring import NUM_BONUS_CARDS
from maya_envs.yaxha.state import (
    CUBES_PER_TILE,
    NUM_BONUS_IN_PLAY,
    NUM_ROUNDS,
    PHASES,
    YaxhaState,
)

GAME = "yaxha"
VERSION = 2
FIELDS = tuple(f.name for f in dataclasses.fields(YaxhaState) if f.init)


def to_dict(state: YaxhaState, rules: Any) -> dict[str, Any]:
    """The JSON-able dict of ``state`` under ``rules`` (schema in the module docstring)."""
    out = V.header(GAME, VERSION)
    out.update(num_players=rules.num_players, footprint=rules.config.footprint)
    for name in FIELDS:
        value = getattr(state, name)
        if name == "phase":
            value = PHASES[value]
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        out[name] = value
    return out


def from_dict(data: Any, rules: Any) -> YaxhaState:
    """Rebuild and validate a state written by :func:`to_dict` (or version 1) for ``rules``
    (a :class:`~maya_envs.yaxha.rules.YaxhaRules`).

    Raises:
        StateError: a wrong schema or version, a missing or unknown key, another player count
            or footprint, a bad field (named), or a broken invariant
            (:func:`maya_envs.yaxha.invariants.check_invariants`).
    """
    if isinstance(data, dict) and data.get("version") == 1 and data.get("game") == GAME and "schema" not in data:
        data = {**{k: v for k, v in data.items() if k != "game"}, **V.header(GAME, VERSION)}
    V.read_header(data, GAME, (VERSION,))
    V.check_keys(data, ("schema", "version", "num_players", "footprint", *FIELDS))
    n, cells = rules.num_players, rules.geometry.num_cells
    if data["num_players"] != n:
        raise StateError("num_players", f"{data['num_players']!r}; these rules have {n}")
    if data["footprint"] != rules.config.footprint:
        raise StateError("footprint", f"{data['footprint']!r}; these rules have {rules.config.footprint!r}")
    V.choice("phase", data["phase"], PHASES)
    fresh, pending = data["fresh"], data["pending"]
    if not isinstance(fresh, list) or len(fresh) != n:
        raise StateError("fresh", f"must be a list of {n} lists of cells, got {fresh!r}")
    state = YaxhaState(
        round=V.int_field("round", data["round"], 0, NUM_ROUNDS),
        phase=PHASES.index(data["phase"]),
        bag=tuple(V.int_list("bag", data["bag"], NUM_COLOURS, 0, rules.config.cubes_per_colour)),
        market=V.int_grid("market", data["market"], n, NUM_COLOURS, 0, CUBES_PER_TILE),
        initiative=tuple(V.int_list("initiative", data["initiative"], n, 1, n)),
        choices=tuple(V.int_list("choices", data["choices"], n, -1, n - 1)),
        owner=tuple(V.int_list("owner", data["owner"], n, -1, n - 1)),
        pending=tuple(V.int_list("pending", pending, None, 0, n - 1)),
        hands=V.int_grid("hands", data["hands"], n, NUM_COLOURS, 0, CUBES_PER_TILE),
        build_step=V.int_field("build_step", data["build_step"], 0, CUBES_PER_TILE * n - 1),
        pyramids=V.int_grid("pyramids", data["pyramids"], n, cells, -1, NUM_COLOURS - 1),
        fresh=tuple(tuple(V.int_list(f"fresh[{i}]", f, None, 0, cells - 1)) for i, f in enumerate(fresh)),
        discarded=tuple(V.int_list("discarded", data["discarded"], n, 0, CUBES_PER_TILE * NUM_ROUNDS)),
        bonus_cards=tuple(V.int_list("bonus_cards", data["bonus_cards"], NUM_BONUS_IN_PLAY, 0, NUM_BONUS_CARDS - 1)),
    )
    check_invariants(state, rules)
    return state
