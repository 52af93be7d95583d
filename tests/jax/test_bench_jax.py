"""The JAX benchmark's random mover (``benchmarks/bench_jax.py``): every game takes its
``floor(u * legal)``-th legal id (a uniform choice over the mask for a uniform ``u``), the
packed-word search giving exactly the ids a plain scan of the mask gives."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")
jnp = jax.numpy

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_random_actions_take_the_floor_u_times_legal_th_legal_id(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("bench_jax")
    rng = np.random.default_rng(0)
    rows = 3000
    density = rng.choice([0.01, 0.1, 0.5, 1.0], size=(rows, 1))
    mask = rng.random((rows, 75)) < density
    mask[np.arange(rows), rng.integers(0, 75, rows)] = True  # a running game has a legal action
    uniform = rng.random(rows).astype(np.float32)
    uniform[:50] = 0.0
    uniform[50:100] = np.nextafter(np.float32(1), np.float32(0))  # the largest draw below 1
    got = np.asarray(jax.jit(bench._random_actions)(jnp.asarray(uniform), jnp.asarray(mask)))
    for row in range(rows):
        legal = np.flatnonzero(mask[row])
        expected = legal[int(uniform[row] * np.float32(legal.size))]
        assert got[row] == expected, (row, legal, uniform[row])
