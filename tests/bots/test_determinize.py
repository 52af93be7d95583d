"""Determinization: every sample agrees with the observer's view exactly (observation, and the
legal mask when the observer moves), conserves the components, and over many samples puts
each hidden item in every place it could be (no fixed leak of the true hidden state).

Here the sweep over every hidden-information case of the table; what "the components" are is
each game's ``conserved(rules, true, sampled, observer)`` in ``tests/<key>/test_determinize.py``,
beside that game's coverage tests."""

from __future__ import annotations

import pytest

from maya_envs.games import GAMES
from tests.conformance import HIDDEN_GAME_CASES, case_id
from tests.helpers.determinize import check_samples_agree_and_conserve


@pytest.mark.parametrize("case", HIDDEN_GAME_CASES, ids=case_id)
def test_samples_agree_with_the_observers_view_and_conserve_components(case):
    key, options = case
    check_samples_agree_and_conserve(GAMES[key].make_rules(options))


