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
    assert obs.shape == (O.SIZE_2P,) == Maya2012Observer(rules).layout.shape and obs.dtype == np.float32
    assert obs.min() >= 0 and obs.max() <= 1
    colours = obs[: O.TOWER_PLANES].reshape(9, 5, 9)
    assert (colours.argmax(axis=2) == np.array(state.towers)).all() and colours.sum() == 45
    assert obs[O.MONOLITH_AT + state.monolith] == 1 and obs[O.MONOLITH_AT : O.RAVEN_AT].sum() == 1
    assert obs[O.RAVEN_AT + state.raven - 2] == 1
    assert obs[O.SEAT_AT] == 1 and observe(rules, state, 1)[O.SEAT_AT] == 0
    features = obs[O.ACTION_FEATURES_AT :].reshape(3, 48)
    legal = rules.legal_actions(state)
    assert (features[:, [x for x in range(48) if x not in legal]] == 0).all()


def test_views_swap_my_and_opponent_slices():
    rules = Maya2012Rules({"setup": "random"})
    bots = [RandomBot(rules, 5), RandomBot(rules, 6)]
    states = list(play_states(rules, bots, np.random.default_rng(5)))
    state = states[-1]
    assert sum(map(sum, state.ladders)) > 0
    white, black = observe(rules, state, 0), observe(rules, state, 1)
    at = O.LADDERS_AT
    assert np.array_equal(white[at : at + 9], black[at + 9 : at + 18])
    assert np.array_equal(white[at : at + 9] * 4, np.array(state.ladders[0], np.float32))
