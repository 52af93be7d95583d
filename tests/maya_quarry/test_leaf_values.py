"""The quarry game's leaf values: the fitted scales' errors (the check: tests/test_leaf_values.py;
its estimate reads no hidden information, so the resampling check does not apply)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from tests.helpers.leaf_values import check_fitted_scale  # noqa: E402

#: (game, options, seeded games) -> (hand-set scale before the fit, the MSE measured with the
#: fitted LEAF_SCALES on these games + a small margin). Seeds 100.. of
#: benchmarks/fit_leaf_scales.py's heuristic self-play (the fit used seeds 0..199).
PINNED = {
    ("maya_quarry", (("num_players", 3), ("variant", "basic")), 3): (15.0, 0.506),
    ("maya_quarry", (("num_players", 4), ("variant", "basic")), 3): (15.0, 0.200),
    ("maya_quarry", (("num_players", 5), ("variant", "basic")), 3): (15.0, 0.232),
    ("maya_quarry", (("num_players", 5), ("variant", "advanced")), 3): (15.0, 0.240),
}


@pytest.mark.parametrize(("case", "pinned"), PINNED.items(), ids=lambda x: str(x))
def test_each_fitted_leaf_scale_pins_its_error_below_the_hand_set_one(case, pinned):
    check_fitted_scale(case, pinned)
