"""Saved Yaxha states the rules cannot play are refused, naming the field (issue 29); the save/load
contract every game keeps is in tests/test_conformance.py."""

from __future__ import annotations

import copy

from maya_envs.yaxha.rules import YaxhaRules
from tests.conformance import assert_refused, first_saved_in_phase


def test_yaxha_states_the_rules_cannot_play_areassert_refused():
    rules = YaxhaRules(num_players=3)
    build = first_saved_in_phase(rules, 4, "build")
    assert_refused(rules, {**build, "hands": [[0] * 5] * 3}, "hands")  # was: no legal action
    select = first_saved_in_phase(rules, 4, "select")
    assert_refused(rules, {**select, "bag": [0] * 5}, "bag")  # was: ValueError('high <= 0') at the next draw
    assert_refused(rules, {**select, "pending": [0, 1]}, "pending")
    data = copy.deepcopy(build)
    data["pyramids"][0][-1] = 0  # a cube at the top without its supports
    assert_refused(rules, data, "pyramids", "discarded")


def test_the_saved_state_header_is_yaxha_state_version_2():
    """The saved format is pinned: a change to it bumps the version (older saves then refused)."""
    data = first_saved_in_phase(YaxhaRules(num_players=2), 0, "select")
    assert (data["schema"], data["version"]) == ("yaxha.state", 2)
