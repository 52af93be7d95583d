"""Targeted positions for Yaxha's legal-action generation (issue 17 item 5b): the legal ids of
every phase at states reached by targeted choices (a clash leaving pending picks, fixed and
floating footprints), checked with the mask oracle of ``tests/yaxha/test_mask_oracle.py`` (the
set of ids ``apply_action`` accepts).

``scripts/rules_coverage.py`` measures the branch coverage of the rules engines over these and
the other rules tests and prints it per engine in CI.
"""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.yaxha.rules import YaxhaRules
from tests.yaxha.helpers import accepted

# -- Yaxha: every phase, both footprints, a clash --------------------------------------------------


@pytest.mark.parametrize("footprint", ["floating", "fixed"])
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_yaxha_targeted_choices_match_the_mask_oracle(num_players, footprint):
    """Everyone picks the same market tile (a clash, so pending picks follow), then the
    building turns; at every state the legal ids are what ``apply_action`` accepts."""
    rules = YaxhaRules(num_players=num_players, footprint=footprint)
    rng = np.random.default_rng(num_players)
    probe = np.random.default_rng(0)
    state = rules.initial_state(rng)
    phases = set()
    for _ in range(3 * rules.spec.max_game_length // 10):  # about three rounds
        if rules.is_terminal(state):
            break
        legal = rules.legal_actions(state)
        assert set(legal) == accepted(rules, state, probe)
        assert legal, "no legal action before the end"
        phases.add(state.phase)
        seat = rules.current_player(state)
        assert rules.legal_actions_for(state, seat) == legal  # the Parallel view's ids
        assert seat in rules.parallel_seats(state)
        state = rules.apply_action(state, legal[0], rng)  # the lowest id: the same tile for all
    assert len(phases) >= (3 if num_players > 2 else 2)
