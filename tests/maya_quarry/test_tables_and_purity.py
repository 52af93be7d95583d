"""Action table round trip, rules purity, the component table's validation and the state schema."""

from __future__ import annotations

import json

import numpy as np
import pytest

from maya_envs.bots import make_bot
from maya_envs.core.errors import ConfigError
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules import load_components

from ..conformance import assert_pure, play_states
from .helpers import default_table, make_rules, table_with


def test_action_round_trip_covers_every_id():
    strings = set()
    for action in range(A.NUM_ACTIONS):
        move = A.decode(action)
        assert A.encode(move) == action
        strings.add(A.action_to_string(action))
    assert len(strings) == A.NUM_ACTIONS == 114
    assert A.action_to_string(A.worker_id(2, 6)) == "worker q2 card -3"
    assert A.action_to_string(A.place_id(1, 1), ("Tikal", "Copan")) == "place Copan L2"
    with pytest.raises(ValueError, match="out of range"):
        A.decode(114)
    with pytest.raises(ValueError, match="unknown move kind"):
        A.encode(A.Move("dance", 3))


def test_basic_ids_are_stable():
    """Issue 5 appends ids after 113; these anchors must never move."""
    assert (A.WORKER_PASS, A.MINUS3_BASE, A.PROTECT_BASE, A.RELOCATE_SRC_BASE, A.APPOINT_BASE) == (49, 50, 55, 62, 88)
    assert (A.PLACE_BASE, A.DOUBLE_PAY, A.FORCED_PASS, A.NUM_ACTIONS) == (93, 109, 113, 114)


def test_rules_are_pure():
    files = [
        "maya_quarry/actions.py",
        "maya_quarry/features.py",
        "maya_quarry/observation.py",
        "maya_quarry/rules/__init__.py",
        "maya_quarry/rules/config.py",
        "maya_quarry/rules/state.py",
        "maya_quarry/rules/quarry.py",
        "maya_quarry/rules/building.py",
        "maya_quarry/rules/scoring.py",
        "maya_quarry/rules/engine.py",
        "maya_quarry/rules/flow.py",
        "maya_quarry/rules/serialize.py",
        "maya_quarry/rules/invariants.py",
        "maya_quarry/serialize.py",
        "maya_quarry/invariants.py",
    ]
    assert_pure(
        files,
        (
            "maya_envs.core",
            "maya_envs.games",
            "maya_envs.maya_quarry.actions",
            "maya_envs.maya_quarry.rules",
            "maya_envs.maya_quarry.observation",
            "maya_envs.maya_quarry.serialize",
            "maya_envs.maya_quarry.invariants",
        ),
    )


def test_shipped_table_is_marked_non_canonical():
    table = default_table()
    assert table["canonical"] is False and "NON-CANONICAL" in table["note"]
    for n in (3, 4, 5):
        comp = load_components(None, n)
        assert not comp.canonical
        assert len(comp.pyramids) == 4
    assert [p.name for p in load_components(None, 4).pyramids] == ["Tikal", "Copan", "Uxmal", "Palenque"]


def test_user_table_replaces_the_default(tmp_path):
    table = table_with(lambda t: t.update(canonical=True))
    table["quarries"]["3"][0]["ranks"] = [3, 2]
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(table))
    rules = make_rules(3, components=str(path))
    assert rules.components.canonical and rules.components.quarries[0].ranks == (3, 2)


def _set(path, value):
    def change(table):
        node = table
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (
            _set(["quarries", "3", 1, "max_cards"], 9),
            r"components.quarries\['3'\]\[1\].max_cards: must be an int in 1..8, got 9",
        ),
        (_set(["quarries", "3", 0, "ranks"], []), r"components.quarries\['3'\]\[0\].ranks"),
        (_set(["quarries", "3", 0, "ranks"], [2, -1]), r"components.quarries\['3'\]\[0\].ranks\[1\]"),
        (_set(["quarries", "3", 0, "marker"], "GOLD_RUSH"), r"components.quarries\['3'\]\[0\].marker: 'GOLD_RUSH'"),
        (_set(["quarries", "3", 1, "marker"], "FIRST_PLAYER"), r"marker: FIRST_PLAYER is already on another quarry"),
        (_set(["quarries", "3", 0, "colour"], 1), r"components.quarries\['3'\]\[0\]: unknown field"),
        (_set(["pyramids", "Copan", 1], [6, 1, 2]), r"components.pyramids\['Copan'\]\[1\].gold_second"),
        (_set(["pyramids", "Copan", 0], [2, 3, 1]), r"components.pyramids\['Copan'\]\[0\].spaces"),
        (_set(["pyramid_sets", "3"], ["Copan", "Atlantis"]), r"unknown pyramid 'Atlantis'"),
        (_set(["blocks_per_color"], "many"), r"components.blocks_per_color"),
        (_set(["schema"], "v2"), r"components.schema"),
        (_set(["extra"], 1), r"components: unknown field\(s\) \['extra'\]"),
    ],
)
def test_bad_component_tables_name_the_field(change, match):
    with pytest.raises(ConfigError, match=match):
        make_rules(3, components=table_with(change))


def _field_paths(node, path=()):
    """Every key/index path inside ``node`` (a JSON value), the root's children first."""
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield (*path, key)
        yield from _field_paths(child, (*path, key))


WRONG_VALUES = [None, True, 1.5, -1, 10**9, "x", [], {}, [[1]], {"a": 1}, [None], ["x", "x"], [1, 2, 3]]


def test_every_field_of_the_table_with_a_wrong_value_is_a_config_error():
    """Each field of the shipped table replaced by each value of another type or range: a
    ConfigError naming the field, never a TypeError/KeyError (a list as a pyramid name was an
    'unhashable type' TypeError); or a table that still loads."""
    table = default_table()
    for path in _field_paths(table):
        for value in WRONG_VALUES:
            changed = json.loads(json.dumps(table))
            parent = changed
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = value
            for n in (3, 4, 5):
                try:
                    load_components(changed, n)
                except ConfigError as error:
                    assert str(error).startswith("components"), (path, value, error)


def test_missing_component_file(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        make_rules(3, components=str(tmp_path / "none.json"))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_state_dict_round_trip(n):
    rules = make_rules(n)
    bots = [make_bot("heuristic", rules, seed=seat) for seat in range(n)]
    for index, s in enumerate(play_states(rules, bots, np.random.default_rng(n))):
        if index % 5:
            continue
        data = json.loads(json.dumps(rules.state_to_dict(s)))
        back = rules.state_from_dict(data)
        assert back == s
        assert rules.legal_actions(back) == rules.legal_actions(s)


@pytest.mark.parametrize(
    ("key", "value", "match"),
    [
        ("schema", "maya_quarry.state/0", "state.schema"),
        ("phase", "dancing", "state.phase"),
        ("gold", [1, 2], "state.gold"),
        ("hands", [2] * 21, r"state.hands\[0\]: 2 exceeds"),
        ("columns", [[[0, 9]], [], [], []], r"state.columns\[0\]\[0\].card"),
        ("pool", [0, 26, 26], "seat 0 has 2 blocks, expected 28"),
    ],
)
def test_state_from_dict_rejects_bad_fields(key, value, match):
    rules = make_rules(3)
    data = rules.state_to_dict(rules.initial_state())
    data[key] = value
    with pytest.raises(ConfigError, match=match):
        rules.state_from_dict(data)
    with pytest.raises(ConfigError, match="unknown keys"):
        rules.state_from_dict({**rules.state_to_dict(rules.initial_state()), "x": 1})
