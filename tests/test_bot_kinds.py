"""The bot-kind table (issue 31 item 1): every row's example builds and plays for every game of
the game table through the one resolver, and every place that lists what a player may be
derives its list from the table (config checks, the web's seats, help texts), so a new row
shows up everywhere with no other file edited."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from maya_envs.bot_kinds import BOT_KINDS, BOT_NAMES, MODEL, bot_syntax, make_bot
from maya_envs.games import DEFAULT_GAME, GAMES, find_game
from maya_envs.players import check_player_spec, player_syntax, resolve_player
from maya_envs.pretrained import network_names, pretrained_info


def _network_of(key: str) -> str:
    """A shipped network of game ``key`` (every game ships one)."""
    fitting = [name for name in network_names() if find_game(pretrained_info(name).game).key == key]
    assert fitting, f"no shipped network plays {key}"
    return fitting[0]


def _example(kind, key: str) -> str:
    return kind.example.replace(MODEL, _network_of(key))


def _cases():
    for key in GAMES:
        for name, kind in BOT_KINDS.items():
            missing = [module for module in kind.needs if importlib.util.find_spec(module) is None]
            marks = [pytest.mark.skip(reason=f"needs {missing}")] if missing else []
            yield pytest.param(key, name, id=f"{key}-{name}", marks=marks)


@pytest.mark.parametrize(("key", "name"), list(_cases()))
def test_every_rows_example_plays_a_legal_move_in_every_game(key, name):
    kind = BOT_KINDS[name]
    spec = _example(kind, key)
    assert spec.split(":", 1)[0] == name
    rules = GAMES[key].make_rules(pretrained_info(_network_of(key)).game_options)  # the network's size
    state = rules.initial_state(np.random.default_rng(0))
    bot = resolve_player(spec, rules, seed=1)  # the one resolver, as every caller uses it
    assert type(bot) is type(make_bot(spec, rules, 1))
    assert bot.act(state) in rules.legal_actions(state)
    check_player_spec(spec)  # what the configs check, without building


@pytest.mark.parametrize("name", list(BOT_KINDS))
def test_every_kind_is_in_every_derived_list(name):
    from maya_envs.cli.play import SEAT_KINDS
    from maya_envs.cli.play import build_parser as play_parser
    from maya_envs.web.policy import AGENT_SPECS, PAGE_KINDS, PAGE_LIMITS

    kind = BOT_KINDS[name]
    assert kind.syntax in BOT_NAMES and kind.syntax in bot_syntax() and kind.syntax in player_syntax()
    assert kind.syntax in SEAT_KINDS
    assert kind.syntax in " ".join(play_parser().format_help().split())  # maya-play --help
    with pytest.raises(ValueError) as unknown:
        make_bot("no-such-bot", None)
    assert kind.syntax in str(unknown.value)  # the unknown-bot error lists every kind
    if kind.budget is None or kind.budget in PAGE_LIMITS:
        assert name in PAGE_KINDS
        assert any(spec.split(":", 1)[0].split("[", 1)[0] == name for spec in AGENT_SPECS)


@pytest.mark.parametrize("name", list(BOT_KINDS))
def test_the_training_configs_accept_each_kind_where_the_table_allows_it(name):
    pytest.importorskip("yaml")
    from maya_envs.core.errors import ConfigError
    from training.config import check_opponent

    kind = BOT_KINDS[name]
    spec = _example(kind, DEFAULT_GAME.key)
    check_opponent(spec, training=False)  # any kind may be an evaluation opponent
    with pytest.raises(ConfigError) as refused:
        check_opponent("no-such-bot", training=False)
    assert kind.syntax in str(refused.value)  # the error lists every kind an evaluation may play
    if kind.training_opponent:
        check_opponent(spec, training=True)
    else:  # the rollout searches are too slow to train against
        with pytest.raises(ConfigError, match=rf"opponent '{spec}'; allowed: .*"):
            check_opponent(spec, training=True)


def test_help_texts_of_the_other_command_lines_come_from_the_table():
    pytest.importorskip("yaml")
    from maya_envs.stats.cli import build_parser as stats_parser
    from training.arena import build_parser as arena_parser

    for parser in (stats_parser(), arena_parser()):
        text = " ".join(parser.format_help().split())
        for kind in BOT_KINDS.values():
            assert kind.syntax in text, (parser.prog, kind.name)


def test_a_bare_kind_takes_no_settings_and_a_typo_is_corrected():
    with pytest.raises(ValueError, match=r"unknown bot 'random:3'; known bots"):
        make_bot("random:3", None)
    with pytest.raises(ValueError, match=r"unknown bot 'mtcs:200' \(did you mean 'mcts:200'\?\)"):
        make_bot("mtcs:200", None)
    with pytest.raises(ValueError, match=r"'random' takes no settings"):
        BOT_KINDS["random"].check("random:3")
