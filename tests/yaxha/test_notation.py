"""Yaxha's move texts: a hidden tile pick, the rules' reasons, moves its table cannot hold. Moved
from tests/test_notation.py (issue 31 item 2: a test about one game lives in its folder)."""

from __future__ import annotations

import numpy as np

from maya_envs.notation import describe_action
from maya_envs.records import make_env
from maya_envs.yaxha.actions import COLOURS


def test_hidden_parts_read_as_the_rules_say():
    yaxha = make_env("yaxha", num_players=2).unwrapped.rules
    state = yaxha.initial_state(np.random.default_rng(0))
    assert describe_action(yaxha, state, 1, 0, 1) == "pick tile ?"
    assert describe_action(yaxha, state, 1, 0, None) == "pick tile 1"


def test_reasons_name_the_rule():
    from maya_envs.notation import why_illegal

    yaxha = make_env("yaxha", num_players=2).unwrapped.rules
    state = yaxha.initial_state(np.random.default_rng(0))
    for tile in (0, 1):
        state = yaxha.apply_action(state, tile, np.random.default_rng(0))  # no clash: building starts
    seat = yaxha.current_player(state)
    hand = state.hands[seat]
    missing = next(c for c in range(5) if not hand[c])
    held = next(c for c in range(5) if hand[c])
    anchor = yaxha.geometry.anchor
    reason = why_illegal(yaxha, state, yaxha.table.place(missing, anchor))
    assert reason.startswith(f"you have no {COLOURS[missing]} cube")
    corner = yaxha.geometry.index[(0, 0, 0)]
    assert why_illegal(yaxha, state, yaxha.table.place(held, corner)) == "the first cube goes on L1 (3,3)"
    assert why_illegal(yaxha, state, yaxha.table.discard(held)).endswith("only when it has none")


def test_moves_the_table_cannot_hold_get_the_rule():
    from maya_envs.notation import read_move

    yaxha = make_env("yaxha", num_players=2).unwrapped.rules
    side = yaxha.geometry.side
    for level in range(6):
        for x in range(side + 2):
            read = read_move(yaxha, f"place green L{level} ({x},0)")
            valid = 1 <= level <= 4 and x < side - (level - 1)
            assert isinstance(read, int) if valid else isinstance(read, str) and read, (level, x)
    assert read_move(yaxha, "place red L1 (3,3)").startswith("there is no red cube")
    assert read_move(yaxha, "pick tile 5").startswith("there is no tile 5")
