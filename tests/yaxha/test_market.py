"""Market resolution: hidden choices, clashes, pending picks and initiative swaps (section 4)."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.core.errors import IllegalActionError
from maya_envs.yaxha.rules import BUILD, PENDING, SELECT, YaxhaRules

from .helpers import with_fields

MARKET4 = ((3, 0, 0, 0, 0), (0, 3, 0, 0, 0), (0, 0, 3, 0, 0), (0, 0, 0, 3, 0))


def start(n: int, initiative: tuple[int, ...]):
    rules = YaxhaRules(num_players=n)
    state = with_fields(rules.initial_state(np.random.default_rng(0)), initiative=initiative, market=MARKET4[:n])
    return rules, state, np.random.default_rng(1)


def choose(rules, state, rng, picks):
    for seat, tile in enumerate(picks):
        assert rules.current_player(state) == seat and state.phase == SELECT
        state = rules.apply_action(state, rules.table.pick(tile), rng)
    return state


def test_no_clash_everyone_takes_their_tile_and_keeps_initiative():
    rules, state, rng = start(3, (2, 3, 1))
    state = choose(rules, state, rng, [2, 0, 1])
    assert state.phase == BUILD
    assert state.owner == (1, 2, 0)
    assert state.hands == (MARKET4[2], MARKET4[0], MARKET4[1])
    assert state.initiative == (2, 3, 1)


def test_two_way_clash_two_players_forced_pick_and_swap():
    rules, state, rng = start(2, (2, 1))
    state = choose(rules, state, rng, [0, 0])
    # Seat 1 (initiative 1) takes tile 0; seat 0's last pick is forced; then they swap.
    assert state.phase == BUILD
    assert state.owner == (1, 0)
    assert state.initiative == (1, 2)


def test_three_way_clash_lowest_swaps_with_highest_middle_keeps():
    rules, state, rng = start(3, (3, 1, 2))
    state = choose(rules, state, rng, [1, 1, 1])
    assert state.phase == PENDING
    assert state.owner == (-1, 1, -1)
    assert state.pending == (2, 0)  # initiative 2 then 3
    assert rules.current_player(state) == 2
    assert rules.legal_actions(state) == [0, 2]
    with pytest.raises(IllegalActionError, match=r"action 1 \(pick tile 1\).*legal ids: \[0, 2\]"):
        rules.apply_action(state, 1, rng)
    state = rules.apply_action(state, 2, rng)
    assert state.phase == BUILD
    assert state.owner == (0, 1, 2)  # seat 0 forced onto tile 0
    assert state.initiative == (1, 3, 2)  # 1 <-> 3, the middle keeps 2


def test_four_way_clash_swaps_one_four_and_two_three():
    rules, state, rng = start(4, (4, 3, 2, 1))
    state = choose(rules, state, rng, [2, 2, 2, 2])
    assert state.owner == (-1, -1, 3, -1) and state.pending == (2, 1, 0)
    assert rules.legal_actions(state) == [0, 1, 3]
    state = rules.apply_action(state, 0, rng)
    assert rules.current_player(state) == 1 and rules.legal_actions(state) == [1, 3]
    state = rules.apply_action(state, 3, rng)
    assert state.phase == BUILD
    assert state.owner == (2, 0, 3, 1)
    assert state.initiative == (1, 2, 3, 4)


def test_two_clash_groups_in_one_round():
    rules, state, rng = start(4, (1, 2, 3, 4))
    state = choose(rules, state, rng, [0, 1, 0, 1])
    # Winners: seat 0 (tile 0), seat 1 (tile 1); pending in initiative order over both groups.
    assert state.owner == (0, 1, -1, -1) and state.pending == (2, 3)
    state = rules.apply_action(state, 3, rng)
    assert state.owner == (0, 1, 3, 2)
    # Group {0, 2}: 1 <-> 3; group {1, 3}: 2 <-> 4.
    assert state.initiative == (3, 4, 1, 2)


def test_clash_next_to_an_uncontested_tile():
    rules, state, rng = start(4, (2, 4, 1, 3))
    state = choose(rules, state, rng, [3, 1, 1, 1])
    # Tile 1: seat 2 (init 1) wins; pending seat 3 (init 3) then seat 1 (init 4); tile 3 is seat 0's.
    assert state.owner == (-1, 2, -1, 0) and state.pending == (3, 1)
    state = rules.apply_action(state, 0, rng)
    assert state.owner == (3, 2, 1, 0)
    assert state.initiative == (2, 1, 4, 3)  # group sorted 2(1), 3(3), 1(4): 2 <-> 1, 3 keeps


def test_choices_are_only_picks_and_do_not_change_other_fields():
    rules, state, rng = start(3, (1, 2, 3))
    after = rules.apply_action(state, 1, rng)
    assert after.choices == (1, -1, -1)
    assert (after.owner, after.market, after.phase) == (state.owner, state.market, SELECT)
    assert state.choices == (-1, -1, -1)  # the argument is not changed
    with pytest.raises(IllegalActionError, match="legal ids: \\[0, 1, 2\\]"):
        rules.apply_action(state, rules.table.discard(0), rng)
