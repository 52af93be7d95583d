"""Suite-wide collection rule: the ``engine`` marker.

A test module that never reaches the Gymnasium/PettingZoo layer (no env, wrapper, training,
RLlib, OpenSpiel or web code named in its source) tests only the pure rules engines, bots,
search and their data, which import neither library's version-dependent API. Such modules get
the ``engine`` marker, so ``scripts/test_compat.sh`` (the suite again on gymnasium 1.2.2 with
Ray) can leave them out: they ran once already in ``scripts/test.sh``, on the same code.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

# What puts a module on the API side: any mention of the env layer or of a library whose
# version the compat stage changes.
API_SOURCE = re.compile(
    r"gymnasium|\bgym\b|pettingzoo|make_aec_env|_v1\b|parallel_env|raw_env|\.env\(|Env\b|wrappers|"
    r"training|rllib|\bray\b|stable_baselines3|sb3|openspiel|pyspiel|maya_envs\.web|opponents"
)

_SOURCE_IS_API: dict[Path, bool] = {}


def module_reaches_api(path: Path) -> bool:
    """True when the test module's source names the env layer (see :data:`API_SOURCE`)."""
    if path not in _SOURCE_IS_API:
        _SOURCE_IS_API[path] = bool(API_SOURCE.search(path.read_text(encoding="utf-8")))
    return _SOURCE_IS_API[path]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if not module_reaches_api(Path(item.fspath)):
            item.add_marker(pytest.mark.engine)
