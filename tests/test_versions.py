"""Env versions: every old name fails with a message naming the new one (README "Versions").

PettingZoo module names come from the one table :data:`maya_envs.RENAMED_ENVS`; Gymnasium ids
from the registry (an id ``-vN`` with N > 0 makes ``-v(N-1)`` deprecated, which Gymnasium reports).
"""

import importlib
import re
import subprocess
import sys

import gymnasium as gym
import pytest

import maya_envs
from maya_envs import RENAMED_ENVS, RenamedEnvError
from maya_envs.games import renamed_to
from maya_envs.records import game_name
from maya_envs.registration import ENV_IDS, PETTINGZOO_IDS, RenamedEnvIdError


@pytest.mark.parametrize(
    ("module", "env_class", "gym_id"),
    [("maya2012_v1", "Maya2012Env", "Maya2012-v1"), ("maya_quarry_v1", "MayaQuarryEnv", "MayaQuarry-v1")],
)
def test_the_bumped_envs_are_v1_everywhere(module, env_class, gym_id):
    new = importlib.import_module(f"maya_envs.{module}")
    spec = new.raw_env(num_players=3).rules.spec
    assert (spec.name, spec.version) == (module, 1)
    assert getattr(new, env_class).metadata["name"] == module
    assert f"maya_envs/{gym_id}" in ENV_IDS and f"maya_envs/{gym_id[:-1]}0" not in ENV_IDS
    assert RENAMED_ENVS[module[:-1] + "0"][0] == module


@pytest.mark.parametrize("old", sorted(RENAMED_ENVS))
def test_old_module_names_fail_naming_the_new_one(old):
    new = renamed_to(old)[0]  # the current module, also for a row written before a later bump
    importlib.import_module(f"maya_envs.{new}")  # the new name imports
    message = rf"maya_envs\.{old} was renamed maya_envs\.{new} .*from maya_envs import {new}"
    with pytest.raises(RenamedEnvError, match=message):
        exec(f"from maya_envs import {old}", {})
    with pytest.raises(RenamedEnvError, match=message):
        importlib.import_module(f"maya_envs.{old}")
    with pytest.raises(ValueError, match=rf"unknown game '{old}' \(renamed '{new}'"):
        game_name(old)
    assert not hasattr(maya_envs, "no_such_env_v0")  # other names stay plain AttributeErrors


def test_a_plain_import_of_an_old_module_fails_the_same_way():
    """``import maya_envs.maya2012_v0`` in a fresh interpreter (the finder is installed on import)."""
    old = next(iter(RENAMED_ENVS))
    run = subprocess.run([sys.executable, "-c", f"import maya_envs.{old}"], capture_output=True, text=True)
    assert run.returncode == 1 and f"RenamedEnvError: maya_envs.{old} was renamed" in run.stderr


@pytest.mark.parametrize("env_id", [i for i in ENV_IDS if not i.endswith("-v0")])
def test_the_previous_gymnasium_id_names_the_new_one_and_what_changed(env_id):
    """The project's own error (a DeprecatedEnv), not Gymnasium's generic line."""
    name, version = re.fullmatch(r"(.+)-v(\d+)", env_id).groups()
    old = f"{name}-v{int(version) - 1}"
    change = RENAMED_ENVS[f"{ENV_IDS[env_id]}_v{int(version) - 1}"][1]
    with (
        pytest.raises(RenamedEnvIdError, match=rf"{old} was renamed {env_id} \(what changed: {re.escape(change)};"),
        pytest.warns(DeprecationWarning, match="out of date"),
    ):
        gym.make(old)
    assert issubclass(RenamedEnvIdError, gym.error.DeprecatedEnv)


@pytest.mark.parametrize("kind_and_id", [k for k in PETTINGZOO_IDS])
def test_the_previous_pettingzoo_id_names_the_new_one(kind_and_id):
    pettingzoo = pytest.importorskip("pettingzoo")
    if not hasattr(pettingzoo, "register"):
        pytest.skip(f"PettingZoo {pettingzoo.__version__} has no registry")
    kind, env_id = kind_and_id
    name, version = re.fullmatch(r"(.+)-v(\d+)", env_id).groups()
    old = f"{name}-v{int(version) - 1}"
    with pytest.raises(RenamedEnvIdError, match=rf"{old} was renamed {env_id} .*use pettingzoo.make"):
        pettingzoo.make(kind, old)


def test_a_renamed_name_names_the_current_env_after_later_bumps(monkeypatch):
    """After a second bump the rows of the first still name the current env (not the one just
    renamed), and every older id is refused naming it."""
    import maya_envs.games as games
    from maya_envs import registration

    key = next(iter(games.GAMES))
    chain = {f"{key}_v0": (f"{key}_v1", "first change"), f"{key}_v1": (f"{key}_v2", "second change")}
    monkeypatch.setattr(games, "RENAMED_ENVS", chain)
    monkeypatch.setattr(registration, "RENAMED_ENVS", chain)
    assert games.renamed_to(f"{key}_v0") == (f"{key}_v2", "first change")
    assert games.renamed_to(f"{key}_v1") == (f"{key}_v2", "second change")
    assert f"renamed '{key}_v2': first change" in games.renamed_note(f"{key}_v0")
    gym_name = games.GAMES[key].gym_name
    ids = registration._renamed_ids()
    for old in (0, 1):
        assert ids[f"maya_envs/{gym_name}-v{old}"][0] == f"maya_envs/{gym_name}-v2"
        assert ids[f"maya_envs/{key}-v{old}"][0] == f"maya_envs/{key}-v2"
    looped = {f"{key}_v0": (f"{key}_v1", "a"), f"{key}_v1": (f"{key}_v0", "b")}
    monkeypatch.setattr(games, "RENAMED_ENVS", looped)
    assert games.renamed_to(f"{key}_v0")[0] in {f"{key}_v0", f"{key}_v1"}  # a loop in the table ends
