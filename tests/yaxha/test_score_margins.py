"""Yaxha's ``score_margins`` hook, the score-margin head's target (issue 28 item 2;
the head and the trainer: ``tests/test_margin_head.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.bots.search_common import terminal_margins
from maya_envs.yaxha.determinize import LEAF_SCALES
from tests.helpers.exit import finished


@pytest.mark.parametrize("n", [2, 3])
def test_yaxha_margin_is_the_total_score_lead_over_the_others_mean(n):
    rules, state = finished("yaxha", n)
    totals = np.array(rules.final_info(state)["scores"], np.float64)
    expected = [(t - (totals.sum() - t) / (n - 1)) / LEAF_SCALES[n] for t in totals]
    assert terminal_margins(rules, state).tolist() == pytest.approx(expected)
