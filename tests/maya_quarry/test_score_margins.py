"""Maya (quarry)'s ``score_margins`` hook, the score-margin head's target (issue 28 item 2;
the head and the trainer: ``tests/test_margin_head.py``)."""

from __future__ import annotations

import dataclasses

import pytest

from maya_envs.bots.search_common import terminal_margins
from tests.helpers.exit import finished


def test_quarry_three_seats_hand_built_final_gold_gives_the_hand_computed_margins():
    rules, state = finished("maya_quarry", 3)
    assert rules.is_terminal(state)
    state = dataclasses.replace(state, gold=[10, 40, 25])
    # own gold minus the others' mean: 10 - 32.5, 40 - 17.5, 25 - 25; over the 3p scale 34
    assert terminal_margins(rules, state).tolist() == pytest.approx([-22.5 / 34, 22.5 / 34, 0.0])
