"""Helpers the Maya (2012) test modules share: the batched engine's backends."""

from __future__ import annotations

try:
    import numba  # noqa: F401

    BACKENDS = ["numpy", "numba"]
except ImportError:  # the optional `fast` extra is not installed
    BACKENDS = ["numpy"]
