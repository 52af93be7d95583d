"""The seed rulebook's worked examples (``shared/seeds/001_c7015b41d4dc8a5b.txt``), with its numbers.

Seats are named by the example's colours. Quarries use the shipped (non-canonical) 3-player
table unless a test says otherwise: q2 pays [4, 2] (max 5 cards), q3 pays [4, 3, 1] (max 6).
"""

from __future__ import annotations

from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules import building, scoring
from maya_envs.maya_quarry.rules.config import PROTECT, TRANSPORT_PLUS_2
from maya_envs.maya_quarry.rules.state import BUILD, MINUS3, PROTECT_CHOICE

from .helpers import build_position, make_rules, play, table_with, worker


def _no_markers(table):
    for row in table["quarries"]["3"]:
        row["marker"] = None


# -- Distribution of blocks ---------------------------------------------------------------------


def test_distribution_example_1_third_block_not_awarded():
    """Blue 11 points: 4 blocks and the marker; Red 6: 3 blocks; the block for 3rd is not awarded."""
    blue, red, yellow = 0, 1, 2
    rules = make_rules(3)
    s = rules.initial_state()
    s = play(rules, s, [A.place_id(0, 0), A.place_id(0, 0), A.place_id(0, 0)])
    s = play(rules, s, [A.place_id(1, 0), A.place_id(1, 0), A.place_id(1, 0)])
    pools_before = list(s.pool)
    s = play(rules, s, [worker(3, 5), worker(3, 6), A.WORKER_PASS, worker(3, 6), A.WORKER_PASS, A.WORKER_PASS])
    # Fewer cards than permitted (3 of 6); no other quarry holds cards, so PROTECT has no use.
    assert s.phase == BUILD
    assert s.held == [4, 3, 0]
    assert [pools_before[i] - s.pool[i] for i in range(3)] == [4, 3, 0]
    assert s.holder[PROTECT] == -1 and s.protect_q == -1
    assert (blue, red, yellow) == (0, 1, 2)


def test_distribution_example_2_minus3_and_tie_to_earlier_card():
    """Green takes 3 off Purple (7 -> 4); Green 5 beats Blue 5 on the earlier first card: Green 4
    blocks and the marker, Blue 2, Purple (3rd, positive) nothing at a [4, 2] quarry."""
    green, purple, blue = 0, 1, 2
    rules = make_rules(3)
    s = play(rules, rules.initial_state(), [A.place_id(p, 0) for p in (0, 0, 0, 1, 1, 1)])
    s = play(rules, s, [worker(2, 5), worker(2, 3), worker(2, 5), worker(2, -3), worker(2, 4)])
    s = play(rules, s, [A.WORKER_PASS] * 3)
    assert s.phase == MINUS3 and rules.current_player(s) == green
    # Green may target Purple (+1) or Blue (+2), or nobody.
    assert rules.legal_actions(s) == [A.MINUS3_BASE, A.MINUS3_BASE + 1, A.MINUS3_NONE]
    s = rules.apply_action(s, A.MINUS3_BASE + (purple - green) - 1)
    assert s.phase == BUILD
    assert s.held[green] == 4 and s.held[blue] == 2 and s.held[purple] == 0
    # The [4, 2] quarry's marker (TRANSPORT_PLUS_2) went to Green and was used at transport.
    assert s.holder[TRANSPORT_PLUS_2] == -1


