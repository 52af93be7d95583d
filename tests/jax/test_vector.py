"""The numpy/torch-facing batched env over every JAX engine (maya_envs.jax.vector): shapes and
dtypes, same-step auto-reset with per-seat rewards equal to the engine's own step, seeding,
and refused inputs. Sweeps the JAX engine table: a new engine is covered with no edit here."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")
jnp = jax.numpy

from maya_envs.core.errors import ConfigError, ResetNeededError  # noqa: E402
from maya_envs.games import GAMES  # noqa: E402
from maya_envs.jax.engines import ENGINES, engine_names  # noqa: E402
from maya_envs.jax.vector import JaxVectorEnv  # noqa: E402

# the fewest and the most players of each engine (each case compiles a reset and a step)
CASES = [(key, n) for key in ENGINES for n in sorted({min(GAMES[key].player_counts), max(GAMES[key].player_counts)})]
B = 12


def _legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask], np.int32)


@pytest.mark.parametrize(("key", "num_players"), CASES, ids=[f"{k}-{n}p" for k, n in CASES])
def test_steps_equal_the_engines_own_step_and_finished_rows_restart(key, num_players):
    probe = JaxVectorEnv(key, 1, num_players=num_players)
    short = {"max_turns": 12} if "max_turns" in {f.name for f in dataclasses.fields(probe.engine.config)} else {}
    env = JaxVectorEnv(key, B, num_players=num_players, board_reuse=4, **short)
    step = jax.jit(jax.vmap(env.engine.step))
    batch = env.reset(seed=0)
    shapes = {"observation": (B, *env.observation_shape), "action_mask": (B, env.num_actions),
              "current_player": (B,), "rewards": (B, num_players), "terminated": (B,), "truncated": (B,)}  # fmt: skip
    dtypes = {"observation": np.float32, "action_mask": np.bool_, "current_player": np.int32,
              "rewards": np.float32, "terminated": np.bool_, "truncated": np.bool_}  # fmt: skip
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(30 if short else 400):
        if short == {} and ended >= B:
            break
        for name, value in batch._asdict().items():
            assert value.shape == shapes[name] and value.dtype == dtypes[name], name
        assert batch.action_mask.any(axis=1).all()  # a legal id in every row: never an all-zero mask
        assert np.isfinite(batch.observation).all()
        before = jax.device_get(env._state)
        actions = _legal(batch.action_mask, rng)
        keys = jax.random.split(jax.random.PRNGKey(0), B)  # unused: these configs draw nothing in step
        expected = jax.device_get(step(before, jnp.asarray(actions), keys))
        batch = env.step(actions)
        np.testing.assert_array_equal(batch.rewards, expected.rewards)
        np.testing.assert_array_equal(batch.terminated, expected.terminated)
        np.testing.assert_array_equal(batch.truncated, expected.truncated)
        done = expected.terminated | expected.truncated
        going = ~done
        np.testing.assert_array_equal(batch.action_mask[going], expected.legal_action_mask[going])
        np.testing.assert_array_equal(batch.current_player[going], expected.current_player[going])
        seen = jax.vmap(env.engine.observe)(jax.tree_util.tree_map(jnp.asarray, expected), expected.current_player)
        np.testing.assert_array_equal(batch.observation[going], np.asarray(seen)[going])
        assert (np.asarray(env._state._step_count)[done] == 0).all()  # a new game in each finished row
        assert not (np.asarray(env._state.terminated) | np.asarray(env._state.truncated)).any()
        ended += int(done.sum())
    assert ended >= B  # games of many rows finished (max_turns=12 where the game has it)


def test_seeding_repeats_and_continues_and_torch_output():
    key = engine_names()[0]
    env = JaxVectorEnv(key, 4, output="torch")
    first = env.reset(seed=5)
    again = env.reset(seed=5)
    for a, b in zip(first, again, strict=True):
        assert a.equal(b)
    later = env.reset()
    assert not later.observation.equal(first.observation)
    import torch

    assert first.observation.dtype == torch.float32 and first.action_mask.dtype == torch.bool
    actions = torch.multinomial(first.action_mask.float(), 1).squeeze(1)  # int64 tensor: accepted
    assert env.step(actions).rewards.shape == (4, env.num_players)


def test_bad_inputs_are_refused_with_the_value_and_what_is_allowed():
    key = engine_names()[0]
    with pytest.raises(ConfigError, match="is not a game"):
        JaxVectorEnv("chess", 4)
    without = [k for k in GAMES if k not in ENGINES]
    if without:
        with pytest.raises(ConfigError, match="has no JAX engine"):
            JaxVectorEnv(without[0], 4)
    for count in (0, -1, True, 2.0, 1 << 30):
        with pytest.raises(ConfigError, match="num_envs="):
            JaxVectorEnv(key, count)
    with pytest.raises(ConfigError, match="output="):
        JaxVectorEnv(key, 4, output="tf")
    env = JaxVectorEnv(key, 4)
    with pytest.raises(ResetNeededError):
        env.step(np.zeros(4, np.int32))
    env.reset(seed=1)
    with pytest.raises(TypeError, match="integer dtype"):
        env.step(np.full(4, 1.5))
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        env.step(np.zeros(3, np.int32))
    with pytest.raises(ValueError, match=f"action {env.num_actions} in row 2"):
        env.step(np.array([0, 0, env.num_actions, 0]))
