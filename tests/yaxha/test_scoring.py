"""Hand-built pyramids with hand-computed scores (rules file sections 6-8)."""

from __future__ import annotations

import pytest

from maya_envs.yaxha.actions import Geometry
from maya_envs.yaxha.scoring import (
    bonus_card_winners,
    find_groups,
    group_points,
    pyramid_stats,
    score_pyramids,
    visible_cells,
)

from .helpers import pyramid

FULL_ORANGE = ("OOOO OOOO OOOO OOOO", "OOO OOO OOO", "OO OO", "O")


@pytest.mark.parametrize("footprint", ["fixed", "floating"])
def test_full_pyramid_hides_exactly_the_five_central_cubes(footprint):
    g = Geometry(footprint)
    p = pyramid(g, *FULL_ORANGE)
    vis = visible_cells(g, p)
    hidden = {g.coords[c] for c in range(g.num_cells) if p[c] >= 0 and not vis[c]}
    assert hidden == {(1, 1, 0), (2, 1, 0), (1, 2, 0), (2, 2, 0), (1, 1, 1)}
    assert sum(vis) == 25
    # One orange group of the 25 visible cubes: 12+ scores 36, nothing else scores.
    [score] = score_pyramids(g, (p,), ())
    assert score["largest_group"]["orange"] == 25
    assert score["total"] == 36


def test_reference_table():
    assert [group_points(n) for n in range(15)] == [0, 1, 2, 4, 6, 9, 12, 15, 18, 21, 25, 30, 36, 36, 36]


def test_hidden_cubes_do_not_bridge_groups(fixed_geometry):
    g = fixed_geometry
    # Row y=1 of the base is blue; its two middle cubes are covered by six level-2 cubes.
    p = pyramid(g, "WWWW BBBB WWWW", "WWW WWW")
    vis = visible_cells(g, p)
    assert not vis[g.index[(1, 1, 0)]] and not vis[g.index[(2, 1, 0)]]
    assert vis[g.index[(0, 1, 0)]] and vis[g.index[(3, 1, 0)]]
    [score] = score_pyramids(g, (p,), ())
    # Blue: two separate single cubes (4 connected if hidden cubes bridged) -> 1 point.
    assert score["largest_group"]["blue"] == 1
    # White: 4 + 4 base cubes and 6 level-2 cubes, joined across levels -> 14 -> 36.
    assert score["largest_group"]["white"] == 14
    assert score["total"] == 37


def test_groups_span_levels_through_supports_only_with_same_colour(fixed_geometry):
    g = fixed_geometry
    p1 = pyramid(g, "OBGY WWWW", "WOB")
    groups = {(grp.colour, grp.size, grp.level1, grp.levels) for grp in find_groups(g, p1)}
    # White: 4 base cubes + the level-2 white resting on (0,1),(1,1) -> 5 cubes on 2 levels.
    assert (4, 5, 4, 2) in groups
    # The level-2 orange rests on B, G, W, W: not joined to the base orange.
    assert sorted(size for colour, size, _, _ in groups if colour == 0) == [1, 1]
    stats = pyramid_stats(g, p1)
    assert stats.largest == (1, 1, 1, 1, 5)
    assert [score["total"] for score in score_pyramids(g, (p1,), ())] == [1 + 1 + 1 + 1 + 9]


def _three_seats(g):
    a = pyramid(g, "OOO. B...")
    b = pyramid(g, "OOO. BB..")
    c = pyramid(g, "GGGG GY..")
    return [pyramid_stats(g, p) for p in (a, b, c)]


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        (0, [True, True, False]),  # orange 3, 3, 0: a tie, both score
        (1, [False, True, False]),  # blue 1, 2, 0
        (2, [False, False, True]),  # green 0, 0, 5
        (3, [False, False, True]),  # yellow 0, 0, 1
        (4, [False, False, False]),  # white 0, 0, 0: nobody (default)
        (5, [True, True, False]),  # orange vs right neighbour: 3>=3, 3>=0, 0>=3
        (6, [False, True, False]),  # blue vs right neighbour: 1>=2 no, 2>=0 yes, 0>=1 no
        (9, [True, True, True]),  # white 0>=0 everywhere: pairwise cards ignore the zero rule
        (10, [False, False, True]),  # largest any colour: 3, 3, 5
        (11, [False, False, True]),  # level-1 cubes of a group: 3, 3, 5
        (12, [True, True, True]),  # most levels: 1, 1, 1 (a tie at 1 scores)
        (13, [True, True, False]),  # distinct sizes {5, 3, 2, 1}: second is 3
        (14, [False, False, False]),
        (15, [True, True, True]),  # the bottom side (row y=0) is single-coloured in each
        (16, [False, False, False]),
        (17, [False, False, False]),
    ],
)
def test_bonus_cards_three_seats(fixed_geometry, card, expected):
    assert bonus_card_winners(card, _three_seats(fixed_geometry)) == expected


