"""The Maya (2012) PettingZoo env and single-agent view: conformance, rewards, seeding,
copies and bad input."""

from __future__ import annotations

import copy
import pickle
import re

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import maya_envs  # noqa: F401
from maya_envs.bot_kinds import BOT_NAMES
from maya_envs.core.errors import ConfigError, IllegalActionError
from maya_envs.games import GAMES
from tests.conformance import env_module, random_single_agent_episode, warnings_as_errors

ENV_MODULE = env_module("maya2012")
GYM_ID = GAMES["maya2012"].gym_id

def test_pettingzoo_api_and_seed_tests_with_truncation():
    """The truncating turn cap (every setup and player count: tests/test_conformance.py)."""
    options = {"max_turns": 20, "at_max_turns": "truncate"}
    with warnings_as_errors():
        api_test(ENV_MODULE.env(**options), num_cycles=400)
        seed_test(lambda **kw: ENV_MODULE.env(**options, **kw), num_cycles=200)


def random_steps(env, steps, seed):
    """Take ``steps`` uniformly random legal AEC actions from ``np.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def play_out(env, seed, policy=None):
    """Play one AEC game with random legal moves; return per-agent summed rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("seed", range(20))
def test_reward_ledger_pays_the_result_once_and_sums_to_zero(seed):
    env = ENV_MODULE.env()
    totals = play_out(env, seed)
    result = env.rules.returns(env.game_state)
    assert totals == {"player_0": result[0], "player_1": result[1]}
    assert sum(totals.values()) == 0


