"""Targeted positions for the rare branches of the quarry game's legal-action generation,
checked against the independent oracle ``tests/maya_quarry/oracle.py`` (issue 17 item 5b).

Random playouts do not reach some branches (0 of 40 random 5-player quarry games reached a
building turn without a legal placement while holding the free pass), so each branch gets a
hand-built position here (``MayaQuarryRules._build_actions``): every combination of {a legal
placement, none} x blocks held {1, 2, 3} x FREE_PASS {not held, held, joker acting as it}
x FREE_DOUBLE_MOVE {not held, held, joker}, 3 and 5 players; the rulebook's involuntary pass
(pay a block, get 1 gold) is offered beside the free pass. Then short random playouts with the
oracle, and the non-default rule options.

``scripts/rules_coverage.py`` measures the branch coverage of the rules engines over these and
the other rules tests and prints it per engine in CI.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from maya_envs.maya_quarry import actions as QA
from maya_envs.maya_quarry.rules.config import FREE_DOUBLE, FREE_PASS
from tests.maya_quarry.helpers import build_position, make_rules
from tests.maya_quarry.oracle import oracle_legal

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


# -- short random playouts with the oracles (the common branches, for the coverage figure) -------

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
