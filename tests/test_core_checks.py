"""The type predicates of maya_envs.core.checks (issue 48 item 4): an int or a number that is
not a bool, numpy's kinds counted unless the data came from JSON or YAML (``numpy=False``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from maya_envs.core.checks import is_int, is_number


@pytest.mark.parametrize("value", [0, -3, 2**70, np.int8(1), np.int64(-5), np.uint16(7)])
def test_ints_and_numpy_ints_are_ints(value):
    assert is_int(value) and is_number(value)


@pytest.mark.parametrize("value", [True, False, np.bool_(True), 1.0, np.float32(2), "3", None, [1], 1 + 0j])
def test_bools_floats_and_other_values_are_not_ints(value):
    assert not is_int(value) and not is_int(value, numpy=False)


@pytest.mark.parametrize("value", [0.5, -2.0, math.inf, math.nan, np.float64(0.25), np.float16(1)])
def test_floats_are_numbers(value):
    assert is_number(value) and not is_int(value)


@pytest.mark.parametrize("value", [True, False, np.bool_(False), "1.5", None, 1j, [0.5]])
def test_bools_and_other_values_are_not_numbers(value):
    assert not is_number(value) and not is_number(value, numpy=False)


@pytest.mark.parametrize("value", [np.int64(3), np.float32(0.5)])
def test_without_numpy_only_python_values_count(value):
    assert not is_number(value, numpy=False) and not is_int(value, numpy=False)
    assert is_int(3, numpy=False) and is_number(0.5, numpy=False) and is_number(3, numpy=False)
