"""Potential-based reward shaping in the single-agent view."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs import maya2012_v1
from maya_envs.maya2012.shaping import victory_point_margin
from maya_envs.wrappers import SingleAgentEnv
from maya_envs.wrappers.shaping import load_potential


def run_episode(env: SingleAgentEnv, seed: int) -> tuple[list[float], float, float]:
    env.reset(seed=seed)
    start = victory_point_margin(env.aec_env.game_state, env.aec_env.seat_of(env.learner))
    rng = np.random.default_rng(seed)
    rewards, done = [], False
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, _ = env.step(action)
        rewards.append(reward)
        done = terminated or truncated
    aec = env.aec_env
    return rewards, start, float(aec.rules.returns(aec.game_state)[aec.seat_of(env.learner)])


@pytest.mark.parametrize("seed", range(8))
def test_shaped_rewards_telescope_to_the_result_minus_the_start_potential(seed):
    shaped = SingleAgentEnv(maya2012_v1.env(setup="random"), shaping_potential=victory_point_margin,
                            shaping_scale=0.5, shaping_gamma=1.0)  # fmt: skip
    rewards, start, result = run_episode(shaped, seed)
    assert sum(rewards) == pytest.approx(result - 0.5 * start)
    assert any(r not in (-1.0, 0.0, 1.0) for r in rewards), "shaping should pay along the way"


@pytest.mark.parametrize("seed", range(4))
def test_without_shaping_only_the_final_reward_is_paid(seed):
    rewards, _, result = run_episode(SingleAgentEnv(maya2012_v1.env(setup="random")), seed)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1) and rewards[-1] == result


def test_potential_lookup_names_the_available_ids():
    assert load_potential("maya_envs/Maya2012-v1") is victory_point_margin
    with pytest.raises(ValueError, match=r"no shaping potential for 'maya_envs/Nope-v0'; available for"):
        load_potential("maya_envs/Nope-v0")


def test_gym_make_turns_shaping_on_and_checks_its_arguments():
    import gymnasium as gym

    env = gym.make("maya_envs/Maya2012-v1", setup="random", reward_shaping=0.5)
    assert env.unwrapped._potential is victory_point_margin and env.unwrapped._shaping_scale == 0.5
    assert gym.make("maya_envs/Maya2012-v1").unwrapped._potential is None
    with pytest.raises(ValueError, match=r"reward_shaping=-1; allowed: a number >= 0"):
        gym.make("maya_envs/Maya2012-v1", reward_shaping=-1)
    with pytest.raises(ValueError, match=r"pass either opponents= or its alias opponent=, not both"):
        gym.make("maya_envs/Yaxha-v1", opponents="random", opponent="heuristic")
