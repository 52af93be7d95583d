"""A config's ``env_id`` may leave the version out: ``maya_envs/<gym_name>`` resolves to the
game's current Gymnasium id (:func:`maya_envs.registration.resolve_env_id`), so a version bump
edits no shipped config; the current versioned id still works, and anything else is a
ConfigError naming the value and the allowed ids. Every game of the table is swept."""

from __future__ import annotations

import re
from pathlib import Path

import gymnasium as gym
import pytest
import yaml

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.core.errors import ConfigError
from maya_envs.games import GAMES, find_game
from maya_envs.registration import ENV_IDS, RENAMED_IDS, VERSIONLESS_IDS, resolve_env_id
from training.config import TrainConfig, load_config
from training.run_dirs import run_name

ROOT = Path(__file__).resolve().parent.parent
KEYS = sorted(GAMES)
ALLOWED = re.escape(repr(sorted([*VERSIONLESS_IDS, *ENV_IDS])))


@pytest.mark.parametrize("key", KEYS)
def test_the_versionless_and_the_current_id_resolve_to_the_current_one(key):
    game = GAMES[key]
    assert game.versionless_gym_id + f"-v{game.version}" == game.gym_id
    assert resolve_env_id(game.versionless_gym_id) == game.gym_id
    assert resolve_env_id(game.gym_id) == game.gym_id
    assert find_game(game.versionless_gym_id) is game


@pytest.mark.parametrize("key", KEYS)
def test_a_config_with_the_versionless_id_records_the_versioned_one(key):
    """The loaded config, the ``config.yaml`` a run writes and the run directory's name all say
    which version was trained (the names are those of the runs made with versioned configs)."""
    game = GAMES[key]
    for written in (game.versionless_gym_id, game.gym_id):
        config = load_config(None, [f"env_id={written}"])
        assert config.env_id == game.gym_id and config.to_dict()["env_id"] == game.gym_id
        assert run_name(config) == f"{game.gym_name}-v{game.version}__{config.exp_name}__{config.seed}"
    # a config built in code (not validated) gets the same run directory name
    assert run_name(TrainConfig(env_id=game.versionless_gym_id)) == run_name(TrainConfig(env_id=game.gym_id))


@pytest.mark.parametrize("key", KEYS)
def test_a_version_the_game_does_not_have_is_a_config_error_naming_it(key):
    game = GAMES[key]
    wrong = f"{game.versionless_gym_id}-v{game.version + 7}"
    message = (
        rf"env_id='{re.escape(wrong)}': {re.escape(game.versionless_gym_id)} has no version v{game.version + 7} "
        rf"\(current: '{re.escape(game.gym_id)}'\); allowed: {ALLOWED}"
    )
    with pytest.raises(ConfigError, match=message):
        resolve_env_id(wrong)
    with pytest.raises(ConfigError, match=message):
        load_config(None, [f"env_id={wrong}"])


@pytest.mark.parametrize("old", sorted(i for i in RENAMED_IDS if i.lower() != i))  # the Gymnasium ones
def test_the_old_id_of_a_renamed_env_is_a_config_error_naming_the_new_one(old):
    new, change = RENAMED_IDS[old]
    message = rf"env_id='{re.escape(old)}' was renamed '{re.escape(new)}' \(what changed: {re.escape(change)};"
    with pytest.raises(ConfigError, match=message):
        load_config(None, [f"env_id={old}"])


@pytest.mark.parametrize("value", ["maya_envs/NoSuchGame", "maya_envs/NoSuchGame-v1", "", 5, ["a list"]])
def test_an_unknown_id_is_a_config_error_listing_the_allowed_ones(value):
    with pytest.raises(ConfigError, match=rf"^env_id={re.escape(repr(value))}; allowed: {ALLOWED}$"):
        resolve_env_id(value)
    with pytest.raises(ConfigError, match=rf"^env_id={re.escape(repr(value))}; allowed: "):
        TrainConfig(env_id=value).validate()


def test_every_shipped_config_writes_a_versionless_id():
    """A version bump edits no shipped config: each ``env_id`` written is a versionless id."""
    written = {}
    for path in sorted((ROOT / "configs").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "env_id" in data:
            written[path.relative_to(ROOT).as_posix()] = data["env_id"]
    assert written, "no shipped config names an env_id"
    assert {path: env_id for path, env_id in written.items() if env_id not in VERSIONLESS_IDS} == {}


@pytest.mark.parametrize("key", KEYS)
def test_gymnasium_takes_the_latest_version_for_a_versionless_id_and_refuses_to_register_one(key):
    """What :attr:`maya_envs.games.Game.versionless_gym_id` says of Gymnasium: ``gym.make`` of
    the versionless id makes the highest registered version with a warning, and registering the
    versionless id beside the versioned one is refused (so the package registers none)."""
    game = GAMES[key]
    with pytest.warns(UserWarning, match=re.escape(f"Using the latest versioned environment `{game.gym_id}`")):
        env = gym.make(game.versionless_gym_id)
    assert env.spec.id == game.gym_id
    env.close()
    with pytest.raises(gym.error.RegistrationError, match="Can't register the unversioned environment"):
        gym.register(id=game.versionless_gym_id, entry_point=gym.spec(game.gym_id).entry_point)
    assert game.versionless_gym_id not in gym.registry
