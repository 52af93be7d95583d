"""The Maya (2012) observation encoder against its index table and the rules."""

from __future__ import annotations

import numpy as np

from maya_envs.bots import RandomBot
from maya_envs.maya2012 import observation as O
from maya_envs.maya2012.observation import Maya2012Observer, observe
from maya_envs.maya2012.rules import Maya2012Rules, victory_points
from tests.conformance import play_states


def test_action_features_equal_the_effect_of_apply_action():
    rules = Maya2012Rules({"setup": "random"})
    rng = np.random.default_rng(3)
    checked = 0
    for state in play_states(rules, [RandomBot(rules, 1), RandomBot(rules, 2)], rng):
        if rules.is_terminal(state):
            break
        me = state.to_move
        for action in rules.legal_actions(state):
            after = rules.apply_action(state, action)
            placed, completes, swing = O.exchange_consequences(state, action, me, rules.config.ladder_spaces)
            assert placed == sum(after.ladders[me]) - sum(state.ladders[me])
            assert completes == (after.priests.count(me) > state.priests.count(me))
            before_vp, after_vp = victory_points(state), victory_points(after)
            assert swing == (after_vp[me] - after_vp[1 - me]) - (before_vp[me] - before_vp[1 - me])
            checked += 1
    assert checked > 100


def test_observation_slices_follow_the_index_table():
    rules = Maya2012Rules({"setup": "random"})
    state = rules.initial_state(np.random.default_rng(0))
    obs = observe(rules, state, 0)
    layout = Maya2012Observer(rules).layout
    assert obs.shape == (610,) == layout.shape and obs.dtype == np.float32
    # the module docstring's index table
    assert [layout.starts[name] for name in ("monolith", "raven", "my_ladders", "pieces", "turn", "seat")] == [
        405, 417, 421, 457, 464, 465
    ]
    assert layout["action_features"] == slice(466, 610)
    assert obs.min() >= 0 and obs.max() <= 1
    colours = layout.view(obs, "towers")
    assert (colours.argmax(axis=2) == np.array(state.towers)).all() and colours.sum() == 45
    assert layout.view(obs, "monolith")[state.monolith] == 1 and layout.view(obs, "monolith").sum() == 1
    assert layout.view(obs, "raven")[state.raven - 2] == 1
    assert obs[layout["seat"]] == 1 and observe(rules, state, 1)[layout["seat"]] == 0
    features = layout.view(obs, "action_features")
    legal = rules.legal_actions(state)
    assert (features[:, [x for x in range(48) if x not in legal]] == 0).all()


def test_views_swap_my_and_opponent_slices():
    rules = Maya2012Rules({"setup": "random"})
    bots = [RandomBot(rules, 5), RandomBot(rules, 6)]
    states = list(play_states(rules, bots, np.random.default_rng(5)))
    state = states[-1]
    assert sum(map(sum, state.ladders)) > 0
    white, black = observe(rules, state, 0), observe(rules, state, 1)
    layout = Maya2012Observer(rules).layout
    assert np.array_equal(white[layout["my_ladders"]], black[layout["opponent_ladders"]])
    assert np.array_equal(white[layout["my_ladders"]] * 4, np.array(state.ladders[0], np.float32))
