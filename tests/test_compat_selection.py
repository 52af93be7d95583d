"""The compat stage's selection (tests/conftest.py): tests that import Gymnasium, PettingZoo,
SB3 or Ray (at their module's top, or in their own function, class or fixture) are marked
``env_layer`` and run again in scripts/test_compat.sh; the rest is not."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tests.conftest import layer_imports, reaches_layer

TESTS = Path(__file__).resolve().parent


def test_env_layer_tests_are_marked():
    assert layer_imports(TESTS / "test_rllib.py")[0]
    for name, test in [
        ("maya2012/test_env.py", "test_pettingzoo_api_and_seed_tests_with_truncation"),
        ("test_conformance.py", "test_gymnasium_and_sb3_check_env_on_the_single_agent_view"),
    ]:
        assert test in layer_imports(TESTS / name)[1], (name, test)


def test_engine_modules_are_left_out():
    for name in ("yaxha/test_scoring.py", "maya2012/test_rules_properties.py", "maya_quarry/test_playouts.py"):
        assert layer_imports(TESTS / name) == (False, frozenset()), name
    whole, names = layer_imports(TESTS / "bots" / "test_mcts.py")  # imports gymnasium for one test
    assert not whole and 0 < len(names) < 5, names


def test_local_imports_mark_only_their_function(tmp_path):
    module = tmp_path / "test_sample.py"
    module.write_text(
        "import numpy as np\n"
        "from maya_envs.yaxha.rules import YaxhaRules\n"
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
