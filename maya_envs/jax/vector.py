"""Batched self-play over a JAX engine, facing numpy or torch: no JAX in the caller's code.

=====================  ===============================================================
Class                  :class:`JaxVectorEnv` ``(game, num_envs, *, output="numpy",
                       board_reuse=64, **options)``; ``game`` any name of the game
                       table with a JAX engine (:data:`maya_envs.jax.engines.ENGINES`)
Calls                  ``reset(seed) -> Batch``, ``step(actions) -> Batch``: one
                       ``jax.jit(jax.vmap(...))`` call each (compiled on first use)
:class:`Batch`         ``observation (B, *obs) float32`` (of ``current_player``),
                       ``action_mask (B, A) bool``, ``current_player (B,) int32``,
                       ``rewards (B, num_players) float32`` (per seat, of this step),
                       ``terminated (B,) bool``, ``truncated (B,) bool``; numpy arrays,
                       or torch tensors with ``output="torch"``
Auto-reset             same-step (SB3's ``VecEnv``, Gymnasium's ``SAME_STEP``): a game
                       that ends in ``step`` reports its rewards and flags, and its row
                       already holds a new game (observation, mask, player to move)
Self-play              one policy for every seat: act for ``current_player``; a seat's
                       reward arrives in ``rewards[:, seat]`` on the step that pays it
                       (Maya (2012): the step that ends the game), whoever moved
Illegal ids            an id outside ``0..A-1`` raises ``ValueError``; an id in range
                       but masked out ends that game as the engine does (the PettingZoo
                       default ``"terminate"``: the offender's team -1)
Randomness             ``reset(seed)`` seeds one JAX key; ``reset()`` after that goes on
                       from it (Gymnasium's convention); steps and new games draw from it
=====================  ===============================================================

New games: an engine with ``init_like`` (Maya (2012)) starts a new game on one of the
batch's first boards relabelled, ``board_reuse`` games per exactly sampled board (as
:class:`maya_envs.maya2012.batched.BatchedMaya2012`; exact boards cost about 5 CPU ms
each); others call ``init`` for every new game.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from maya_envs.core.checks import is_int
from maya_envs.core.errors import ConfigError, ResetNeededError
from maya_envs.jax.engines import make

MAX_ENVS = 1 << 20
"""The largest ``num_envs`` accepted (a bound on the work a number can ask for)."""

OUTPUTS = ("numpy", "torch")


class Batch(NamedTuple):
    """One step's results for the whole batch (module docstring for shapes and meaning)."""

    observation: Any
    action_mask: Any
    current_player: Any
    rewards: Any
    terminated: Any
    truncated: Any


