"""The compat stage's selection (tests/conftest.py): tests that import Gymnasium, PettingZoo,
SB3 or Ray (at their module's top, or in their own function, class or fixture) are marked
``env_layer`` and run again in scripts/test_compat.sh; the rest is not."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from maya_envs.games import DEFAULT_GAME, GAMES
from tests.conftest import layer_imports, reaches_layer

TESTS = Path(__file__).resolve().parent

#: PettingZoo's checks, which every game's ``tests/<key>/test_env.py`` runs on its env
PETTINGZOO_CHECKS = {"api_test", "seed_test", "parallel_api_test"}


def _functions_calling(path: Path, names: set[str]) -> set[str]:
    """The top-level functions of ``path`` that call one of ``names``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names for n in ast.walk(node))
    }


def test_env_layer_tests_are_marked():
    assert layer_imports(TESTS / "test_rllib.py")[0]
    test = "test_gymnasium_and_sb3_check_env_on_the_single_agent_view"
    assert test in layer_imports(TESTS / "test_conformance.py")[1]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_games_pettingzoo_checks_are_marked(key):
    """The tests of ``tests/<key>/test_env.py`` that run PettingZoo's ``api_test``/``seed_test``
    import PettingZoo at the module's top: each is marked, the rules tests beside them are not."""
    whole, names = layer_imports(TESTS / key / "test_env.py")
    checks = _functions_calling(TESTS / key / "test_env.py", PETTINGZOO_CHECKS)
    assert not whole and checks and checks <= names, (key, checks, names)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_engine_modules_are_left_out(key):
    """Every game's chance and saved-state tests use its rules engine only."""
    for name in ("test_chance.py", "test_saved_states.py"):
        assert layer_imports(TESTS / key / name) == (False, frozenset()), (key, name)


def test_a_module_with_one_env_layer_test_marks_that_test_only():
    whole, names = layer_imports(TESTS / "bots" / "test_mcts.py")  # imports gymnasium for one test
    assert not whole and 0 < len(names) < 5, names


def test_local_imports_mark_only_their_function(tmp_path):
    rules_module, rules_class = DEFAULT_GAME.hooks["rules"].split(":")  # a rules engine's import
    module = tmp_path / "test_sample.py"
    module.write_text(
        "import numpy as np\n"
        f"from {rules_module} import {rules_class}\n"
        "def test_rules():\n    pass\n"
        "def test_gym():\n    import gymnasium as gym\n"
        "class TestSpaces:\n    def test_box(self):\n        from gymnasium.spaces import Box\n"
        "def fixture_env():\n    from pettingzoo.test import api_test\n"
        "def test_text():\n    text = 'import gymnasium'\n"
    )
    assert layer_imports(module) == (False, frozenset({"test_gym", "TestSpaces", "fixture_env"}))
    (tmp_path / "test_top.py").write_text(
        "import gymnasium as gym\nfrom stable_baselines3 import PPO\n"
        "def make():\n    return gym.make('x')\n"
        "def test_uses_helper():\n    make()\n"
        "def test_ppo():\n    PPO\n"
        "def test_engine():\n    pass\n"
    )
    assert layer_imports(tmp_path / "test_top.py") == (False, frozenset({"make", "test_uses_helper", "test_ppo"}))
    (tmp_path / "test_params.py").write_text("import gymnasium\nIDS = list(gymnasium.registry)\n")
    assert layer_imports(tmp_path / "test_params.py")[0]
    (tmp_path / "test_guarded.py").write_text("try:\n    import ray\nexcept ImportError:\n    ray = None\n")
    assert layer_imports(tmp_path / "test_guarded.py")[0]


def test_items_get_the_marker_by_module_function_class_or_fixture(tmp_path):
    module = tmp_path / "test_sample.py"
    module.write_text(
        "def test_rules():\n    pass\n"
        "def test_gym():\n    import gymnasium\n"
        "class TestSpaces:\n    def test_box(self):\n        import gymnasium\n"
        "def made_env():\n    import pettingzoo\n"
    )

    def item(name, cls=None, fixtures=()):
        return SimpleNamespace(fspath=str(module), cls=cls, originalname=name, name=f"{name}[2]", fixturenames=fixtures)

    assert not reaches_layer(item("test_rules"))
    assert reaches_layer(item("test_gym"))
    assert reaches_layer(item("test_box", cls=type("TestSpaces", (), {})))
    assert reaches_layer(item("test_rules", fixtures=("tmp_path", "made_env")))


def test_session_finish_runs_pending_finalizers():
    """tests/conftest.py's pytest_sessionfinish collects reference cycles (their finalizers run
    before an xdist worker reports it is finished; see its docstring)."""
    import gc
    import weakref

    from tests.conftest import pytest_sessionfinish

    class Cycle:
        pass

    finalized = []
    enabled = gc.isenabled()
    gc.disable()  # no automatic collection between here and the hook
    try:
        cycle = Cycle()
        cycle.self = cycle
        weakref.finalize(cycle, finalized.append, "done")
        del cycle
        assert finalized == []
        pytest_sessionfinish(SimpleNamespace(), 0)
    finally:
        if enabled:
            gc.enable()
    assert finalized == ["done"]
