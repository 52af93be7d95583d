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

Explicit chance (:func:`draw_towers` with an :class:`~maya_envs.core.chance.OutcomeScript`,
used by :mod:`maya_envs.openspiel`): a whole board is one of about 10**22 outcomes, so the
same sampler is written as small chance nodes with exact probabilities. Level 1: one node per
tower 0..8, uniform over the colours not used on the level yet. Each level ``L >= 2``: first
an *attempt* node (outcome 1 "go on" with probability ``E/B``, outcome 0 "start over" with
``1 - E/B``; start over empties the board and the nodes begin again at level 1), then one
node per tower 0..8: colour ``c`` with probability ``E(c)/E``, where ``E(c)`` counts the
fillings of the level with ``c`` on that tower given the towers already filled (a permanent),
so the level is uniform over its ``E`` fillings. A tower whose colour is forced is no node.
The process is the sampler's own, step by step, so the boards it ends on are exactly uniform.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

import numpy as np

from maya_envs.core.chance import OutcomeRecorder, OutcomeScript, generator_of


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


@cache
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
    columns = np.arange(n)
    while True:
        board = np.empty((rows, n), np.int64)
        board[0] = rng.permutation(n)
        allowed = np.ones((n, n), np.int64)  # allowed[column, symbol]
        allowed[columns, board[0]] = 0
        for row in range(1, rows):
            fillings = _fillings(allowed, board, row)
            if rng.random() * _bregman_bound(n - row, n) >= fillings:
                break  # reject the whole attempt; keeps every board equally likely
            board[row] = _uniform_filling(allowed, rng, batch)
            allowed[columns, board[row]] = 0
        else:
            return board


def _fillings(allowed: np.ndarray, board: np.ndarray, row: int) -> int:
    """The permanent of ``allowed`` (the ways to fill row ``row`` given rows ``0..row-1``),
    from a table where it depends only on a small key: relabelling each symbol by its column
    in row 0 (a column permutation, which keeps the permanent) turns row 1 into a derangement
    ``sigma`` and leaves ``allowed = J - I - P(sigma)``, whose permanent is the same for every
    conjugate of ``sigma``; so row 1's count is the number of derangements (one value) and
    row 2's depends only on the cycle type of ``sigma``. Later rows: :func:`permanent`."""
    if row > 2:
        return permanent(allowed)
    n = allowed.shape[0]
    key: tuple[int, ...] = ()
    if row == 2:
        where = np.empty(n, np.intp)
        where[board[0]] = np.arange(n)
        sigma = where[board[1]].tolist()
        seen = [False] * n
        lengths = []
        for start in range(n):
            length = 0
            while not seen[start]:
                seen[start] = True
                start = sigma[start]
                length += 1
            if length:
                lengths.append(length)
        key = tuple(sorted(lengths))
    found = _FILLINGS.get((n, key))
    if found is None:
        found = _FILLINGS[(n, key)] = permanent(allowed)
    return found


_FILLINGS: dict[tuple[int, tuple[int, ...]], int] = {}


def _uniform_filling(allowed: np.ndarray, rng: np.random.Generator, batch: int) -> np.ndarray:
    """A uniformly random permutation ``perm`` with ``allowed[i, perm[i]] == 1`` for all i
    (the first fitting one of batches of ``batch`` uniform permutations)."""
    n = allowed.shape[0]
    identity, offsets = _batch_tables(n, batch)
    flat = allowed.ravel().astype(bool)
    while True:
        perms = rng.permuted(identity, axis=1)
        ok = flat[perms + offsets].all(axis=1)
        first = int(ok.argmax())
        if ok[first]:
            return perms[first]


