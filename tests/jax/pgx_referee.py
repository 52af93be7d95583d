"""Pgx's referee (``pgx.api_test``) for this project's JAX games, with the two patches it needs
under the installed Pgx (2.6) and JAX (0.10), in one place, each with its upstream reason.

1. **The game-id list.** The referee's ``_validate_state`` asserts ``state.env_id in
   get_args(pgx.core.EnvId)``, a closed ``Literal`` of Pgx's own games
   (``pgx/_src/api_test.py``): a game outside Pgx can only pass by joining that list. Nothing
   upstream offers another way (Pgx's ``EnvId`` lists its own games by design).
2. **The random mover.** The referee moves with ``pgx.experimental.utils.act_randomly``, which
   draws ``jax.random.categorical(key, logits, axis=1)``. Since JAX 0.10 ``categorical``
   checks ``axis`` against the logits' rank, so the one-game ``(A,)`` mask of
   ``api_test_single`` raises ``IndexError`` (Pgx's own games fail the same way). The upstream
   fix, ``axis=-1``, is proposed in sotetsuk/pgx pull request #1314, not released in 2.6.0.
   The patch draws along the last axis: the same uniform choice over the legal ids, for one
   game and for a batch.

Neither patch touches a check. ``tests/jax/test_pgx_referee.py`` asserts that the unpatched
referee still fails in these two ways, so that it fails once Pgx fixes them: then drop the
patch it names.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Literal, get_args
from unittest import mock

import jax
import jax.numpy as jnp
import pgx
import pgx._src.api_test as referee


def draw_uniform_legal(key: jax.Array, legal_action_mask: jax.Array) -> jax.Array:
    """A uniformly random legal id per game: ``(A,)`` mask -> scalar, ``(B, A)`` -> ``(B,)``
    (``int32``); ``act_randomly`` with ``axis=-1`` (patch 2)."""
    return jax.random.categorical(key, jnp.log(legal_action_mask.astype(jnp.float32)), axis=-1)


@contextmanager
def patched_referee(*env_ids: str):
    """Within the block, Pgx's referee accepts ``env_ids`` as game ids (patch 1) and moves with
    :func:`draw_uniform_legal` (patch 2)."""
    ids = Literal[(*get_args(referee.EnvId), *env_ids)]
    with (
        mock.patch.object(referee, "EnvId", ids),
        mock.patch.object(referee, "act_randomly", jax.jit(draw_uniform_legal)),
    ):
        yield


def run_api_test(env: pgx.Env, num: int = 1) -> None:
    """``pgx.api_test(env, num)`` (single and batched random games) with both patches."""
    with patched_referee(env.id):
        pgx.api_test(env, num=num)