def test_distribution_example_3_two_minus3_in_start_order_negative_score():
    """Blue (start player) and then Yellow both take 3 off Red (4 -> 1 -> -2). Yellow 7: 4
    blocks and the marker; Blue 5: 2 blocks; Red, negative, nothing."""
    blue, red, yellow = 0, 1, 2

    def six_cards(table):
        table["quarries"]["3"][2]["max_cards"] = 6  # a [4, 2] quarry with room for 6 cards

    rules = make_rules(3, components=table_with(six_cards))
    s = play(rules, rules.initial_state(), [A.place_id(p, 0) for p in (0, 0, 0, 1, 1, 1)])
    s = play(rules, s, [worker(2, 5), worker(2, 4), worker(2, 3), worker(2, -3), A.WORKER_PASS, worker(2, 4)])
    s = play(rules, s, [A.WORKER_PASS, worker(2, -3), A.WORKER_PASS])
    # Blue 5 (+ -3), Red 4, Yellow 3 + 4 = 7 (+ -3).
    assert s.phase == MINUS3 and rules.current_player(s) == blue
    s = rules.apply_action(s, A.MINUS3_BASE + (red - blue) - 1)
    assert s.phase == MINUS3 and rules.current_player(s) == yellow
    assert s.deduct[red] == 3
    s = rules.apply_action(s, A.MINUS3_BASE + (red - yellow) % 3 - 1)
    assert s.phase == BUILD
    assert s.held == [2, 0, 4]


def test_protection_marker_blocks_minus3():
    """PROTECT_FROM_MINUS3 (won at the rightmost quarry) goes at once on an unrevealed quarry;
    there its holder cannot be targeted by a -3."""
    a, b, c = 0, 1, 2
    rules = make_rules(3, skip_forced=False)  # q2 is the only choice: show it as a decision
    s = play(rules, rules.initial_state(), [A.place_id(p, 0) for p in (0, 0, 0, 1, 1, 1)])
    # a wins q3 (PROTECT); at q2, a and b have cards and c holds the -3.
    s = play(rules, s, [worker(3, 5), worker(2, 4), worker(2, 3), worker(2, 4), A.WORKER_PASS])
    s = play(rules, s, [worker(2, -3), A.WORKER_PASS, A.WORKER_PASS])
    assert s.phase == PROTECT_CHOICE and rules.current_player(s) == a
    assert rules.legal_actions(s) == [A.PROTECT_BASE + 2]
    s = rules.apply_action(s, A.PROTECT_BASE + 2)
    # c's -3 at q2 may only hit b (a is protected there) or nobody.
    assert s.phase == MINUS3 and rules.current_player(s) == c
    assert rules.legal_actions(s) == [A.MINUS3_BASE + (b - c) % 3 - 1, A.MINUS3_NONE]
    assert (a, b) == (0, 1)


# -- Transport ------------------------------------------------------------------------------


TRANSPORT_MOVES = [
    worker(3, 4),  # Blue
    worker(1, 3),  # Red
    A.WORKER_PASS,  # Yellow
    worker(3, 8),
    worker(1, 8),
    worker(2, 5),
    A.WORKER_PASS,
    worker(2, 7),
    worker(1, 6),
    A.WORKER_PASS,
]


def _transport_game(rules):
    s = play(rules, rules.initial_state(), [A.place_id(p, 0) for p in (0, 0, 0, 1, 1, 1)])
    return play(rules, s, TRANSPORT_MOVES)


def test_transport_example_9_blocks_7_points():
    """Blue acquires 9 blocks (4 + 4 + 1) and keeps 3, 4 and -3 (7 points): 2 go back."""
    blue = 0
    rules = make_rules(3, components=table_with(_no_markers))
    s = _transport_game(rules)
    assert s.phase == BUILD
    assert s.hand(blue) == [1, 1, 0, 0, 0, 0, 1]  # 3, 4, -3 unplayed
    assert s.held[blue] == 7
    assert s.pool[blue] == 28 - 2 - 7


def test_transport_plus_2_example_all_9_blocks():
    """With TRANSPORT_PLUS_2 (won at q2) Blue transports all 9 blocks with 7 worker points."""
    blue = 0
    rules = make_rules(3)
    s = _transport_game(rules)
    # Blue won q3 first: PROTECT must be placed on q2 or q1.
    assert s.phase == PROTECT_CHOICE
    s = rules.apply_action(s, A.PROTECT_BASE + 1)
    assert s.phase == BUILD
    assert s.held[blue] == 9


