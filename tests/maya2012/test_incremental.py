"""The incremental and memoised board computations of the speed work (issue 19) equal their
definitions from the rules: legal exchanges (rules section 4) from packed seams, kept up to
date through each exchange; task scores (section 7) as per-colour totals updated through the
two exchanged towers."""

from __future__ import annotations

import numpy as np

from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import (
    Maya2012Rules,
    colour_scores,
    colour_totals,
    exchange_totals,
    joined_runs,
    legal_exchanges,
    pack_seams,
    repack_seams,
    score_runs,
    swap,
)
from maya_envs.maya2012.setup import random_towers


def exchanges_by_definition(towers, monolith: int, raven: int) -> list[int]:
    """Section 4: not next to the Monolith, not from the Raven's level, no joined colour split."""
    out = []
    for pair, (a, b) in enumerate(A.PAIRS):
        if monolith >= 0 and {a, b} & set(A.PAIRS[monolith]):
            continue
        for offset in range(4):
            i = offset + 1
            if raven != offset + 2 and towers[a][i - 1] != towers[a][i] and towers[b][i - 1] != towers[b][i]:
                out.append(4 * pair + offset)
    return out


def boards_with_joins(count: int, seed: int):
    """Random valid boards, then some blocks copied onto the one below them (joined runs)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        towers = list(random_towers(rng))
        for _ in range(int(rng.integers(0, 8))):
            t, level = int(rng.integers(9)), int(rng.integers(1, 5))
            towers[t] = towers[t][:level] + (towers[t][level - 1],) + towers[t][level + 1 :]
        yield tuple(towers)


def test_legal_exchanges_match_the_rule_for_every_monolith_and_raven():
    for towers in boards_with_joins(150, seed=1):
        for monolith in range(-1, len(A.PAIRS)):
            for raven in (0, *A.EXCHANGE_LEVELS):
                assert legal_exchanges(towers, monolith, raven) == exchanges_by_definition(towers, monolith, raven)


def test_repacked_seams_equal_fresh_ones_after_every_exchange():
    for towers in boards_with_joins(100, seed=2):
        packed = pack_seams(towers)
        for action in range(A.NUM_EXCHANGES):
            after = swap(towers, action)
            assert repack_seams(packed, after, action) == pack_seams(after)


def test_task_scores_from_totals_match_the_runs_and_follow_each_exchange():
    for towers in boards_with_joins(100, seed=3):
        totals = colour_totals(towers)
        for mode in ("sum", "best"):
            assert colour_scores(towers, mode) == [score_runs(runs, mode) for runs in joined_runs(towers)]
        for action in range(A.NUM_EXCHANGES):
            assert exchange_totals(towers, totals, action) == colour_totals(swap(towers, action))


def test_the_rules_cache_seams_that_match_the_board_along_games():
    for n in (2, 3, 4):
        rules = Maya2012Rules(num_players=n)
        rng = np.random.default_rng(n)
        state = rules.initial_state(rng)
        while rules.current_player(state) >= 0:
            if "seams" in state._cache:
                assert state._cache["seams"] == pack_seams(state.towers)
            legal = rules.legal_actions(state)
            if legal[0] < A.NUM_EXCHANGES:
                assert legal == exchanges_by_definition(state.towers, state.monolith, state.raven)
            state = rules.apply_action(state, legal[rng.integers(len(legal))], rng)
