"""Maya (2012)'s ``score_margins`` hook, the score-margin head's target (issue 28 item 2;
the head and the trainer: ``tests/test_margin_head.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.bots.search_common import terminal_margins
from tests.helpers.exit import finished


def test_maya2012_two_seats_margin_is_the_vp_lead_with_the_priest_tie_break_over_2():
    for seed in range(3):
        rules, state = finished("maya2012", 2, seed)
        if rules.is_truncated(state):
            continue
        info = rules.final_info(state)
        vp, priests = info["victory_points"], info["priests"]
        lead = vp[0] - vp[1] + 0.1 * (priests[0] - priests[1])
        assert terminal_margins(rules, state).tolist() == pytest.approx([lead / 2.0, -lead / 2.0])
        if lead:  # a lead decides the game (a tie on both goes to the ladder count: margin 0)
            assert np.sign(terminal_margins(rules, state)[info["winner"]]) == 1


def test_a_truncated_game_has_zero_margins_like_its_values():
    rules, state = finished("maya2012", 2, max_turns=4, at_max_turns="truncate")
    assert rules.is_truncated(state)
    assert terminal_margins(rules, state).tolist() == [0.0, 0.0]
