"""Every field of a maya-train config given a value of the wrong type (a list, a list inside the
list, a mapping, null, a bool, a number, a huge string) is a ``ConfigError`` naming the key,
never Python's ``TypeError``/``KeyError``/``AttributeError`` (issue 44: ``eval_opponents: [[a]]``
gave "unhashable type: 'list'"). The fields come from the config dataclasses, so a new field is
covered with no test edited."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from maya_envs.core.errors import ConfigError
from training.config import PPO_ONLY_KEYS, SelfPlayConfig, TrainConfig, load_config
from training.exit.config import ExitConfig

WRONG_TYPES = [[["a"]], ["random", ["b"]], [{"a": 1}], {"a": [1]}, {"a": {"b": 1}}, {}, [], None, True, 1.5, -1,
               10**30, "x" * 5000]  # fmt: skip
"""Values of the wrong type for (almost) every field; the right-typed ones among them are
accepted or refused by value, as the field allows."""
NESTED = [[["a"]], {"a": 1}, None, True, -1, "x" * 5000]
"""Values put inside a field's list or mapping."""


def overrides(settings: dict) -> list[str]:
    """``--set`` items for ``settings`` (JSON is YAML's flow style)."""
    return [f"{key}={json.dumps(value)}" for key, value in settings.items()]


def refused_or_accepted(settings: dict) -> None:
    """Load ``settings`` over the defaults: a ``ConfigError`` naming a key of them, or a config."""
    try:
        load_config(None, overrides(settings))
    except ConfigError as error:
        named = {key.split(".")[-1] for key in settings} | {key.split(".")[0] for key in settings}
        assert any(name in str(error) for name in named), str(error)[:300]


def _ppo_keys() -> list[str]:
    return [f.name for f in fields(TrainConfig) if f.name != "exit"]


def _exit_keys() -> list[str]:
    return [f"exit.{f.name}" for f in fields(ExitConfig)] + [
        f.name for f in fields(TrainConfig) if f.name not in PPO_ONLY_KEYS and f.name not in ("exit", "algo")
    ]


@pytest.mark.parametrize("key", _ppo_keys() + [f"self_play.{f.name}" for f in fields(SelfPlayConfig)])
def test_a_wrong_type_in_a_ppo_config_is_a_config_error(key):
    for value in WRONG_TYPES:
        refused_or_accepted({key: value})


@pytest.mark.parametrize("key", _exit_keys())
def test_a_wrong_type_in_an_exit_config_is_a_config_error(key):
    for value in WRONG_TYPES:
        refused_or_accepted({"algo": "exit", key: value})


@pytest.mark.parametrize(
    ("algo", "key", "wrap"),
    [
        ("ppo", "eval_opponents", lambda v: ["random", v]),
        ("exit", "eval_opponents", lambda v: [v]),
        ("ppo", "opponents", lambda v: {"random": 1, "heuristic": v}),
        ("ppo", "net_arch", lambda v: [64, v]),
        ("exit", "exit.gate_opponents", lambda v: [v]),
        ("exit", "exit.eval_search_opponents", lambda v: ["random", v]),
        ("exit", "exit.opponents", lambda v: {"self": v}),
        ("exit", "exit.playout_cap", lambda v: {"p": 0.5, "small": v}),
        ("exit", "exit.search", lambda v: {"selection": v}),
    ],
)
def test_a_wrong_type_inside_a_list_or_mapping_is_a_config_error(algo, key, wrap):
    for value in NESTED:
        refused_or_accepted({"algo": algo, key: wrap(value)})


@pytest.mark.parametrize(
    "items",
    [
        ["1: 1", "zzz: 2"],
        ["self_play={1: 1, a: 2, null: 3}"],
        ["algo=exit", "exit.search={1: 1, a: 2}"],
        ["algo=exit", "exit.opponents={1: 1, a: 2}"],
        ["algo=exit", "exit.playout_cap={1: 1, a: 2}"],
    ],
)
def test_keys_of_mixed_types_are_named_not_sorted(items, tmp_path):
    """YAML keys may be ints, null and strings in one mapping; the unknown ones are named."""
    path = None
    if "=" not in items[0]:  # top-level keys: a config file
        path = tmp_path / "mixed.yaml"
        path.write_text("\n".join(items) + "\n")
        items = []
    with pytest.raises(ConfigError, match="unknown"):
        load_config(path, items)


def test_the_reported_list_in_a_list():
    with pytest.raises(ConfigError, match=r"eval_opponents\[0\]=\['a'\]; allowed: a bot name"):
        load_config(None, ["eval_opponents=[[a]]"])
