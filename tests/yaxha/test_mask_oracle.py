"""Mask oracle: in every visited state the mask is exactly the set of ids apply_action accepts.

Games are played by random and heuristic bots, both footprints, every player count. Also
checks the Parallel contract: a seat's legal ids at the start of a simultaneous step are its
legal ids when its turn comes within that step.
"""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.bots import make_bot
from maya_envs.yaxha.rules import YaxhaRules
from tests.conformance import play_states
from tests.yaxha.helpers import accepted


def check_game(rules, bots, seed):
    rng = np.random.default_rng(seed)
    probe = np.random.default_rng(0)
    batch_state, batch = None, []
    for state in play_states(rules, bots, rng):
        legal = rules.legal_actions(state)
        mask = rules.legal_mask(state)
        assert set(np.flatnonzero(mask).tolist()) == set(legal) == accepted(rules, state, probe)
        if rules.is_terminal(state):
            assert legal == [] and rules.current_player(state) == -1
            return
        assert legal, "no legal action before the end"
        if not batch:
            batch_state, batch = state, list(rules.parallel_seats(state))
        seat = rules.current_player(state)
        assert batch.pop(0) == seat
        assert rules.legal_actions_for(batch_state, seat) == legal


#: Games per player count: CI (`slow`) plays 24, every footprint x bot-pairing pattern (they
#: repeat every 6 games) 4 times; `extended` plays 75 (every id is tried in every state: 75 games
#: per count took 480 s of one core under load, the suite's costliest test); 4 in every run.
SIZES = [pytest.param(24, marks=pytest.mark.slow), pytest.param(75, marks=pytest.mark.extended), 4]


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("games", SIZES)
def test_mask_matches_apply_action_both_ways(num_players, games):
    for game in range(games):
        footprint = "fixed" if game % 3 == 2 else "floating"
        rules = YaxhaRules(num_players=num_players, footprint=footprint)
        kinds = ["heuristic" if (game + seat) % 2 else "random" for seat in range(num_players)]
        bots = [make_bot(kind, rules, 1000 * game + seat) for seat, kind in enumerate(kinds)]
        check_game(rules, bots, game)
