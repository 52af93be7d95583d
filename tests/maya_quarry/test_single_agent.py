"""``gym.make(GAMES["maya_quarry"].gym_id, ...)``: checkers, masks, learner reward routing."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.games import GAMES

GYM_ID = GAMES["maya_quarry"].gym_id


@pytest.mark.parametrize("n", [3, 5])
@pytest.mark.parametrize("scheme", ["win_loss", "gold_diff"])
def test_learner_reward_is_its_own_return(n, scheme):
    env = gym.make(GYM_ID, num_players=n, opponents="random", reward_scheme=scheme).unwrapped
    rng = np.random.default_rng(0)
    for episode in range(8):
        obs, info = env.reset(seed=episode)
        total, done = 0.0, False
        seat = env.aec_env.seat_of(info["learner"])
        while not done:
            mask = env.action_masks()
            assert mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
            assert env.aec_env.agent_selection == info["learner"]
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            assert env.observation_space.contains(obs)
            total += reward
            done = terminated or truncated
        expected = env.rules.returns(env.aec_env.game_state)[seat]
        assert total == pytest.approx(expected)
        assert "gold" in info and "winners" in info


def test_opponent_list_learner_seat_and_ansi_render():
    env = gym.make(
        GYM_ID,
        num_players=4,
        opponents=["random", "heuristic", "random"],
        learner_seat=2,
        render_mode="ansi",
    ).unwrapped
    obs, info = env.reset(seed=1)
    assert info["learner"] == "player_2"
    text = env.render()
    assert "NON-CANONICAL" in text
    with pytest.raises(ValueError, match="expected 3 opponent specs"):
        gym.make(GYM_ID, num_players=4, opponents=["random"])
    with pytest.raises(ValueError, match="not both"):
        gym.make(GYM_ID, num_players=3, opponents="heuristic", opponent="random")
