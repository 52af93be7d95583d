"""YAML from a user is plain data (issue 44 item 3): an alias bomb, a few hundred bytes that
stand for half a million strings, is refused at its first anchor with a one-line message by
every reader of user YAML (maya-train --config and --set, the RLlib trainer, maya-arena
--option); the configs the project ships and writes hold no alias and load as before."""

from __future__ import annotations

import pytest
import yaml

from maya_envs.core.errors import ConfigError
from maya_envs.plain_yaml import load_yaml
from training.config import load_config
from training.config_names import config_names

LEVELS = "abcdef"


def alias_bomb(key: str) -> str:
    """``key: [[[...]]]`` with 9 ** 6 = 531,441 strings from 6 anchors (each level nine aliases
    of the one below): a config check that echoes the value printed 2.8 M characters."""
    inner = "&a [x, x, x, x, x, x, x, x, x]"
    for below, name in zip(LEVELS, LEVELS[1:], strict=False):
        inner = f"&{name} [{inner}, " + ", ".join([f"*{below}"] * 8) + "]"
    return f"{key}: {inner}\n"


def refused(call, *args) -> str:
    with pytest.raises(ConfigError) as caught:
        call(*args)
    message = str(caught.value)
    assert "anchors and aliases" in message and len(message) < 300, message[:400]
    return message


@pytest.mark.parametrize("key", ["seed", "exp_name", "eval_opponents", "game_options", "unknown_key"])
def test_an_alias_bomb_in_a_config_is_refused_in_a_line(tmp_path, key):
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb(key))
    assert "line 1" in refused(load_config, str(path))


def test_an_alias_in_an_override_is_refused():
    refused(load_config, None, ["seed=*a"])
    refused(load_config, None, ["game_options.x=&a [1]"])


def test_an_alias_bomb_is_refused_by_the_rllib_config_and_arena_options(tmp_path):
    from training.arena import _parse_options
    from training.rllib_train import load_rllib_config

    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb("num_iterations"))
    refused(load_rllib_config, str(path))
    refused(_parse_options, ["num_players=" + alias_bomb("x").split(": ", 1)[1]])


def test_plain_yaml_reads_what_safe_load_reads():
    text = "a: 1\nb: [x, 2.5, true, null]\nc: {d: 'e'}\n"
    assert load_yaml(text, "t") == yaml.safe_load(text)
    with pytest.raises(ConfigError, match="t is not valid YAML"):
        load_yaml("a: [1,", "t")


@pytest.mark.parametrize("name", [name for name in config_names() if not name.startswith("rllib/")])
def test_every_shipped_trainer_config_loads_and_is_written_back_without_aliases(name):
    written = yaml.safe_dump(load_config(name).to_dict(), sort_keys=False)  # as a run's config.yaml
    assert load_yaml(written, name) == yaml.safe_load(written)


@pytest.mark.parametrize(
    ("text", "key", "lines"),
    [
        ("total_timesteps: 1\nn_envs: 2\ntotal_timesteps: 2\n", "'total_timesteps'", (3, 1)),
        ("exit:\n  actors: 1\n  games: 4\n  actors: 2\n", "'actors'", (4, 2)),
        ("opponents: {random: 1, random: 2}\n", "'random'", (1, 1)),
        ("1: a\n1: b\n", "1", (2, 1)),
    ],
)
def test_a_key_written_twice_in_one_mapping_is_refused_naming_key_and_lines(text, key, lines):
    with pytest.raises(ConfigError) as caught:
        load_yaml(text, "config 'x.yaml'")
    line, first = lines
    assert str(caught.value) == (
        f"config 'x.yaml': line {line}: key {key} is written twice (first on line {first}); "
        "allowed: each key once in a mapping"
    )


def test_the_same_key_in_different_mappings_is_no_duplicate():
    text = "a: {x: 1}\nb: {x: 2}\nc: [{x: 1}, {x: 2}]\n"
    assert load_yaml(text, "t") == yaml.safe_load(text)


def test_a_duplicate_key_in_a_config_file_is_refused_by_the_trainer(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("total_timesteps: 1\ntotal_timesteps: 2\n")
    with pytest.raises(ConfigError, match="line 2: key 'total_timesteps' is written twice"):
        load_config(path)
