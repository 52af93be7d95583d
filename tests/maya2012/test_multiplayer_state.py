"""State save/load (schema v2) and the observation encoder for the 3-4 player variants and
the drafted setup."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from maya_envs.bots import RandomBot
from maya_envs.core.errors import ConfigError
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.bots import HeuristicBot
from maya_envs.maya2012.observation import Maya2012Observer, observe
from maya_envs.maya2012.rules import DECLARE, DRAFT, EXCHANGE, Maya2012Config, Maya2012Rules, colour_scores
from maya_envs.maya2012.serialize import from_dict, to_dict
from tests.conformance import play_states

CONFIGS = [{"num_players": 3}, {"num_players": 4}, {"num_players": 3, "setup": "draft"}, {"setup": "draft"}]


def game_states(config, seed):
    rules = Maya2012Rules(config)
    bots = [(HeuristicBot if seat % 2 else RandomBot)(rules, seed + seat) for seat in range(rules.spec.num_players)]
    return rules, list(play_states(rules, bots, np.random.default_rng(seed)))


@pytest.mark.parametrize("config", CONFIGS, ids=["3p", "4p", "3p-draft", "2p-draft"])
def test_round_trip_through_json_is_exact_for_every_state(config):
    for seed in range(4):
        rules, states = game_states(config, seed)
        for state in states:
            restored = from_dict(json.loads(json.dumps(to_dict(state))), rules.config)
            assert restored == state
            assert rules.legal_actions(restored) == rules.legal_actions(state)


def test_version_1_two_player_dicts_still_load():
    rules, states = game_states({"setup": "random"}, 0)
    data = to_dict(states[5])
    for key in ("num_players", "tasks", "spare", "declared", "draft_block"):
        del data[key]
    data["version"] = 1
    assert from_dict(data, rules.config) == states[5]
    with pytest.raises(ConfigError, match="num_players=2 but the config has num_players=3"):
        from_dict(data, Maya2012Config(num_players=3))


def mid_game(n=3):
    _, states = game_states({"num_players": n}, 1)
    return to_dict(next(s for s in states if s.turn == 6 and s.phase == EXCHANGE))


def corrupt(mutation, n=3):
    data = copy.deepcopy(mid_game(n))
    mutation(data)
    return data


def _give_centre_card(d):
    d["tasks"][0][0] = d["towers"][4][0]


@pytest.mark.parametrize(
    ("mutation", "message"),
    [
        (lambda d: d["tasks"][0].__setitem__(0, d["tasks"][1][0]), r"every colour 0\.\.8 exactly once"),
        (_give_centre_card, r"every colour 0\.\.8 exactly once"),
        (lambda d: d["tasks"].pop(), r"3 lists of 2 colours and 2 spare"),
        (lambda d: d.update(spare=[]), r"3 lists of 2 colours and 2 spare"),
        (lambda d: d["tasks"][0].reverse(), r"each hand must be sorted"),
        (lambda d: d.update(tasks=[]), r"3 lists of 2 colours"),
        (lambda d: d.update(num_players=4), r"num_players=4 but the config has num_players=3"),
        (lambda d: d.update(raven=3), r"raven=3; allowed: 2\.\.5 or null \(always null with 3-4 players\)"),
        (lambda d: d["ladders"][0].__setitem__(0, 1), r"no ladders or priests are used"),
        (lambda d: d.update(to_move=3), r"to_move=3; allowed: 0, 1 or 2"),
        (lambda d: d.update(declared=0), r"declared=0; allowed: null, or a seat"),
        (lambda d: d.update(draft_block=2), r"draft_block=2; allowed: a colour 0\.\.8 in phase draft"),
        (
            lambda d: d.update(phase="declare"),
            r"phase declare does not follow this exchange with declare_step='possible'",
        ),
        (lambda d: d.update(phase="setup_raven"), r"phase setup_raven does not exist with 3 players"),
    ],
)
def test_corrupt_three_player_dicts_are_rejected(mutation, message):
    with pytest.raises(ConfigError, match=message):
        from_dict(corrupt(mutation), Maya2012Config(num_players=3))


def test_four_player_dicts_deal_all_eight_cards():
    data = mid_game(4)
    assert data["spare"] == [] and len(data["tasks"]) == 4
    with pytest.raises(ConfigError, match=r"4 lists of 2 colours and 0 spare"):
        from_dict({**data, "spare": [0, 1]}, Maya2012Config(num_players=4))


# -- observation ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4])
def test_observation_slices_follow_the_index_table(n):
    rules, states = game_states({"num_players": n}, 2)
    state = next(s for s in states if s.phase == EXCHANGE and s.turn >= 3)
    layout = Maya2012Observer(rules).layout
    # the module docstring's index table
    assert [layout.starts[name] for name in ("tasks", "centre_card", "phase", "bonus", "turn", "seat")] == [
        417, 426, 435, 437, 438, 439
    ]
    assert layout["team_game"] == slice(443, 444) and layout["action_features"] == slice(444, 588)
    for seat in range(n):
        obs = observe(rules, state, seat)
        part = {name: layout.view(obs, name) for name in layout.names}.__getitem__
        assert obs.shape == (588,) == layout.shape and obs.dtype == np.float32
        assert obs.min() >= 0 and obs.max() <= 1
        assert (part("towers").argmax(axis=2) == np.array(state.towers)).all()
        assert part("monolith")[state.monolith] == 1 and part("monolith").sum() == 1
        assert np.flatnonzero(part("tasks")).tolist() == list(state.tasks[seat])
        assert np.flatnonzero(part("centre_card")).tolist() == [state.towers[4][0]]
        assert part("phase").tolist() == [1, 0]
        assert np.flatnonzero(part("seat")).tolist() == [seat]
        assert part("team_game")[0] == (n == 4)


def test_action_features_equal_the_effect_of_apply_action():
    rules, states = game_states({"num_players": 3}, 3)
    checked = 0
    for state in states[:80]:
        if state.phase != EXCHANGE:
            continue
        me = state.to_move
        my_delta, can_declare, rival_delta = Maya2012Observer(rules).layout.view(observe(rules, state, me), "action_features")
        legal = rules.legal_actions(state)
        for action in range(48):
            delta_slot = my_delta[action]
            if action not in legal:
                assert delta_slot == 0 and can_declare[action] == 0 and rival_delta[action] == 0
                continue
            after = rules.apply_action(state, action)
            before_s, after_s = colour_scores(state.towers), colour_scores(after.towers)
            delta = sum(after_s[c] - before_s[c] for c in state.tasks[me])
            assert delta_slot == pytest.approx(min(max((delta + 6) / 12, 0), 1))
            unknown = set(range(9)) - set(state.tasks[me]) - {state.towers[4][0]}
            rival = sum(after_s[c] - before_s[c] for c in unknown) / 3
            assert rival_delta[action] == pytest.approx(min(max((rival + 6) / 12, 0), 1))
            declare_now = after.phase == DECLARE and A.DECLARE_END in rules.legal_actions(after)
            assert can_declare[action] == declare_now
            checked += 1
    assert checked > 500


def test_declare_decision_is_shown_only_to_the_deciding_seat():
    for seed in range(30):
        rules, states = game_states({"num_players": 3}, seed)
        for state in states:
            if state.phase == DECLARE:
                decider = state.to_move
                phase = Maya2012Observer(rules).layout.view(observe(rules, state, decider), "phase")
                assert phase.tolist() == [0, 1]
                resumed = rules.apply_action(state, A.CONTINUE)
                for seat in range(3):
                    if seat != decider:  # identical to its view once the decider continued
                        assert np.array_equal(observe(rules, state, seat), observe(rules, resumed, seat))
                return
    raise AssertionError("no declare decision reached")


def test_draft_suffix_shows_the_drawn_block_and_empty_slots():
    rules = Maya2012Rules({"setup": "draft"})
    state = rules.initial_state(np.random.default_rng(0))
    obs = observe(rules, state, 0)
    layout = Maya2012Observer(rules).layout
    assert obs.shape == (610 + 10,) and layout["draft_block"] == slice(610, 619) and layout["drafting"] == slice(619, 620)
    assert obs[layout["towers"]].sum() == 0
    assert np.flatnonzero(obs[layout["draft_block"]]).tolist() == [state.draft_block] and obs[-1] == 1
    state = rules.apply_action(state, rules.legal_actions(state)[0], np.random.default_rng(1))
    assert state.phase == DRAFT and observe(rules, state, 1)[layout["towers"]].sum() == 1
