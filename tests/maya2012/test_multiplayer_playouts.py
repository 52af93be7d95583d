"""Random and heuristic playouts of the 3-4 player variants and the drafted setup: the mask
oracle, invariants, the drafted board and an independent check of the draft mask."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.bots import RandomBot
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.bots import HeuristicBot
from maya_envs.maya2012.rules import DECLARE, DRAFT, EMPTY, OVER, SETUP_MONOLITH, TRUNCATED, Maya2012Rules
from maya_envs.maya2012.setup import permanent
from tests.conformance import assert_mask_matches_rules, play_states

CONFIGS = [
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 3, "setup": "draft"},
    {"num_players": 4, "setup": "draft", "declare_step": "always"},
    {"setup": "draft"},
    {"num_players": 3, "max_turns": 30, "at_max_turns": "truncate", "three_plus_two": "best"},
]
IDS = ["3p", "4p", "3p-draft", "4p-draft-always", "2p-draft", "3p-truncate"]


def bots_for(rules, game):
    n = rules.spec.num_players
    return [(HeuristicBot if (game + seat) % 2 else RandomBot)(rules, 100 * game + seat) for seat in range(n)]


def check_invariants(state, previous) -> None:
    built = [level for level in range(5) if all(t[level] != EMPTY for t in state.towers)]
    for level in built:
        assert sorted(t[level] for t in state.towers) == list(range(9)), f"level {level + 1}"
    if state.phase == DRAFT:
        for tower in state.towers:
            colours = [c for c in tower if c != EMPTY]
            assert len(set(colours)) == len(colours), "a drafted tower never repeats a colour"
        return
    assert len(built) == 5
    if state.num_players > 2:
        assert state.raven == 0 and not any(map(any, state.ladders)) and set(state.priests) == {-1}
    if previous is not None and previous.phase != DRAFT:
        assert [t[0] for t in state.towers] == [t[0] for t in previous.towers], "foundations never move"
        assert state.tasks == previous.tasks and state.spare == previous.spare, "hands never change"
        for tower in range(9):
            if len(set(previous.towers[tower])) == 1:
                assert state.towers[tower] == previous.towers[tower], "a complete tower never changes"


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_mask_oracle_and_invariants(config):
    """In every state of 24 games the mask equals, both ways, what apply_action accepts."""
    rules = Maya2012Rules(config)
    phases = set()
    for game in range(24):
        previous = None
        for state in play_states(rules, bots_for(rules, game), np.random.default_rng(game)):
            check_invariants(state, previous)
            assert_mask_matches_rules(rules, state)
            if rules.current_player(state) >= 0:
                assert rules.legal_actions(state), "a live state always has a legal action"
            phases.add(state.phase)
            previous = state
        assert state.phase in (OVER, TRUNCATED)
        assert rules.returns(state).sum() == pytest.approx(0.0)
    if rules.spec.num_players > 2 and "max_turns" not in config:
        assert DECLARE in phases, "the declare decision is reached"


def draft_oracle(towers, block) -> list[int]:
    """Legal draft towers by brute force on the permanent: place ``block`` on each open tower
    and count the ways to finish the level (must be > 0)."""
    i = min(t.index(EMPTY) for t in towers if EMPTY in t)
    legal = []
    for tower in range(9):
        if towers[tower][i] != EMPTY or block in towers[tower][:i]:
            continue
        trial = [list(t) for t in towers]
        trial[tower][i] = block
        open_towers = [t for t in range(9) if trial[t][i] == EMPTY]
        left = [c for c in range(9) if c not in {trial[t][i] for t in range(9)}]
        allowed = np.array([[int(c not in trial[t][:i]) for c in left] for t in open_towers], np.int64)
        if not open_towers or permanent(allowed) > 0:
            legal.append(tower)
    return legal


@pytest.mark.parametrize("n", [2, 3, 4])
def test_drafted_setup_always_yields_a_valid_board_and_follows_the_oracle(n):
    """200 drafts with random choices: every placement in seat rotation, the mask equals the
    permanent oracle (first 20 drafts), and the finished board is a valid setup."""
    rules = Maya2012Rules({"num_players": n, "setup": "draft"})
    for game in range(200):
        rng = np.random.default_rng(game)
        bot = RandomBot(rules, game)
        state = rules.initial_state(rng)
        for placement in range(45):
            assert state.phase == DRAFT and state.to_move == placement % n
            legal = [x - A.DRAFT_BASE for x in rules.legal_actions(state)]
            assert legal, "the drawn block always has a tower"
            if game < 20:
                assert legal == draft_oracle(state.towers, state.draft_block)
            state = rules.apply_action(state, bot.act(state), rng)
        for level in range(5):
            assert sorted(t[level] for t in state.towers) == list(range(9))
        assert all(len(set(t)) == 5 for t in state.towers), "no tower repeats a colour"
        if n == 2:
            assert state.phase == SETUP_MONOLITH and state.to_move == 1
        else:
            assert state.tasks and state.to_move == 0 and rules.legal_actions(state) == list(range(48))


def test_draft_blocks_are_drawn_from_the_generator_and_reproducible():
    rules = Maya2012Rules({"num_players": 3, "setup": "draft"})
    first = [rules.initial_state(np.random.default_rng(s)).draft_block for s in range(40)]
    assert first == [rules.initial_state(np.random.default_rng(s)).draft_block for s in range(40)]
    assert len(set(first)) > 5
    state = rules.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="needs a numpy Generator"):
        rules.apply_action(state, rules.legal_actions(state)[0])
