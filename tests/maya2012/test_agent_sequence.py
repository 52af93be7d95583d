"""The agent-sequence check of tests/test_agent_sequence.py on Maya (2012)'s declare step: the
lockstep compares states with a declare decision pending, also with ``declare_step="always"``,
and it finds the leak of the option ``declare_step="eligible"``."""

from __future__ import annotations

import pytest

from maya_envs.maya2012.rules import DECLARE, Maya2012Rules
from tests.helpers.agent_sequence import check_game

DECLARING = {
    "maya2012-3p": ({"num_players": 3}, 2),
    "maya2012-4p": ({"num_players": 4}, 2),
    "maya2012-3p-always": ({"num_players": 3, "declare_step": "always"}, 1),
}


@pytest.mark.parametrize("game", sorted(DECLARING))
def test_the_agent_sequence_does_not_depend_on_what_a_seat_may_not_see(game):
    options, games = DECLARING[game]
    counts = check_game(Maya2012Rules(options), games, seed=sum(map(ord, game)))
    assert counts["resampled"] >= counts["starts"] - 1, counts  # the hidden data really changed
    assert counts["steps"] > 4 * counts["starts"], counts  # the lockstep ran on past the start
    assert DECLARE in counts["phases_compared"], counts


def test_the_check_finds_the_maya2012_eligible_leak():
    """With ``declare_step="eligible"`` an eligible mover is selected twice in a row, a mover
    that is not passes the turn: resampling its cards changes the agent sequence."""
    rules = Maya2012Rules({"num_players": 3, "declare_step": "eligible"})
    with pytest.raises(AssertionError, match="the turn order leaks hidden data"):
        check_game(rules, games=3, seed=1)
