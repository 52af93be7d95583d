"""Every shipped per-game config loads, builds its game, and fits the quick budget; the
``self_play`` block and the learning-curve keys are validated."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import gymnasium as gym
import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.bot_kinds import BOT_KINDS
from maya_envs.core.errors import ConfigError
from maya_envs.games import DEFAULT_GAME, GAMES
from tests.conformance import CONFIGS, shipped_config
from training.config import SelfPlayConfig, load_config

TRAINING_KINDS = ", ".join(repr(kind.syntax) for kind in BOT_KINDS.values() if kind.training_opponent)
"""The bot kinds a PPO run may train against, as its config error lists them (table order)."""

ROOT = Path(__file__).resolve().parent.parent
GAME_CONFIGS = sorted(CONFIGS.glob("*/*.yaml"))
QUICK = shipped_config(DEFAULT_GAME, "quick")  # the default game's smallest quick config
EXIT = shipped_config(DEFAULT_GAME, "exit")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_and_player_count_has_a_quick_config(key):
    """``<n>p_quick`` for every player count, or ``<n>p_<variant>_quick`` for every variant."""
    game = GAMES[key]
    names = {p.stem for p in (CONFIGS / key).glob("*.yaml")}
    for n in game.player_counts:
        per_variant = {f"{n}p_{value}_quick" for value in game.hook("variants")}
        assert f"{n}p_quick" in names or per_variant <= names, (key, n)


@pytest.mark.parametrize(
    "path", [p for p in GAME_CONFIGS if p.parent.name in GAMES], ids=lambda p: p.parent.name + "/" + p.stem
)
def test_config_loads_and_builds_its_game(path):
    config = load_config(path)
    game = GAMES[path.parent.name]
    assert config.env_id == game.gym_id
    players = int(path.stem.split("p_")[0])
    assert config.game_options["num_players"] == players
    named = [value for value in game.hook("variants") if path.stem.split("_")[1] == value]
    if named:  # <n>p_<variant>_<kind>
        assert config.game_options[game.variant_option] == named[0]
    env = gym.make(config.env_id, opponent=dict(config.opponents), **config.game_options)
    assert env.unwrapped.rules.spec.num_players == players
    env.close()
    if path.stem.endswith("_quick"):
        # <= 10 minutes on 2 cores; Yaxha 2p (the fastest env) measured 300k steps in ~8.5 min on busy cores
        assert config.total_timesteps <= 300_000 and config.eval_games >= 400
    words = sorted((word for g in GAMES.values() for word in (g.key, *g.aliases)), key=len, reverse=True)
    rest = config.exp_name
    for word in words:  # the exp_name says more than the game's name
        rest = rest.replace(word, "")
    assert rest.strip("_")


def test_self_play_block_and_dotted_overrides():
    base = QUICK
    config = load_config(base, ["self_play.enabled=true", "self_play.snapshot_every=5000", "eval_every=10000"])
    assert config.self_play == SelfPlayConfig(enabled=True, snapshot_every=5000)
    assert config.eval_every == 10_000 and config.to_dict()["self_play"]["pool_size"] == 5
    config = load_config(base, ["self_play={enabled: true, pool_size: 2, snapshot_weight: 0.5}"])
    assert config.self_play.pool_size == 2 and config.self_play.snapshot_weight == 0.5


def _bad_overrides(config: str, cases: list[tuple[list[str], str]]) -> list:
    return [pytest.param(config, overrides, message, id=f"{config}:{overrides[0]}") for overrides, message in cases]


# every bad value of a maya-train config is a ConfigError naming the key, the value and what is allowed
BAD_OVERRIDES = [
    # the self-play block, the evaluation curve and the PPO settings
    *_bad_overrides(QUICK, [
        (["self_play={enabled: true, every: 5}"], r"unknown self_play key\(s\) \['every'\]; known keys"),
        (["self_play.pool_size=0"], r"self_play.pool_size=0; allowed: a positive int"),
        (["self_play.snapshot_weight=-1"], r"self_play.snapshot_weight=-1; allowed: a finite number >= 0"),
        (["self_play.enabled=maybe"], r"self_play.enabled='maybe'; allowed: true, false"),
        (["self_play=3"], r"self_play=3; allowed: a mapping with keys"),
        (["eval_every=-5"], r"eval_every=-5; allowed: an int >= 0"),
        (["eval_curve_games=0"], r"eval_curve_games=0; allowed: a positive int"),
        (["torch_threads=-1"], r"torch_threads=-1; allowed: an int >= 0"),
        (["action_feature_gain=0"], r"action_feature_gain=0; allowed: a number in \(0, 1000\]"),
        (["learning_rate=fast"], r"learning_rate='fast'; allowed: a finite number"),
        (["opponents={random: 0}"], r"opponents=\{'random': 0\}; allowed: weights >= 0, not all 0"),
        (["net_arch=abc"], r"net_arch='abc'; allowed: a non-empty list of positive ints"),
        (["device=tpu"], r"device='tpu'; allowed: 'cpu', 'cuda'"),
        (["total_timesteps=[1,"], r"override 'total_timesteps=\[1,' is not valid YAML"),
        (["game_options=3"], r"game_options=3; allowed: a mapping"),
    ]),
    # the expert-iteration block (tests/test_exit.py; value targets and data: tests/test_exit_targets.py)
    *_bad_overrides(EXIT, [
        (["exit.iterations=-1"], r"exit.iterations=-1; allowed: an int >= 0"),
        (["exit.actors=0"], r"exit.actors=0; allowed: a positive int"),
        (["exit.opponents={self: 1, strong: 1}"], r"exit.opponents: unknown kind\(s\) \['strong'\]"),
        (["exit.opponents={self: 0}"], r"exit.opponents=\{'self': 0\}; allowed: a mapping of self, heuristic"),
        (["exit.imitation=teacher"], r"exit.imitation='teacher'; allowed: 'heuristic', 'none'"),
        (
            ["exit.imitation=heuristic", "exit.imitation_games=0"],
            r"exit.imitation_games=0 with exit.imitation='heuristic'; allowed: an int >= 1",
        ),
        (["exit.imitation=mcts:x"], r"exit.imitation: bot 'mcts:x'"),
        (["exit.gate_opponents=[expert]"], r"exit.gate_opponents: 'expert'; allowed"),
        (["exit.gate_threshold=2"], r"exit.gate_threshold=2; allowed: a number in \[0, 1\]"),
        (["exit.id_bias=maybe"], r"exit.id_bias='maybe'; allowed: true, false"),
        (["exit.search=3"], r"exit.search=3; allowed: a mapping"),
        (["exit.rounds=3"], r"unknown exit key\(s\) \['rounds'\]; known keys"),
        (["total_timesteps=1000"], r"key\(s\) \['total_timesteps'\] belong to MaskablePPO"),
        (["algo=dqn"], r"algo='dqn'; allowed: 'ppo', 'exit'"),
        # value targets and data (tests/test_exit_targets.py)
        (["exit.playout_cap={p: 0.25}"], r"exit.playout_cap=\{'p': 0.25\}: unknown key\(s\) \[\], missing \['small'\]"),
        (["exit.playout_cap={p: 2, small: 4}"], r"exit.playout_cap.p=2; allowed: a number in \[0, 1\]"),
        (
            ["exit.simulations=16", "exit.playout_cap={p: 0.5, small: 64}"],
            r"exit.playout_cap.small=64; allowed: an int in \[1, 16\] \(exit.simulations\)",
        ),
        (["exit.playout_cap={p: 0.5, small: 4, cheap: 1}"], r"unknown key\(s\) \['cheap'\]"),
        (["exit.playout_cap=[1]"], r"exit.playout_cap=\[1\]; allowed: a mapping"),
        (["exit.window_games=-1"], r"exit.window_games=-1; allowed: an int >= 0"),
        (["exit.max_reuse=0"], r"exit.max_reuse=0; allowed: a positive int"),
        (["exit.holdout_fraction=0.9"], r"exit.holdout_fraction=0.9; allowed: a number in \[0, 0.5\]"),
        (["exit.keep_forced=1"], r"exit.keep_forced=1; allowed: true, false"),
        (["exit.holdout_stop=heads"], r"exit.holdout_stop='heads'; allowed: value, all"),
    ]),
    # unknown keys, opponents, vector envs, env ids and malformed overrides
    *_bad_overrides(QUICK, [
        (["learning_rte=0.1"], r"unknown config key\(s\) \['learning_rte'\]; known keys"),
        (["n_envs=0"], r"n_envs=0; allowed: a positive int"),
        (["opponents={strong: 1}"], rf"opponent 'strong'; allowed: {re.escape(TRAINING_KINDS)}"),
        (["vec_env=threads"], r"vec_env='threads'; allowed: 'dummy', 'subproc'"),
        (["env_id=maya_envs/Chess-v0"], r"env_id='maya_envs/Chess-v0'; allowed"),
        (["seed"], r"override 'seed' must look like key=value"),
    ]),
]  # fmt: skip


@pytest.mark.parametrize(("config", "overrides", "message"), BAD_OVERRIDES)
def test_bad_config_values_are_clear_errors(config, overrides, message):
    with pytest.raises(ConfigError, match=message):
        load_config(config, overrides)


def test_game_options_take_dotted_overrides_like_self_play():
    base = load_config(QUICK)
    option, value = DEFAULT_GAME.variant_option, list(DEFAULT_GAME.hook("variants"))[-1]
    config = load_config(QUICK, [f"game_options.{option}={value}"])
    assert base.game_options == {"num_players": base.game_options["num_players"]}  # no variant named
    assert config.game_options == {"num_players": base.game_options["num_players"], option: value}


def test_a_near_miss_config_name_gets_the_closest_names():
    from training.config_names import resolve_config

    typo = QUICK[:-2] + QUICK[-1]  # ".../2p_quik"
    with pytest.raises(ConfigError, match=rf"{re.escape(repr(typo))} .* \(did you mean {re.escape(repr(QUICK))}"):
        resolve_config(typo)
    with pytest.raises(ConfigError) as far:
        resolve_config("chess/blitz")
    assert "did you mean" not in str(far.value) and "shipped names: [" in str(far.value)


def _numbers_in_the_schema() -> list:
    """``(config, override, key)`` for every number a config holds, read off the schema: each
    field of :class:`TrainConfig` (with a PPO config), :class:`SelfPlayConfig` and
    :class:`ExitConfig` (with an expert-iteration config) whose default is a number, each
    numeric setting of ``exit.search`` (:class:`maya_envs.bots.guided.GuidedConfig`), the
    weights of both opponent mixes and the numbers of ``exit.playout_cap``. ``override`` has a
    ``{bad}`` slot for the value."""
    from maya_envs.bots.guided import GuidedConfig
    from training.checks import is_number
    from training.config import TrainConfig
    from training.exit.config import EXIT_OPPONENTS, ExitConfig

    def numeric(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls) if is_number(getattr(cls(), f.name))]

    out = [(QUICK, f"{name}={{bad}}", name) for name in numeric(TrainConfig)]
    out += [(QUICK, f"self_play.{name}={{bad}}", f"self_play.{name}") for name in numeric(SelfPlayConfig)]
    out += [(EXIT, f"exit.{name}={{bad}}", f"exit.{name}") for name in numeric(ExitConfig)]
    searched = [name for name in numeric(GuidedConfig) if name != "simulations"]  # exit.simulations sets it
    out += [(EXIT, f"exit.search={{{{{name}: {{bad}}}}}}", name) for name in searched]
    out += [(QUICK, f"opponents={{{{{bot}: {{bad}}}}}}", "opponents") for bot in load_config(QUICK).opponents]
    out += [(EXIT, f"exit.opponents={{{{{kind}: {{bad}}}}}}", "exit.opponents") for kind in EXIT_OPPONENTS]
    out += [(EXIT, "exit.playout_cap={{p: {bad}, small: 1}}", "exit.playout_cap.p")]
    out += [(EXIT, "exit.playout_cap={{p: 0.5, small: 1, value_weight: {bad}}}", "exit.playout_cap.value_weight")]
    return out


@pytest.mark.parametrize(("config", "override", "key"), _numbers_in_the_schema(), ids=lambda v: str(v))
@pytest.mark.parametrize("bad", [".inf", "-.inf", ".nan"])
def test_every_number_of_a_config_refuses_infinity_and_nan(config, override, key, bad):
    """YAML reads ``.inf``, ``-.inf`` and ``.nan`` as floats: each is a ConfigError that names the
    key and says what is allowed, for every number of the schema (not a hand list)."""
    with pytest.raises(ConfigError) as error:
        load_config(config, [override.format(bad=bad)])
    message = str(error.value)
    assert key in message and "allowed:" in message, message


def _rllib_numbers() -> list[str]:
    """Every field of :class:`training.rllib_train.RLlibConfig` whose default is a number."""
    from training.checks import is_number
    from training.rllib_train import RLlibConfig

    return [f.name for f in dataclasses.fields(RLlibConfig) if is_number(getattr(RLlibConfig(), f.name))]


@pytest.mark.parametrize("key", _rllib_numbers())
@pytest.mark.parametrize("bad", [".inf", "-.inf", ".nan"])
def test_every_number_of_an_rllib_config_refuses_infinity_and_nan(key, bad):
    from training.rllib_train import load_rllib_config

    with pytest.raises(ConfigError) as error:
        load_rllib_config(None, [f"{key}={bad}"])
    assert f"{key}=" in str(error.value) and "allowed:" in str(error.value), str(error.value)
