"""Packaging: shipped configs by name, package data read from the package, the package list.

The wheel itself is built and exercised from a fresh venv by ``scripts/test_wheel.sh``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from maya_envs.core.errors import ConfigError
from maya_envs.games import DEFAULT_GAME, GAMES
from maya_envs.pretrained import list_pretrained, pretrained_info
from training import config_names as names_module
from training.config import load_config
from training.config_names import CONFIGS_DIR, config_names, resolve_config

ROOT = Path(__file__).resolve().parent.parent
QUICK = f"{DEFAULT_GAME.key}/2p_quick"  # the README's first training command
OTHER = next(game for game in GAMES.values() if game is not DEFAULT_GAME)


def test_the_shipped_configs_are_the_repository_configs_directory():
    assert CONFIGS_DIR == ROOT / "configs"
    names = config_names()
    assert names == sorted(
        p.relative_to(ROOT / "configs").with_suffix("").as_posix() for p in CONFIGS_DIR.rglob("*.yaml")
    )
    assert QUICK in names
    for name in list_pretrained():  # every shipped baseline's training config ships
        assert pretrained_info(name).config in names, name
    for game in GAMES.values():  # a quick config per game, and an RLlib one at its smallest count
        assert any(name.endswith("_quick") for name in config_names(game.key)), game.key
    rllib = sorted(f"rllib/{game.key}_{game.player_counts[0]}p" for game in GAMES.values())
    assert config_names("rllib") == rllib
    old = f"{DEFAULT_GAME.key}_maskable_ppo"
    assert not any(name.startswith(old) for name in names)  # renamed to <key>/2p_*


@pytest.mark.parametrize("spec", [QUICK, f"{QUICK}.yaml", f"configs/{QUICK}.yaml", Path(QUICK)])
def test_a_name_resolves_to_the_shipped_file_from_any_directory(spec, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no configs/ here: the repository path only works as a name
    assert resolve_config(spec) == CONFIGS_DIR / f"{QUICK}.yaml"
    config = load_config(spec, ["total_timesteps=512"])
    assert config.env_id == DEFAULT_GAME.gym_id and config.total_timesteps == 512


def test_an_existing_file_wins_over_a_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    own = tmp_path / QUICK  # a file whose path equals a shipped name
    own.parent.mkdir()
    own.write_text(f"env_id: {OTHER.gym_id}\nexp_name: mine\n")
    assert resolve_config(QUICK) == Path(QUICK)
    assert load_config(QUICK).exp_name == "mine"
    assert load_config(own).env_id == OTHER.gym_id


@pytest.mark.parametrize("spec", [f"{DEFAULT_GAME.key}/quick", "nope.yaml", f"configs/{OTHER.key}/9p_quick.yaml", ""])
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
    rllib = f"rllib/{DEFAULT_GAME.key}_{DEFAULT_GAME.player_counts[0]}p"
    assert load_rllib_config(rllib).game == DEFAULT_GAME.key
    with pytest.raises(ConfigError, match="shipped names"):
        load_rllib_config("rllib/unknown")
    assert train_main(["--list-configs"]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if line and " " not in line]
    assert sorted(listed) == config_names()  # maya-train's names, then the RLlib ones under their command
    assert QUICK in listed


def test_without_the_installed_package_the_checkout_configs_are_used(monkeypatch):
    monkeypatch.setitem(sys.modules, "training.configs", None)  # import raises ModuleNotFoundError
    assert names_module._configs_dir() == ROOT / "configs"


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
    assert "*/*.yaml" in data["training.configs"]
    for game in GAMES.values():  # a game's data files (the quarry's component table) are package data
        if (ROOT / game.package.replace(".", "/") / "data").is_dir():
            assert "data/*.json" in data[game.package], game.package
    assert {"*.json", "*.zip"} <= set(data["maya_envs.pretrained"])


def test_training_does_not_duplicate_the_version():
    import maya_envs
    import training

    assert not hasattr(training, "__version__")
    assert maya_envs.__version__ in (ROOT / "CHANGELOG.md").read_text()
