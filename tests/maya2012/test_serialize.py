"""Maya (2012) state save/load: exact round trips and rejection of impossible states."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maya_envs.bots import RandomBot
from maya_envs.core.errors import ConfigError
from maya_envs.maya2012.rules import Maya2012Config, Maya2012Rules
from maya_envs.maya2012.serialize import from_dict, to_dict
from tests.conformance import play_states


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), setup=st.sampled_from(["choose", "random"]))
def test_round_trip_through_json_is_exact_for_every_state_of_a_game(seed, setup):
    rules = Maya2012Rules({"setup": setup})
    bots = [RandomBot(rules, seed), RandomBot(rules, seed + 1)]
    for state in play_states(rules, bots, np.random.default_rng(seed)):
        data = json.loads(json.dumps(to_dict(state)))
        restored = from_dict(data, rules.config)
        assert restored == state
        assert rules.legal_actions(restored) == rules.legal_actions(state)


def mid_game_dict(seed: int = 0) -> dict:
    rules = Maya2012Rules({"setup": "random"})
    states = list(play_states(rules, [RandomBot(rules, 1), RandomBot(rules, 2)], np.random.default_rng(seed)))
    with_pieces = [s for s in states if sum(map(sum, s.ladders)) >= 2 and s.phase == 2]
    return to_dict(with_pieces[len(with_pieces) // 2])


def corrupt(mutation):
    data = copy.deepcopy(mid_game_dict())
    mutation(data)
    return data


@pytest.mark.parametrize(
    ("mutation", "message"),
    [
        (lambda d: d.update(version=3), r"state.version: must be one of \[1, 2\], got 3"),
        (lambda d: d.pop("raven"), r"missing keys \['raven'\]"),
        (lambda d: d.update(extra=1), r"unknown keys \['extra'\]"),
        (lambda d: d["towers"][0].__setitem__(4, d["towers"][1][4]), r"level 5 is not a permutation"),
        (lambda d: d["towers"][0].__setitem__(0, 9), r"colour outside 0\.\.8"),
        (lambda d: d.update(monolith=[0, 4]), r"monolith=\[0, 4\]; allowed: null or one of"),
        (lambda d: d.update(raven=1), r"raven=1; allowed: 2\.\.5 or null"),
        (lambda d: d["ladders"][0].__setitem__(0, 3), r"tower 0 holds \d ladders but has 2 spaces|ladders placed"),
        (lambda d: d.update(ladders_left=[15, 15]), r"ladders placed \+ left != 15"),
        (lambda d: d["priests"].__setitem__(4, 0), r"a priest stands on tower 4, which is not complete"),
        (lambda d: d.update(to_move=2), r"to_move=2; allowed: 0 or 1"),
        (lambda d: d.update(phase="setup_raven"), r"phase setup_raven does not match"),
        (lambda d: d.update(phase="finished"), r"phase='finished'; allowed"),
        (lambda d: d.update(turn=-1), r"state.turn: must be an int in 0\.\.300, got -1"),
        (lambda d: d.update(phase="over"), r"phase over needs no legal exchange"),
    ],
)
def test_corrupt_dicts_are_rejected_with_a_clear_error(mutation, message):
    with pytest.raises(ConfigError, match=message):
        from_dict(corrupt(mutation), Maya2012Config(setup="random"))
