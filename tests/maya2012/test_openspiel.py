"""Maya (2012) in OpenSpiel (maya_envs.openspiel): what one seat's information state hides of
the deal. Moved from tests/test_openspiel.py (issue 31 item 2: a test about one game lives in
its folder); skipped where OpenSpiel is not installed, as that file is."""

from __future__ import annotations

import numpy as np

from maya_envs.maya2012.actions import CONTINUE
from tests.test_openspiel import M12, _chance_step, pyspiel


def test_information_state_history_digest_hides_other_seats_cards():
    """Two Maya (2012) 3-player deals that differ only in seats 1 and 2's cards, then the same
    actions: seat 0's information state is the same at every step, seat 1's is not."""
    game = pyspiel.load_game(M12, {"players": 3, "declare_step": "always", "max_turns": 12})
    rng = np.random.default_rng(4)
    first = game.new_initial_state()

    def dealing(state):
        outcome = state.chance_outcomes()[0][0]
        return state.action_to_string(pyspiel.PlayerId.CHANCE, outcome).startswith("chance card")

    while not dealing(first):
        _chance_step(first, rng)  # the board
    board = first.history()
    while first.is_chance_node():
        _chance_step(first, rng)  # the deal: seats 0, 1, 2 get two cards each
    deal = first.history()[len(board) :]
    swapped = deal[:2] + deal[4:6] + deal[2:4]
    second = game.new_initial_state()
    for action in board + swapped:
        second.apply_action(action)
    assert first.rules_state().tasks[0] == second.rules_state().tasks[0]
    assert first.rules_state().tasks[1] != second.rules_state().tasks[1]
    assert first.information_state_string(0) == second.information_state_string(0)
    while not first.is_terminal():
        legal = first.legal_actions()
        exchange = CONTINUE if CONTINUE in legal else legal[0]  # an exchange or "continue", never "declare"
        for state in (first, second):
            state.apply_action(exchange)
        assert first.information_state_string(0) == second.information_state_string(0)
        assert first.information_state_tensor(0) == second.information_state_tensor(0)
        assert first.information_state_string(1) != second.information_state_string(1)
