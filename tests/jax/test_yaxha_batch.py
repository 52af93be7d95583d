"""``Yaxha.step_batch`` (the batched step that scores only the games that end) gives what
``jax.vmap(Yaxha.step)`` gives, field for field, over whole random games with illegal endings
and finished rows in the batch, and when more games end at once than one scoring group holds."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")
jnp = jax.numpy

from maya_envs.jax import Yaxha  # noqa: E402

BATCH = 16
STEPS = 200  # longer than a 2p game; 4p games are cut, the 2p rows finish and stay finished


def _play_both(env: Yaxha, seed: int):
    """Random legal play of ``BATCH`` games by both steps in lock step (rows 0 and 1 play an
    illegal id at step 40): per step whether every field is equal, and the rewards paid."""
    states = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(seed), BATCH))
    vmapped = jax.vmap(env.step)
    bad = jnp.zeros(BATCH, jnp.int32).at[1].set(env.num_actions - 1)

    def body(carry, t):
        one, batched, key = carry
        key, k = jax.random.split(key)
        actions = jax.random.categorical(k, jnp.where(one.legal_action_mask, 0.0, -jnp.inf)).astype(jnp.int32)
        actions = jnp.where((t == 40) & (jnp.arange(BATCH) < 2) & ~one.legal_action_mask[:, 0], bad, actions)
        one, batched = vmapped(one, actions, None), env.step_batch(batched, actions)
        leaves = zip(jax.tree_util.tree_leaves(one), jax.tree_util.tree_leaves(batched), strict=True)
        same = [jnp.array_equal(u, v) for u, v in leaves]
        return (one, batched, key), (jnp.all(jnp.stack(same)), one.rewards)

    (last, _, _), (same, rewards) = jax.jit(lambda s: jax.lax.scan(body, (s, s, jax.random.PRNGKey(seed)),
                                                                  jnp.arange(STEPS)))(states)  # fmt: skip
    return last, np.asarray(same), np.asarray(rewards)


FOUR_FIXED_DIFF = {"num_players": 4, "footprint": "fixed", "reward_scheme": "score_diff"}


@pytest.mark.parametrize("options", [{"num_players": 2}, FOUR_FIXED_DIFF])
def test_step_batch_equals_the_vmapped_step(options):
    env = Yaxha(**options)
    last, same, rewards = _play_both(env, seed=options["num_players"])
    assert same.all(), f"first difference at step {int(np.argmin(same))}"
    assert np.any(rewards == -1.0)  # an illegal ending was met
    if options["num_players"] == 2:
        assert bool(jnp.all(last.terminated))
        assert np.count_nonzero(np.any((rewards != 0) & (rewards != -1.0), axis=2)) >= BATCH - 2  # games scored


def test_more_endings_than_one_scoring_group_are_all_scored():
    env = Yaxha(num_players=3, footprint="fixed")
    states = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(5), 20))  # groups of 8: three rounds
    pyramids = jax.random.randint(jax.random.PRNGKey(6), states._x.pyramids.shape, -1, 5)
    x = states._x._replace(pyramids=pyramids)
    ended = jnp.ones(20, bool).at[3].set(False)
    got = np.asarray(jax.jit(env._ended_returns)(x, ended))
    want = np.asarray(jax.vmap(env._returns)(x))
    assert np.array_equal(got[np.asarray(ended)], want[np.asarray(ended)])
    assert np.all(got[3] == 0) and np.any(want[3] != 0)