@cache
def _batch_tables(n: int, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """``(batch, n)`` rows ``0..n-1`` (never written: ``permuted`` returns a copy) and the
    flat offsets ``n * column`` of each column's row of an ``(n, n)`` matrix."""
    identity = np.tile(np.arange(n), (batch, 1))
    identity.flags.writeable = False
    return identity, np.arange(n) * n


def random_towers(rng: np.random.Generator) -> tuple[tuple[int, ...], ...]:
    """A uniformly random valid board: 9 towers, each a tuple of 5 colours bottom to top."""
    levels = sample_latin_rectangle(9, 5, rng)
    return tuple(tuple(int(c) for c in levels[:, tower]) for tower in range(9))


START_OVER, GO_ON = 0, 1


def draw_towers(rng) -> tuple[tuple[int, ...], ...]:
    """:func:`random_towers` from a generator (the same calls), or the board the chance
    outcomes of an :class:`~maya_envs.core.chance.OutcomeScript` describe (see the module
    docstring); an :class:`~maya_envs.core.chance.OutcomeRecorder` also records the board's
    outcome ids."""
    if isinstance(rng, OutcomeScript):
        return _scripted_towers(rng)
    towers = random_towers(generator_of(rng))
    if isinstance(rng, OutcomeRecorder):
        rng.outcomes.extend(board_outcomes(towers))
    return towers


def board_outcomes(towers: tuple[tuple[int, ...], ...]) -> list[int]:
    """The chance outcome ids that build ``towers`` (every attempt node "go on").

    Raises:
        ValueError: ``towers`` is not a valid board.
    """
    recorded: list[int] = []

    def choose(outcomes, label: str, level: int, tower: int) -> int:
        value = GO_ON if label == "setup attempt" else towers[tower][level]
        if value not in {o for o, p in outcomes() if p > 0}:
            raise ValueError(f"not a valid board: {towers!r}")
        recorded.append(value)
        return value

    _chance_towers(choose)
    return recorded


# A position of the chance process: (allowed colours per tower as bitmasks, the levels built,
# the current level's colours so far, whether the current level's attempt node went on).
_START = (((1 << 9) - 1,) * 9, (), (), False)
# Positions reached by scripted outcome sequences: replaying a growing script (as the OpenSpiel
# adapter does, one chance node at a time) resumes where the last replay stopped.
_POSITIONS: dict[tuple[int, ...], tuple] = {}
_MAX_POSITIONS = 1 << 16


def _scripted_towers(script: OutcomeScript) -> tuple[tuple[int, ...], ...]:
    remaining = script.outcomes[script.used :]
    known, position = 0, _START
    for k in range(len(remaining), 0, -1):
        if remaining[:k] in _POSITIONS:
            known, position = k, _POSITIONS[remaining[:k]]
            break
    script.used += known  # taken (and checked) when the position was first reached
    consumed = list(remaining[:known])

    def choose(outcomes, label: str, level: int, tower: int) -> int:
        outcome = script.take(outcomes, label)
        consumed.append(outcome)
        return outcome

    def reached(position: tuple) -> None:
        if len(_POSITIONS) >= _MAX_POSITIONS:
            _POSITIONS.clear()
        _POSITIONS[tuple(consumed)] = position

    return _chance_towers(choose, position, reached)


def _chance_towers(choose, position: tuple = _START, reached=None) -> tuple[tuple[int, ...], ...]:
    """The board built by the chance nodes from ``position``, each node answered by
    ``choose(outcomes_fn, label, level, tower)`` (level 0-4; tower -1 for an attempt node);
    ``reached(position)`` is told the position after each answer."""
    n, rows = 9, 5
    full = (1 << n) - 1
    while True:
        allowed, built, row, attempted = position
        level, tower = len(built), len(row)
        if level == rows:
            return tuple(tuple(built[lv][t] for lv in range(rows)) for t in range(n))
        if tower == n:  # the level is complete
            position = (tuple(allowed[t] & ~(1 << row[t]) for t in range(n)), built + (row,), (), False)
            continue
        if level and not attempted:
            go_on = _matchings(allowed, full) / _bregman_bound(n - level, n)
            outcomes = [(START_OVER, 1.0 - go_on), (GO_ON, go_on)]
            go = choose(lambda o=outcomes: o, "setup attempt", level, -1) == GO_ON
            position = (allowed, built, row, True) if go else _START
            if reached is not None:
                reached(position)
            continue
        free = full
        for colour in row:
            free &= ~(1 << colour)  # colours not used on this level yet
        rest = allowed[tower + 1 :]
        weights = [_matchings(rest, free & ~(1 << c)) if (allowed[tower] & free) >> c & 1 else 0 for c in range(n)]
        options = [c for c in range(n) if weights[c]]
        if len(options) == 1:
            colour = options[0]
        else:
            total = sum(weights)
            outcomes = [(c, weights[c] / total) for c in options]
            colour = choose(lambda o=outcomes: o, "block", level, tower)
        position = (allowed, built, row + (colour,), attempted)
        if reached is not None and len(options) > 1:
            reached(position)


@lru_cache(maxsize=1 << 18)
def _matchings(rows: tuple[int, ...], free: int) -> int:
    """Ways to give each row (a bitmask of allowed colours) a distinct colour of ``free``
    (a permanent; exact integers)."""
    if not rows:
        return 1
    options = rows[0] & free
    total = 0
    while options:
        bit = options & -options
        options ^= bit
        total += _matchings(rows[1:], free & ~bit)
    return total
