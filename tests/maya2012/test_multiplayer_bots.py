"""The heuristic bot in the 3-4 player variants: it knows only its own task colours (the
resampling test in test_hidden_information checks that) and plays for their joins, beating
random opponents with seats rotated."""

from __future__ import annotations

import pytest

from maya_envs.evaluation.arena import play_match
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.bots import HeuristicBot
from maya_envs.maya2012.rules import DECLARE, Maya2012Rules, colour_scores
from tests.conformance import env_module
from tests.maya2012.boards import complete_board, multi_state

ENV_MODULE = env_module("maya2012")


@pytest.mark.parametrize(("n", "games", "floor"), [(3, 48, 0.6), (4, 80, 0.6)])
def test_heuristic_beats_random_with_seats_rotated(n, games, floor):
    """Fair shares: 1/3 (3p, one heuristic seat) and 1/2 (4p, heuristic with a random
    partner against two random seats)."""
    result = play_match(lambda: ENV_MODULE.env(num_players=n), "heuristic", "random", games=games, seed=n)
    assert result.games_per_seat == [games // n + (s < games % n) for s in range(n)]
    assert result.win_rate > floor, result.to_dict()


def test_heuristic_joins_its_own_colour_rather_than_a_rivals():
    """Exchanges can form a 4-block join in its own colour 0 or in colour 2 (not its card):
    it forms its own (and never the rival's)."""
    towers = complete_board({1: (None, 0, 0, 0, None), 2: (None, None, None, None, 0),
                             6: (None, 2, 2, 2, None), 7: (None, None, None, None, 2)})  # fmt: skip
    state = multi_state(towers, ((0, 1), (2, 3), (4, 5)), (6, 7))
    rules = Maya2012Rules({"num_players": 3})
    rival = A.exchange_id(A.PAIRS.index((6, 7)), 5)
    assert rival in rules.legal_actions(state)
    for seed in range(10):
        choice = HeuristicBot(rules, seed).act(state)
        after = rules.apply_action(state, choice).towers
        assert choice != rival and colour_scores(after)[0] == 6 and colour_scores(after)[2] == 3


def test_heuristic_declares_a_sure_win_and_continues_when_behind():
    rules = Maya2012Rules({"num_players": 3})
    # centre (base 8) and tower 0 (base 0, seat 0's card) complete; colour 2 four joined
    towers = complete_board({0: (0,) * 5, 4: (8,) * 5, 1: (None, 2, 2, 2, 2)})
    winning = multi_state(towers, ((0, 1), (2, 3), (4, 5)), (6, 7), phase=DECLARE, monolith=0, turn=9)
    assert all(HeuristicBot(rules, s).act(winning) == A.DECLARE_END for s in range(5))  # 10 vs at most 6
    # four unknown colours complete (10 each): a rival holds two of them (20) or ties at 10
    towers = complete_board({0: (0,) * 5, 1: (1,) * 5, 2: (2,) * 5, 3: (3,) * 5, 4: (8,) * 5, 6: (6,) * 5})
    behind = multi_state(towers, ((0, 5), (1, 2), (3, 4)), (6, 7), phase=DECLARE, monolith=0, turn=9)
    assert all(HeuristicBot(rules, s).act(behind) == A.CONTINUE for s in range(5))
