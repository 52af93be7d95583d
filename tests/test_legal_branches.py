"""Targeted positions for the rare branches of every game's legal-action generation, checked
against the independent oracles (issue 17 item 5b).

Random playouts do not reach some branches (0 of 40 random 5-player quarry games reached a
building turn without a legal placement while holding the free pass), so each branch gets a
hand-built position here:

* the quarry game (``MayaQuarryRules._build_actions``): every combination of {a legal
  placement, none} x blocks held {1, 2, 3} x FREE_PASS {not held, held, joker acting as it}
  x FREE_DOUBLE_MOVE {not held, held, joker}, 3 and 5 players, checked with
  ``tests/maya_quarry/oracle.py``; the rulebook's involuntary pass (pay a block, get 1 gold)
  is offered beside the free pass;
* Maya (2012): the exchange rules (Monolith at every pair and off the board, Raven at every
  level and unset, joined colours) on boards with joins, checked with an oracle written
  from the rule text; the declare step when eligible and not; a position with no legal
  exchange (the game is over, as in the batched engine);
* Yaxha: the legal ids of every phase at states reached by targeted choices (a clash
  leaving pending picks, fixed and floating footprints), checked with the mask oracle of
  ``tests/yaxha/test_mask_oracle.py`` (the set of ids ``apply_action`` accepts).

``scripts/rules_coverage.sh`` measures the branch coverage of the rules engines over these and
the other rules tests and prints it per engine in CI.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from maya_envs.maya2012 import actions as MA
from maya_envs.maya2012.rules import DECLARE, OVER, Maya2012Rules, legal_exchanges
from maya_envs.maya_quarry import actions as QA
from maya_envs.maya_quarry.rules.config import FREE_DOUBLE, FREE_PASS
from maya_envs.yaxha.rules import YaxhaRules
from tests.maya2012.boards import complete_board, multi_state, state_with
from tests.maya_quarry.helpers import build_position, make_rules
from tests.maya_quarry.oracle import oracle_legal
from tests.yaxha.test_mask_oracle import accepted

# -- the quarry game: building turns ----------------------------------------------------------

HOLD = ("none", "marker", "joker")


def _quarry_build_position(rules, seat: int, can_place: bool, held: int, free_pass: str, free_double: str):
    n = rules.num_players
    comp = rules.components
    levels = {}
    if not can_place:  # every bottom level full of the others' blocks: nowhere to build
        for p, pyramid in enumerate(comp.pyramids):
            capacity = pyramid.levels[0][0]
            counts = [0] * n
            others = [t for t in range(n) if t != seat]
            for k in range(capacity):
                counts[others[(k + p) % len(others)]] += 1
            levels[(p, 0)] = counts
    s = build_position(rules, levels, [held if t == seat else 1 for t in range(n)], seat)
    assert min(s.pool) >= 0, "the position must conserve blocks"
    for green, how in ((FREE_PASS, free_pass), (FREE_DOUBLE, free_double)):
        if how == "marker":
            s.holder[green] = seat
    jokers = [green for green, how in ((FREE_PASS, free_pass), (FREE_DOUBLE, free_double)) if how == "joker"]
    if len(jokers) == 2:
        return None  # one joker acts as one marker
    if jokers:
        s.joker_seat, s.joker_as = seat, jokers[0]
    s._cache = {}
    return s


@pytest.mark.parametrize("num_players", [3, 5])
def test_every_building_branch_matches_the_oracle(num_players):
    rules = make_rules(num_players, variant="advanced")
    seen = set()
    for can_place, held, free_pass, free_double in itertools.product((True, False), (1, 2, 3), HOLD, HOLD):
        s = _quarry_build_position(rules, 1, can_place, held, free_pass, free_double)
        if s is None:
            continue
        legal = set(rules.legal_actions(s))
        assert legal == oracle_legal(rules, s), (can_place, held, free_pass, free_double)
        assert rules.legal_mask(s).sum() == len(legal)
        passes = legal & {QA.PASS_PAY, QA.PASS_FREE, QA.FORCED_PASS, QA.DOUBLE_PAY, QA.DOUBLE_FREE}
        seen.add(frozenset(passes))
    # The case: no placement, free pass held -> both the free and the forced pass.
    assert frozenset({QA.PASS_FREE, QA.FORCED_PASS}) in seen
    assert frozenset({QA.FORCED_PASS}) in seen
    assert frozenset({QA.PASS_PAY, QA.DOUBLE_PAY, QA.DOUBLE_FREE, QA.PASS_FREE}) in seen


@pytest.mark.parametrize("how", ["marker", "joker"])
def test_forced_pass_beside_the_free_pass_pays_a_block_for_one_gold(how):
    rules = make_rules(5, variant="advanced")
    s = _quarry_build_position(rules, 2, False, 2, how, "none")
    legal = rules.legal_actions(s)
    assert QA.FORCED_PASS in legal and QA.PASS_FREE in legal
    after = rules.apply_action(s, QA.FORCED_PASS, np.random.default_rng(0))
    assert after.gold[2] == s.gold[2] + 1 and after.held[2] == 1 and after.pool[2] == s.pool[2] + 1
    kept = after.holder[FREE_PASS] == 2 if how == "marker" else (after.joker_seat, after.joker_as) == (2, FREE_PASS)
    assert kept, "the free pass stays for later"
    free = rules.apply_action(s, QA.PASS_FREE, np.random.default_rng(0))
    assert free.gold[2] == s.gold[2] and free.held[2] == 2


# -- Maya (2012): exchanges, the declare step, a stuck position ----------------------------------


def exchange_oracle(towers, monolith: int, raven: int) -> set[int]:
    """Rule text (rules section 4): pair ``(a, b)`` at base level ``k`` (2-5) is legal unless a
    tower of the pair stands next to the Monolith, ``k`` is the Raven's level, or the cut
    splits a joined colour in either tower (``col[k-2] == col[k-1]``)."""
    blocked = set(MA.PAIRS[monolith]) if monolith >= 0 else set()
    out = set()
    for pair, (a, b) in enumerate(MA.PAIRS):
        if blocked & {a, b}:
            continue
        for k in range(2, 6):
            if k == raven:
                continue
            if towers[a][k - 2] == towers[a][k - 1] or towers[b][k - 2] == towers[b][k - 1]:
                continue
            out.add(4 * pair + k - 2)
    return out


JOINED_BOARDS = [
    complete_board({}),
    complete_board({0: (None, 0, 0, None, None), 4: (None, None, 1, 1, 1)}),
    complete_board({1: (None, 2, 2, 2, 2), 3: (None, 3, 3, None, None), 7: (None, None, None, 4, 4)}),
    complete_board({t: (None, 5 + t % 2, 5 + t % 2, None, None) for t in (2, 5, 8)}),
]


@pytest.mark.parametrize("board", range(len(JOINED_BOARDS)))
def test_exchange_rules_match_the_rule_text_oracle(board):
    towers = JOINED_BOARDS[board]
    rules = Maya2012Rules({"setup": "random"})
    for monolith in range(-1, len(MA.PAIRS)):
        for raven in (0, 2, 3, 4, 5):
            assert set(legal_exchanges(towers, monolith, raven)) == exchange_oracle(towers, monolith, raven)
        state = state_with(towers, monolith=monolith, raven=2)
        assert set(rules.legal_actions(state)) == exchange_oracle(towers, monolith, 2)


def test_declare_step_offers_declare_only_when_eligible():
    rules = Maya2012Rules({"num_players": 3, "declare_step": "always"})
    complete = complete_board({4: (8,) * 5, 0: (0,) * 5})  # the centre and the tower of colour 0
    eligible = multi_state(complete, ((0, 1), (2, 3), (4, 5)), (6, 7), phase=DECLARE, to_move=0, turn=1)
    assert rules.legal_actions(eligible) == [MA.DECLARE_END, MA.CONTINUE]
    other = multi_state(complete, ((2, 3), (0, 1), (4, 5)), (6, 7), phase=DECLARE, to_move=0, turn=1)
    assert rules.legal_actions(other) == [MA.CONTINUE]


def test_a_position_without_a_legal_exchange_is_over():
    stuck = tuple((c,) * 5 for c in range(9))  # every tower one colour: every seam joined
    rules = Maya2012Rules({"setup": "random"})
    assert legal_exchanges(stuck, -1, 0) == [] == sorted(exchange_oracle(stuck, -1, 0))
    over = rules._start_exchanges(state_with(stuck))
    assert over.phase == OVER and rules.legal_actions(over) == []
    assert rules.final_info(over)["end"] == "no_legal_exchange" and rules.returns(over).tolist() == [0.0, 0.0]


# -- Yaxha: every phase, both footprints, a clash --------------------------------------------------


@pytest.mark.parametrize("footprint", ["floating", "fixed"])
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_yaxha_targeted_choices_match_the_mask_oracle(num_players, footprint):
    """Everyone picks the same market tile (a clash, so pending picks follow), then the
    building turns; at every state the legal ids are what ``apply_action`` accepts."""
    rules = YaxhaRules(num_players=num_players, footprint=footprint)
    rng = np.random.default_rng(num_players)
    probe = np.random.default_rng(0)
    state = rules.initial_state(rng)
    phases = set()
    for _ in range(3 * rules.spec.max_game_length // 10):  # about three rounds
        if rules.is_terminal(state):
            break
        legal = rules.legal_actions(state)
        assert set(legal) == accepted(rules, state, probe)
        assert legal, "no legal action before the end"
        phases.add(state.phase)
        seat = rules.current_player(state)
        assert rules.legal_actions_for(state, seat) == legal  # the Parallel view's ids
        assert seat in rules.parallel_seats(state)
        state = rules.apply_action(state, legal[0], rng)  # the lowest id: the same tile for all
    assert len(phases) >= (3 if num_players > 2 else 2)


# -- short random playouts with the oracles (the common branches, for the coverage figure) -------

MAYA_CONFIGS = [
    {"num_players": 2, "max_turns": 80},
    {"num_players": 2, "setup": "random", "max_turns": 80, "at_max_turns": "truncate"},
    {"num_players": 2, "setup": "draft", "max_turns": 40, "reward_scheme": "score_diff"},
    {"num_players": 3, "max_turns": 60, "declare_step": "always", "three_plus_two": "best"},
    {"num_players": 4, "setup": "draft", "max_turns": 40, "reward_scheme": "score_diff"},
]


@pytest.mark.parametrize("options", MAYA_CONFIGS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_maya2012_random_playouts_match_the_rule_text_oracle(options):
    from maya_envs.maya2012.rules import EXCHANGE, may_declare

    rules = Maya2012Rules(options)
    rng = np.random.default_rng(len(options))
    for _ in range(2):
        state = rules.initial_state(rng)
        while rules.current_player(state) >= 0:
            legal = rules.legal_actions(state)
            if state.phase == EXCHANGE:
                assert set(legal) == exchange_oracle(state.towers, state.monolith, state.raven)
            elif state.phase == DECLARE:
                eligible = may_declare(state.towers, state.tasks[state.to_move])
                assert legal == ([MA.DECLARE_END, MA.CONTINUE] if eligible else [MA.CONTINUE])
            state = rules.apply_action(state, int(rng.choice(legal)), rng)
        info = rules.final_info(state)
        assert info["end"] in ("no_legal_exchange", "declared", "max_turns")
        assert abs(rules.returns(state).sum()) < 1e-9


@pytest.mark.parametrize("num_players", [3, 4, 5])
@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_quarry_random_playouts_match_the_oracle(num_players, variant):
    rules = make_rules(num_players, variant=variant, reward_scheme="gold_diff" if num_players == 4 else "win_loss")
    rng = np.random.default_rng(num_players)
    state = rules.initial_state(rng)
    while not rules.is_terminal(state):
        legal = rules.legal_actions(state)
        assert set(legal) == oracle_legal(rules, state)
        state = rules.apply_action(state, int(rng.choice(legal)), rng)
    assert rules.final_info(state)["end"] == "last_round" and abs(rules.returns(state).sum()) < 1e-9


@pytest.mark.parametrize(
    "options",
    [
        {"global_level_rule": "ever_filled", "relocate_unsupported": "cascade", "pool_shortfall": "nothing"},
        {"missing_levels_full": False, "minus3_no_target": False, "plus2_empty_quarry": True},
    ],
    ids=["ever_filled-cascade", "missing_levels-plus2_empty"],
)
def test_quarry_rule_options_keep_a_consistent_mask(options):
    """The non-default rule options (the oracle models the defaults only): the mask is the
    legal list, never empty before the end, and every listed id applies."""
    rules = make_rules(4, variant="advanced", **options)
    rng = np.random.default_rng(3)
    state = rules.initial_state(rng)
    while not rules.is_terminal(state):
        legal = rules.legal_actions(state)
        assert legal and set(np.flatnonzero(rules.legal_mask(state)).tolist()) == set(legal)
        state = rules.apply_action(state, int(rng.choice(legal)), rng)
    assert abs(rules.returns(state).sum()) < 1e-9
