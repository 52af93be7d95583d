"""The ``minus3_targets`` option (rules file section 6 DECISION): which seats a -3 may hit at its
quarry. ``"scored"`` (default): any other seat with a score there, including one present only
through the advanced variant's blue +2 marker; ``"card"``: only seats with a card there.
Hand-built positions in the advanced variant, where the two readings differ."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.core.errors import ConfigError
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules.config import BLUE_PLUS_2, MINUS3_TARGET_READINGS
from maya_envs.maya_quarry.rules.state import BUILD, MINUS3
from maya_envs.records import game_config
from tests.maya_quarry.helpers import at_auction, reveal_position

from ..conformance import env_module, play_states
from .helpers import make_rules, play

ENV_MODULE = env_module("maya_quarry")

ON_SEAT_2 = A.MINUS3_BASE + 0  # seat 1's -3 on the seat 1 place after it
ON_SEAT_0 = A.MINUS3_BASE + 1  # ... and 2 places after it


def _plus2_at_quarry_3(columns: dict, **options):
    """Seat 2 holds the +2 marker and places it at quarry 3 (the rightmost, ranks 4/3/1), where
    it has no card; the reveal then starts there."""
    rules, s0, rng = at_auction(3, **options)
    s = reveal_position(rules, s0, columns, {BLUE_PLUS_2: 2})
    return rules, play(rules, s, [A.WORKER_PASS, A.PLUS2_BASE + 3]), rng


def _to_building(rules, s, rng):
    """The reveal played on with the first legal action of every decision left."""
    while s.phase != BUILD:
        s = rules.apply_action(s, rules.legal_actions(s)[0], rng)
    return s


def test_the_default_reading_lets_a_minus3_hit_a_seat_there_only_through_the_plus2_marker():
    rules, s, _ = _plus2_at_quarry_3({3: [(0, 5), (1, -3)]})
    assert rules.config.minus3_targets == "scored"
    assert s.phase == MINUS3 and s.actor == 1
    assert rules.legal_actions(s) == [ON_SEAT_2, ON_SEAT_0, A.MINUS3_NONE]


def test_the_card_reading_spares_the_plus2_holder_without_a_card_there():
    rules, s, _ = _plus2_at_quarry_3({3: [(0, 5), (1, -3)]}, minus3_targets="card")
    assert s.phase == MINUS3 and s.actor == 1
    assert rules.legal_actions(s) == [ON_SEAT_0, A.MINUS3_NONE]


ALONE_WITH_PLUS2 = {3: [(1, -3)], 2: [(0, 5)]}  # at quarry 3: seat 1's -3 and seat 2's +2 marker


def test_score_reading_a_minus3_beside_only_the_plus2_holder_may_hit_it():
    rules, s, rng = _plus2_at_quarry_3(ALONE_WITH_PLUS2)
    assert s.phase == MINUS3 and s.actor == 1 and rules.legal_actions(s) == [ON_SEAT_2, A.MINUS3_NONE]
    assert _to_building(rules, rules.apply_action(s, ON_SEAT_2, rng), rng).held[2] == 0  # 2 - 3: no rank
    assert _to_building(rules, rules.apply_action(s, A.MINUS3_NONE, rng), rng).held[2] == 4  # rank 1


@pytest.mark.parametrize("no_target", [True, False])
def test_card_reading_a_minus3_beside_only_the_plus2_holder_has_no_decision(no_target):
    rules, s, _ = _plus2_at_quarry_3(ALONE_WITH_PLUS2, minus3_targets="card", minus3_no_target=no_target)
    assert s.phase == BUILD and s.held[2] == 4  # nobody to hit (and no empty mask): seat 2 ranks first


def test_the_readings_agree_in_the_basic_game():
    for seed in range(3):
        games = []
        for reading in MINUS3_TARGET_READINGS:
            rules = make_rules(3, minus3_targets=reading)
            rng = np.random.default_rng(seed)
            chooser = np.random.default_rng(seed)
            state, states = rules.initial_state(rng), []
            while not rules.is_terminal(state):
                states.append(rules.state_to_dict(state))
                state = rules.apply_action(state, int(chooser.choice(rules.legal_actions(state))), rng)
            games.append(states)
        assert games[0] == games[1]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_advanced_games_under_the_card_reading_always_have_a_legal_move(n):
    for no_target in (True, False):
        rules = make_rules(n, variant="advanced", minus3_targets="card", minus3_no_target=no_target)
        rng = np.random.default_rng(n)

        class Random:
            def act(self, state):
                return int(rng.choice(rules.legal_actions(state)))

        for state in play_states(rules, [Random()] * n, rng):
            if not rules.is_terminal(state):
                assert rules.legal_actions(state), state.phase


@pytest.mark.parametrize("bad", ["cards", "score", "", None, True, 1])
def test_an_unknown_reading_is_refused_naming_the_allowed_ones(bad):
    with pytest.raises(ConfigError, match=r"minus3_targets=.* is not allowed; allowed: \['scored', 'card'\]"):
        make_rules(3, variant="advanced", minus3_targets=bad)


def test_the_reading_is_part_of_the_env_config_and_its_records():
    env = ENV_MODULE.env(num_players=4, variant="advanced", minus3_targets="card")
    assert env.rules.config.minus3_targets == "card"
    assert game_config(env)["minus3_targets"] == "card"  # a record's header rebuilds the same rules
    assert game_config(ENV_MODULE.env())["minus3_targets"] == "scored"
