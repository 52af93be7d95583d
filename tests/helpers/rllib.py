"""The skip marker of the tests that need Ray RLlib (``tests/test_rllib*.py``)."""

from __future__ import annotations

import importlib.util
import os

import pytest

HAVE_RAY = importlib.util.find_spec("ray") is not None and importlib.util.find_spec("torch") is not None
REQUIRE_RAY = os.environ.get("MAYA_REQUIRE_RLLIB") == "1"
"""Set by ``scripts/test_compat.sh``: there a missing Ray fails the tests instead of skipping them."""
needs_ray = pytest.mark.skipif(
    not HAVE_RAY and not REQUIRE_RAY,
    reason="Ray RLlib is not in this venv; it has its own (ray pins gymnasium 1.2.2): "
    "bash scripts/test_compat.sh tests/test_rllib.py",
)
