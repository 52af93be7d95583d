"""Random-generator helpers: one explicit ``numpy.random.Generator`` per owner, never a global."""

from __future__ import annotations

import secrets

import numpy as np

from maya_envs.core.checks import is_int


def make_rng(seed: int | np.random.Generator | None = None) -> np.random.Generator:
    """Return a generator for ``seed``.

    Args:
        seed: ``None`` (fresh OS entropy), a non-negative int (``0`` is a seed like any
            other), or an existing generator, returned unchanged so that callers can share
            one stream.

    Raises:
        ValueError: ``seed`` is a negative int or of another type.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    if is_int(seed) and seed >= 0:
        return np.random.default_rng(int(seed))
    raise ValueError(f"seed must be None, a non-negative int or a numpy Generator, got {seed!r}")


def spawn_seed(rng: np.random.Generator) -> int:
    """Draw a 63-bit int from ``rng`` to seed a dependent generator (a bot, a sub-env)."""
    return int(rng.integers(0, 2**63 - 1))


SEED_BITS = 64
"""Bits of a seed drawn for a game (:func:`draw_seed`): too many to find the seed by trying
seeds against what a seat sees (2**31 seeds can be tried, 2**64 cannot)."""


def draw_seed() -> int:
    """A fresh game seed from :mod:`secrets` (:data:`SEED_BITS` bits)."""
    return secrets.randbits(SEED_BITS)


def seed_hides_draws(spec) -> bool:
    """Whether the reset seed of a game with this :class:`~maya_envs.core.spec.GameSpec`
    rebuilds what some seat may not know while it runs: hidden information
    (``spec.information != "perfect"``: Maya (2012) task cards at 3-4 players, quarry worker
    cards and bids, Yaxha picks and the bag) or chance after the start (``spec.chance``). Such
    a seed is shown only when the game is over."""
    return spec.information != "perfect" or bool(spec.chance)
