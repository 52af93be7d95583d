"""MCTS and the guided search find forced wins in hand-built Maya (2012) positions (the searches
themselves: tests/bots/test_mcts.py, tests/bots/test_guided.py)."""

from __future__ import annotations

import pytest

from maya_envs.bots import make_bot
from maya_envs.bots.guided import GuidedConfig, search_many
from maya_envs.games import GAMES
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import Maya2012Rules, winner
from tests.helpers.search import uniform_evaluator

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


@pytest.mark.parametrize("selection", ["gumbel", "puct"])
def test_finds_the_tower_completion_that_wins_maya(selection):
    # COMPLETE_T0 is White's only winning exchange. One exchange
    # left: terminal values alone show it.
    rules, state = _completion_position(1)
    config = GuidedConfig(simulations=64, selection=selection, max_considered=len(rules.legal_actions(state)))
    for seed in range(3):
        assert search_many(rules, [state], [0], uniform_evaluator(rules), config, rng=seed)[0].action == COMPLETE_T0


@pytest.mark.parametrize("selection", ["gumbel", "puct"])
def test_a_value_oracle_takes_the_completion_before_the_opponent(selection):
    # Three exchanges left: if White does not complete tower 0 now, Black can, and wins. The
    # value of a leaf is the game's own leaf_values (the victory-point lead: the completing
    # priest's point shows at once); a uniform prior.
    rules, state = _completion_position(3)
    leaf_values = GAMES["maya2012"].hook("leaf_values")
    evaluator = uniform_evaluator(rules, lambda s: leaf_values(rules, s))
    # A uniform prior: every action must be considered (Gumbel's top-m would draw m at random),
    # and no root noise (with 32 simulations it can outweigh sigma(q): Gumbel's policy improvement
    # holds in expectation; the improved policy target still prefers the completion).
    legal = rules.legal_actions(state)
    config = GuidedConfig(simulations=32, selection=selection, max_considered=len(legal), gumbel_scale=0.0)
    for seed in range(3):
        assert search_many(rules, [state], [0], evaluator, config, rng=seed)[0].action == COMPLETE_T0
