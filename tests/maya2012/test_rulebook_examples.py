"""The seed rulebook's worked examples (``shared/seeds/000_ddaf2d912aa0e731.txt``), with its
own numbers, as scenario tests."""

from __future__ import annotations

from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import (
    BLACK,
    WHITE,
    Maya2012Rules,
    legal_exchanges,
    points_by_tower,
    victory_points,
    winner,
)
from tests.maya2012.boards import complete_board, state_with

RULES = Maya2012Rules()
PINK, PURPLE, GREEN, RED = 0, 1, 2, 3


def blocks_moved(action: int) -> int:
    return 6 - A.decode(action).level


def test_joined_colour_example_towers_a_and_b():
    """Tower A has levels 3-4 joined (pink): 1, 3 or 4 blocks may move, not 2. Tower B has
    levels 1-3 joined (purple): 1 or 2 blocks. Between them only the 1-block exchange."""
    a, b = 0, 1  # adjacent: pair (0, 1)
    towers = complete_board({a: (None, None, PINK, PINK, None), b: (PURPLE, PURPLE, PURPLE, None, None)})
    pair_ab = A.PAIRS.index((0, 1))
    pair_a_other = A.PAIRS.index((0, 3))
    pair_b_other = A.PAIRS.index((1, 2))
    legal = legal_exchanges(towers, monolith=-1, raven=0)
    # Tower A with a partner whose seams are all free (tower 3), tower B with tower 2.
    allowed_a = {blocks_moved(x) for x in legal if x // 4 == pair_a_other}
    allowed_b = {blocks_moved(x) for x in legal if x // 4 == pair_b_other}
    assert allowed_a == {1, 3, 4}
    assert allowed_b == {1, 2}
    assert [blocks_moved(x) for x in legal if x // 4 == pair_ab] == [1]


def test_raven_example_bars_its_level_but_lets_it_move_above_a_lower_exchange():
    """Raven at level 4: no exchange of 4th-level blocks anywhere; a 3rd-level exchange still
    carries the 4th-level blocks on top, and the Raven then moves to level 3."""
    towers = complete_board({})
    state = state_with(towers, monolith=A.PAIRS.index((7, 8)), raven=4)
    legal = RULES.legal_actions(state)
    assert legal, "the board should allow exchanges"
    assert all(A.decode(x).level != 4 for x in legal)
    third = next(x for x in legal if A.decode(x).level == 3)
    a, b = A.PAIRS[A.decode(third).pair]
    after = RULES.apply_action(state, third)
    assert after.towers[a][2:] == towers[b][2:] and after.towers[b][2:] == towers[a][2:]
    assert after.towers[a][:2] == towers[a][:2]
    assert after.raven == 3


def test_monolith_example_blocks_both_towers_with_every_partner():
    """The Monolith between A and B: no block of A or B can be exchanged with any tower; after
    an exchange the Monolith stands between the two exchanged towers."""
    towers = complete_board({})
    blocked_pair = A.PAIRS.index((3, 4))
    state = state_with(towers, monolith=blocked_pair, raven=2)
    legal = RULES.legal_actions(state)
    used = {t for x in legal for t in A.PAIRS[A.decode(x).pair]}
    assert 3 not in used and 4 not in used
    assert {0, 1, 2, 5, 6, 7, 8} <= used
    after = RULES.apply_action(state, legal[0])
    assert after.monolith == A.decode(legal[0]).pair


def test_ladder_and_priest_example():
    """White exchanges levels 3-5 between A and B. Two green blocks join in A: White adds a
    ladder there. B becomes all red: White places a priest on it, but B's two ladder spaces
    already hold black ladders, so no white ladder at B."""
    b, a = 0, 1  # B is a corner tower (2 ladder spaces), A its neighbour
    towers = complete_board({b: (RED, RED, GREEN, None, None), a: (None, GREEN, RED, RED, RED)})
    ladders_black = [0] * 9
    ladders_black[b] = 2
    state = state_with(
        towers,
        monolith=A.PAIRS.index((7, 8)),
        raven=2,
        ladders=((0,) * 9, tuple(ladders_black)),
        ladders_left=(15, 13),
        to_move=WHITE,
    )
    action = A.exchange_id(A.PAIRS.index((0, 1)), 3)
    assert action in RULES.legal_actions(state)
    after = RULES.apply_action(state, action)
    assert after.towers[b] == (RED,) * 5
    assert after.towers[a][1:3] == (GREEN, GREEN)
    assert after.ladders[WHITE][a] == 1
    assert after.ladders[WHITE][b] == 0 and after.ladders[BLACK][b] == 2
    assert after.priests[b] == WHITE
    assert after.ladders_left == (14, 13) and after.priests_left == (4, 5)


def test_final_scoring_example_black_5_white_4():
    """The seed's final position: BLACK 5, WHITE 4, with the per-tower reasons."""
    # (white ladders, black ladders) per tower, and the priests, as in the example.
    ladders = [(1, 1), (1, 0), (0, 1), (1, 1), (2, 1), (1, 0), (0, 1), (1, 2), (0, 1)]
    towers = complete_board({0: (5,) * 5, 7: (6,) * 5})
    priests = [-1] * 9
    priests[0], priests[7] = BLACK, WHITE
    white = tuple(w for w, _ in ladders)
    black = tuple(b for _, b in ladders)
    state = state_with(
        towers,
        monolith=0,
        raven=2,
        ladders=(white, black),
        priests=tuple(priests),
        ladders_left=(15 - sum(white), 15 - sum(black)),
        priests_left=(4, 4),
    )
    expected = [(0, 1), (1, 0), (0, 1), (0, 0), (1, 0), (1, 0), (0, 1), (1, 1), (0, 1)]
    assert points_by_tower(state) == expected
    assert victory_points(state) == [4, 5]
    assert winner(state) == BLACK


def _ladders(white: dict[int, int], black: dict[int, int]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(side.get(t, 0) for t in range(9)) for side in (white, black))


def test_tie_break_1_more_priests_wins():
    """Equal VP (White: a priest; Black: a ladder majority): White has more priests."""
    towers = complete_board({0: (5,) * 5})
    state = state_with(towers, ladders=_ladders({}, {3: 1}), priests=(WHITE,) + (-1,) * 8)
    assert victory_points(state) == [1, 1]
    assert winner(state) == WHITE


def test_tie_break_2_more_ladders_on_the_board_wins():
    """Equal VP and priests: White has 2 ladders on the board, Black 1."""
    state = state_with(complete_board({}), ladders=_ladders({0: 2}, {1: 1}))
    assert victory_points(state) == [1, 1]
    assert winner(state) == WHITE
    state = state_with(complete_board({}), ladders=_ladders({0: 1, 1: 1}, {1: 2, 2: 1}))
    assert victory_points(state) == [1, 2]  # VP decide before any tie-break
    assert winner(state) == BLACK


def test_tie_break_3_all_equal_is_a_draw_with_zero_rewards():
    state = state_with(complete_board({}), ladders=_ladders({0: 1, 1: 1, 2: 1}, {1: 2, 2: 1}))
    assert victory_points(state) == [1, 1]
    assert winner(state) is None
