"""Packaging: shipped configs by name, package data read from the package, the package list.

The wheel itself is built and exercised from a fresh venv by ``scripts/test_wheel.sh``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from maya_envs.core.errors import ConfigError
from maya_envs.maya_quarry.rules.config import DEFAULT_COMPONENTS_PATH, load_components
from training import config_names as names_module
from training.config import load_config
from training.config_names import CONFIGS_DIR, config_names, resolve_config

ROOT = Path(__file__).resolve().parent.parent


def test_the_shipped_configs_are_the_repository_configs_directory():
    assert CONFIGS_DIR == ROOT / "configs"
    names = config_names()
    assert names == sorted(
        p.relative_to(ROOT / "configs").with_suffix("").as_posix() for p in CONFIGS_DIR.rglob("*.yaml")
    )
    for name in (
        "maya2012/2p_quick",
        "maya2012/2p_long",
        "maya_quarry/4p_basic_quick",
        "yaxha/2p_quick",
        "rllib/yaxha_2p",
    ):
        assert name in names
    assert config_names("rllib") == ["rllib/maya2012_2p", "rllib/maya_quarry_3p", "rllib/yaxha_2p"]
    assert not any(name.startswith("maya2012_maskable_ppo") for name in names)  # renamed to maya2012/2p_*


@pytest.mark.parametrize(
    "spec", ["maya2012/2p_quick", "maya2012/2p_quick.yaml", "configs/maya2012/2p_quick.yaml", Path("maya2012/2p_quick")]
)
def test_a_name_resolves_to_the_shipped_file_from_any_directory(spec, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no configs/ here: the repository path only works as a name
    assert resolve_config(spec) == CONFIGS_DIR / "maya2012" / "2p_quick.yaml"
    config = load_config(spec, ["total_timesteps=512"])
    assert config.env_id == "maya_envs/Maya2012-v1" and config.total_timesteps == 512


def test_an_existing_file_wins_over_a_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    own = tmp_path / "maya2012" / "2p_quick"  # a file whose path equals a shipped name
    own.parent.mkdir()
    own.write_text("env_id: maya_envs/Yaxha-v1\nexp_name: mine\n")
    assert resolve_config("maya2012/2p_quick") == Path("maya2012/2p_quick")
    assert load_config("maya2012/2p_quick").exp_name == "mine"
    assert load_config(own).env_id == "maya_envs/Yaxha-v1"


@pytest.mark.parametrize("spec", ["maya2012/quick", "nope.yaml", "configs/yaxha/9p_quick.yaml", ""])
def test_an_unknown_name_is_a_config_error_listing_the_names(spec, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="neither a file nor a shipped config name") as error:
        load_config(spec)
    assert repr(spec) in str(error.value)
    for name in config_names():
        assert repr(name) in str(error.value)


def test_every_entry_point_resolves_names_through_the_one_function(tmp_path, monkeypatch, capsys):
    from training.rllib_train import load_rllib_config
    from training.train import main as train_main

    monkeypatch.chdir(tmp_path)
    assert load_rllib_config("rllib/maya2012_2p").game == "maya2012"
    with pytest.raises(ConfigError, match="shipped names"):
        load_rllib_config("rllib/unknown")
    assert train_main(["--list-configs"]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if line and " " not in line]
    assert sorted(listed) == config_names()  # maya-train's names, then the RLlib ones under their command
    assert "maya2012/2p_quick" in listed


def test_without_the_installed_package_the_checkout_configs_are_used(monkeypatch):
    monkeypatch.setitem(sys.modules, "training.configs", None)  # import raises ModuleNotFoundError
    assert names_module._configs_dir() == ROOT / "configs"


def test_the_quarry_component_table_is_package_data():
    path = Path(str(DEFAULT_COMPONENTS_PATH))
    assert path == ROOT / "maya_envs" / "maya_quarry" / "data" / "components.json"
    assert json.loads(DEFAULT_COMPONENTS_PATH.read_text(encoding="utf-8"))["canonical"] is False
    for n in (3, 4, 5):
        table = load_components(None, n)
        assert table.source == str(path) and not table.canonical
    assert not (ROOT / "configs" / "maya_quarry" / "components.json").exists()


def test_the_package_list_covers_every_package_directory():
    tomllib = pytest.importorskip("tomllib")
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    package_dir = setuptools["package-dir"]
    assert package_dir == {"training.configs": "configs"}
    found = {"training.configs"}
    for top in ("maya_envs", "training"):
        for init in (ROOT / top).rglob("*.py"):
            if "__pycache__" not in init.parts:
                found.add(".".join(init.parent.relative_to(ROOT).parts))
    assert listed == found, f"pyproject.toml [tool.setuptools] packages: add {found - listed}, drop {listed - found}"
    for package in listed:
        folder = ROOT / package_dir.get(package, package.replace(".", "/"))
        assert (folder / "__init__.py").is_file(), f"{package}: {folder}/__init__.py is missing"
    data = setuptools["package-data"]
    assert "py.typed" in data["maya_envs"] and "py.typed" in data["training"]
    assert (ROOT / "maya_envs" / "py.typed").is_file() and (ROOT / "training" / "py.typed").is_file()
    assert "*/*.yaml" in data["training.configs"] and "data/*.json" in data["maya_envs.maya_quarry"]
    assert {"*.json", "*.zip"} <= set(data["maya_envs.pretrained"])


def test_training_does_not_duplicate_the_version():
    import maya_envs
    import training

    assert not hasattr(training, "__version__")
    assert maya_envs.__version__ in (ROOT / "CHANGELOG.md").read_text()
