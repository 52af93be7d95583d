"""Determinization in the Maya quarry game: what a sample conserves (for the sweep in
tests/bots/test_determinize.py), hidden cards and sealed bids covering every possibility."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from maya_envs.maya_quarry import determinize as quarry_det
from maya_envs.maya_quarry.actions import CARD_COUNTS, CARD_IS_LOW, NUM_CARD_TYPES
from maya_envs.maya_quarry.rules import MayaQuarryRules
from maya_envs.maya_quarry.rules.state import BID, WORKERS
from tests.helpers.determinize import coverage, play_states


def test_quarry_every_hidden_value_reaches_every_face_down_slot_of_its_back():
    rules = MayaQuarryRules({"num_players": 3})
    rng = np.random.default_rng(0)
    target = None
    for state in play_states(rules, seed=4, games=3):
        if state.phase == WORKERS and quarry_det.hidden_slots(state, 1) and sum(state.hand(1)) >= 3:
            target = state
            break
    assert target is not None
    samples = [quarry_det.determinize(rules, target, 0, rng) for _ in range(800)]
    hidden = Counter(c for q, i in quarry_det.hidden_slots(target, 1) for c in [target.columns[q][i][1]])
    for t in range(NUM_CARD_TYPES):
        hidden[t] += target.hands[NUM_CARD_TYPES + t]
    for q, i in quarry_det.hidden_slots(target, 1):
        low = CARD_IS_LOW[target.columns[q][i][1]]
        possible = {t for t in hidden if hidden[t] and CARD_IS_LOW[t] == low}
        assert coverage(samples, lambda s, q=q, i=i: s.columns[q][i][1]) == possible
    for t in hidden:
        counts = coverage(samples, lambda s, t=t: s.hands[NUM_CARD_TYPES + t])
        assert len(counts) >= 1 and max(counts) <= CARD_COUNTS[t]


def test_quarry_sealed_bids_of_others_cover_their_whole_legal_range():
    rules = MayaQuarryRules({"num_players": 4, "variant": "advanced"})
    rng = np.random.default_rng(0)
    for state in play_states(rules, seed=2, games=2):
        others = [s for s in range(1, 4) if state.bids[s] >= 0]
        if state.phase == BID and others:
            seat = others[0]
            samples = [quarry_det.determinize(rules, state, 0, rng) for _ in range(400)]
            top = min(state.gold[seat], 30)
            assert coverage(samples, lambda s, seat=seat: s.bids[seat]) == set(range(top + 1))
            return
    pytest.fail("no bidding state with another seat's sealed bid")
