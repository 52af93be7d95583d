"""MCTS finds forced wins in hand-built Maya (2012) positions (the search itself:
tests/bots/test_mcts.py)."""

from __future__ import annotations

from maya_envs.bots import make_bot
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import Maya2012Rules, winner

from .boards import complete_board, state_with

PAIR_01 = A.PAIRS.index((0, 1))
COMPLETE_T0 = 4 * PAIR_01 + 5 - 2  # swap t0-t1 from level 5: tower 0 becomes monochrome


def _completion_position(max_turns: int):
    """Two players, no ladder spaces (VP come from priests only): tower 0 is colour 0 on
    levels 1-4 and tower 1 has colour 0 on level 5, so White's exchange ``COMPLETE_T0``
    completes tower 0 and earns its priest; nothing else can complete a tower soon."""
    rules = Maya2012Rules({"setup": "random", "ladder_spaces": [0] * 9, "max_turns": max_turns})
    towers = complete_board({0: (0, 0, 0, 0, None), 1: (None, None, None, None, 0)})
    return rules, state_with(towers, monolith=A.PAIRS.index((7, 8)), raven=2)


def _outcomes(rules, state, action):
    after = rules.apply_action(state, action)
    return after, winner(after) if rules.is_terminal(after) else "running"


def test_one_exchange_completes_a_tower_and_wins_and_mcts_finds_it():
    rules, state = _completion_position(max_turns=1)
    results = {a: _outcomes(rules, state, a)[1] for a in rules.legal_actions(state)}
    assert [a for a, w in results.items() if w == 0] == [COMPLETE_T0]  # the only win; all else draws
    assert len(results) > 10
    for seed in range(3):
        assert make_bot("mcts:200", rules, seed).act(state) == COMPLETE_T0


def test_mcts_takes_the_completion_before_the_opponent_does():
    # Three exchanges left (White, Black, White): if White does not complete tower 0 now,
    # Black can (the same exchange stays legal for most White moves), and wins.
    rules, state = _completion_position(max_turns=3)
    black_steals = 0
    for action in rules.legal_actions(state):
        after = rules.apply_action(state, action)
        black_steals += action != COMPLETE_T0 and COMPLETE_T0 in rules.legal_actions(after)
    assert black_steals > 5
    bot = make_bot("mcts:400:depth=10", rules, 0)
    assert bot.act(state) == COMPLETE_T0
    assert bot.last_visits[COMPLETE_T0] == max(bot.last_visits.values())
