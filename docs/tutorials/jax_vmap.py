"""The JAX engine with vmap: many Maya (2012) games stepped at once with random legal moves.

`maya_envs.jax.Maya2012` is a `pgx.Env` (the `jax` extra): `init(key)` and `step(state, action,
key)` are pure functions, so `jax.vmap` runs a batch of games and `jax.jit` compiles the step once.

    python docs/tutorials/jax_vmap.py            # 1,024 games to the end
    MAYA_TUTORIAL_TINY=1 python docs/tutorials/jax_vmap.py   # 8 games, 20 steps (the test)
"""

import os

import jax
import jax.numpy as jnp

from maya_envs.jax import Maya2012

TINY = os.environ.get("MAYA_TUTORIAL_TINY") == "1"
BATCH, MAX_STEPS = (8, 20) if TINY else (1024, 400)

env = Maya2012(num_players=2, setup="random")
init = jax.jit(jax.vmap(env.init))
step = jax.jit(jax.vmap(env.step))


def random_legal(key, mask):
    """One uniformly random legal action per game: sample among the mask's True entries."""
    logits = jnp.where(mask, 0.0, -jnp.inf)
    return jax.random.categorical(key, logits, axis=-1)


key = jax.random.PRNGKey(0)
key, sub = jax.random.split(key)
state = init(jax.random.split(sub, BATCH))
returns = jnp.zeros((BATCH, env.num_players))
for _ in range(MAX_STEPS):
    if bool(jnp.all(state.terminated | state.truncated)):
        break
    key, pick, chance = jax.random.split(key, 3)
    action = random_legal(pick, state.legal_action_mask)
    state = step(state, action, jax.random.split(chance, BATCH))
    returns = returns + state.rewards  # rewards are paid once, on the step that ends a game

finished = int(jnp.sum(state.terminated | state.truncated))
print(f"{finished} of {BATCH} games over; player_0 won {int(jnp.sum(returns[:, 0] > 0))}")
print("observation batch:", state.observation.shape, state.observation.dtype)