# -- Building ---------------------------------------------------------------------------------

BLUE, RED, GREEN, PURPLE, YELLOW = range(5)
PALENQUE, COPAN, UXMAL = range(3)


def _three_pyramids(table):
    table["pyramid_sets"]["5"] = ["Palenque", "Copan", "Uxmal"]
    table["pyramids"]["Palenque"] = [[5, 3, 1], [4, 4, 2], [3, 6, 3]]
    table["pyramids"]["Copan"] = [[5, 3, 1], [4, 5, 2], [3, 7, 3]]
    table["pyramids"]["Uxmal"] = [[5, 3, 1], [4, 5, 2], [3, 7, 3]]


def _building_position(**options):
    rules = make_rules(5, components=table_with(_three_pyramids), **options)
    levels = {
        #               Blue Red Green Purple Yellow
        (PALENQUE, 0): [0, 1, 1, 2, 1],
        (COPAN, 0): [1, 2, 1, 1, 0],
        (UXMAL, 0): [0, 1, 2, 1, 1],  # Blue has no block on Uxmal's level 1
        (PALENQUE, 1): [0, 1, 0, 2, 0],  # 3 of 4
        (COPAN, 1): [0, 2, 1, 0, 0],  # 3 of 4
        (UXMAL, 1): [0, 1, 1, 0, 0],  # 2 of 4
    }
    return rules, build_position(rules, levels, held=[1, 0, 3, 2, 0], turn=PURPLE)


def _seed_building_sequence(rules, s):
    # Purple completes Palenque's level 2 with the sole majority: bonus block on level 3.
    s = rules.apply_action(s, A.place_id(PALENQUE, 1))
    assert s.level_counts(PALENQUE, 2) == [0, 0, 0, 1, 0]
    # Blue: not Uxmal (no level-1 block), not Palenque L3 (other level 2s incomplete): Copan.
    assert rules.current_player(s) == BLUE
    places = [a for a in rules.legal_actions(s) if A.PLACE_BASE <= a < A.DOUBLE_PAY]
    assert places == [A.place_id(COPAN, 1)]
    s = rules.apply_action(s, A.place_id(COPAN, 1))
    return s


def test_building_example_seed_copan_bonus_to_majority():
    """The seed's example, with ``bonus_block_recipient="majority"``: Blue's block completes
    Copan's level 2 and Red, who has the majority, gets the bonus on level 3. Green pays a
    block for a double move, fills Uxmal's level 2 and gets the bonus on Uxmal's level 3."""
    # skip_forced=False: Green's two placements are forced (only Uxmal L2), show them as steps.
    rules, s = _building_position(bonus_block_recipient="majority", skip_forced=False)
    s = _seed_building_sequence(rules, s)
    assert s.level_counts(COPAN, 2) == [0, 1, 0, 0, 0]
    assert rules.current_player(s) == GREEN
    green_pool = s.pool[GREEN]
    s = rules.apply_action(s, A.DOUBLE_PAY)
    assert s.held[GREEN] == 2 and s.pool[GREEN] == green_pool + 1
    s = rules.apply_action(s, A.place_id(UXMAL, 1))
    assert rules.current_player(s) == GREEN  # the double move's second block
    s = rules.apply_action(s, A.place_id(UXMAL, 1))
    assert s.level_counts(UXMAL, 1) == [0, 1, 3, 0, 0]
    assert s.level_counts(UXMAL, 2) == [0, 0, 1, 0, 0]
    assert s.held[GREEN] == 0 and s.pool[GREEN] == green_pool + 1 - 1
    assert rules.current_player(s) == PURPLE


def test_building_example_default_placer_rule_gives_no_copan_bonus():
    """Default ``bonus_block_recipient="placer"`` (the rule text): Blue completes Copan's level 2
    without the majority, so nobody gets a bonus block there."""
    rules, s = _building_position()
    s = _seed_building_sequence(rules, s)
    assert s.level_counts(COPAN, 2) == [0, 0, 0, 0, 0]


