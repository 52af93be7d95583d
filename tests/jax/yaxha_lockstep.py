"""Helpers of ``tests/jax/test_yaxha.py``: games of the JAX engine (:mod:`maya_envs.jax.yaxha`)
played in one batch beside the game's PettingZoo env, compared after every step, and
random pyramids for the scoring checks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from maya_envs.jax.yaxha import Yaxha, arrange_draws, state_from_rules, state_to_rules
from maya_envs.yaxha.rules import BUILD, OVER, PENDING, SELECT, YaxhaRules
from tests.conformance import env_module

ENV_MODULE = env_module("yaxha")

Policy = Callable[[int, np.ndarray, object, np.random.Generator], int]
"""``policy(game, mask, rules_state, rng) -> action``: the next action of game ``game``."""


def random_legal(game: int, mask: np.ndarray, rules_state, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def stack(states):
    return jax.tree_util.tree_map(lambda *v: jnp.stack(v), *states)


def row(tree, g: int):
    return jax.tree_util.tree_map(lambda v: v[g], tree)


class Batch:
    """One config's compiled functions: the vmapped step and every seat's observation."""

    def __init__(self, options: dict) -> None:
        self.options = options
        self.env = env = Yaxha(**options)
        n = env.num_players
        self.step = jax.jit(jax.vmap(env.step))
        self.observe_all = jax.jit(jax.vmap(lambda s: jnp.stack([env.observe(s, p) for p in range(n)])))


def play_lockstep(b: Batch, seeds: list[int], policy: Policy = random_legal, illegal_at: dict[int, int] | None = None):
    """Play ``len(seeds)`` games side by side: the PettingZoo env (``reset(seed)``, actions from
    ``policy`` with ``default_rng(seed)``) and the JAX engine in one batch, the rules' market
    draws put into the JAX bag (:func:`arrange_draws`). After every step: done flags, the rules
    state, the current player, the mask, every seat's observation and the rewards are equal.
    ``illegal_at``: game -> step at which that game plays an illegal id (it ends there, while
    the others go on). Returns a :class:`Counter` of the rare branches met."""
    env, n = b.env, b.env.num_players
    illegal_at = illegal_at or {}
    envs = [ENV_MODULE.env(**b.options) for _ in seeds]
    rngs = [np.random.default_rng(seed) for seed in seeds]
    for pz, seed in zip(envs, seeds, strict=True):
        pz.reset(seed=seed)
    agents = [f"player_{s}" for s in range(n)]
    state = stack(
        [
            state_from_rules(env, pz.unwrapped.game_state, jax.random.PRNGKey(s))
            for pz, s in zip(envs, seeds, strict=True)
        ]
    )
    seen: Counter = Counter()
    paid = [False] * len(seeds)  # rewards already paid: Pgx pays zero after the end
    frozen: dict[int, object] = {}  # a finished game's JAX state, which must not change
    steps = 0
    while True:
        observations = np.asarray(b.observe_all(state))
        host = jax.device_get(state)
        actions = np.zeros(len(seeds), np.int32)
        for g, pz in enumerate(envs):
            over = all(pz.terminations.values())
            assert bool(host.terminated[g]) == over, (g, steps)
            assert not host.truncated[g]
            rewards = np.array([pz.rewards[a] for a in agents], np.float32) * (not paid[g])
            np.testing.assert_array_equal(host.rewards[g], rewards, err_msg=f"game {g} step {steps}")
            paid[g] = over
            if g in frozen:
                same = jax.tree_util.tree_map(lambda u, v: np.array_equal(u, v), frozen[g], row(host._x, g))
                assert all(jax.tree_util.tree_leaves(same)), (g, steps)
                continue
            rules_state = pz.unwrapped.game_state
            if g not in illegal_at or steps <= illegal_at[g]:
                assert state_to_rules(host, g) == rules_state, (g, steps)
                for seat in range(n):
                    expected = pz.unwrapped.observer.encode(rules_state, seat)
                    np.testing.assert_array_equal(observations[g, seat], expected, err_msg=f"game {g} seat {seat}")
            if over:
                assert host.legal_action_mask[g].all()  # Pgx: every id allowed, none changes anything
                frozen[g] = row(host._x, g)
                continue
            _count_branches(seen, rules_state, n)
            agent = pz.agent_selection
            assert int(host.current_player[g]) == agents.index(agent)
            mask = pz.observe(agent)["action_mask"].astype(bool)
            np.testing.assert_array_equal(host.legal_action_mask[g], mask, err_msg=f"game {g} step {steps}")
            if illegal_at.get(g) == steps:
                actions[g] = int(np.flatnonzero(~mask)[0])
                seen["illegal"] += 1
                with pytest.warns(UserWarning, match="illegal action"):
                    pz.step(int(actions[g]))
                continue
            actions[g] = policy(g, mask, rules_state, rngs[g])
            pz.step(int(actions[g]))
        if host.terminated.all():
            return seen
        rows = [row(state, g) for g in range(len(seeds))]
        for g, pz in enumerate(envs):
            after = pz.unwrapped.game_state
            if g not in frozen and after.phase == SELECT and after.round != host._x.round[g]:
                rows[g] = arrange_draws(rows[g], after.market)  # the rules' draw, put in the bag
        state = b.step(stack(rows), jnp.asarray(actions), jax.random.split(jax.random.PRNGKey(steps), len(seeds)))
        steps += 1


def _count_branches(seen: Counter, s, n: int) -> None:
    """The rare branches a state shows: clashes by size, discards, an empty bag."""
    if s.phase == BUILD and s.build_step == 0:
        for size in Counter(s.choices).values():
            seen[f"clash of {size}"] += size > 1
    seen["pending pick"] += s.phase == PENDING
    seen["empty bag"] += s.phase == SELECT and sum(s.bag) == 0
    seen["discard"] += s.phase == BUILD and any(s.discarded)
    seen["over"] += s.phase == OVER


def random_pyramid(rules: YaxhaRules, rng: np.random.Generator) -> tuple[int, ...]:
    """A pyramid built by the placement rules: 0-30 cubes, colours from a random palette of 1-5
    (small palettes reach the one-colour and three-colour cards)."""
    palette = rng.choice(5, size=int(rng.integers(1, 6)), replace=False)
    pyramid = (-1,) * rules.geometry.num_cells
    for _ in range(int(rng.integers(0, 31))):
        colour = int(rng.choice(palette))
        cells = rules.legal_cells(pyramid, colour)
        if not cells:
            continue
        cell = int(rng.choice(cells))
        pyramid = pyramid[:cell] + (colour,) + pyramid[cell + 1 :]
    return pyramid
