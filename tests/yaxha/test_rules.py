"""Config validation, action table, purity, serialisation, rewards and random playouts."""

from __future__ import annotations

import ast
import json
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import maya_envs.yaxha as yaxha_pkg
from maya_envs.core.errors import ConfigError
from maya_envs.yaxha.actions import ActionTable
from maya_envs.yaxha.rules import NUM_ROUNDS, OVER, YaxhaConfig, YaxhaRules

from .helpers import play_random, pyramid, with_fields

PURE_MODULES = (
    "rules.py", "actions.py", "observation.py", "scoring.py", "state.py", "features.py", "serialize.py", "invariants.py",
)  # fmt: skip


@pytest.mark.parametrize("module", PURE_MODULES)
def test_rules_modules_are_pure(module):
    path = pathlib.Path(yaxha_pkg.__file__).parent / module
    tree = ast.parse(path.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    stdlib = {"__future__", "collections", "dataclasses", "functools", "operator", "typing"}
    assert imported <= stdlib | {"numpy", "maya_envs"}, imported
    text = path.read_text()
    for banned in ("gymnasium", "pettingzoo", "torch"):
        assert f"import {banned}" not in text and f"from {banned}" not in text


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": 5}, r"num_players=5 is not allowed; allowed: \[2, 3, 4\]"),
        ({"num_players": 1}, r"num_players=1"),
        ({"num_players": True}, r"num_players=True"),
        ({"footprint": "round"}, r"footprint='round' is not allowed; allowed: \['floating', 'fixed'\]"),
        (
            {"bonus_cards": "all"},
            r"bonus_cards='all' is not allowed; allowed: \['random', 'first_game', 'bga_random'\]",
        ),
        ({"bonus_cards": [0, 1]}, r"3 distinct ids in 0..17"),
        ({"bonus_cards": [0, 0, 1]}, r"3 distinct ids"),
        ({"bonus_cards": [0, 1, 18]}, r"3 distinct ids"),
        ({"bonus_cards": [0, 1, 5]}, r"cards 5-9 are excluded with 2 players"),
        ({"bonus_zero_ties_score": 1}, r"bonus_zero_ties_score=1 is not allowed; allowed: \[True, False\]"),
        ({"reward_scheme": "elo"}, r"reward_scheme='elo'"),
        ({"cubes_per_colour": 10}, r"cubes_per_colour=10 is not allowed; allowed: an int >= 12"),
        ({"colour": 3}, r"unknown Yaxha option\(s\) \['colour'\]; known options: \['num_players'"),
    ],
)
def test_bad_config_is_refused_with_a_clear_message(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        YaxhaRules(**kwargs)


def test_explicit_bonus_cards_and_pools():
    assert YaxhaRules(num_players=3, bonus_cards=[9, 0, 17]).config.bonus_cards == (0, 9, 17)
    assert YaxhaConfig(num_players=2).bonus_pool() == (0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 15, 16, 17)
    assert YaxhaConfig(num_players=3).bonus_pool() == tuple(range(18))
    assert YaxhaConfig(num_players=2, bonus_cards="bga_random").bonus_pool() == (0, 1, 2, 3, 4, 10, 11)
    assert YaxhaConfig(num_players=4, bonus_cards="first_game").bonus_pool() == (0, 1, 2, 3, 4, 10, 11, 12)


def test_two_player_random_setup_never_draws_the_pairwise_cards():
    rules = YaxhaRules(num_players=2)
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(300):
        cards = rules.initial_state(rng).bonus_cards
        assert len(set(cards)) == 3 and list(cards) == sorted(cards)
        seen |= set(cards)
    assert seen == set(YaxhaConfig(num_players=2).bonus_pool())


@pytest.mark.parametrize(("n", "footprint"), [(2, "floating"), (4, "floating"), (3, "fixed")])
def test_action_table_round_trip_over_all_ids(n, footprint):
    table = ActionTable(n, footprint)
    assert table.num_actions == n + 5 * table.num_cells + 5
    strings = set()
    for action in range(table.num_actions):
        move = table.decode(action)
        assert table.encode(move) == action
        strings.add(table.to_string(action))
    assert len(strings) == table.num_actions
    assert table.to_string(0) == "pick tile 0"
    assert table.to_string(table.discard(4)) == "discard white"
    assert table.to_string(table.place(1, table.geometry.index[(1, 0, 1)])) == "place blue L2 (1,0)"
    with pytest.raises(ValueError, match="out of range"):
        table.decode(table.num_actions)
    with pytest.raises(ValueError, match="cannot encode"):
        table.encode(("place", 0, (9, 9, 0)))


def test_cell_counts_of_the_two_footprints():
    assert ActionTable(4, "floating").num_cells == 49 + 36 + 25 + 16
    assert ActionTable(4, "fixed").num_cells == 16 + 9 + 4 + 1
    assert ActionTable(4, "floating").num_actions == 639


def _finished(rules, seed=0):
    *_, (state, _) = play_random(rules, seed)
    return state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_state_dict_round_trip_is_json_and_validated(n):
    rules = YaxhaRules(num_players=n)
    for i, (state, _) in enumerate(play_random(rules, 5)):
        if i % 7 == 0 or rules.is_terminal(state):
            data = json.loads(json.dumps(rules.state_to_dict(state)))
            assert rules.state_from_dict(data) == state
    data = rules.state_to_dict(state)
    for key, value, message in [
        ("version", 3, r"state.version: must be one of \[2\], got 3"),
        ("num_players", 9, "state.num_players: 9"),
        ("phase", "draft", r"state.phase: must be one of .*, got 'draft'"),
        ("bag", [1, 2], "state.bag: must be a list of 5 ints"),
        ("initiative", [1] * n, "not a permutation"),
        ("round", 3, "does not match round 3"),
    ]:
        with pytest.raises(ValueError, match=message):
            rules.state_from_dict({**data, key: value})
    with pytest.raises(ValueError, match=r"unknown keys \['extra'\]"):
        rules.state_from_dict({**data, "extra": 1})
    bad = json.loads(json.dumps(data))
    bad["pyramids"][0][0] = 7
    with pytest.raises(ValueError, match=r"state.pyramids\[0\]\[0\]: must be an int in -1..4, got 7"):
        rules.state_from_dict(bad)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([2, 3, 4]), footprint=st.sampled_from(["floating", "fixed"]))
