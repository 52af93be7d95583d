"""Yaxha's leaf values: the fitted scales' errors and the root's estimate under resampling (at 3
players; the checks: tests/test_leaf_values.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from tests.helpers.leaf_values import check_fitted_scale, check_root_reads_no_hidden_information  # noqa: E402

#: (game, options, seeded games) -> (hand-set scale before the fit, the MSE measured with the
#: fitted LEAF_SCALES on these games + a small margin). Seeds 100.. of
#: benchmarks/fit_leaf_scales.py's heuristic self-play (the fit used seeds 0..199).
PINNED = {
    ("yaxha", (("num_players", 2),), 8): (10.0, 1.078),  # a constant 0 scores 1.000 on these 8 games
    ("yaxha", (("num_players", 3),), 6): (10.0, 0.473),
    ("yaxha", (("num_players", 4),), 4): (10.0, 0.322),
}


@pytest.mark.parametrize(("case", "pinned"), PINNED.items(), ids=lambda x: str(x))
def test_each_fitted_leaf_scale_pins_its_error_below_the_hand_set_one(case, pinned):
    check_fitted_scale(case, pinned)


def test_the_roots_leaf_estimate_reads_no_hidden_information():
    check_root_reads_no_hidden_information("yaxha", 3)
