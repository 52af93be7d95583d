"""Saved quarry states the rules cannot play are refused, naming the field (issue 29); the save/load
contract every game keeps is in tests/test_conformance.py."""

from __future__ import annotations

import copy

from maya_envs.maya_quarry.rules import MayaQuarryRules
from tests.conformance import assert_refused, first_saved_in_phase, saved_states


def test_quarry_states_the_rules_cannot_play_areassert_refused():
    rules = MayaQuarryRules({"num_players": 3})
    build = first_saved_in_phase(rules, 4, "build")
    assert_refused(rules, {**build, "phase": "protect"}, "resolving", "phase")  # was: no legal action
    workers = first_saved_in_phase(rules, 4, "workers")
    minus3 = first_saved_in_phase(MayaQuarryRules({"num_players": 3, "skip_forced": False}), 5, "minus3")
    assert_refused(rules, {**workers, "resolving": minus3["resolving"]}, "resolving")  # a copied resolving
    # a column with more cards than the seats own (the observation's hand counts went past 1)
    placed = next(data for data in saved_states(rules, 4) if data["phase"] == "workers" and any(data["columns"]))
    column = next(q for q, col in enumerate(placed["columns"]) if col)
    columns = copy.deepcopy(placed["columns"])
    columns[column].append(columns[column][0])
    assert_refused(rules, {**placed, "columns": columns}, "hands", "columns")
    advanced = MayaQuarryRules({"num_players": 4, "variant": "advanced"})
    data = first_saved_in_phase(advanced, 4, "workers")
    assert_refused(advanced, {**data, "phase": "blue_choice"}, "choosers", "phase")  # was: a raw IndexError
    five = MayaQuarryRules({"num_players": 5, "variant": "advanced"})
    bidding = next(d for d in saved_states(five, 4) if d["phase"] == "bid" and max(d["bids"]) > 0)
    bidder = bidding["bids"].index(max(bidding["bids"]))
    held = {**bidding, "blue_holder": [bidder, -1, -1, -1]}  # found by the extended fuzz: stuck later
    assert_refused(five, held, "blue_holder")


def test_the_saved_state_header_is_maya_quarry_state_version_3():
    """The saved format is pinned: a change to it bumps the version (older saves then refused)."""
    data = next(saved_states(MayaQuarryRules({"num_players": 3}), 0))
    assert (data["schema"], data["version"]) == ("maya_quarry.state", 3)
