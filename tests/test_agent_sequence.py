"""Hidden information through the turn order: for every game with hidden information, the
sequence of selected agents (``agent_selection`` is ``possible_agents[current_player(state)]``
on every step) must not depend on what a seat may not see.

The check (:func:`lockstep`): from a state of a whole bot game, resample for one seat what it
may not see (the game's ``determinize``, whose samples the seat cannot tell from the truth:
same observation and, when it moves, the same mask; ``tests/bots/test_determinize.py``), then
play the true and the resampled state on together with the same actions (the mover's bot
choice when legal in both, else an action legal in both; the same chance draws) for as long
as the seat's view (observation, mask when it moves, ``info`` at the end) is the same in both.
While the seat cannot tell the two games apart, the agent selected must be the same in both:
otherwise the turn order told it something about the hidden data. A step after which its view
differs revealed something to it (a scoring that turns cards face up, the end); the check
stops there. Starting from every few states of whole games covers the whole sequence.

The leaking option ``declare_step="eligible"`` of Maya (2012) 3-4p must fail this check
(``tests/maya2012/test_agent_sequence.py``, with that game's declare-step coverage), so the
check is known to see it.
"""

from __future__ import annotations

import pytest

from maya_envs.games import GAMES
from tests.conformance import HIDDEN_CASES, case_id
from tests.helpers.agent_sequence import check_game


@pytest.mark.parametrize("case", HIDDEN_CASES, ids=case_id)
def test_the_agent_sequence_does_not_depend_on_what_a_seat_may_not_see(case):
    key, options = case
    rules = GAMES[key].make_rules(options)
    counts = check_game(rules, 1, seed=sum(map(ord, case_id(case))))
    assert counts["resampled"] >= counts["starts"] - 1, counts  # the hidden data really changed
    assert counts["steps"] > 4 * counts["starts"], counts  # the lockstep ran on past the start
