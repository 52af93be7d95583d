"""Yaxha in OpenSpiel (maya_envs.openspiel): the simultaneous form plays the same game as the
turn-based one, and states come back from serialisation and pickling. Moved from
tests/test_openspiel.py (issue 31 item 2: a test about one game lives in its folder); skipped
where OpenSpiel is not installed, as that file is."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.core.errors import IllegalActionError
from tests.helpers.openspiel import SPIEL_NAMES, chance_step, pyspiel

YAXHA = SPIEL_NAMES["yaxha"]


def test_yaxha_simultaneous_form_plays_the_same_game_as_the_turn_based_form():
    """Joint actions at Yaxha's simultaneous nodes (idle seats send the wait id 0) and the same
    actions one seat at a time, in the rules' order, in the turn-based form, with the same
    chance outcomes: the same final rules state and returns. An idle seat's other id is
    refused."""
    simultaneous = pyspiel.load_game(YAXHA, {"players": 3, "simultaneous": True})
    turn_based = pyspiel.load_game(YAXHA, {"players": 3})
    rules, rng = simultaneous.rules, np.random.default_rng(6)
    state, other = simultaneous.new_initial_state(), turn_based.new_initial_state()
    idle_refused = False
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
            other.apply_action(state.history()[-1])
            continue
        assert state.is_simultaneous_node()
        joint = [int(rng.choice(state.legal_actions(seat))) for seat in range(3)]
        acting = rules.parallel_seats(state.rules_state())
        for seat in range(3):
            if seat not in acting:
                assert state.legal_actions(seat) == [rules.wait_action]
                assert state.action_to_string(seat, rules.wait_action) == "wait"
                if not idle_refused:
                    bad = list(joint)
                    bad[seat] = 1  # pick tile 1: not the wait id
                    with pytest.raises(IllegalActionError, match=f"player {seat} waits"):
                        state.clone().apply_actions(bad)
                    idle_refused = True
        state.apply_actions(joint)
        for seat in acting:
            assert other.current_player() == seat
            other.apply_action(joint[seat])
    assert idle_refused
    assert other.is_terminal() and other.rules_state() == state.rules_state()
    assert other.returns() == state.returns()


@pytest.mark.parametrize("params", [{"players": 3}, {"players": 3, "simultaneous": True}])
def test_serialised_and_pickled_states_come_back_equal(params):
    """``pyspiel.serialize_game_and_state`` (a game string and the history) and ``pickle``
    restore the rules state and every seat's information state, mid-game."""
    import pickle

    game = pyspiel.load_game(YAXHA, params)
    state, rng = game.new_initial_state(), np.random.default_rng(0)
    for _ in range(40):
        if state.is_chance_node():
            chance_step(state, rng)
        elif state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(seat))) for seat in range(3)])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    for copy in (restored, pickle.loads(pickle.dumps(state))):
        assert copy.rules_state() == state.rules_state()
        assert copy.history() == state.history()
        for seat in range(3):
            assert copy.information_state_string(seat) == state.information_state_string(seat)
