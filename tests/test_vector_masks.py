"""``gym.make_vec`` under every autoreset mode never hands a masked sampler an all-zero mask
(issue 44): a step that ends a sub-env's game marks every action legal in its
``info["action_mask"]`` (as Pgx does at a terminal state: under ``NEXT_STEP`` the next step
only resets that sub-env and ignores its action), so ``rng.choice(np.flatnonzero(mask))``
draws a valid id on every step of every game."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.games import GAMES

AUTORESET = getattr(gym.vector, "AutoresetMode", None)
MODES = list(AUTORESET) if AUTORESET is not None else [None]
"""Every autoreset mode of this Gymnasium (``None``: a Gymnasium without the choice, 1.0's NEXT_STEP)."""
SAME_STEP = getattr(AUTORESET, "SAME_STEP", "same-step")
DISABLED = getattr(AUTORESET, "DISABLED", "disabled")


def short_game_options(key: str) -> dict:
    """A game with a turn limit plays a few turns, so that the sweep sees many game ends."""
    return {"max_turns": 6} if hasattr(GAMES[key].make_rules({}).config, "max_turns") else {}


def vector_env(key: str, mode, num_envs: int = 2):
    kwargs = {} if mode is None else {"vector_kwargs": {"autoreset_mode": mode}}
    return gym.make_vec(GAMES[key].gym_id, num_envs=num_envs, vectorization_mode="sync",
                        **kwargs, **short_game_options(key))  # fmt: skip


@pytest.mark.parametrize("mode", MODES, ids=str)
@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_masked_sampler_draws_on_every_step_under_every_autoreset_mode(key, mode):
    envs = vector_env(key, mode)
    rng = np.random.default_rng(0)
    _obs, info = envs.reset(seed=0)
    ended = steps = 0
    while ended < 4:
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])  # ValueError on an empty mask
        _obs, _rewards, terminations, truncations, info = envs.step(actions)
        done = terminations | truncations
        ended, steps = ended + int(done.sum()), steps + 1
        assert steps < 5000, "the games do not end"
        if done.any():  # SAME_STEP: the info is the next game's already
            assert mode == SAME_STEP or info["action_mask"][done].all()
            if mode == DISABLED:
                _obs_reset, reset_info = envs.reset(options={"reset_mask": done})
                info["action_mask"][done] = reset_info["action_mask"][done]
    envs.close()


def test_only_an_ended_game_changes_its_mask(tmp_path):
    """The single-agent env's mask while the game runs is the legal actions, the same in
    ``info`` and ``action_masks()``; once it is over, every id (the next step resets)."""
    key = sorted(GAMES)[0]
    env = gym.make(GAMES[key].gym_id, **short_game_options(key))
    rng = np.random.default_rng(1)
    _obs, info = env.reset(seed=1)
    raw = env.unwrapped
    while True:
        legal = raw.aec_env.rules.legal_actions(raw.aec_env.game_state)
        expected = np.zeros(raw.action_space.n, np.int8)
        expected[legal] = 1
        assert np.array_equal(info["action_mask"], expected) and np.array_equal(raw.action_masks(), expected)
        _obs, _reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            break
    ones = np.ones(raw.action_space.n, np.int8)
    assert np.array_equal(info["action_mask"], ones) and np.array_equal(raw.action_masks(), ones)
    assert info["action_mask"].dtype == np.int8