class JaxVectorEnv:
    """``num_envs`` games of one JAX engine stepped at once (module docstring).

    Args:
        game: a game name (``find_game``); the game must have a JAX engine.
        num_envs: games in the batch, 1..:data:`MAX_ENVS`.
        output: ``"numpy"`` (default) or ``"torch"`` (CPU tensors; move them yourself).
        board_reuse: games per exactly sampled board for engines with ``init_like``, >= 1.
        **options: the game's options (``num_players=3``, ...).

    Raises:
        ConfigError: an unknown game or one without a JAX engine, a bad option, ``num_envs``
            or ``board_reuse`` not an int in range, an unknown ``output``.
    """

    def __init__(self, game: str, num_envs: int, *, output: str = "numpy", board_reuse: int = 64,
                 **options: Any) -> None:  # fmt: skip
        self.num_envs = _bounded_int("num_envs", num_envs, 1, MAX_ENVS)
        self.board_reuse = _bounded_int("board_reuse", board_reuse, 1, MAX_ENVS)
        if output not in OUTPUTS:
            raise ConfigError(f"output={str(output)[:40]!r}; allowed: {OUTPUTS}")
        self.output = output
        self.engine = make(game, **options)
        if hasattr(self.engine, "observe_on_step"):  # observed once, after the new games are in
            self.engine.observe_on_step = False
        self.num_players = self.engine.num_players
        self.num_actions = self.engine.num_actions
        self.observation_shape = tuple(self.engine.observation_shape)
        self._reset_fn = jax.jit(self._reset_batch)
        self._step_fn = jax.jit(self._step_batch, donate_argnums=(0, 1))
        self._state = self._starts = self._key = None

    # -- public --------------------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> Batch:
        """New games in every row; ``seed`` seeds the env's key (``None``: go on from the last
        key, or fresh entropy before the first seed). Rewards are zero, flags ``False``."""
        if seed is not None:
            self._key = jax.random.PRNGKey(_bounded_int("seed", seed, 0, 2**63 - 1) % 2**32)
        elif self._key is None:
            self._key = jax.random.PRNGKey(np.random.SeedSequence().entropy % 2**32)
        self._key, sub = jax.random.split(self._key)
        self._state, self._starts = self._reset_fn(sub)
        zeros = jnp.zeros(self.num_envs, bool)
        return self._batch(self._state, self._observe(self._state),
                           jnp.zeros((self.num_envs, self.num_players), jnp.float32), zeros, zeros)  # fmt: skip

    def step(self, actions: Any) -> Batch:
        """Play ``actions`` (one id per row: a numpy array, a torch tensor or a list of ints),
        start new games in the rows that ended (module docstring, "Auto-reset").

        Raises:
            ResetNeededError: before the first :meth:`reset`.
            TypeError: ``actions`` not of an integer dtype.
            ValueError: ``actions`` not of shape ``(num_envs,)``, or an id outside ``0..A-1``.
        """
        if self._state is None:
            raise ResetNeededError("JaxVectorEnv.step() before reset(): call reset(seed) first")
        ids = self._checked_actions(actions)
        self._state, self._key, ended = self._step_fn(self._state, self._key, self._starts, ids)
        rewards, terminated, truncated, observation = ended
        return self._batch(self._state, observation, rewards, terminated, truncated)

    # -- compiled ------------------------------------------------------------------------------

    def _reset_batch(self, key: jax.Array) -> tuple[Any, Any]:
        """Every row's first game and the starts that :meth:`_new_games` relabels."""
        engine, count = self.engine, self.num_envs
        k_base, k_new = jax.random.split(key)
        if not hasattr(engine, "init_like"):
            return jax.vmap(engine.init)(jax.random.split(k_new, count)), None
        bases = jax.vmap(engine.init)(jax.random.split(k_base, math.ceil(count / self.board_reuse)))
        starts = jax.tree_util.tree_map(lambda v: jnp.repeat(v, self.board_reuse, axis=0)[:count], bases)
        return self._new_games(k_new, starts), starts

    def _new_games(self, key: jax.Array, starts: Any) -> Any:
        keys = jax.random.split(key, self.num_envs)
        if starts is None:
            return jax.vmap(self.engine.init)(keys)
        return jax.vmap(self.engine.init_like)(keys, starts)

    def _step_batch(self, state: Any, key: jax.Array, starts: Any, actions: jax.Array):
        key, k_step, k_new = jax.random.split(key, 3)
        step = getattr(self.engine, "step_batch", None) or jax.vmap(self.engine.step)  # the engine's batched step
        state = step(state, actions, jax.random.split(k_step, self.num_envs))
        ended = state.terminated | state.truncated
        fresh = self._new_games(k_new, starts)
        merged = jax.tree_util.tree_map(
            lambda new, old: jnp.where(ended.reshape(ended.shape + (1,) * (new.ndim - 1)), new, old), fresh, state
        )
        return merged, key, (state.rewards, state.terminated, state.truncated, self._observe(merged))

    def _observe(self, state: Any) -> jax.Array:
        return jax.vmap(self.engine.observe)(state, state.current_player)

    # -- host side -----------------------------------------------------------------------------

    def _checked_actions(self, actions: Any) -> jax.Array:
        ids = np.asarray(actions.detach().cpu() if hasattr(actions, "detach") else actions)
        if ids.dtype.kind not in "iu":
            raise TypeError(f"actions have dtype {ids.dtype}: an integer dtype is required")
        if ids.shape != (self.num_envs,):
            raise ValueError(f"actions have shape {ids.shape}: ({self.num_envs},) required, one id per game")
        bad = (ids < 0) | (ids >= self.num_actions)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise ValueError(f"action {int(ids[row])} in row {row}: ids are 0..{self.num_actions - 1}")
        return jnp.asarray(ids, jnp.int32)

    def _batch(self, state: Any, observation, rewards, terminated, truncated) -> Batch:
        arrays = (observation, state.legal_action_mask, state.current_player, rewards, terminated, truncated)
        host = [np.array(a) for a in jax.device_get(arrays)]
        if self.output == "torch":
            import torch

            host = [torch.from_numpy(a) for a in host]
        return Batch(*host)


def _bounded_int(name: str, value: Any, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``; else ``ConfigError`` naming it (shortened)."""
    if not is_int(value) or not low <= value <= high:
        raise ConfigError(f"{name}={str(value)[:40]!r}: an int in {low}..{high} required")
    return int(value)
