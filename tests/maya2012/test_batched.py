"""The batched Maya (2012) engine plays the single engine's games: for random legal action
sequences over thousands of games, states, masks, observations, rewards and terminations
agree step by step with :mod:`maya_envs.maya2012.rules` and the observation encoder."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.core.errors import ConfigError, IllegalActionError
from maya_envs.maya2012.batched import BatchedMaya2012
from maya_envs.maya2012.observation import encode_observation
from maya_envs.maya2012.rules import END_REASONS, OVER, SETUP_MONOLITH, Maya2012Rules
from maya_envs.maya2012.vector_env import Maya2012VectorEnv
from tests.maya2012.helpers import BACKENDS


def _assert_valid_board(towers: np.ndarray) -> None:
    for level in towers.T:  # each level a permutation of the 9 colours
        assert sorted(level.tolist()) == list(range(9))
    for tower in towers:  # no tower repeats a colour
        assert len(set(tower.tolist())) == 5


def _replay(num_envs: int, games: int, seed: int, check_obs_every: int = 1, backend: str = "numpy", **options) -> int:
    """Play random games in both engines until ``games`` have finished; returns the count."""
    engine = BatchedMaya2012(num_envs, seed=seed, backend=backend, **options)
    rules = Maya2012Rules({"num_players": 2, **options})
    rng = np.random.default_rng(seed + 1)
    engine.reset()
    states = [engine.state(row) for row in range(num_envs)]
    finished = step = 0
    while finished < games:
        for row, state in enumerate(states):
            assert engine.state(row) == state
            np.testing.assert_array_equal(engine.mask[row], rules.legal_mask(state))
        if step % check_obs_every == 0:
            obs = engine.observe()
            other = engine.observe(1 - engine.to_move)
            for row, state in enumerate(states):
                seat = state.to_move
                np.testing.assert_array_equal(obs[row], encode_observation(state, seat, rules.config))
                np.testing.assert_array_equal(other[row], encode_observation(state, 1 - seat, rules.config))
        actions = engine.sample_legal(rng)
        result = engine.step(actions, autoreset=False)
        for row in range(num_envs):
            states[row] = rules.apply_action(states[row], int(actions[row]))
            state = states[row]
            assert result.terminated[row] == rules.is_terminal(state)
            assert result.truncated[row] == rules.is_truncated(state)
            expected = rules.returns(state) if result.done[row] else np.zeros(2)
            np.testing.assert_array_equal(result.rewards[row], expected)
            end = END_REASONS[result.end[row]] if result.done[row] else None
            assert end == (rules.final_info(state)["end"] if result.done[row] else None)
        for row in engine.reset_done():
            states[row] = engine.state(row)
            _assert_valid_board(engine.towers[row])
            assert states[row].turn == 0 and states[row].phase < OVER
            finished += 1
        step += 1
    return finished


@pytest.mark.parametrize("backend", BACKENDS)
def test_default_games_match_the_single_engine(backend):
    assert _replay(64, 1000, seed=0, check_obs_every=5, backend=backend) >= 1000


@pytest.mark.parametrize(
    "options",
    [
        {"setup": "random", "reward_scheme": "score_diff"},
        {"max_turns": 25, "at_max_turns": "truncate"},
        {
            "max_turns": 40,
            "ladders_per_player": 3,
            "priests_per_player": 1,
            "ladder_spaces": [1, 0, 2, 4, 4, 1, 0, 3, 2],
        },  # noqa: E501
        {"ladders_per_player": 0, "priests_per_player": 0, "setup": "random"},
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_options_match_the_single_engine(options, backend):
    assert _replay(32, 150, seed=7, check_obs_every=3, backend=backend, **options) >= 150


@pytest.mark.extended
@pytest.mark.parametrize("backend", BACKENDS)
def test_many_games_match_the_single_engine(backend):
    assert _replay(256, 5000, seed=11, check_obs_every=10, backend=backend) >= 5000


def test_new_games_start_like_the_rules():
    engine = BatchedMaya2012(200, seed=3)
    engine.reset()
    for row in range(200):
        _assert_valid_board(engine.towers[row])
        state = engine.state(row)
        assert state.phase == SETUP_MONOLITH and state.to_move == 1 and state.monolith == -1 and state.raven == 0
        assert state.ladders_left == (15, 15) and state.priests_left == (5, 5)
    # Relabelled boards differ from each other even when they share a base board.
    assert len({engine.towers[row].tobytes() for row in range(200)}) == 200


def test_seeded_engines_and_backends_agree():
    one, two = BatchedMaya2012(16, seed=5, backend=BACKENDS[0]), BatchedMaya2012(16, seed=5, backend=BACKENDS[-1])
    one.reset()
    two.reset()
    for _ in range(200):
        actions = one.sample_legal()
        np.testing.assert_array_equal(actions, two.sample_legal())
        one.step(actions)
        two.step(actions)
    np.testing.assert_array_equal(one.towers, two.towers)


@pytest.mark.parametrize("backend", BACKENDS)
def test_illegal_action_raises_and_changes_nothing(backend):
    engine = BatchedMaya2012(4, seed=0, backend=backend)
    engine.reset()
    before = engine.towers.copy(), engine.phase.copy()
    actions = engine.sample_legal()
    actions[2] = 0  # an exchange during the Monolith setup
    with pytest.raises(IllegalActionError, match="row"):
        engine.step(actions)
    with pytest.raises(ValueError):
        engine.step(np.array([0, 1]))
    np.testing.assert_array_equal(engine.towers, before[0])
    np.testing.assert_array_equal(engine.phase, before[1])


def test_unbatched_options_are_rejected():
    with pytest.raises(ConfigError):
        BatchedMaya2012(2, num_players=3)
    with pytest.raises(ConfigError):
        BatchedMaya2012(2, setup="draft")
    with pytest.raises(ConfigError):
        BatchedMaya2012(2, max_turn=3)
    with pytest.raises(ValueError):
        BatchedMaya2012(2, backend="jax")


@pytest.mark.parametrize("learner_seat", [0, 1, "random"])
def test_vector_env_learner_against_random(learner_seat):
    env = Maya2012VectorEnv(8, learner_seat=learner_seat, seed=1, max_turns=30)
    rules = Maya2012Rules({"max_turns": 30})
    obs, info = env.reset(seed=1)
    assert obs.shape == (8, 610) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    episodes, total = 0, 0.0
    for _ in range(300):
        mask = env.action_masks()
        np.testing.assert_array_equal(mask, info["action_mask"])
        assert (env.engine.to_move == env.seats).all() and mask.any(axis=1).all()
        for row in range(8):
            state = env.engine.state(row)
            np.testing.assert_array_equal(obs[row], encode_observation(state, int(env.seats[row]), rules.config))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert (rewards[~terminated] == 0).all()
        if terminated.any():
            assert info["_final_obs"].tolist() == terminated.tolist()
            episodes += int(terminated.sum())
            total += float(rewards.sum())
    assert episodes > 8
    if learner_seat != "random":
        assert (env.seats == learner_seat).all()
