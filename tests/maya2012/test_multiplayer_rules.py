"""Maya (2012) for 3 and 4 players (seed "Variant for Three/Four Players", rules section 7):
the scoring table with the seed's numbers, declaring the end, the centre bonus, dealing,
turn order and rewards."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import (
    DECLARE,
    EXCHANGE,
    OVER,
    Maya2012Rules,
    colour_scores,
    declaration_possible,
    may_declare,
    score_runs,
    task_scores,
)
from tests.maya2012.boards import complete_board, multi_state

C = 8  # the centre tower's base colour in the hand-built boards: the face-up card
RULES3 = Maya2012Rules({"num_players": 3})
RULES3_ELIGIBLE = Maya2012Rules({"num_players": 3, "declare_step": "eligible"})
TASKS3 = ((0, 1), (2, 3), (4, 5))
SPARE3 = (6, 7)


# -- the seed's scoring table -------------------------------------------------------------


@pytest.mark.parametrize(
    ("fixed", "points", "line"),
    [
        ({2: (0, 0, 0, 0, 0)}, 10, "Completed Tower: 10 points"),
        ({1: (None, 0, 0, 0, 0)}, 6, "4 Joined Blocks: 6 points"),
        ({1: (None, 0, 0, 0, None)}, 3, "3 Joined Blocks: 3 points"),
        ({1: (None, None, 0, 0, None)}, 1, "2 Joined Blocks: 1 point"),
        ({1: (None, 0, 0, None, None), 2: (None, None, None, 0, 0)}, 2, "2 Pairs of Joined Blocks: 2 points"),
        ({1: (0, None, 0, None, 0)}, 0, "no joined blocks: nothing"),
    ],
)
def test_seed_scoring_table_on_boards(fixed, points, line):
    towers = complete_board(fixed)
    assert colour_scores(towers)[0] == points, line
    assert colour_scores(towers, "best")[0] == points, line
    others = colour_scores(towers)[1:]
    assert others == [0] * 8, "the filler colours form no joins"


def test_three_plus_two_is_4_with_sum_and_3_with_best():
    towers = complete_board({1: (None, None, 0, 0, 0), 2: (0, 0, None, None, None)})
    assert colour_scores(towers, "sum")[0] == 4
    assert colour_scores(towers, "best")[0] == 3
    assert score_runs([3, 2], "sum") == 4 and score_runs([3, 2], "best") == 3
    rules_best = Maya2012Rules({"num_players": 3, "three_plus_two": "best"})
    state = multi_state(towers, TASKS3, SPARE3, phase=OVER)
    assert RULES3.victory_points(state)[0] == 4 and rules_best.victory_points(state)[0] == 3


def test_two_pairs_in_the_same_tower_score_2_under_sum():
    towers = complete_board({1: (0, 0, None, 0, 0)})
    assert colour_scores(towers)[0] == 2


def test_seat_score_sums_its_two_colours_and_team_sums_partners():
    # colour 0 complete (10) + colour 1 three joined (3); colour 2 four joined (6)
    towers = complete_board({0: (0,) * 5, 1: (None, 1, 1, 1, None), 2: (None, 2, 2, 2, 2)})
    state = multi_state(towers, ((0, 1), (2, 4), (3, 5), (6, 7)), phase=OVER)
    assert task_scores(state) == [13, 6, 0, 0]
    rules4 = Maya2012Rules({"num_players": 4})
    assert rules4.final_info(state)["team_scores"] == [13, 6]
    assert rules4.returns(state).tolist() == [1.0, -1.0, 1.0, -1.0]


# -- declaring the end ----------------------------------------------------------------------

# Tower 0 is complete in colour 0 (seat 0's task); the centre tower 4 needs its top block,
# which tower 5 holds; tower 3's top is colour C-free.
DECLARE_BOARD = complete_board({0: (0,) * 5, 4: (C, C, C, C, None), 5: (None, None, None, None, C)})
COMPLETE_CENTRE = A.exchange_id(A.PAIRS.index((4, 5)), 5)


def declare_state(to_move: int, **fields):
    fields.setdefault("monolith", A.PAIRS.index((6, 7)))
    return multi_state(DECLARE_BOARD, TASKS3, SPARE3, to_move=to_move, turn=3, **fields)


def test_may_declare_needs_both_the_centre_and_an_own_task_tower():
    after = RULES3.apply_action(declare_state(0), COMPLETE_CENTRE).towers
    assert may_declare(after, (0, 1))  # both complete
    assert not may_declare(after, (2, 3))  # centre only
    assert not may_declare(DECLARE_BOARD, (0, 1))  # own tower only
    assert not may_declare(after, ())


def test_eligible_mover_gets_declare_or_continue_and_declaring_ends_with_the_bonus():
    state = RULES3.apply_action(declare_state(0), COMPLETE_CENTRE)
    assert state.phase == DECLARE and RULES3.current_player(state) == 0
    assert RULES3.legal_actions(state) == [A.DECLARE_END, A.CONTINUE]
    final = RULES3.apply_action(state, A.DECLARE_END)
    assert final.phase == OVER and RULES3.is_terminal(final) and RULES3.current_player(final) == -1
    info = RULES3.final_info(final)
    assert info["declared_by"] == 0 and info["centre_bonus"] == 0 and info["end"] == "declared"
    assert info["victory_points"] == [10 + 5, 0, 0]
    assert info["tasks"] == [[0, 1], [2, 3], [4, 5]] and info["spare"] == [6, 7] and info["centre_card"] == C
    assert RULES3.returns(final).tolist() == [1.0, -0.5, -0.5]


def test_centre_completed_by_a_seat_that_may_not_declare_gives_it_only_continue():
    """Default ``declare_step="possible"``: the step follows because the board allows a
    declaration (centre and tower 0 complete), whoever moves; this mover may only continue."""
    assert RULES3.config.declare_step == "possible"
    state = RULES3.apply_action(declare_state(1), COMPLETE_CENTRE)
    assert state.phase == DECLARE and RULES3.current_player(state) == 1
    assert RULES3.legal_actions(state) == [A.CONTINUE]
    state = RULES3.apply_action(state, A.CONTINUE)
    assert state.phase == EXCHANGE and state.to_move == 2
    state = RULES3.apply_action(state, RULES3.legal_actions(state)[0])
    assert state.phase == DECLARE and state.to_move == 2, "complete towers stay complete: every turn now"
    assert RULES3.legal_actions(state) == [A.CONTINUE]


def test_declare_step_eligible_gives_a_seat_that_may_not_declare_no_decision():
    state = RULES3_ELIGIBLE.apply_action(declare_state(1), COMPLETE_CENTRE)
    assert state.phase == EXCHANGE and RULES3_ELIGIBLE.current_player(state) == 2
    assert A.DECLARE_END not in RULES3_ELIGIBLE.legal_actions(state)
    eligible = RULES3_ELIGIBLE.apply_action(declare_state(0), COMPLETE_CENTRE)
    assert eligible.phase == DECLARE and RULES3_ELIGIBLE.legal_actions(eligible) == [A.DECLARE_END, A.CONTINUE]


def test_declaration_is_possible_once_the_centre_and_another_tower_are_complete():
    after = RULES3.apply_action(declare_state(0), COMPLETE_CENTRE).towers
    assert declaration_possible(after)
    assert not declaration_possible(DECLARE_BOARD), "tower 0 complete, the centre not"
    assert not declaration_possible(complete_board({4: (C,) * 5})), "the centre alone"
    assert declaration_possible(complete_board({4: (C,) * 5, 8: (7,) * 5}))


@pytest.mark.parametrize("rules", [RULES3, RULES3_ELIGIBLE], ids=["possible", "eligible"])
def test_own_tower_without_the_centre_gives_no_decision(rules):
    state = declare_state(0)
    other = next(x for x in rules.legal_actions(state) if 4 not in A.PAIRS[x // 4])
    after = rules.apply_action(state, other)
    assert after.phase == EXCHANGE and rules.current_player(after) == 1


def play_until_seat_decides(rules, state, seat, rng):
    """Random exchanges (others always continue) until ``seat`` has its declare decision."""
    while not (state.phase == DECLARE and state.to_move == seat):
        assert state.phase != OVER
        legal = rules.legal_actions(state)
        action = A.CONTINUE if state.phase == DECLARE else int(rng.choice(legal))
        state = rules.apply_action(state, action)
    return state


def test_no_bonus_when_the_declaration_comes_on_a_later_turn():
    state = RULES3.apply_action(declare_state(0), COMPLETE_CENTRE)
    state = RULES3.apply_action(state, A.CONTINUE)
    assert state.phase == EXCHANGE and state.to_move == 1
    state = play_until_seat_decides(RULES3, state, 0, np.random.default_rng(0))
    assert RULES3.legal_actions(state) == [A.DECLARE_END, A.CONTINUE]
    final = RULES3.apply_action(state, A.DECLARE_END)
    info = RULES3.final_info(final)
    assert info["declared_by"] == 0 and info["centre_bonus"] is None
    assert info["victory_points"][0] == colour_scores(final.towers)[0] + colour_scores(final.towers)[1]


def test_no_bonus_when_another_seat_completed_the_centre():
    state = RULES3.apply_action(declare_state(2, monolith=-1), COMPLETE_CENTRE)  # seat 2 not eligible
    state = play_until_seat_decides(RULES3, state, 0, np.random.default_rng(1))
    final = RULES3.apply_action(state, A.DECLARE_END)
    assert RULES3.final_info(final)["centre_bonus"] is None


def test_declare_step_always_asks_after_every_exchange():
    rules = Maya2012Rules({"num_players": 3, "declare_step": "always"})
    state = declare_state(1)
    other = next(x for x in rules.legal_actions(state) if 4 not in A.PAIRS[x // 4])
    after = rules.apply_action(state, other)
    assert after.phase == DECLARE and rules.legal_actions(after) == [A.CONTINUE]
    assert rules.apply_action(after, A.CONTINUE).to_move == 2
    eligible = rules.apply_action(declare_state(0), COMPLETE_CENTRE)
    assert rules.legal_actions(eligible) == [A.DECLARE_END, A.CONTINUE]


# -- setup, turn order, no Raven ------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4])
def test_deal_sets_the_centre_card_aside_and_deals_every_other_card_once(n):
    rules = Maya2012Rules({"num_players": n})
    for seed in range(30):
        state = rules.initial_state(np.random.default_rng(seed))
        centre = state.towers[4][0]
        cards = [c for hand in state.tasks for c in hand] + list(state.spare)
        assert sorted(cards + [centre]) == list(range(9))
        assert len(state.tasks) == n and all(len(hand) == 2 for hand in state.tasks)
        assert len(state.spare) == (2 if n == 3 else 0)
        assert state.monolith == -1 and state.raven == 0, "Monolith off the board, no Raven"
        assert rules.legal_actions(state) == list(range(48)), "a fresh board allows every exchange"
        assert state.to_move == 0 and state.ladders_left == (0,) * n and state.priests_left == (0,) * n


@pytest.mark.parametrize("n", [3, 4])
def test_turns_go_clockwise_and_no_raven_restriction(n):
    rules = Maya2012Rules({"num_players": n})
    rng = np.random.default_rng(5)
    state = rules.initial_state(rng)
    movers = []
    for _ in range(2 * n):
        movers.append(state.to_move)
        action = int(rng.choice(rules.legal_actions(state)))
        state = rules.apply_action(state, action)
        level = A.decode(action).level
        assert state.raven == 0
        if state.phase == EXCHANGE:  # the same level stays open: only the Monolith blocks
            blocked = set(A.PAIRS[state.monolith])
            same_level = [x for x in rules.legal_actions(state) if A.decode(x).level == level]
            assert all(not blocked & set(A.PAIRS[x // 4]) for x in same_level)
    assert movers == [s % n for s in range(2 * n)]


# -- rewards -------------------------------------------------------------------------------


def over_state(fixed, tasks, spare=(), **fields):
    return multi_state(complete_board(fixed), tasks, spare, phase=OVER, **fields)


def test_three_player_win_loss_shares_and_score_diff():
    # seat 0: colour 0 four joined (6); seat 1: colour 2 four joined (6); seat 2: nothing
    tie = over_state({1: (None, 0, 0, 0, 0), 2: (None, 2, 2, 2, 2)}, TASKS3, SPARE3)
    assert RULES3.victory_points(tie) == [6, 6, 0]
    assert RULES3.returns(tie).tolist() == [0.5, 0.5, -1.0]
    diff = Maya2012Rules({"num_players": 3, "reward_scheme": "score_diff"})
    assert diff.returns(tie).tolist() == [3.0, 3.0, -6.0]
    level = over_state({}, TASKS3, SPARE3)
    assert RULES3.returns(level).tolist() == [0.0, 0.0, 0.0]
    assert RULES3.winners(level) == []


def test_four_player_teams_share_the_result_in_both_schemes():
    tasks = ((0, 1), (2, 3), (4, 5), (6, 7))
    state = over_state({1: (None, 2, 2, 2, 2), 2: (None, None, 4, 4, None)}, tasks)
    rules = Maya2012Rules({"num_players": 4})
    assert rules.victory_points(state) == [0, 6, 1, 0]
    assert rules.returns(state).tolist() == [-1.0, 1.0, -1.0, 1.0]
    diff = Maya2012Rules({"num_players": 4, "reward_scheme": "score_diff"})
    assert diff.returns(state).tolist() == [-5.0, 5.0, -5.0, 5.0]
    assert rules.winners(state) == [1, 3]


def test_truncated_game_pays_nothing():
    rules = Maya2012Rules({"num_players": 3, "max_turns": 4, "at_max_turns": "truncate"})
    rng = np.random.default_rng(0)
    state = rules.initial_state(rng)
    while rules.current_player(state) >= 0:
        legal = rules.legal_actions(state)
        state = rules.apply_action(state, A.CONTINUE if A.CONTINUE in legal else legal[0])
    assert rules.is_truncated(state) and state.turn == 4
    assert rules.returns(state).tolist() == [0.0, 0.0, 0.0]
