"""Exactly uniform random setups: 9 towers x 5 levels, each level a permutation of the 9
colours, no tower repeating a colour (rules section 8).

Transposed, a board is a 5 x 9 Latin rectangle (rows = levels). Level-by-level rejection
(redraw a level until it fits) is biased, because boards differ in how many ways their
upper levels can be completed. This sampler is exact:

for each level ``L >= 2`` with ``E`` = the number of ways to fill it given the levels below
(the permanent of the 9 x 9 tower-colour "still allowed" matrix, Ryser's formula) and ``B``
an upper bound on every such count (Bregman's bound, ``(r!)**(9/r)`` with ``r = 10 - L``
allowed colours per tower), continue with probability ``E / B`` (else start over) and draw
the level uniformly among its ``E`` fillings. A board is produced with probability
``1/9! * prod_L (E_L/B_L) * (1/E_L) = 1/9! * prod_L 1/B_L``, the same for every board, so
accepted boards are uniform. About half the attempts are accepted.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np


@cache
def _ryser_tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    # float64: BLAS products; exact here, every partial value of a 0/1 matrix with n <= 9
    # (at most 9**9 per product, 511 terms) is an integer below 2**53.
    subsets = ((np.arange(1, 2**n)[:, None] >> np.arange(n)) & 1).astype(np.float64)
    signs = np.where((n - subsets.sum(axis=1)) % 2 == 0, 1.0, -1.0)
    return np.ascontiguousarray(subsets.T), signs


def permanent(matrix: np.ndarray) -> int:
    """Permanent of a square 0/1 integer matrix (Ryser's formula, ``O(2**n * n**2)``;
    exact for ``n <= 9``, the board's size).

    Raises:
        ValueError: ``n > 9`` (float64 sums would no longer be exact).
    """
    n = matrix.shape[0]
    if n > 9:
        raise ValueError(f"permanent is exact for 0/1 matrices up to 9 x 9, got {n} x {n}")
    subsets_t, signs = _ryser_tables(n)
    row_sums = matrix.astype(np.float64) @ subsets_t  # (n, 2**n - 1)
    return round(float(signs @ row_sums.prod(axis=0)))


def _bregman_bound(row_sum: int, n: int) -> float:
    return math.factorial(row_sum) ** (n / row_sum)


def sample_latin_rectangle(n: int, rows: int, rng: np.random.Generator, batch: int = 256) -> np.ndarray:
    """Uniformly random ``rows x n`` Latin rectangle over symbols ``0..n-1``.

    Returns:
        ``int64`` array of shape ``(rows, n)``: every row a permutation, no column repeating
        a symbol.

    Raises:
        ValueError: ``rows`` outside ``1..n``.
    """
    if not 1 <= rows <= n:
        raise ValueError(f"rows must be in 1..{n}, got {rows}")
    while True:
        board = np.empty((rows, n), np.int64)
        board[0] = rng.permutation(n)
        allowed = np.ones((n, n), np.int64)  # allowed[column, symbol]
        allowed[np.arange(n), board[0]] = 0
        for row in range(1, rows):
            fillings = permanent(allowed)
            if rng.random() * _bregman_bound(n - row, n) >= fillings:
                break  # reject the whole attempt; keeps every board equally likely
            board[row] = _uniform_filling(allowed, rng, batch)
            allowed[np.arange(n), board[row]] = 0
        else:
            return board


def _uniform_filling(allowed: np.ndarray, rng: np.random.Generator, batch: int) -> np.ndarray:
    """A uniformly random permutation ``perm`` with ``allowed[i, perm[i]] == 1`` for all i."""
    n = allowed.shape[0]
    columns = np.arange(n)
    identity = np.tile(columns, (batch, 1))
    while True:
        perms = rng.permuted(identity, axis=1)
        ok = allowed[columns, perms].all(axis=1)
        hits = np.flatnonzero(ok)
        if hits.size:
            return perms[hits[0]]


def random_towers(rng: np.random.Generator) -> tuple[tuple[int, ...], ...]:
    """A uniformly random valid board: 9 towers, each a tuple of 5 colours bottom to top."""
    levels = sample_latin_rectangle(9, 5, rng)
    return tuple(tuple(int(c) for c in levels[:, tower]) for tower in range(9))
