"""Maya (2012)'s leaf values: the fitted scales' errors, the root's estimate under resampling
(at 3-4 players, where it reads hidden cards) and the shipped 2-player network's recorded leaf
(the checks: tests/test_leaf_values.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from maya_envs.bots import make_bot  # noqa: E402
from maya_envs.games import GAMES  # noqa: E402
from maya_envs.nn.agent import recorded_leaf  # noqa: E402
from maya_envs.pretrained import pretrained_info  # noqa: E402
from tests.helpers.leaf_values import check_fitted_scale, check_root_reads_no_hidden_information  # noqa: E402

#: (game, options, seeded games) -> (hand-set scale before the fit, the MSE measured with the
#: fitted LEAF_SCALES on these games + a small margin). Seeds 100.. of
#: benchmarks/fit_leaf_scales.py's heuristic self-play (the fit used seeds 0..199).
PINNED = {
    ("maya2012", (("num_players", 3),), 8): (5.0, 0.410),
    ("maya2012", (("num_players", 4),), 8): (5.0, 0.426),
}


@pytest.mark.parametrize(("case", "pinned"), PINNED.items(), ids=lambda x: str(x))
def test_each_fitted_leaf_scale_pins_its_error_below_the_hand_set_one(case, pinned):
    check_fitted_scale(case, pinned)


@pytest.mark.parametrize("n", [3, 4])
def test_the_roots_leaf_estimate_reads_no_hidden_information(n):
    check_root_reads_no_hidden_information("maya2012", n)


def test_the_shipped_two_player_network_plays_the_hook_leaf():
    assert pretrained_info("maya2012_2p_exit").leaf_value == "hook"
    rules = GAMES["maya2012"].make_rules({"num_players": 2})
    assert recorded_leaf("maya2012_2p_exit") == "hook"
    assert make_bot("az:maya2012_2p_exit:4", rules, 0).config.leaf == "hook"
