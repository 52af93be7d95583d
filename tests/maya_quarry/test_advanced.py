"""Advanced variant (seed "Variation for Advanced Players"): the sealed-bid auction, the four
blue markers as scenario tests, sealed bids hidden from every other seat, state schema /2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from maya_envs.bots import make_bot
from maya_envs.core.errors import ConfigError
from maya_envs.games import GAMES
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.observation import MayaQuarryObserver, observe
from maya_envs.maya_quarry.render import render_text
from maya_envs.maya_quarry.rules import auction
from maya_envs.maya_quarry.rules import config as C
from maya_envs.maya_quarry.rules.quarry import transport
from maya_envs.maya_quarry.rules.state import Phase
from tests.maya_quarry.helpers import at_auction, reveal_position

from ..conformance import play_states
from .helpers import CARD, make_rules, play

GYM_ID = GAMES["maya_quarry"].gym_id


def bid(b: int) -> int:
    return A.BID_BASE + b


def joker(green: int) -> int:
    return A.JOKER_BASE + A.JOKER_GREEN.index(green)


# -- auction resolution ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bids", "start", "order", "winners"),
    [
        ([5, 3, 1], 0, [0, 1, 2], [0, 1]),  # distinct: the lowest (seat 2) gets nothing
        ([1, 3, 5], 0, [2, 1, 0], [2, 1]),
        ([2, 2, 2], 0, [0, 1, 2], [0, 1]),  # all tied: clockwise from the start player
        ([2, 2, 2], 1, [1, 2, 0], [1, 2]),
        ([4, 4, 1, 4], 2, [3, 0, 1, 2], [3, 0, 1]),  # ties clockwise from start 2: 3, 0, 1
        ([5, 0, 3], 0, [0, 2, 1], [0, 2]),  # a zero bid is the lowest
        ([5, 0, 0, 2], 0, [0, 3, 1, 2], [0, 3]),  # zero bidders get nothing
        ([0, 0, 0], 0, [0, 1, 2], []),
        ([3, 1, 1, 1, 1], 4, [0, 4, 1, 2, 3], [0, 4, 1, 2]),  # tie at the bottom: the last is out
    ],
)
def test_bid_order_and_winners(bids, start, order, winners):
    assert auction.bid_order(bids, start) == order
    assert auction.winners_in_order(bids, start) == winners


def test_bid_order_needs_every_bid():
    with pytest.raises(ValueError, match=r"needs every bid"):
        auction.bid_order([2, -1, 0], 0)


def test_auction_distinct_bids_pay_lowest_refunded_markers_in_order():
    rules, s, rng = at_auction(3)
    assert s.gold == [10, 10, 10] and s.bids == [-1, -1, -1] and len(s.blue_offer) == 2
    first, second = s.blue_offer
    s = play(rules, s, [bid(1), bid(4), bid(6)])  # seats 0, 1, 2 in turn from the start player
    assert s.phase == Phase.BLUE_CHOICE and s.actor == 2 and s.choosers == [2, 1]
    assert s.gold == [10, 6, 4]  # winners paid, the lowest bidder (seat 0) paid nothing
    assert set(rules.legal_actions(s)) == {A.BLUE_CHOOSE_BASE + first, A.BLUE_CHOOSE_BASE + second}
    s = rules.apply_action(s, A.BLUE_CHOOSE_BASE + second, rng)
    # seat 1 has a single marker left: the engine takes it (skip_forced); placement starts
    assert s.blue_holder[second] == 2 and s.blue_holder[first] == 1 and s.phase == Phase.WORKERS
    assert s.actor == s.start == 0


def test_auction_ties_choose_clockwise_from_the_start_player():
    rules, s, rng = at_auction(4)  # 3 markers on offer
    s = play(rules, s, [bid(3), bid(3), bid(5), bid(3)])
    assert s.choosers == [2, 0, 1]  # seat 3 is last of the tied 3s: the lowest bidder
    assert s.gold == [7, 7, 5, 10]
    s = play(rules, s, [A.BLUE_CHOOSE_BASE + s.blue_offer[2], A.BLUE_CHOOSE_BASE + s.blue_offer[0]])
    assert [s.blue_holder[m] for m in s.blue_offer] == [0, 1, 2] and s.phase == Phase.WORKERS


def test_auction_zero_bid_gets_nothing_and_gold_is_conserved():
    rules, s, rng = at_auction(5)  # all four markers on offer
    assert s.blue_offer == [0, 1, 2, 3]
    s = play(rules, s, [bid(2), bid(0), bid(7), bid(0), bid(1)])
    assert s.choosers == [2, 0, 4]  # zero bidders (seats 1, 3) get nothing
    paid = {2: 7, 0: 2, 4: 1}
    assert s.gold == [10 - paid.get(seat, 0) for seat in range(5)]
    assert sum(s.gold) == 50 - sum(paid.values())  # only the winners' bids leave the table
    s = play(rules, s, [A.BLUE_CHOOSE_BASE + 3, A.BLUE_CHOOSE_BASE + 0, A.BLUE_CHOOSE_BASE + 1])
    assert s.blue_holder == [0, 4, -1, 2]  # the unpicked marker stays out this round


def test_all_zero_bids_skip_the_choice():
    rules, s, rng = at_auction(3)
    s = play(rules, s, [bid(0), bid(0), bid(0)])
    assert s.phase == Phase.WORKERS and s.blue_holder == [-1] * 4 and s.gold == [10] * 3


def test_bids_are_masked_by_gold_and_capped():
    rules, s, rng = at_auction(3)
    assert rules.legal_actions(s) == [bid(b) for b in range(11)]
    s = s.clone()
    s.gold[0] = 75
    s._cache = {}
    assert rules.legal_actions(s) == [bid(b) for b in range(A.MAX_BID + 1)]
    s.gold[0] = 0
    s._cache = {}
    assert rules.legal_actions(s) == [bid(0)]


def test_markers_are_redrawn_each_round_from_the_generator():
    rules = make_rules(3, variant="advanced")
    bots = [make_bot("random", rules, seed=seat) for seat in range(3)]
    offers = set()
    for g in range(8):
        for s in play_states(rules, bots, np.random.default_rng(g)):
            if s.phase == Phase.BID and s.bids == [-1, -1, -1]:
                offers.add(tuple(s.blue_offer))
                assert s.blue_holder == [-1] * 4 and s.joker_as == -1 and s.plus2_q == -1
    assert len(offers) == 6  # every pair of the four markers occurs
    s = rules.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="pass a numpy Generator"):
        while True:  # setup ends with the first draw, which needs the generator
            s = rules.apply_action(s, rules.legal_actions(s)[0])


# -- the blue markers -------------------------------------------------------------------------


def test_plus2_points_decide_a_quarry_ranking():
    rules, s0, rng = at_auction(3)
    columns = {3: [(0, 5), (1, 6)]}  # rightmost quarry, ranks 4/3/1: seat 1 leads 6 to 5
    s = reveal_position(rules, s0, columns, {C.BLUE_PLUS_2: 0})
    s = rules.apply_action(s, A.WORKER_PASS, rng)
    assert s.phase == Phase.PLUS2_CHOICE and s.actor == 0
    assert set(rules.legal_actions(s)) == {A.PLUS2_BASE + 3, A.PLUS2_DECLINE}  # quarries with cards
    won = rules.apply_action(s, A.PLUS2_BASE + 3, rng)  # 7 to 6
    lost = rules.apply_action(s, A.PLUS2_DECLINE, rng)
    assert won.phase == lost.phase == Phase.BUILD
    assert (won.held[0], won.held[1]) == (4, 3)
    assert (lost.held[0], lost.held[1]) == (3, 4)
    assert won.blue_holder[C.BLUE_PLUS_2] == -1 and won.plus2_q == -1  # used once, gone after the round's reveal


def test_plus2_points_in_a_quarry_without_own_cards():
    rules, s0, rng = at_auction(3)
    columns = {3: [(0, 3), (1, 4)]}
    s = reveal_position(rules, s0, columns, {C.BLUE_PLUS_2: 2})  # seat 2 has no card anywhere
    s = rules.apply_action(s, A.WORKER_PASS, rng)
    assert s.actor == 2 and A.PLUS2_BASE + 3 in rules.legal_actions(s)
    s = rules.apply_action(s, A.PLUS2_BASE + 3, rng)
    assert s.held == [3, 4, 1]  # seat 2 scores 2: third rank (1 block)


def test_plus2_points_lose_ties_without_a_card_and_can_be_hit_by_minus3():
    rules, s0, rng = at_auction(3)
    s = reveal_position(rules, s0, {3: [(0, 5), (1, -3)]}, {C.BLUE_PLUS_2: 2})
    s = play(rules, s, [A.WORKER_PASS, A.PLUS2_BASE + 3])
    assert s.phase == Phase.MINUS3 and s.actor == 1
    target_2 = A.MINUS3_BASE + (2 - 1) % 3 - 1
    assert target_2 in rules.legal_actions(s)
    s = rules.apply_action(s, target_2, rng)
    assert s.held == [4, 0, 0]  # seat 2 at 2 - 3 < 0 takes no rank


def test_plus2_empty_quarry_option():
    rules, s0, rng = at_auction(3, plus2_empty_quarry=True)
    s = reveal_position(rules, s0, {3: [(0, 3)]}, {C.BLUE_PLUS_2: 1})
    s = rules.apply_action(s, A.WORKER_PASS, rng)
    assert set(rules.legal_actions(s)) == {A.PLUS2_BASE + q for q in range(4)} | {A.PLUS2_DECLINE}
    s = rules.apply_action(s, A.PLUS2_BASE + 1, rng)  # alone at q1 (ranks 3/1) with 2 points
    assert s.held == [4, 3, 0]
    assert s.holder[C.FREE_DOUBLE] == 1  # and the rank-1 marker of that quarry


def test_transport_plus4_and_extra_block():
    rules, s0, rng = at_auction(3)
    s = s0.clone()
    s.hands = [0] * 21
    s.hands[0 * 7 + CARD[3]] = 1  # seat 0: 3 points of transport
    s.hands[1 * 7 + CARD[3]] = 1
    s.hands[2 * 7 + CARD[3]] = 1
    s.held = [9, 9, 9]
    s.pool = [p - 9 for p in s.pool]
    s.blue_holder[C.BLUE_TRANSPORT_PLUS_4] = 0
    s.blue_holder[C.BLUE_EXTRA_BLOCK] = 1
    pools = list(s.pool)
    transport(s)
    assert s.held == [7, 3 + 1, 3]  # +4 capacity; one extra block outside the capacity
    assert s.pool == [pools[0] + 2, pools[1] + 6 - 1, pools[2] + 6]
    assert s.blue_holder == [-1] * 4  # both used at transport


def test_extra_block_needs_no_transport_even_with_zero_capacity():
    rules, s0, rng = at_auction(3)
    s = s0.clone()
    s.hands = [0] * 21
    s.blue_holder[C.BLUE_EXTRA_BLOCK] = 2
    transport(s)
    assert s.held == [0, 0, 1]


def joker_position(rules, s0, columns=None, hands=None):
    s = reveal_position(rules, s0, columns or {3: [(0, 5), (1, 4), (1, -3)]}, {C.BLUE_JOKER: 0}, hands)
    return rules.apply_action(s, A.WORKER_PASS)


def test_joker_offers_every_green_marker_but_first_player():
    rules, s0, rng = at_auction(3)
    s = joker_position(rules, s0)
    assert s.phase == Phase.JOKER_CHOICE and s.actor == 0
    legal = rules.legal_actions(s)
    assert legal == [
        joker(g) for g in (C.PROTECT, C.RELOCATE, C.FREE_BLOCK, C.TRANSPORT_PLUS_2, C.FREE_PASS, C.FREE_DOUBLE)
    ] + [A.JOKER_DECLINE]
    assert not any("FIRST_PLAYER" in rules.action_to_string(a) for a in legal)


def test_joker_as_protect():
    rules, s0, rng = at_auction(3)
    s = joker_position(rules, s0)  # q3: seat 0 5; seat 1 4 and -3
    protected = rules.apply_action(s, joker(C.PROTECT), rng)  # one quarry with cards: placed there
    assert protected.phase == Phase.BUILD and protected.held[:2] == [4, 3]  # seat 1's -3 has no target
    declined = rules.apply_action(s, A.JOKER_DECLINE, rng)
    assert declined.phase == Phase.MINUS3 and declined.actor == 1
    hit = rules.apply_action(declined, A.MINUS3_BASE + (0 - 1) % 3 - 1, rng)
    assert hit.held[:2] == [3, 4]  # 5 - 3 = 2 < 4


def test_joker_as_protect_chooses_among_quarries():
    rules, s0, rng = at_auction(3)
    s = joker_position(rules, s0, {2: [(0, 3)], 3: [(0, 5), (1, 4), (1, -3)]})
    s = rules.apply_action(s, joker(C.PROTECT), rng)
    assert set(rules.legal_actions(s)) == {A.PROTECT_BASE + 2, A.PROTECT_BASE + 3}
    s = rules.apply_action(s, A.PROTECT_BASE + 3, rng)
    assert s.joker_protect_q == -1 and s.held[:2] == [4 + 4, 3]  # q3 (protected) and q2


def test_joker_as_relocate():
    rules, s0, rng = at_auction(3)
    s = joker_position(rules, s0)
    before = [s.count(p, 0, 0) for p in range(4)]
    s = rules.apply_action(s, joker(C.RELOCATE), rng)
    assert s.phase == Phase.RELOCATE_SRC and s.actor == 0
    src = next(a for a in rules.legal_actions(s) if a != A.RELOCATE_DECLINE)
    p_src = (src - A.RELOCATE_SRC_BASE) // A.MAX_LEVELS
    s = rules.apply_action(s, src, rng)
    assert s.phase == Phase.RELOCATE_DST
    dst = next(a for a in rules.legal_actions(s) if a - A.RELOCATE_DST_BASE != p_src)
    s = rules.apply_action(s, dst, rng)
    after = [s.count(p, 0, 0) for p in range(4)]
    expected = list(before)
    expected[p_src] -= 1
    expected[dst - A.RELOCATE_DST_BASE] += 1
    assert after == expected and s.phase != Phase.JOKER_CHOICE and s.joker_as == -1


def test_joker_as_free_block():
    rules, s0, rng = at_auction(3)
    s = joker_position(rules, s0)
    pool = s.pool[0]
    s = rules.apply_action(s, joker(C.FREE_BLOCK), rng)
    target = next(a for a in rules.legal_actions(s) if a != A.FREE_BLOCK_DECLINE)
    p = target - A.FREE_BLOCK_BASE
    count = s.count(p, 0, 0)
    s = rules.apply_action(s, target, rng)
    assert s.count(p, 0, 0) == count + 1 and s.pool[0] == pool - 1
    assert s.phase == Phase.MINUS3  # then the reveal starts (seat 1's -3 at q3)


def test_joker_as_transport_plus2():
    rules, s0, rng = at_auction(3)
    hands = {0: [3]}  # after the 5 at q3 only a 3 is left: capacity 3
    s = joker_position(rules, s0, hands=hands)
    plain = rules.apply_action(s, A.JOKER_DECLINE, rng)
    plain = rules.apply_action(plain, A.MINUS3_NONE, rng)
    boosted = rules.apply_action(s, joker(C.TRANSPORT_PLUS_2), rng)
    boosted = rules.apply_action(boosted, A.MINUS3_NONE, rng)
    assert plain.held[0] == 3 and boosted.held[0] == 4  # won 4; 3 + 2 = 5 capacity
    assert boosted.joker_as == -1  # spent at transport


@pytest.mark.parametrize("green", [C.FREE_PASS, C.FREE_DOUBLE])
def test_joker_as_free_pass_and_free_double_move_once(green):
    rules, s0, rng = at_auction(3)
    s = joker_position(rules, s0, {3: [(0, 5), (1, 4)]})
    s = rules.apply_action(s, joker(green), rng)
    assert s.phase == Phase.BUILD and s.actor == 0 and s.held[0] == 4
    free = A.PASS_FREE if green == C.FREE_PASS else A.DOUBLE_FREE
    assert free in rules.legal_actions(s)
    s = rules.apply_action(s, free, rng)
    if green == C.FREE_DOUBLE:
        s = play(rules, s, [rules.legal_actions(s)[0], rules.legal_actions(s)[0]])
    assert s.joker_as == -1 and s.joker_seat == -1
    while s.phase == Phase.BUILD and s.actor != 0:
        s = rules.apply_action(s, rules.legal_actions(s)[0], rng)
    assert s.actor == 0 and free not in rules.legal_actions(s)  # used once
    assert s.held[0] == (4 if green == C.FREE_PASS else 2)


# -- sealed bids ------------------------------------------------------------------------------


def _view(rules, s, seat):
    mask = rules.legal_mask(s) if rules.current_player(s) == seat else None
    return observe(rules, s, seat), mask, render_text(rules, s, seat), rules.final_info(s)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_observation_before_all_bids_are_in_does_not_depend_on_earlier_bids(n):
    rules, s, rng = at_auction(n)
    order = [(s.start + k) % n for k in range(n)]
    for made in range(1, n):  # after `made` bids; the last bid would reveal them all
        variants = []
        for values in rng.integers(0, 11, size=(6, made)):
            t = play(rules, s, [bid(int(v)) for v in values])
            assert t.phase == Phase.BID and t.actor == order[made]
            variants.append((t, dict(zip(order[:made], values.tolist(), strict=True))))
        for observer in range(n):
            base_state, base_bids = variants[0]
            base = _view(rules, base_state, observer)
            for other, bids in variants[1:]:
                if bids.get(observer) != base_bids.get(observer):
                    continue  # an agent sees its own bid
                view = _view(rules, other, observer)
                assert np.array_equal(base[0], view[0]), f"seat {observer} sees another seat's bid"
                assert (base[1] is None and view[1] is None) or np.array_equal(base[1], view[1])
                assert base[2:] == view[2:]
    # sensitivity: the bidder's own view shows its bid; once all are in, everyone sees them
    a, b = play(rules, s, [bid(1)]), play(rules, s, [bid(2)])
    assert not np.array_equal(observe(rules, a, order[0]), observe(rules, b, order[0]))
    full_a = play(rules, s, [bid(1)] + [bid(0)] * (n - 1))
    full_b = play(rules, s, [bid(2)] + [bid(0)] * (n - 1))
    assert not np.array_equal(observe(rules, full_a, order[1]), observe(rules, full_b, order[1]))


def test_heuristic_bid_ignores_earlier_bids():
    rules, s, rng = at_auction(4)
    decisions = {
        make_bot("heuristic", rules, seed=1).act(play(rules, s, [bid(v), bid(w)])) for v in range(11) for w in (0, 9)
    }
    assert decisions == {bid(2)}


# -- state schema and options -----------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5])
def test_advanced_state_dict_round_trip(n):
    rules = make_rules(n, variant="advanced")
    bots = [make_bot("heuristic", rules, seed=seat) for seat in range(n)]
    phases = set()
    for index, s in enumerate(play_states(rules, bots, np.random.default_rng(n))):
        phases.add(s.phase)
        if index % 3:
            continue
        data = json.loads(json.dumps(rules.state_to_dict(s)))
        assert (data["schema"], data["version"]) == ("maya_quarry.state", 3)
        back = rules.state_from_dict(data)
        assert back == s and rules.legal_actions(back) == rules.legal_actions(s)
    assert {Phase.BID, Phase.BLUE_CHOICE} <= phases


def test_state_schema_checks():
    basic, advanced = make_rules(3), make_rules(3, variant="advanced")
    rules, s, rng = at_auction(3)
    data = rules.state_to_dict(play(rules, s, [bid(4)]))
    with pytest.raises(ConfigError, match=r"state.blue_offer: \[\d, \d\] is set, but these rules play the basic game"):
        basic.state_from_dict(data)
    data_bad = {**data, "bids": [11, -1, -1]}
    with pytest.raises(ConfigError, match=r"state.bids\[0\]: 11 exceeds the seat's gold 10"):
        advanced.state_from_dict(data_bad)
    with pytest.raises(ConfigError, match=r"state.blue_offer"):
        advanced.state_from_dict({**data, "blue_offer": [3, 1]})
    with pytest.raises(ConfigError, match=r"state.joker_as: .*got 3"):
        advanced.state_from_dict({**data, "joker_as": 3})
    with pytest.raises(ConfigError, match=r"state.bids\[1\]: must be an int in -1..30"):
        advanced.state_from_dict({**data, "bids": [1, 31, -1]})
    # a basic state saved in schema /1 (before this variant) still loads
    old = basic.state_to_dict(basic.initial_state())
    for key in ("bids", "blue_offer", "blue_holder", "choosers", "plus2_q", "plus2_seat"):
        del old[key]
    for key in ("joker_seat", "joker_as", "joker_protect_q"):
        del old[key]
    old["schema"] = "maya_quarry.state/1"
    assert basic.state_from_dict(old) == basic.initial_state()


def test_spec_of_the_variants():
    for n, shape in ((3, 679), (4, 858), (5, 1164)):
        rules = make_rules(n, variant="advanced")
        assert rules.spec.num_actions == A.NUM_ACTIONS_ADVANCED == 164
        assert MayaQuarryObserver(rules).layout.shape == (shape,)
        assert rules.initial_state(np.random.default_rng(0)).gold == [10] * n
        assert make_rules(n).spec.num_actions == 114
    for action in range(A.NUM_ACTIONS, A.NUM_ACTIONS_ADVANCED):
        assert A.encode(A.decode(action, A.NUM_ACTIONS_ADVANCED)) == action
    with pytest.raises(ValueError, match="out of range"):
        A.decode(A.NUM_ACTIONS_ADVANCED, A.NUM_ACTIONS_ADVANCED)
    with pytest.raises(ValueError, match="num_actions=100"):
        A.decode(3, 100)
    assert A.action_to_string(bid(7), None, 164) == "bid 7"
    assert A.action_to_string(joker(C.FREE_BLOCK), None, 164) == "joker as FREE_BLOCK"


def test_single_agent_view_plays_the_advanced_variant():
    import gymnasium as gym

    import maya_envs  # noqa: F401  (registers the ids)

    env = gym.make(GYM_ID, num_players=4, opponents="heuristic", variant="advanced")
    assert env.action_space.n == 164
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        mask = env.unwrapped.action_masks()
        _obs, reward, term, trunc, _info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        done = term or trunc
    assert done and -1.0 <= total <= 1.0  # win_loss: the learner's own reward, once