def test_random_playouts_keep_the_invariants(seed, n, footprint):
    rules = YaxhaRules(num_players=n, footprint=footprint)
    steps = 0
    for state, action in play_random(rules, seed):
        if action is None:
            break
        steps += 1
        assert rules.legal_actions(state), "no legal action before the end"
        # cubes are conserved: bag + market (select/pending) + hands + pyramids + discards
        in_play = sum(sum(h) for h in state.hands) + sum(c >= 0 for p in state.pyramids for c in p)
        in_play += sum(state.discarded)
        if state.phase in (0, 1):
            in_play += sum(map(sum, state.market))
        assert in_play + sum(state.bag) == 5 * rules.config.cubes_per_colour
    assert state.phase == OVER and state.round == NUM_ROUNDS
    assert steps <= rules.spec.max_game_length
    for seat in range(n):
        placed = sum(c >= 0 for c in state.pyramids[seat])
        assert placed + state.discarded[seat] == 30
    if n == 4:
        assert state.bag == (0, 0, 0, 0, 0)  # 4 players draw all 120 cubes
    returns = rules.returns(state)
    assert returns.dtype == np.float64 and abs(returns.sum()) < 1e-9 and np.all(np.abs(returns) <= 1)


def test_apply_action_never_changes_its_argument_and_is_deterministic():
    rules = YaxhaRules(num_players=3)
    a = [s for s, _ in play_random(rules, 11)]
    b = [s for s, _ in play_random(rules, 11)]
    assert a == b
    rng = np.random.default_rng(0)
    for state, action in play_random(rules, 12):
        if action is None:
            break
        snapshot = rules.state_to_dict(state)
        rules.apply_action(state, action, rng)
        assert rules.state_to_dict(state) == snapshot


def _over(rules, pyramids, cards):
    state = rules.initial_state(np.random.default_rng(0))
    return with_fields(state, phase=OVER, round=NUM_ROUNDS, pyramids=pyramids, bonus_cards=cards)


def test_rewards_win_loss_and_score_diff_on_hand_built_pyramids():
    for scheme, expected in [("win_loss", [-1.0, 1.0]), ("score_diff", [-0.26, 0.26])]:
        rules = YaxhaRules(num_players=2, footprint="fixed", reward_scheme=scheme)
        g = rules.geometry
        p1 = pyramid(g, "OBGY WWWW", "WOB")  # 13 points
        p2 = pyramid(g, "OOOO OOOO OOO.", "BGY WO.")  # 34 + card 0 = 39
        state = _over(rules, (p1, p2), (0, 15, 16))
        np.testing.assert_allclose(rules.returns(state), expected)
        info = rules.final_info(state)
        assert info["scores"] == [13, 39] and info["winners"] == [1]
        assert info["breakdown"][1]["bonus"] == {"0": 5, "15": 0, "16": 0}
        json.dumps(info)


def test_shared_wins_split_the_reward():
    rules = YaxhaRules(num_players=3, footprint="fixed", bonus_cards=[14, 16, 17])
    g = rules.geometry
    win, lose = pyramid(g, "OOO"), pyramid(g, "OO")  # 4 points, 2 points
    np.testing.assert_allclose(rules.returns(_over(rules, (win, lose, win), (14, 16, 17))), [0.5, -1.0, 0.5])
    np.testing.assert_allclose(rules.returns(_over(rules, (win, win, win), (14, 16, 17))), [0.0, 0.0, 0.0])
    state = _over(rules, (win, lose, win), (14, 16, 17))
    assert rules.final_info(state)["winners"] == [0, 2]
    assert not rules.returns(with_fields(state, phase=0, round=9)).any()  # zeros before the end