def test_zero_value_rule_under_both_settings(fixed_geometry):
    stats = _three_seats(fixed_geometry)
    assert bonus_card_winners(4, stats, zero_ties_score=False) == [False, False, False]
    assert bonus_card_winners(4, stats, zero_ties_score=True) == [True, True, True]
    empty = [pyramid_stats(fixed_geometry, pyramid(fixed_geometry)) for _ in range(2)]
    for card in (0, 10, 11, 12):
        assert bonus_card_winners(card, empty, False) == [False, False]
        assert bonus_card_winners(card, empty, True) == [True, True]
    assert bonus_card_winners(13, empty, True) == [False, False]  # no second size at all


def _two_seats(g):
    p1 = pyramid(g, "OBGY WWWW", "WOB")
    # 11 orange base cubes, (1,1,0) hidden under the 2x2 of level 2; level 2 has 5 colours.
    p2 = pyramid(g, "OOOO OOOO OOO.", "BGY WO.")
    return p1, p2


def test_second_pyramid_hand_computed(fixed_geometry):
    g = fixed_geometry
    _, p2 = _two_seats(g)
    vis = visible_cells(g, p2)
    assert [g.coords[c] for c in range(g.num_cells) if p2[c] >= 0 and not vis[c]] == [(1, 1, 0)]
    stats = pyramid_stats(g, p2)
    # 10 visible base oranges + the level-2 orange resting on (2,1),(1,2),(2,2).
    assert stats.largest == (11, 1, 1, 1, 1)
    orange = max((grp for grp in stats.groups if grp.colour == 0), key=lambda grp: grp.size)
    assert (orange.level1, orange.levels) == (10, 2)


@pytest.mark.parametrize(
    ("cards", "totals", "bonus"),
    [
        # p1: colour 13, max group 5, level-1 group 4, 2 levels; p2: colour 34, 11, 10, 2 levels.
        ((10, 11, 12), [13 + 5, 34 + 15], [{"10": 0, "11": 0, "12": 5}, {"10": 5, "11": 5, "12": 5}]),
        # sizes {11, 5, 1}: second is 5 (p1); 5 colours on level 1: p1; on level 2: p2.
        ((13, 14, 17), [13 + 10, 34 + 5], [{"13": 5, "14": 5, "17": 0}, {"13": 0, "14": 0, "17": 5}]),
        # p1 and p2 both show 5 colours; neither has a single-coloured side; orange: p2 only.
        ((0, 15, 16), [13, 34 + 5], [{"0": 0, "15": 0, "16": 0}, {"0": 5, "15": 0, "16": 0}]),
    ],
)
def test_score_breakdown_two_seats(fixed_geometry, cards, totals, bonus):
    scores = score_pyramids(fixed_geometry, _two_seats(fixed_geometry), cards)
    assert [s["total"] for s in scores] == totals
    assert [s["bonus"] for s in scores] == bonus
    assert scores[1]["colour_points"] == {"orange": 30, "blue": 1, "green": 1, "yellow": 1, "white": 1}


def test_single_colour_side_and_exactly_three_colours(fixed_geometry):
    g = fixed_geometry
    p = pyramid(g, "GGG. GYB.")  # left side: G (row 0), G (row 1)
    q = pyramid(g, "GGY. YBB.")  # left G/Y, right Y/B, bottom G G Y, top Y B B
    stats = [pyramid_stats(g, p), pyramid_stats(g, q)]
    assert bonus_card_winners(15, stats) == [True, False]
    assert bonus_card_winners(16, stats) == [True, True]
    # An upper cube counts as its own row: a blue level-2 cube breaks p's left side.
    r = pyramid(g, "GGG. GYB.", "B..")
    assert bonus_card_winners(15, [pyramid_stats(g, r)]) == [False]


def test_hidden_cube_does_not_count_for_colour_cards(fixed_geometry):
    g = fixed_geometry
    # The only white cube is (1,1,0), hidden under a 2x2 of level 2: no white visible on level 1.
    p = pyramid(g, "OBGY OWOO OOOO", "OOO OOO")
    stats = pyramid_stats(g, p)
    assert 4 not in stats.colours_by_level[0]
    assert stats.largest[4] == 0
    assert bonus_card_winners(14, [stats]) == [False]
