"""Suite-wide collection rule: the ``env_layer`` marker, which selects the compat stage.

``scripts/test_compat.sh`` runs the suite's tests again in a second venv whose only differences
are the versions of Gymnasium (1.2.2, pinned by Ray), PettingZoo, Stable-Baselines3 and Ray
RLlib itself. What those versions can change is code that calls them, so the stage runs the
tests that use one of them (:data:`LAYER_LIBRARIES`, or an adapter of :data:`LAYER_ADAPTERS`):
PettingZoo's ``api_test``/``seed_test``, Gymnasium's ``gym.make``/``check_env``/spaces/vector
API, SB3 and sb3-contrib, RLlib. A test gets the marker when its own code (its function, class,
or a fixture or helper of its module that it uses) imports one, or uses a name the module
imports from one; all of a module's tests get it when a module-level statement does (a
parametrize list, a constant) and in RLlib's own modules. Everything else (rules engines, bots,
search, records, the web app, rendering) ran once already in ``scripts/test.sh`` on the same
code and does not run again. The rule reads the source, so a new test that calls ``gym.make``
joins the compat stage with nothing to edit.
"""

from __future__ import annotations

import ast
import gc
from pathlib import Path

import pytest

from tests.report_failures import pytest_configure  # noqa: F401  (names each failing test as it fails)

LAYER_LIBRARIES = frozenset({"gymnasium", "pettingzoo", "stable_baselines3", "sb3_contrib", "ray"})
"""Top-level packages whose versions differ in the compat stage's venv (.venv-compat)."""
LAYER_ADAPTERS = ("training.rllib",)
"""The project's own modules that exist only to call one of them (``training.rllib_*``, which
import Ray inside their functions); importing one counts as importing the library."""


def _is_layer(module: str) -> bool:
    return module.split(".")[0] in LAYER_LIBRARIES or module.startswith(LAYER_ADAPTERS)


def _layer_names(node: ast.AST) -> set[str]:
    """The names that ``import`` statements inside ``node`` bind to a layer library (empty
    set: none; ``{"*"}`` for an import that binds nothing nameable, e.g. ``import ray.rllib``
    counts as ``ray``)."""
    names = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Import):
            names.update((a.asname or a.name.split(".")[0]) for a in child.names if _is_layer(a.name))
        elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module and _is_layer(child.module):
            names.update(a.asname or a.name for a in child.names)
    return names


def _refers(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(child, ast.Name) and child.id in names for child in ast.walk(node))


_LAYER: dict[Path, tuple[bool, frozenset[str]]] = {}


def layer_imports(path: Path) -> tuple[bool, frozenset[str]]:
    """``(whole_module, names)`` for a test module. ``names``: the top-level functions and
    classes (tests, fixtures, helpers) that import a :data:`LAYER_LIBRARIES` package inside
    them, or use a name the module's top imports from one, or use such a function. ``whole``:
    a top-level statement other than a function or class (a parametrize list, a module
    constant) uses one, or the module is one of RLlib's (``test_rllib*.py``, where a test checks
    the message when Ray cannot be imported)."""
    if path not in _LAYER:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scoped = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        defs = [node for node in tree.body if isinstance(node, scoped)]
        top = [node for node in tree.body if not isinstance(node, scoped)]
        imported = set().union(*(_layer_names(node) for node in top))
        statements = [node for node in top if not isinstance(node, (ast.Import, ast.ImportFrom))]
        whole = path.stem.startswith("test_rllib") or any(_refers(node, imported) for node in statements)
        marked = {node.name for node in defs if _layer_names(node) or _refers(node, imported)}
        while True:  # helpers and fixtures of the module that use marked ones
            more = {node.name for node in defs if node.name not in marked and _refers(node, marked)}
            if not more:
                break
            marked |= more
        _LAYER[path] = (whole, frozenset(marked))
    return _LAYER[path]


def reaches_layer(item: pytest.Item) -> bool:
    """True when the test's own function (or its class, or a fixture of the module it uses)
    is one of :func:`layer_imports`'s names, or its whole module is."""
    whole, names = layer_imports(Path(item.fspath))
    if whole:
        return True
    owner = item.cls.__name__ if getattr(item, "cls", None) is not None else getattr(item, "originalname", item.name)
    return owner in names or any(name in names for name in getattr(item, "fixturenames", ()))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if reaches_layer(item):
            item.add_marker(pytest.mark.env_layer)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Collect garbage before an xdist worker reports that it is finished.

    After the controller hears ``workerfinished`` it terminates the worker's gateway, and
    execnet sends the worker a SIGINT when it is still running 5 s later
    (``execnet.gateway_base.WorkerGateway._terminate_execution``). The step of pytest's that runs
    then and can take seconds is its last garbage collection (``pytest_unconfigure`` of the
    unraisable-exception plugin): the finalizers of a whole run's objects, slow on a loaded
    machine. A KeyboardInterrupt that lands inside a finalizer is "ignored" by Python and comes
    out as ``PytestUnraisableExceptionWarning ... KeyboardInterrupt`` at the end of the log, as
    the CI log of issue 30 ended. Collected here, those finalizers run while the controller
    still waits without a limit, and an error in one is reported as itself.
    """
    gc.collect()