def test_observe_and_last_work_after_the_end():
    env = ENV_MODULE.env(setup="random")
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    while not any(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    for agent in env.possible_agents:
        obs = env.observe(agent)
        assert obs["action_mask"].sum() == 0 and obs["observation"].shape == (610,)
    _, reward, terminated, truncated, info = env.last()
    assert terminated and not truncated and "victory_points" in info


def test_truncation_at_max_turns_sets_truncation_not_termination():
    env = ENV_MODULE.env(setup="random", max_turns=5, at_max_turns="truncate")
    totals = play_out(env, seed=1)
    assert env.game_state.turn == 5 or env.rules.is_terminal(env.game_state)
    if env.game_state.turn == 5:
        assert totals == {"player_0": 0.0, "player_1": 0.0}
    env.reset(seed=1)
    random_steps(env, 5, seed=1)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.infos["player_0"]["truncated"] is True and env.infos["player_0"]["winner"] is None


def test_at_max_turns_score_terminates_and_scores():
    env = ENV_MODULE.env(setup="random", max_turns=5)
    env.reset(seed=1)
    random_steps(env, 5, seed=1)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos["player_0"]["end"] == "max_turns"


def test_single_agent_reward_is_the_learners_also_when_the_opponent_ends_the_game():
    env = gym.make(GYM_ID, opponent="random", learner_seat="random")
    ended_by_opponent = 0
    for seed in range(60):
        _, total = random_single_agent_episode(env, seed)
        aec = env.unwrapped.aec_env
        learner_seat = aec.seat_of(env.unwrapped.learner)
        assert total == aec.rules.returns(aec.game_state)[learner_seat]
        # the game ends when the player to move has no exchange: if that is the learner,
        # the opponent's move ended it
        ended_by_opponent += aec.game_state.to_move == learner_seat
    assert ended_by_opponent > 0


def test_same_seed_same_game_including_zero_and_none_continues():
    def trajectory(env, seed):
        env.reset(seed=seed)
        rng = np.random.default_rng(7)
        states = []
        for _agent in env.agent_iter(60):
            obs, _, terminated, truncated, _ = env.last()
            states.append(env.game_state)
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return states

    a, b = ENV_MODULE.env(), ENV_MODULE.env()
    assert trajectory(a, 0) == trajectory(b, 0)
    assert trajectory(a, 0) != trajectory(a, 1)
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.game_state == b.game_state  # None continues the seeded stream
    first = ENV_MODULE.env()
    first.reset(seed=5)
    assert first.game_state != a.game_state


def test_deepcopy_and_pickle_mid_game_are_independent():
    env = ENV_MODULE.env(setup="random")
    env.reset(seed=2)
    for _ in range(4):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    for clone in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert clone.game_state == env.game_state
        before = env.game_state
        mask = clone.observe(clone.agent_selection)["action_mask"]
        clone.step(int(np.flatnonzero(mask)[-1]))
        assert env.game_state == before and clone.game_state != before
        clone_obs = clone.observe(clone.agent_selection)["observation"]
        assert np.array_equal(env.observe("player_0")["observation"], env.observe("player_0")["observation"])
        assert clone_obs is not env.observe(clone.agent_selection)["observation"]


def test_arrays_handed_out_are_not_changed_by_later_steps():
    env = ENV_MODULE.env(setup="random")
    env.reset(seed=4)
    agent = env.agent_selection
    obs = env.observe(agent)
    saved = {key: value.copy() for key, value in obs.items()}
    for _ in range(6):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert all(np.array_equal(obs[key], saved[key]) for key in obs)


def test_out_of_range_and_illegal_actions_give_clear_errors():
    env = ENV_MODULE.env(illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"action 75 is out of range: allowed ids are 0\.\.74"):
        env.step(75)
    with pytest.raises(ValueError, match=r"action must be an int"):
        env.step(1.5)
    with pytest.raises(IllegalActionError, match=r"illegal action 0 \(swap t0-t1 @L2\); legal ids: \[48,"):
        env.step(0)


def test_illegal_action_terminate_policy_penalises_the_offender():
    env = ENV_MODULE.env()
    env.reset(seed=0)
    offender = env.agent_selection
    with pytest.warns(UserWarning, match="illegal action 0"):
        env.step(0)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0 and sum(env.rewards.values()) == -1.0
    assert env.infos[offender]["offender"] == offender


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": 3}, r"unknown Maya \(2012\) option\(s\) \['colour'\]; known options"),
        ({"setup": "drafted"}, r"setup='drafted' is not allowed; allowed: \['choose', 'random', 'draft'\]"),
        (
            {"num_players": 3, "setup": "choose"},
            r"setup='choose' is not allowed with num_players=3; allowed: \['random', 'draft'\]",
        ),
        ({"max_turns": 0}, r"max_turns=0 is not allowed; allowed: an int in 1\.\.100000"),
        ({"ladder_spaces": [2, 3]}, r"ladder_spaces must be a list of 9 ints"),
        ({"num_players": 5}, r"num_players=5 is not allowed; allowed: \[2, 3, 4\]"),
        ({"three_plus_two": "max"}, r"three_plus_two='max' is not allowed; allowed: \['sum', 'best'\]"),
        ({"reward_scheme": "rank"}, r"reward_scheme='rank' is not allowed; allowed: \['win_loss', 'score_diff'\]"),
        (
            {"declare_step": "never"},
            r"declare_step='never' is not allowed; allowed: \['possible', 'always', 'eligible'\]",
        ),
    ],
)
def test_bad_config_is_a_clear_error(options, message):
    with pytest.raises(ConfigError, match=message):
        ENV_MODULE.env(**options)


def test_bad_single_agent_arguments_are_clear_errors():
    with pytest.raises(ValueError, match=r"learner_seat='third' is not allowed"):
        gym.make(GYM_ID, learner_seat="third")
    with pytest.raises(ValueError, match=rf"unknown bot 'strong'; known bots: {re.escape(', '.join(BOT_NAMES))}"):
        gym.make(GYM_ID, opponent="strong")
    with pytest.raises(ValueError, match=r"render_mode='rgb' is not supported"):
        ENV_MODULE.env(render_mode="rgb")


def test_ansi_render_shows_the_board():
    env = ENV_MODULE.env(render_mode="ansi", setup="random")
    env.reset(seed=0)
    text = env.render()
    assert "Monolith: t" in text and "Raven: L" in text and text.count("L5 [") == 9


def test_action_mask_equals_the_observed_mask_for_every_agent_until_the_end():
    env = ENV_MODULE.env(setup="random")
    env.reset(seed=6)
    single = gym.make(GYM_ID, setup="random").unwrapped
    single.reset(seed=6)
    assert np.array_equal(single.action_masks(), single.aec_env.observe(single.learner)["action_mask"].astype(bool))
    rng = np.random.default_rng(6)
    for _agent in env.agent_iter():
        for other in env.agents:
            assert np.array_equal(env.action_mask(other), env.observe(other)["action_mask"])
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
