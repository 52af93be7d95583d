"""Determinization in Maya (2012): what a sample conserves (for the sweep in
tests/bots/test_determinize.py, which also runs here with ``declare_step="eligible"``), every
hidden card reaching every place, and the declare phase's deals."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.maya2012 import determinize as m2012_det
from maya_envs.maya2012.rules import EXCHANGE, Maya2012Rules
from tests.helpers.determinize import check_samples_agree_and_conserve, play_states


def test_samples_agree_and_conserve_components_with_the_leaking_declare_step():
    check_samples_agree_and_conserve(Maya2012Rules({"num_players": 3, "declare_step": "eligible"}))


def test_maya2012_every_hidden_card_reaches_every_other_hand_and_the_spare():
    rules = Maya2012Rules({"num_players": 3})
    state = rules.initial_state(np.random.default_rng(3))
    rng = np.random.default_rng(0)
    samples = [m2012_det.determinize(rules, state, 0, rng) for _ in range(600)]
    hidden = m2012_det.hidden_cards(state, 0)
    assert len(hidden) == 6
    for place in ("seat1", "seat2", "spare"):
        seen = set()
        for s in samples:
            seen.update(s.tasks[1] if place == "seat1" else s.tasks[2] if place == "seat2" else s.spare)
        assert seen == set(hidden), place
    # not stuck on the true deal
    assert sum(s.tasks == state.tasks for s in samples) < 100


def test_maya2012_declare_phase_keeps_only_deals_where_the_decider_may_declare():
    """Only with the leaking option ``declare_step="eligible"``: there the turn order shows it."""
    rules = Maya2012Rules({"num_players": 3, "declare_step": "eligible"})
    rng = np.random.default_rng(5)
    found = 0
    for state in play_states(rules, seed=11, games=30):
        if state.phase != EXCHANGE and state.tasks and state.to_move != 0:
            found += 1
            for _ in range(20):
                sampled = m2012_det.determinize(rules, state, 0, rng)
                assert rules.legal_actions(sampled) == rules.legal_actions(state)
    if not found:
        pytest.skip("no declare decision of another seat in these games")
