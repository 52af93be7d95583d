"""The same question has the same signature in every game (issue 18 item 4) and every bad
option is a ConfigError naming the value and what is allowed (issue 17 item 10)."""

from __future__ import annotations

import dataclasses
import importlib
import math

import gymnasium as gym
import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.core.errors import ConfigError
from maya_envs.games import DEFAULT_GAME, GAMES

KEYS = sorted(GAMES)


def _player_counts(key):
    return [(key, n) for n in GAMES[key].player_counts]


@pytest.mark.parametrize(("key", "n"), [case for key in KEYS for case in _player_counts(key)])
def test_rules_env_and_gym_make_take_the_same_keywords(key, n):
    game = GAMES[key]
    rules_class = game.hook("rules")
    by_mapping = rules_class({"num_players": n})
    assert rules_class(num_players=n).config == by_mapping.config
    assert rules_class(by_mapping.config).config == by_mapping.config
    assert rules_class(None).config == rules_class().config
    env_keywords = {"render_mode": "ansi", "illegal_action": "raise", "render_observer": 0, "num_players": n}
    module = importlib.import_module(game.env_module)
    for make in (game.hook("env"), module.env, module.raw_env):
        env = make(**env_keywords)
        assert env.rules.config == by_mapping.config and env.render_observer == 0
        env.reset(seed=1)
        assert isinstance(env.render(), str)
    view = gym.make(game.gym_id, render_mode="ansi", illegal_action="raise", num_players=n, opponents="random")
    assert view.unwrapped.rules.config == by_mapping.config
    view.reset(seed=1)
    assert isinstance(view.render(), str)
    renderers = [importlib.import_module(f"maya_envs.{key}.{name}") for name in ("render", "render_image")]
    state = env.game_state
    for function in (renderers[0].render_text, renderers[1].render_image, renderers[1].render_svg):
        assert function(env.rules, state, 0) is not None  # (rules, state, observer) in every game


BAD_OPTIONS = [
    ({"num_players": 2.0}, r"num_players=2\.0 is not (allowed|supported); allowed"),
    ({"num_players": 3.0}, r"num_players=3\.0 is not (allowed|supported); allowed"),
    ({"num_players": "3"}, r"num_players='3' is not (allowed|supported); allowed"),
    ({"num_players": 9}, r"num_players=9 is not (allowed|supported); allowed"),
    ({"colour": 3}, r"\['colour'\]; known"),
    ({"reward_scheme": ["win_loss"]}, r"reward_scheme=\['win_loss'\].*allowed"),
]


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize(("options", "message"), BAD_OPTIONS)
def test_a_bad_option_is_a_config_error_naming_it_in_every_api(key, options, message):
    game = GAMES[key]
    rules_class = game.hook("rules")
    with pytest.raises(ConfigError, match=message):
        rules_class(options)
    with pytest.raises(ConfigError, match=message):
        rules_class(**options)
    with pytest.raises(ConfigError, match=message):
        game.make_aec_env(**options)
    with pytest.raises(ConfigError, match=message):
        gym.make(game.gym_id, **options)


@pytest.mark.parametrize("key", KEYS)
def test_a_bad_config_argument_or_env_argument_is_a_config_error(key):
    game = GAMES[key]
    rules_class = game.hook("rules")
    with pytest.raises(ConfigError, match=r"config=5 is not allowed; allowed: a \w+Config, a mapping"):
        rules_class(5)
    with pytest.raises(ConfigError, match="not both"):
        rules_class(rules_class().config, num_players=game.player_counts[0])
    with pytest.raises(ConfigError, match=r"given both in the mapping and as keywords"):
        rules_class({"num_players": game.player_counts[0]}, num_players=game.player_counts[0])
    with pytest.raises(ConfigError, match=r"option names \[1\] are not allowed"):
        rules_class({1: 2})
    with pytest.raises(ConfigError, match=r"render_mode='movie' is not supported; allowed"):
        game.make_aec_env(render_mode="movie")
    with pytest.raises(ConfigError, match=r"illegal_action='ignore'; allowed"):
        game.make_aec_env(illegal_action="ignore")
    with pytest.raises(ConfigError, match=r"learner_seat=2\.0 is not allowed"):
        gym.make(game.gym_id, learner_seat=2.0)
    for bad in (-1, math.inf, math.nan):
        with pytest.raises(ConfigError, match=rf"reward_shaping={bad!r}; allowed: a finite number >= 0"):
            gym.make(game.gym_id, reward_shaping=bad)
        with pytest.raises(ConfigError, match=r"opponents=\{'random': .*\}; allowed: finite weights >= 0"):
            gym.make(game.gym_id, opponents={"random": bad})


WRONG_VALUES = [2.5, "bogus", [], {}, True, -1, 10**9, None, ("a", 1)]


@pytest.mark.parametrize("key", KEYS)
def test_every_option_of_every_game_takes_a_wrong_value_as_a_config_error_or_accepts_it(key):
    """Whatever the value, the answer is a config or a ConfigError: never a TypeError,
    AttributeError or another exception from deeper inside."""
    rules_class = GAMES[key].hook("rules")
    config_class = type(rules_class().config)
    errors = 0
    for field in dataclasses.fields(config_class):
        for value in WRONG_VALUES:
            try:
                rules_class({field.name: value})
            except ConfigError as error:
                errors += 1
                assert field.name in str(error), str(error)
    assert errors >= len(dataclasses.fields(config_class)) * 4


@pytest.mark.parametrize("key", KEYS)
def test_every_numeric_option_of_every_game_refuses_infinity_and_nan(key):
    """YAML and JSON read ``.inf``/``Infinity`` and ``.nan``/``NaN`` as numbers: every option
    whose default is a number (a count, a reward scale) refuses them, naming the option."""
    rules_class = GAMES[key].hook("rules")
    config = rules_class().config
    numeric = [
        f.name
        for f in dataclasses.fields(config)
        if isinstance(getattr(config, f.name), (int, float)) and not isinstance(getattr(config, f.name), bool)
    ]
    assert numeric
    for name in numeric:
        for bad in (math.inf, -math.inf, math.nan):
            with pytest.raises(ConfigError, match=rf"{name}={bad!r} is not allowed; allowed"):
                rules_class({name: bad})


def test_self_play_pools_are_the_envs_opponents_built_once():
    from training.self_play import SnapshotPool, make_self_play_env

    env = make_self_play_env(DEFAULT_GAME.gym_id, {"random": 1.0}, num_players=3)
    assert len(env.pools) == 2 and all(isinstance(pool, SnapshotPool) for pool in env.pools)
    assert all(a is b for a, b in zip(env.pools, env.unwrapped.opponents, strict=True))
    from training.self_play import SelfPlayWrapper

    with pytest.raises(ValueError, match="opponents are SnapshotPools"):
        SelfPlayWrapper(gym.make(DEFAULT_GAME.gym_id))
