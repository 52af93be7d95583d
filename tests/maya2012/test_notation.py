"""Maya (2012)'s move texts: moves its action table cannot hold, where an exchange moved the
Monolith and the Raven. Moved from tests/test_notation.py (issue 31 item 2: a test about one
game lives in its folder)."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.bots import RandomBot
from maya_envs.notation import describe_action
from maya_envs.records import make_env
from tests.helpers.notation import random_states


def test_moves_the_maya2012_table_cannot_hold_get_the_rule():
    """Every ``swap tA-tB @Lk`` and ``monolith tA|tB``: an id exactly for two adjacent towers
    (either order) and, for an exchange, a base level 2-5; else the rule that forbids it."""
    from maya_envs.maya2012 import actions as MA
    from maya_envs.notation import read_move

    rules = make_env("maya2012").unwrapped.rules
    for a in range(11):
        for b in range(11):
            pair = tuple(sorted((a, b)))
            for level in range(7):
                read = read_move(rules, f"swap t{a}-t{b} @L{level}")
                if pair in MA.PAIRS and level in MA.EXCHANGE_LEVELS:
                    assert read == MA.exchange_id(MA.PAIRS.index(pair), level)
                else:
                    assert isinstance(read, str) and read, (a, b, level)
            read = read_move(rules, f"monolith t{a}|t{b}")
            assert read == MA.MONOLITH_BASE + MA.PAIRS.index(pair) if pair in MA.PAIRS else isinstance(read, str)
    assert "not neighbours" in read_move(rules, "swap t0-t2 @L3")
    assert read_move(rules, "swap t0-t1 @L1").startswith("level 1 never moves")
    assert read_move(rules, "raven @L1").startswith("level 1 never moves")
    assert read_move(rules, "swap t0-t9 @L3").startswith("there is no tower t9")
    assert read_move(rules, "swap everything") is None


@pytest.mark.parametrize("players", [2, 3])
def test_a_maya2012_exchange_says_where_the_monolith_and_raven_went(players):
    import re

    rules = make_env("maya2012", num_players=players).unwrapped.rules
    exchanges = 0
    for state, mover in random_states(rules, seed=players):
        action = RandomBot(rules, seed=exchanges).act(state)
        text = describe_action(rules, state, action, mover, (mover + 1) % players)
        if not text.startswith("swap"):
            continue
        after = rules.apply_action(state, action, np.random.default_rng(0))
        a, b = re.search(r"Monolith (?:t\d\|t\d -> |placed )t(\d)\|t(\d)", text).groups()
        assert rules.action_to_string(48 + after.monolith) == f"monolith t{a}|t{b}"
        raven = re.search(r"Raven L(\d) -> L(\d)", text)
        assert (raven is not None) == (players == 2)
        if raven:
            assert (int(raven[1]), int(raven[2])) == (state.raven, after.raven)
        exchanges += 1
    assert exchanges > 10
