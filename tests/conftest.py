"""Suite-wide collection rule: the ``env_layer`` marker, which selects the compat stage.

``scripts/test_compat.sh`` runs the suite's tests again in a second venv whose only differences
are the versions of Gymnasium (1.2.2, pinned by Ray), PettingZoo, Stable-Baselines3 and Ray
RLlib itself. What those versions can change is code that calls them, so the stage runs the
tests that import one of them (:data:`LAYER_LIBRARIES`, or an adapter of :data:`LAYER_ADAPTERS`),
and every test marked ``rllib``: PettingZoo's ``api_test``/``seed_test``,
Gymnasium's ``gym.make``/``check_env``/spaces/vector API, SB3 and sb3-contrib, RLlib. A module
that imports one at its top gets the marker on every test; a module that imports one only
inside some test functions (or classes) gets it on those. Everything else (rules engines, bots,
search, records, the web app, rendering) ran once already in ``scripts/test.sh`` on the same
code and does not run again. The rule reads import statements, so a new test that imports
``gymnasium`` joins the compat stage with nothing to edit.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

LAYER_LIBRARIES = frozenset({"gymnasium", "pettingzoo", "stable_baselines3", "sb3_contrib", "ray"})
"""Top-level packages whose versions differ in the compat stage's venv (.venv-compat)."""
LAYER_ADAPTERS = ("training.rllib",)
"""The project's own modules that exist only to call one of them (``training.rllib_*``, which
import Ray inside their functions); importing one counts as importing the library."""


def _is_layer(module: str) -> bool:
    return module.split(".")[0] in LAYER_LIBRARIES or module.startswith(LAYER_ADAPTERS)


def _imports_layer(node: ast.AST) -> bool:
    for child in ast.walk(node):
        if isinstance(child, ast.Import):
            if any(_is_layer(alias.name) for alias in child.names):
                return True
        elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
            if _is_layer(child.module):
                return True
    return False


_LAYER: dict[Path, tuple[bool, frozenset[str]]] = {}


def layer_imports(path: Path) -> tuple[bool, frozenset[str]]:
    """``(whole_module, names)`` for a test module: whether a top-level statement (outside any
    function or class) imports a :data:`LAYER_LIBRARIES` package (or the module is one of
    RLlib's, ``test_rllib*.py``), and which top-level functions and classes import one inside them."""
    if path not in _LAYER:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scoped = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        whole = path.stem.startswith("test_rllib") or any(
            _imports_layer(node) for node in tree.body if not isinstance(node, scoped)
        )  # RLlib's own modules run whole (a test there checks the message when Ray cannot be imported)
        names = frozenset(node.name for node in tree.body if isinstance(node, scoped) and _imports_layer(node))
        _LAYER[path] = (whole, names)
    return _LAYER[path]


def reaches_layer(item: pytest.Item) -> bool:
    """True when the test's module imports a layer library at its top, or the test's own
    function (or its class, or a fixture of the module it uses) does."""
    whole, names = layer_imports(Path(item.fspath))
    if whole:
        return True
    owner = item.cls.__name__ if getattr(item, "cls", None) is not None else getattr(item, "originalname", item.name)
    return owner in names or any(name in names for name in getattr(item, "fixturenames", ()))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if reaches_layer(item):
            item.add_marker(pytest.mark.env_layer)
