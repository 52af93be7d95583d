"""Random-playout properties of the Maya (2012) rules: mask oracle, invariants, game end."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maya_envs.bots import RandomBot
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.bots import HeuristicBot
from maya_envs.maya2012.rules import OVER, TRUNCATED, Maya2012Rules, legal_exchanges
from tests.conformance import assert_mask_matches_rules, assert_pure, play_states

CONFIGS = [{}, {"setup": "random"}, {"setup": "random", "max_turns": 40, "at_max_turns": "truncate"}]


def check_invariants(rules: Maya2012Rules, state, previous) -> None:
    cfg = rules.config
    for level in range(5):
        assert sorted(tower[level] for tower in state.towers) == list(range(9)), f"level {level + 1}"
    for seat in (0, 1):
        assert sum(state.ladders[seat]) + state.ladders_left[seat] == cfg.ladders_per_player
        assert state.priests.count(seat) + state.priests_left[seat] == cfg.priests_per_player
    for tower in range(9):
        assert state.ladders[0][tower] + state.ladders[1][tower] <= cfg.ladder_spaces[tower]
        if state.priests[tower] != -1:
            assert len(set(state.towers[tower])) == 1, "a priest stands only on a complete tower"
    if previous is not None:
        assert [t[0] for t in state.towers] == [t[0] for t in previous.towers], "foundations never move"
        for tower in range(9):
            if len(set(previous.towers[tower])) == 1:
                assert state.towers[tower] == previous.towers[tower], "a complete tower never changes"
            assert state.ladders[0][tower] >= previous.ladders[0][tower]
            assert state.ladders[1][tower] >= previous.ladders[1][tower]


def play_and_check(rules: Maya2012Rules, bots, seed: int, oracle: bool) -> object:
    previous = None
    rng = np.random.default_rng(seed)
    for state in play_states(rules, bots, rng):
        check_invariants(rules, state, previous)
        if oracle:
            assert_mask_matches_rules(rules, state)
        previous = state
    return state


@pytest.mark.parametrize(
    ("config", "games"),
    [
        pytest.param(CONFIGS[0], 150, id="choose"),
        pytest.param(CONFIGS[0], 500, id="choose-500", marks=pytest.mark.extended),
        pytest.param(CONFIGS[1], 60, id="random"),
        pytest.param(CONFIGS[2], 60, id="truncate40"),
    ],
)
def test_mask_oracle_over_random_and_heuristic_games(config, games):
    """In every state of the games (random vs random, heuristic vs random, heuristic vs
    heuristic, in turn) the mask equals, in both directions, the set of actions apply_action
    accepts. The default setup plays 150 games in the suite (about 50 s of one core) and 500
    with ``-m extended``."""
    rules = Maya2012Rules(config)
    for game in range(games):
        kinds = [("random", "random"), ("heuristic", "random"), ("random", "heuristic"), ("heuristic", "heuristic")]
        bots = [
            (HeuristicBot if kind == "heuristic" else RandomBot)(rules, seed=1000 * game + seat)
            for seat, kind in enumerate(kinds[game % 4])
        ]
        final = play_and_check(rules, bots, seed=game, oracle=True)
        assert final.phase in (OVER, TRUNCATED)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), config=st.sampled_from(CONFIGS))
def test_random_games_keep_invariants_and_end(seed, config):
    rules = Maya2012Rules(config)
    final = play_and_check(rules, [RandomBot(rules, seed), RandomBot(rules, seed + 1)], seed, oracle=False)
    assert rules.is_terminal(final) or rules.is_truncated(final)
    if rules.is_terminal(final) and final.turn < rules.config.max_turns:
        assert legal_exchanges(final.towers, final.monolith, final.raven) == []
    returns = rules.returns(final)
    assert returns.sum() == 0 and set(returns.tolist()) <= {-1.0, 0.0, 1.0}


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_apply_action_never_changes_its_argument(seed):
    rules = Maya2012Rules({"setup": "random"})
    rng = np.random.default_rng(seed)
    state = rules.initial_state(rng)
    for action in rules.legal_actions(state):
        before = (state.towers, state.ladders, state.priests, state.monolith, state.raven, state.turn)
        rules.apply_action(state, action)
        assert before == (state.towers, state.ladders, state.priests, state.monolith, state.raven, state.turn)


def test_setup_is_uniform_over_valid_boards_on_a_small_instance():
    """The sampler is exact: on 4 colours x 3 levels (576 Latin rectangles / 24 relabellings
    = 24 classes per first row) every rectangle appears about equally often."""
    from maya_envs.maya2012.setup import sample_latin_rectangle

    rng = np.random.default_rng(0)
    counts: dict[bytes, int] = {}
    draws = 28_800
    for _ in range(draws):
        board = sample_latin_rectangle(4, 3, rng)
        counts[board.tobytes()] = counts.get(board.tobytes(), 0) + 1
    assert len(counts) == 576  # all 3x4 Latin rectangles
    expected = draws / 576
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 700, chi2  # 575 degrees of freedom: p < 0.001 above ~690


def test_setup_choose_gives_black_the_setup_decisions():
    rules = Maya2012Rules()
    state = rules.initial_state(np.random.default_rng(0))
    assert rules.current_player(state) == 1
    assert rules.legal_actions(state) == list(range(A.MONOLITH_BASE, A.MONOLITH_BASE + 12))
    state = rules.apply_action(state, A.MONOLITH_BASE + 5)
    assert rules.current_player(state) == 1 and state.monolith == 5
    assert rules.legal_actions(state) == list(range(A.RAVEN_BASE, A.RAVEN_BASE + 4))
    state = rules.apply_action(state, A.RAVEN_BASE + 1)
    assert state.raven == 3 and rules.current_player(state) == 0
    assert all(x < A.NUM_EXCHANGES for x in rules.legal_actions(state))


def test_rules_modules_are_pure():
    files = [f"maya2012/{name}.py" for name in ("rules", "actions", "observation", "setup", "serialize", "invariants", "bots")]
    assert_pure(files + ["core/protocol.py", "core/spec.py", "core/errors.py", "core/rng.py"],
                ("maya_envs.core", "maya_envs.games", "maya_envs.maya2012"))  # fmt: skip
