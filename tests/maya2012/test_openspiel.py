"""Maya (2012) in OpenSpiel (maya_envs.openspiel): what one seat's information state hides of
the deal. Moved from tests/test_openspiel.py (issue 31 item 2: a test about one game lives in
its folder), with the seat views a hidden game offers, OpenSpiel's MCTS on the 2-player game
and Maya (2012)'s own bad parameters; skipped where OpenSpiel is not installed, as that file is."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.core.errors import ConfigError
from maya_envs.maya2012.actions import CONTINUE
from tests.helpers.openspiel import SPIEL_NAMES, chance_step, our_bot, play_spiel, pyspiel

M12 = SPIEL_NAMES["maya2012"]


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
        chance_step(first, rng)  # the board
    board = first.history()
    while first.is_chance_node():
        chance_step(first, rng)  # the deal: seats 0, 1, 2 get two cards each
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


def test_only_a_seats_own_view_is_offered_for_hidden_information():
    """A public-only or all-players observer would need data our per-seat observations do not
    separate: asking for one fails instead of handing out the seat's private view."""
    game = pyspiel.load_game(M12, {"players": 3})
    for private in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.ALL_PLAYERS):
        kind = pyspiel.IIGObservationType(public_info=True, perfect_recall=False, private_info=private)
        with pytest.raises(ValueError, match="only a seat's own view"):
            game.make_py_observer(kind)
    own = pyspiel.IIGObservationType(perfect_recall=True)
    assert game.make_py_observer(own).perfect_recall
    two = pyspiel.load_game(M12, {"players": 2})  # perfect information: nothing private
    none = pyspiel.IIGObservationType(public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    assert not two.make_py_observer(none).perfect_recall


def test_openspiel_mcts_against_our_heuristic_bot_maya2012():
    """OpenSpiel's MCTS (random rollouts) against our heuristic bot on the perfect-information
    2-player game, both seats: every action legal, zero-sum returns."""
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(M12, {"players": 2, "max_turns": 16})
    for seat in (0, 1):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seat))
        search = mcts.MCTSBot(game, 1.4, 24, evaluator, random_state=np.random.RandomState(seat), solve=False)
        ours = our_bot(game, "heuristic", seed=seat)

        def pick(state, seat=seat, search=search, ours=ours):
            return search.step(state) if state.current_player() == seat else ours(state)

        illegal, decisions, returns = play_spiel(game, pick, seed=seat)
        assert illegal == 0 and decisions > 0
        assert sum(returns) == pytest.approx(0.0)


def test_bad_maya2012_parameters_fail_with_clear_errors():
    with pytest.raises(ConfigError, match="setup='choose' is not allowed with num_players=3"):
        pyspiel.load_game(M12, {"players": 3, "setup": "choose"})
    with pytest.raises(ConfigError, match="ladder_spaces='1:x'.*colon-separated ints"):
        pyspiel.load_game(M12, {"ladder_spaces": "1:x"})
