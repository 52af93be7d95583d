"""The quarry game's move texts: face-down cards, the rules' reasons, moves its table cannot hold,
seats and markers named as players do. Moved from tests/test_notation.py (issue 31 item 2: a
test about one game lives in its folder)."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.bots import RandomBot
from maya_envs.notation import describe_action
from maya_envs.records import make_env
from tests.helpers.notation import random_states


def test_hidden_parts_read_as_the_rules_say():
    quarry = make_env("maya_quarry", num_players=3).unwrapped.rules
    state = quarry.initial_state(np.random.default_rng(0))
    from maya_envs.maya_quarry import actions as QA

    low, high = QA.worker_id(2, 0), QA.worker_id(2, 6)
    assert describe_action(quarry, state, low, 0, 1) == "worker q2 (Transport +2) card ? (low back)"
    assert describe_action(quarry, state, high, 0, 1) == "worker q2 (Transport +2) card ? (high back)"
    assert describe_action(quarry, state, low, 0, 0) == "worker q2 (Transport +2) card 3"


def test_reasons_name_the_rule():
    from maya_envs.notation import describe_end, why_illegal

    quarry = make_env("maya_quarry", num_players=3).unwrapped.rules
    state = quarry.initial_state(np.random.default_rng(0))
    from maya_envs.maya_quarry import actions as QA

    assert why_illegal(quarry, state, QA.worker_id(0, 0)).startswith("no worker card now: this is the setup phase")
    with pytest.raises(ValueError, match="out of range"):
        why_illegal(quarry, state, 10_000)
    finished = quarry.initial_state(np.random.default_rng(0))
    bots = [RandomBot(quarry, seed=s) for s in range(3)]
    while quarry.current_player(finished) >= 0:
        finished = quarry.apply_action(finished, bots[quarry.current_player(finished)].act(finished))
    text = describe_end(quarry, finished)
    assert text.startswith("the game ended: the third round was scored\ngold: player_0 ") and "winner" in text


def test_moves_the_table_cannot_hold_get_the_rule():
    from maya_envs.notation import read_move

    quarry = make_env("maya_quarry", num_players=3).unwrapped.rules
    for q in range(9):
        for value in range(-4, 10):
            read = read_move(quarry, f"worker q{q} card {value}")
            valid = q < 7 and value in (3, 4, 5, 6, 7, 8, -3)  # the table's q0..q6 (why_illegal: q4.. of 3p)
            assert isinstance(read, int) if valid else isinstance(read, str) and read, (q, value)
    assert read_move(quarry, "bid 31") == "bids go up to 30"
    assert read_move(quarry, "place atlantis L1").startswith("there is no pyramid 'atlantis'")


def test_quarry_moves_name_seats_and_markers_as_players_do():
    """No raw marker identifier (``BLUE_EXTRA_BLOCK``) and no seat offset (``+1``) in any move's
    words; a -3 names its target and an appointment the new start player, by seat."""
    import re

    from maya_envs.maya_quarry import actions as QA

    kinds = set()
    for options in ({"num_players": 3}, {"num_players": 5, "variant": "advanced"}):
        rules = make_env("maya_quarry", **options).unwrapped.rules
        n = rules.spec.num_players
        for seed in range(3):
            for state, mover in random_states(rules, seed):
                for action in rules.legal_actions(state):
                    for viewer in (None, mover, (mover + 1) % n):
                        text = describe_action(rules, state, action, mover, viewer)
                        assert not re.search(r"[A-Z]{2,}_[A-Z]|(on|player) \+\d", text), text
                    move = QA.decode(action, rules.spec.num_actions)
                    kinds.add(move.kind)
                    if move.kind == "minus3":
                        assert text.endswith(f"on player_{(mover + move.a) % n}")
                    if move.kind == "appoint":
                        assert f"appoints player_{(mover + move.a) % n}" in text
                    if move.kind == "blue_choose":
                        titles = ("Transport +4", "Joker", "Extra block", "+2 quarry points")
                        assert text == f"takes blue marker {titles[move.a]}"
    assert {"minus3", "appoint", "blue_choose", "joker", "protect", "worker"} <= kinds
