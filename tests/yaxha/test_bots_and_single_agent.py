"""Heuristic bot (legal, hidden-information discipline, beats random) and the single-agent view."""

from __future__ import annotations

import copy
import dataclasses

import gymnasium as gym
import numpy as np
import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.bots import make_bot
from maya_envs.evaluation.arena import play_match
from maya_envs.games import GAMES
from maya_envs.yaxha.bots import HeuristicBot
from maya_envs.yaxha.rules import BUILD, YaxhaRules
from tests.conformance import env_module

ENV_MODULE = env_module("yaxha")
GYM_ID = GAMES["yaxha"].gym_id


def test_make_bot_loads_the_heuristic():
    assert isinstance(make_bot("heuristic", YaxhaRules(num_players=3), 0), HeuristicBot)


def test_heuristic_ignores_hidden_choices_and_cubes_placed_this_round():
    rules = YaxhaRules(num_players=3)
    state = rules.initial_state(np.random.default_rng(4))
    a = rules.apply_action(state, 0, None)
    b = rules.apply_action(state, 2, None)  # seat 0 chose differently; seat 1 must not care
    assert HeuristicBot(rules, 9).act(a) == HeuristicBot(rules, 9).act(b)
    build = rules.apply_action(rules.apply_action(a, 1, None), 2, None)
    assert build.phase == BUILD
    legal = rules.legal_actions(build)
    s1 = rules.apply_action(build, legal[0], None)
    s2 = rules.apply_action(build, legal[-1], None)
    assert HeuristicBot(rules, 9).act(s1) == HeuristicBot(rules, 9).act(s2)


def test_heuristic_prefers_growing_a_group_on_a_hand_built_position():
    rules = YaxhaRules(num_players=2, footprint="fixed")
    g, t = rules.geometry, rules.table
    state = rules.initial_state(np.random.default_rng(0))
    pyr = [-1] * g.num_cells
    for x in range(3):
        pyr[g.index[(x, 0, 0)]] = 0  # three orange in a row
    state = dataclasses.replace(
        state,
        phase=BUILD,
        choices=(0, 1),
        owner=(0, 1),
        hands=((1, 0, 0, 0, 0), (0, 1, 0, 0, 0)),
        pyramids=(tuple(pyr), state.pyramids[1]),
        bonus_cards=(13, 15, 16),
    )
    # Any base cell adjacent to the row is legal, but only (3,0) or (x,1) joins the group (4 -> 6 points).
    action = HeuristicBot(rules, 0).act(state)
    colour, cell = divmod(action - t.place_start, t.num_cells)
    assert colour == 0 and g.coords[cell] in {(3, 0, 0), (0, 1, 0), (1, 1, 0), (2, 1, 0)}


@pytest.mark.parametrize("num_players", [2, 4])
def test_heuristic_beats_random_in_a_short_match(num_players):
    result = play_match(lambda: ENV_MODULE.env(num_players=num_players), "heuristic", "random", games=12, seed=1)
    assert result.illegal_actions == 0
    assert result.wins >= 8, result.to_dict()  # measured about 85-95 % over 400 games


@pytest.mark.parametrize("scheme", ["win_loss", "score_diff"])
def test_learner_reward_is_its_own_return_and_masks_are_legal(scheme):
    env = gym.make(
        GYM_ID, num_players=3, opponents=["random", "heuristic"], reward_scheme=scheme, learner_seat=1
    )
    obs, info = env.reset(seed=3)
    inner = env.unwrapped
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        mask = inner.action_masks()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        assert inner.aec_env.agent_selection == "player_1"
        assert set(np.flatnonzero(mask)) == set(inner.rules.legal_actions(inner.aec_env.game_state))
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        done = term or trunc
    assert total == pytest.approx(inner.rules.returns(inner.aec_env.game_state)[1])
    assert info["scores"] == inner.rules.final_info(inner.aec_env.game_state)["scores"]


def test_single_agent_bad_arguments():
    with pytest.raises(ValueError, match="num_players=6"):
        gym.make(GYM_ID, num_players=6)
    with pytest.raises(ValueError, match="expected 3 opponent specs for 4 players"):
        gym.make(GYM_ID, num_players=4, opponents=["random"])


def test_single_agent_copies_are_independent():
    env = gym.make(GYM_ID, num_players=2).unwrapped
    env.reset(seed=0)
    twin = copy.deepcopy(env)
    before = env.aec_env.game_state
    twin.step(int(np.flatnonzero(twin.action_masks())[0]))
    assert env.aec_env.game_state is before
