"""The compat stage's selection (tests/conftest.py): env-layer modules stay in, pure engine
modules are marked ``engine`` and left out of scripts/test_compat.sh."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import module_reaches_api

TESTS = Path(__file__).resolve().parent


def test_env_layer_modules_reach_the_api():
    for name in ("maya2012/test_env.py", "maya_quarry/test_single_agent.py", "yaxha/test_env.py", "test_rllib.py"):
        assert module_reaches_api(TESTS / name), name


def test_pure_engine_modules_are_marked(tmp_path):
    assert not module_reaches_api(TESTS / "yaxha" / "test_scoring.py")
    module = tmp_path / "test_sample.py"
    module.write_text("from maya_envs.yaxha.rules import YaxhaRules\n")
    assert not module_reaches_api(module)
    (tmp_path / "test_gym.py").write_text("import gymnasium as gym\n")
    assert module_reaches_api(tmp_path / "test_gym.py")
    (tmp_path / "test_other.py").write_text("env = maya2012_v1.env()\n")
    assert module_reaches_api(tmp_path / "test_other.py")
