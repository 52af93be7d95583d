"""Maya (Abacusspiele 2003) state save/load: a versioned, JSON-able dict (the contract of
:mod:`maya_envs.core.state_dict`).

Schema ``{"schema": "maya_quarry.state", "version": 3, ...}`` then every
:class:`~maya_envs.maya_quarry.rules.state.MayaQuarryState` attribute under its own name:
ints, lists of ints and bools, ``columns`` as lists of ``[seat, card]`` pairs, ``phase`` as its
name (:data:`~maya_envs.maya_quarry.rules.state.PHASE_NAMES`); the legal-action cache is not
saved. Older dicts still load: ``{"schema": "maya_quarry.state/2"}`` (the same keys) and
``{"schema": "maya_quarry.state/1"}`` (the basic game before the advanced variant: its fields
get their neutral values).

:func:`from_dict` checks every field's type, length and range, then every invariant the rules
keep (:func:`maya_envs.maya_quarry.rules.invariants.check_invariants`: blocks and worker cards
conserved, quarry and level capacities, each phase holding only what it can hold, the
variant's fields, a legal action for the seat to move), and raises
:class:`~maya_envs.core.errors.StateError` naming the first bad field. So a loaded state plays
to the end with legal moves and observations inside ``Box(0, 1)``
(``tests/maya_quarry/test_state_fuzz.py`` checks thousands of mutated saves).

It lives in the rules package, beside the state and phase modules it reads: importing any of
them runs ``rules/__init__.py``, which imports the engine, which saves and loads states, so
from outside the package it was an import loop (issue 31). :mod:`maya_envs.maya_quarry.serialize`
keeps the path every game has.

Pure: standard library only.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from maya_envs.core import state_dict as V
from maya_envs.core.checks import is_int
from maya_envs.core.errors import StateError
from maya_envs.maya_quarry.actions import CARD_COUNTS, MAX_BID, MAX_LEVELS, NUM_BLUE, NUM_CARD_TYPES
from maya_envs.maya_quarry.rules.invariants import check_invariants
from maya_envs.maya_quarry.rules.state import ADVANCED_NEUTRAL, NUM_ROUNDS, PHASE_NAMES, MayaQuarryState, Phase

GAME = "maya_quarry"
VERSION = 3
LEGACY_SCHEMAS = {"maya_quarry.state/2": 2, "maya_quarry.state/1": 1}
"""The schemas written before the common header, with the version they stand for."""
FIELDS = tuple(f.name for f in fields(MayaQuarryState) if f.name != "_cache")


def to_dict(state: MayaQuarryState) -> dict[str, Any]:
    """The JSON-able dict of ``state`` (schema in the module docstring)."""
    out = V.header(GAME, VERSION)
    for name in FIELDS:
        value = getattr(state, name)
        if name == "phase":
            value = PHASE_NAMES[value]
        elif name == "columns":
            value = [[[seat, card] for seat, card in col] for col in value]
        elif isinstance(value, list):
            value = list(value)
        out[name] = value
    return out


def from_dict(data: Any, rules: Any) -> MayaQuarryState:
    """Rebuild and validate a state written by :func:`to_dict` (or an older version) for
    ``rules`` (a :class:`~maya_envs.maya_quarry.rules.MayaQuarryRules`).

    Raises:
        StateError: a wrong schema or version, a missing or unknown key, a bad field (named),
            or a broken invariant (:func:`maya_envs.maya_quarry.rules.invariants.check_invariants`).
    """
    data = _upgrade(data)
    V.read_header(data, GAME, (VERSION,))
    V.check_keys(data, ("schema", "version", *FIELDS))
    n = V.int_field("num_players", data["num_players"], 3, 5)
    if n != rules.num_players:
        raise StateError("num_players", f"{n} but these rules are for {rules.num_players}")
    values = {name: data[name] for name in FIELDS}
    values.update(_check_fields(data, n, rules.num_quarries, rules.num_pyramids))
    state = MayaQuarryState(**values)
    check_invariants(state, rules)
    return state


def _upgrade(data: Any) -> Any:
    """A version 1 or 2 dict in the version 3 form (version 1: the advanced fields neutral)."""
    if not isinstance(data, dict) or data.get("schema") not in LEGACY_SCHEMAS:
        return data
    old = LEGACY_SCHEMAS[data["schema"]]
    data = {**data, **V.header(GAME, VERSION)}
    if old == 1 and "bids" not in data:
        n = data.get("num_players")
        data = {**data, **ADVANCED_NEUTRAL, "bids": [-1] * n if is_int(n, numpy=False) else None}
    return data


def _check_fields(data: dict[str, Any], n: int, num_quarries: int, num_pyramids: int) -> dict[str, Any]:
    """Type, length and range of every field; returns the values that need converting."""
    V.int_field("round", data["round"], 0, NUM_ROUNDS - 1)
    V.choice("phase", data["phase"], PHASE_NAMES)
    for key in ("start", "turn"):
        V.int_field(key, data[key], 0, n - 1)
    V.int_field("actor", data["actor"], -1, n - 1)
    for key in ("gold", "pool", "held", "deduct"):
        V.int_list(key, data[key], n, 0, 10**6)
    V.int_list("board", data["board"], num_pyramids * MAX_LEVELS * n, 0, 10**6)
    for index, value in enumerate(V.int_list("hands", data["hands"], n * NUM_CARD_TYPES, 0, 2)):
        if value > CARD_COUNTS[index % NUM_CARD_TYPES]:
            raise StateError(f"hands[{index}]", f"{value} exceeds the {CARD_COUNTS[index % NUM_CARD_TYPES]} owned")
    V.bool_list("passed", data["passed"], n)
    V.bool_list("ever_full", data["ever_full"], num_pyramids * MAX_LEVELS)
    V.int_field("resolving", data["resolving"], -1, num_quarries)
    V.int_list("pending", data["pending"], None, 0, n - 1)
    V.int_field("protect_q", data["protect_q"], -1, num_quarries - 1)
    V.int_field("protect_seat", data["protect_seat"], -1, n - 1)
    V.int_list("holder", data["holder"], 7, -1, n - 1)
    V.int_field("reloc_src", data["reloc_src"], -1, num_pyramids * MAX_LEVELS - 1)
    V.int_field("double_left", data["double_left"], 0, 2)
    _check_advanced(data, n, num_quarries)
    return {
        "phase": Phase(PHASE_NAMES.index(data["phase"])),
        "columns": _columns(data["columns"], n, num_quarries),
        **{k: list(data[k]) for k in FIELDS if isinstance(data[k], list) and k != "columns"},
    }


def _columns(columns: Any, n: int, num_quarries: int) -> list[list[tuple[int, int]]]:
    if not isinstance(columns, list) or len(columns) != num_quarries:
        raise StateError("columns", f"must be a list of {num_quarries} quarry columns")
    parsed = []
    for q, col in enumerate(columns):
        if not isinstance(col, list):
            raise StateError(f"columns[{q}]", "must be a list of [seat, card] pairs")
        for index, pair in enumerate(col):
            if not (isinstance(pair, (list, tuple)) and len(pair) == 2):
                raise StateError(f"columns[{q}][{index}]", f"must be a [seat, card] pair, got {pair!r}")
            V.int_field(f"columns[{q}][{index}].seat", pair[0], 0, n - 1)
            V.int_field(f"columns[{q}][{index}].card", pair[1], 0, NUM_CARD_TYPES - 1)
        parsed.append([(int(s), int(c)) for s, c in col])
    return parsed


def _check_advanced(data: dict[str, Any], n: int, num_quarries: int) -> None:
    V.int_list("bids", data["bids"], n, -1, MAX_BID)
    offer = V.int_list("blue_offer", data["blue_offer"], None, 0, NUM_BLUE - 1)
    if offer and (offer != sorted(set(offer)) or len(offer) != n - 1):
        raise StateError("blue_offer", f"must be empty or {n - 1} sorted distinct blue ids, got {offer!r}")
    V.int_list("blue_holder", data["blue_holder"], NUM_BLUE, -1, n - 1)
    V.int_list("choosers", data["choosers"], None, 0, n - 1)
    for key in ("plus2_q", "joker_protect_q"):
        V.int_field(key, data[key], -1, num_quarries - 1)
    for key in ("plus2_seat", "joker_seat"):
        V.int_field(key, data[key], -1, n - 1)
    if data["joker_as"] not in (-1, 0, 1, 2, 4, 5, 6) or isinstance(data["joker_as"], bool):
        raise StateError(
            "joker_as", f"must be -1 or a green marker id other than FIRST_PLAYER (3), got {data['joker_as']!r}"
        )
