"""Random-generator helpers: one explicit ``numpy.random.Generator`` per owner, never a global."""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from maya_envs.core.checks import is_int
from maya_envs.core.errors import ConfigError, shorten

MAX_SEED = 2**128 - 1
"""The largest seed a user may give anywhere (a command's ``--seed``, a page, a record's
header, a training config, ``reset(seed=...)``): 128 bits, more than any game needs, and one
bound for all, so that a seed one command accepts and records another replays."""

SEED_ALLOWED = "an int in 0..2**128-1"
"""What :func:`check_seed` allows, in the words its message uses."""


def check_seed(value: Any, name: str = "seed") -> int:
    """``value`` as a seed: an int (Python's or numpy's, not a bool) in ``0..MAX_SEED``.

    Args:
        value: the seed given.
        name: what the message calls it (``"--seed"``, ``"header field 'seed'"`` ...).

    Returns:
        The seed as a Python ``int``, unchanged.

    Raises:
        ConfigError: anything else; the message names ``name``, the value (shortened) and
            what is allowed.
    """
    if is_int(value) and 0 <= value <= MAX_SEED:
        return int(value)
    raise ConfigError(f"{name} {shorten(value)}; allowed: {SEED_ALLOWED}")


def make_rng(seed: int | np.random.Generator | None = None) -> np.random.Generator:
    """Return a generator for ``seed``.

    Args:
        seed: ``None`` (fresh OS entropy), an int in ``0..MAX_SEED`` (``0`` is a seed like
            any other), or an existing generator, returned unchanged so that callers can
            share one stream.

    Raises:
        ConfigError: (a ``ValueError``) ``seed`` is an int outside ``0..MAX_SEED`` or of
            another type (:func:`check_seed`).
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    return np.random.default_rng(check_seed(seed))


def offset_seed(seed: int, offset: int) -> int:
    """The seed ``offset`` places after ``seed`` (a seat's bot after the game's seed), wrapping
    past :data:`MAX_SEED` to 0 so that a seed derived from any valid seed is valid too (below
    the bound it is plain ``seed + offset``)."""
    return (seed + offset) % (MAX_SEED + 1)


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
