"""The 3-4 player and drafted-setup Maya (2012) envs: PettingZoo conformance, the reward
ledger (zero-sum, partners equal, paid once), final info, and the single-agent view."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import maya_envs  # noqa: F401
from maya_envs.games import GAMES
from tests.conformance import env_module, random_single_agent_episode, warnings_as_errors

ENV_MODULE = env_module("maya2012")
GYM_ID = GAMES["maya2012"].gym_id

def test_pettingzoo_api_and_seed_tests_with_the_score_difference_reward():
    """``reward_scheme="score_diff"`` (every setup and player count: tests/test_conformance.py)."""
    options = {"num_players": 4, "setup": "draft", "reward_scheme": "score_diff"}
    with warnings_as_errors():
        api_test(ENV_MODULE.env(**options), num_cycles=300)
        seed_test(lambda **kw: ENV_MODULE.env(**options, **kw), num_cycles=150)


def play_out(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    paid_steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        paid_steps += reward != 0
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals, paid_steps


@pytest.mark.parametrize("scheme", ["win_loss", "score_diff"])
@pytest.mark.parametrize("n", [3, 4])
def test_reward_ledger_zero_sum_partners_equal_paid_once(n, scheme):
    env = ENV_MODULE.env(num_players=n, reward_scheme=scheme)
    decided = 0
    for seed in range(15):
        totals, paid_steps = play_out(env, seed)
        result = env.rules.returns(env.game_state)
        assert totals == {f"player_{s}": result[s] for s in range(n)}
        assert sum(totals.values()) == pytest.approx(0.0)
        assert paid_steps <= n, "each agent is paid once"
        if n == 4:
            assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]
            teams = env.rules.final_info(env.game_state)["team_scores"]
            if scheme == "score_diff":
                assert totals["player_0"] == teams[0] - teams[1]
        decided += any(totals.values())
    assert decided > 0


def test_declaring_ends_the_game_at_once_with_every_card_in_the_info():
    env = ENV_MODULE.env(num_players=3)
    for seed in range(40):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not any(env.terminations.values()):
            mask = env.observe(env.agent_selection)["action_mask"]
            action = 64 if mask[64] else int(rng.choice(np.flatnonzero(mask)))
            declarer, turn = env.agent_selection, env.game_state.turn
            env.step(action)
        if action == 64:
            info = env.infos[declarer]
            assert info["declared_by"] == env.seat_of(declarer) and info["end"] == "declared"
            assert env.game_state.turn == turn, "no exchange after the declaration"
            assert sorted(sum(info["tasks"], []) + info["spare"] + [info["centre_card"]]) == list(range(9))
            return
    raise AssertionError("no game reached a declaration")


@pytest.mark.parametrize("n", [3, 4])
def test_single_agent_learner_reward(n):
    env = gym.make(GYM_ID, num_players=n, opponents=["random"] * (n - 1))
    for seed in range(20):
        obs, total = random_single_agent_episode(env, seed)
        assert obs.shape == (588,)
        aec = env.unwrapped.aec_env
        seat = aec.seat_of(env.unwrapped.learner)
        returns = aec.rules.returns(aec.game_state)
        assert total == returns[seat]
        if n == 4:
            assert total == returns[(seat + 2) % 4], "the learner gets its team's result"


def test_single_agent_opponent_arguments():
    with pytest.raises(ValueError, match="pass either opponents= or its alias opponent=, not both"):
        gym.make(GYM_ID, num_players=3, opponent="random", opponents=["random", "random"])
    with pytest.raises(ValueError, match="expected 2 opponent specs for 3 players"):
        gym.make(GYM_ID, num_players=3, opponents=["random"])
    env = gym.make(GYM_ID, num_players=4, opponents=["heuristic", "random", "heuristic"])
    env.reset(seed=0)
    env = gym.make(GYM_ID, num_players=3, learner_seat=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "player_2 task cards" in text and "player_0 task cards" not in text
