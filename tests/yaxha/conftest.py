"""Fixtures for the Yaxha tests (helpers live in ``helpers.py``)."""

from __future__ import annotations

import pytest

from maya_envs.yaxha.actions import Geometry


@pytest.fixture
def fixed_geometry() -> Geometry:
    return Geometry("fixed")


@pytest.fixture
def floating_geometry() -> Geometry:
    return Geometry("floating")
