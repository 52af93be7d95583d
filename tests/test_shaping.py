"""Potential-based reward shaping in the single-agent view."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.games import GAMES
from maya_envs.wrappers import SingleAgentEnv
from maya_envs.wrappers.shaping import load_potential

#: The first game with a shaping potential (the table's ``shaping_potential`` hook), its
#: potential, and its options with a random variant, so that every seed starts elsewhere.
SHAPED = next(game for game in GAMES.values() if game.hooks["shaping_potential"] is not None)
victory_point_margin = SHAPED.hook("shaping_potential")
OPTIONS = {SHAPED.variant_option: "random"}


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
    shaped = SingleAgentEnv(SHAPED.make_aec_env(**OPTIONS), shaping_potential=victory_point_margin,
                            shaping_scale=0.5, shaping_gamma=1.0)  # fmt: skip
    rewards, start, result = run_episode(shaped, seed)
    assert sum(rewards) == pytest.approx(result - 0.5 * start)
    assert any(r not in (-1.0, 0.0, 1.0) for r in rewards), "shaping should pay along the way"


@pytest.mark.parametrize("seed", range(4))
def test_without_shaping_only_the_final_reward_is_paid(seed):
    rewards, _, result = run_episode(SingleAgentEnv(SHAPED.make_aec_env(**OPTIONS)), seed)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1) and rewards[-1] == result


def test_potential_lookup_names_the_available_ids():
    assert load_potential(SHAPED.gym_id) is victory_point_margin
    with pytest.raises(ValueError, match=r"no shaping potential for 'maya_envs/Nope-v0'; available for"):
        load_potential("maya_envs/Nope-v0")


def test_gym_make_turns_shaping_on_and_checks_its_arguments():
    import gymnasium as gym

    env = gym.make(SHAPED.gym_id, **OPTIONS, reward_shaping=0.5)
    assert env.unwrapped._potential is victory_point_margin and env.unwrapped._shaping_scale == 0.5
    assert gym.make(SHAPED.gym_id).unwrapped._potential is None
    with pytest.raises(ValueError, match=r"reward_shaping=-1; allowed: a finite number >= 0"):
        gym.make(SHAPED.gym_id, reward_shaping=-1)
    with pytest.raises(ValueError, match=r"pass either opponents= or its alias opponent=, not both"):
        gym.make(SHAPED.gym_id, opponents="random", opponent="heuristic")
