"""The compat stage's selection (tests/conftest.py): tests that import Gymnasium, PettingZoo,
SB3 or Ray (at their module's top, or in their own function, class or fixture) are marked
``env_layer`` and run again in scripts/test_compat.sh; the rest is not."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tests.conftest import layer_imports, reaches_layer

TESTS = Path(__file__).resolve().parent


def test_env_layer_modules_are_whole():
    for name in ("maya2012/test_env.py", "maya_quarry/test_single_agent.py", "yaxha/test_env.py", "test_rllib.py"):
        assert layer_imports(TESTS / name)[0], name


def test_engine_modules_are_left_out():
    for name in ("yaxha/test_scoring.py", "maya2012/test_rules_properties.py", "maya_quarry/test_playouts.py"):
        assert layer_imports(TESTS / name) == (False, frozenset()), name


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
    (tmp_path / "test_top.py").write_text("from stable_baselines3 import PPO\n")
    assert layer_imports(tmp_path / "test_top.py") == (True, frozenset())
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
