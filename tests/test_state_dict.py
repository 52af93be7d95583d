"""One save/load contract for every game (issue 18): ``rules.state_to_dict`` writes the header
``{"schema": "<game>.state", "version": N}``, a seeded mid-game state of every game, player
count and variant goes through JSON and back unchanged, and a corrupted field raises
:class:`~maya_envs.core.errors.StateError` naming that field."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from maya_envs.bots import make_bot
from maya_envs.core import state_dict as V
from maya_envs.core.errors import ConfigError, StateError
from maya_envs.maya2012.rules import Maya2012Rules
from maya_envs.maya_quarry.rules import MayaQuarryRules
from maya_envs.yaxha.rules import YaxhaRules
from tests.conformance import play_states

CASES = {
    "maya2012-2p": (lambda: Maya2012Rules({"setup": "random"}), "maya2012", 2),
    "maya2012-2p-draft": (lambda: Maya2012Rules({"setup": "draft"}), "maya2012", 2),
    "maya2012-3p": (lambda: Maya2012Rules({"num_players": 3}), "maya2012", 2),
    "maya2012-4p": (lambda: Maya2012Rules({"num_players": 4}), "maya2012", 2),
    "quarry-3p": (lambda: MayaQuarryRules({"num_players": 3}), "maya_quarry", 3),
    "quarry-4p-advanced": (lambda: MayaQuarryRules({"num_players": 4, "variant": "advanced"}), "maya_quarry", 3),
    "quarry-5p-advanced": (lambda: MayaQuarryRules({"num_players": 5, "variant": "advanced"}), "maya_quarry", 3),
    "yaxha-2p": (lambda: YaxhaRules(num_players=2), "yaxha", 2),
    "yaxha-3p-fixed": (lambda: YaxhaRules(num_players=3, footprint="fixed"), "yaxha", 2),
    "yaxha-4p": (lambda: YaxhaRules(num_players=4), "yaxha", 2),
}


def _states(rules, seed: int, steps: int):
    """Every state of a seeded random game, at most ``steps`` moves long."""
    rng = np.random.default_rng(seed)
    state = rules.initial_state(rng)
    yield state
    for _ in range(steps):
        if rules.is_terminal(state) or rules.is_truncated(state):
            return
        state = rules.apply_action(state, int(rng.choice(rules.legal_actions(state))), rng)
        yield state


@pytest.mark.parametrize("case", sorted(CASES))
def test_states_go_through_json_and_back(case):
    make, game, version = CASES[case]
    rules = make()
    checked = 0
    for index, state in enumerate(_states(rules, seed=3, steps=60)):
        if index % 5:
            continue
        data = json.loads(json.dumps(rules.state_to_dict(state)))
        assert {k: data[k] for k in ("schema", "version")} == {"schema": f"{game}.state", "version": version}
        assert rules.state_from_dict(data) == state
        checked += 1
    assert checked >= 5


def _mid_game(rules):
    *_, state = _states(rules, seed=4, steps=25)
    return rules.state_to_dict(state)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_corrupted_field_is_named(case):
    make, game, version = CASES[case]
    rules = make()
    data = _mid_game(rules)
    fields = [k for k in data if k not in ("schema", "version")]
    assert len(fields) >= 8
    for key in fields:
        for bad in ("x", [None] * 3):
            broken = copy.deepcopy(data)
            broken[key] = bad
            with pytest.raises(StateError) as caught:
                rules.state_from_dict(broken)
            assert caught.value.field.split("[")[0].split(".")[0] in (key, "num_players", "pool/held/board")
            assert str(caught.value).startswith(f"state.{caught.value.field}")
            assert isinstance(caught.value, ConfigError)
    for key, value, field in [("schema", "other.state", "schema"), ("version", 99, "version")]:
        with pytest.raises(StateError, match=rf"state\.{field}: ") as caught:
            rules.state_from_dict({**data, key: value})
        assert caught.value.field == field
    with pytest.raises(StateError, match=r"unknown keys \['extra'\]"):
        rules.state_from_dict({**data, "extra": 1})


def test_validators_name_the_item():
    with pytest.raises(StateError, match=r"^state\.grid\[1\]\[0\]: must be an int in 0\.\.3, got 9$"):
        V.int_grid("grid", [[0, 1], [9, 2]], 2, 2, 0, 3)
    with pytest.raises(StateError, match=r"^state\.flags: must be a list of 2 bools"):
        V.bool_list("flags", [True, 1], 2)
    with pytest.raises(StateError, match=r"^state\.count: must be an int in 0\.\.5, got True$"):
        V.int_field("count", True, 0, 5)
    assert V.int_list("xs", [1, 2], None, 0, 9) == [1, 2]
    assert V.read_header(V.header("g", 2), "g", (1, 2)) == 2


# -- issue 29: states the rules cannot play are refused, naming the field -------------------


def _first(rules, seed: int, phase: str, steps: int = 2000):
    """The saved dict of the first state in ``phase`` of a seeded random game."""
    for state in _states(rules, seed, steps):
        data = rules.state_to_dict(state)
        if data["phase"] == phase:
            return json.loads(json.dumps(data))
    raise AssertionError(f"no state in phase {phase!r}")


def _refused(rules, data, *fields):
    with pytest.raises(StateError) as caught:
        rules.state_from_dict(data)
    assert caught.value.field.split("[")[0] in fields, str(caught.value)
    return caught.value


def test_quarry_states_the_rules_cannot_play_are_refused():
    rules = MayaQuarryRules({"num_players": 3})
    build = _first(rules, 4, "build")
    _refused(rules, {**build, "phase": "protect"}, "resolving", "phase")  # was: no legal action
    workers = _first(rules, 4, "workers")
    minus3 = _first(MayaQuarryRules({"num_players": 3, "skip_forced": False}), 5, "minus3")
    _refused(rules, {**workers, "resolving": minus3["resolving"]}, "resolving")  # a copied resolving
    # a column with more cards than the seats own (the observation's hand counts went past 1)
    placed = next(data for data in _states_dicts(rules, 4) if data["phase"] == "workers" and any(data["columns"]))
    column = next(q for q, col in enumerate(placed["columns"]) if col)
    columns = copy.deepcopy(placed["columns"])
    columns[column].append(columns[column][0])
    _refused(rules, {**placed, "columns": columns}, "hands", "columns")
    advanced = MayaQuarryRules({"num_players": 4, "variant": "advanced"})
    data = _first(advanced, 4, "workers")
    _refused(advanced, {**data, "phase": "blue_choice"}, "choosers", "phase")  # was: a raw IndexError
    five = MayaQuarryRules({"num_players": 5, "variant": "advanced"})
    bidding = next(d for d in _states_dicts(five, 4) if d["phase"] == "bid" and max(d["bids"]) > 0)
    bidder = bidding["bids"].index(max(bidding["bids"]))
    held = {**bidding, "blue_holder": [bidder, -1, -1, -1]}  # found by the extended fuzz: stuck later
    _refused(five, held, "blue_holder")


def _states_dicts(rules, seed):
    for state in _states(rules, seed, 400):
        yield json.loads(json.dumps(rules.state_to_dict(state)))


def test_yaxha_states_the_rules_cannot_play_are_refused():
    rules = YaxhaRules(num_players=3)
    build = _first(rules, 4, "build")
    _refused(rules, {**build, "hands": [[0] * 5] * 3}, "hands")  # was: no legal action
    select = _first(rules, 4, "select")
    _refused(rules, {**select, "bag": [0] * 5}, "bag")  # was: ValueError('high <= 0') at the next draw
    _refused(rules, {**select, "pending": [0, 1]}, "pending")
    data = copy.deepcopy(build)
    data["pyramids"][0][-1] = 0  # a cube at the top without its supports
    _refused(rules, data, "pyramids", "discarded")


def test_every_state_of_seeded_games_keeps_the_invariants():
    """No false alarm: every state the rules reach loads back unchanged (all phases), in random
    and heuristic games (the heuristic's FIRST_PLAYER appointments move the start player
    after the auction)."""
    for case in sorted(CASES):
        rules = CASES[case][0]()
        games = [_states(rules, seed, 3000) for seed in (0, 1)]
        bots = [make_bot("heuristic", rules, seed=seat) for seat in range(rules.spec.num_players)]
        games.append(play_states(rules, bots, np.random.default_rng(2)))
        for states in games:
            for state in states:
                assert rules.state_from_dict(json.loads(json.dumps(rules.state_to_dict(state)))) == state
