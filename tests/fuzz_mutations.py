"""Mutations of JSON values for the fuzz tests of saved states and records
(``tests/state_fuzz.py``, ``tests/test_records_fuzz.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

BIG = 10**6
"""A number far outside every range a field allows."""


def mutate_value(value: Any, others: list[Any], rng: np.random.Generator, depth: int = 0) -> Iterator[Any]:
    """Mutations of one JSON value (the last items: a few random ones of its items)."""
    if isinstance(value, bool):
        yield not value
        yield int(value)
    elif isinstance(value, int):
        yield from (value + 1, value - 1, -1, 0, BIG, -BIG, str(value), None)
    elif isinstance(value, float):
        yield from (value + 1, -value, 0.0)
    elif isinstance(value, str):
        yield from (s for s in others if isinstance(s, str) and s != value)
        yield value + "x"
        yield None
    elif value is None:
        yield from (0, -1, 1, [], [0, 1])
    elif isinstance(value, list):
        if value:
            yield value[:-1]
            yield value[1:]
            yield value + value[-1:]
            yield []
            yield value[::-1]
            yield [value[-1], *value[:-1]]
        else:
            yield [0]
            yield [[0, 0]]
        if value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            yield [0] * len(value)
        yield from (o for o in others if isinstance(o, list) and o != value)
        if value and depth < 3:
            for index in rng.choice(len(value), size=min(len(value), 4), replace=False):
                for item in mutate_value(value[index], [], rng, depth + 1):
                    yield [*value[:index], item, *value[index + 1 :]]
