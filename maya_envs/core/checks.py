"""The type predicates every check of a setting, an action id or a saved field uses: an int
that is not a bool (:func:`is_int`) and a number that is not a bool (:func:`is_number`).

Python's ``bool`` is a subclass of ``int``, so ``isinstance(True, int)`` holds: a check written
by hand must remember to refuse bools, and each that forgot let ``True`` pass as seat 1. These
two are the one place that remembers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_INTS = (int, np.integer)
_NUMBERS = (int, float, np.integer, np.floating)


def is_int(value: Any, *, numpy: bool = True) -> bool:
    """Whether ``value`` is an integer and not a bool (nor ``numpy.bool_``, which is no numpy
    integer): a Python ``int``, or with ``numpy`` (the default) a numpy integer too.
    ``numpy=False`` is for data read from JSON or YAML, whose integers are Python ints."""
    return isinstance(value, _INTS if numpy else int) and not isinstance(value, bool)


def is_number(value: Any, *, numpy: bool = True) -> bool:
    """Whether ``value`` is an int or a float and not a bool: Python's, or with ``numpy`` (the
    default) numpy's too. Infinity and NaN are numbers here; a range check refuses them."""
    return isinstance(value, _NUMBERS if numpy else (int, float)) and not isinstance(value, bool)