def test_involuntary_pass_pays_a_block_and_earns_one_gold():
    rules, s = _building_position()
    s = rules.apply_action(s, A.place_id(PALENQUE, 1))
    # Fill Copan's level 2 so Blue has nowhere to build.
    s = s.clone()
    s.board[(COPAN * A.MAX_LEVELS + 1) * 5 + GREEN] += 1
    s.pool[GREEN] -= 1
    s._cache = {}
    assert rules.legal_actions(s) == [A.FORCED_PASS]
    gold, pool = s.gold[BLUE], s.pool[BLUE]
    after = rules.apply_action(s, A.FORCED_PASS)
    assert after.gold[BLUE] == gold + 1 and after.pool[BLUE] == pool + 1 and after.held[BLUE] == 0


def test_global_and_own_support_rules():
    rules, s = _building_position()
    top = building.open_level(s, rules.components, rules.config)
    assert top == 1  # all level 1s full; level 2 not full everywhere
    assert not building.can_build(s, rules.components, top, BLUE, UXMAL, 1)  # no Uxmal L1 block
    assert building.can_build(s, rules.components, top, BLUE, COPAN, 1)
    assert not building.can_build(s, rules.components, top, PURPLE, PALENQUE, 2)  # rule (a)


# -- Gold payment -------------------------------------------------------------------------------


def test_gold_example_1_four_way_tie_no_second():
    assert scoring.level_payouts([2, 2, 2, 2, 0], 3, 1) == [3, 3, 3, 3, 0]


def test_gold_example_2_incomplete_level_red_alone():
    assert scoring.level_payouts([0, 1, 0, 0, 0], 4, 2) == [0, 4, 0, 0, 0]


def test_gold_example_3_green_majority_blue_red_second():
    #                             Blue Red Green
    assert scoring.level_payouts([1, 1, 3], 3, 1) == [1, 1, 3]


def test_gold_example_4_two_first_three_second():
    #                             Blue Red Green Purple Yellow
    assert scoring.level_payouts([2, 1, 1, 1, 2], 3, 1) == [3, 1, 1, 1, 3]


# -- Erosion -------------------------------------------------------------------------------------


def test_extreme_erosion_example():
    """Purple, Blue and Yellow get 3 gold for the level-1 majority, Red 1 for second: everyone
    removes a level-1 block; Red loses his only one and with it all his higher blocks."""
    rules = make_rules(5)
    tikal = 0  # [[9, 3, 1], [7, 4, 2], [5, 6, 3], [3, 8, 4]]
    levels = {
        #            Blue Red Green Purple Yellow
        (tikal, 0): [2, 1, 0, 2, 2],
        (tikal, 1): [1, 2, 0, 0, 0],
        (tikal, 2): [0, 1, 0, 0, 0],
    }
    s = build_position(rules, levels, held=[0] * 5, turn=0)
    pools = list(s.pool)
    earned = scoring.score_round(s, rules.components, erode=True)
    assert earned == [3 + 2, 1 + 4 + 6, 0, 3, 3]
    assert s.level_counts(tikal, 0) == [1, 0, 0, 1, 1]
    assert s.level_counts(tikal, 1) == [0, 0, 0, 0, 0]
    assert s.level_counts(tikal, 2) == [0, 0, 0, 0, 0]
    assert [s.pool[i] - pools[i] for i in range(5)] == [2, 4, 0, 1, 1]


def test_no_erosion_after_the_last_round():
    rules = make_rules(5)
    s = build_position(rules, {(0, 0): [2, 1, 0, 0, 0]}, held=[0] * 5, turn=0)
    scoring.score_round(s, rules.components, erode=False)
    assert s.level_counts(0, 0) == [2, 1, 0, 0, 0] and s.gold == [3, 1, 0, 0, 0]
