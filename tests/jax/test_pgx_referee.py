"""The two patches of ``tests/jax/pgx_referee.py`` are still needed: each test here asserts that
Pgx's unpatched referee fails in the known way, so it fails (and the patch can go) once Pgx
fixes it."""

from __future__ import annotations

from typing import get_args

import pytest

jax = pytest.importorskip("jax")
pgx = pytest.importorskip("pgx")

import pgx._src.api_test as referee  # noqa: E402

from tests.jax.pgx_referee import draw_uniform_legal  # noqa: E402


def test_the_random_mover_still_fails_on_one_game():
    """Patch 2: Pgx's ``act_randomly`` draws along ``axis=1``, which JAX 0.10 rejects for one
    game's ``(A,)`` mask (sotetsuk/pgx pull request #1314); the patched mover gives a legal id."""
    mask = jax.numpy.array([False, True, False, True])
    with pytest.raises(IndexError, match="axis"):
        referee.act_randomly(jax.random.PRNGKey(0), mask)
    assert int(draw_uniform_legal(jax.random.PRNGKey(0), mask)) in (1, 3)


def test_the_referee_still_accepts_only_pgx_game_ids():
    """Patch 1: the referee's state check rejects a game id outside Pgx's ``EnvId`` list."""
    env = pgx.make("tic_tac_toe")
    state = jax.jit(env.init)(jax.random.PRNGKey(0))
    referee._validate_state(state)  # Pgx's own game passes the same check

    class Outside(type(state)):
        @property
        def env_id(self):
            return "not_a_pgx_game"

    outside = Outside(**{k: v for k, v in state.__dict__.items()})
    assert "not_a_pgx_game" not in get_args(referee.EnvId)
    with pytest.raises(AssertionError):
        referee._validate_state(outside)
