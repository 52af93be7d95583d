"""The quarry game's pictures (PNG and SVG): what another seat may not know does not change a
seat's picture, and the legend names the game's pieces. Moved from tests/test_render.py (issue 31
item 2: a test about one game lives in its folder)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL")

from maya_envs.maya_quarry.render_image import render_image as quarry_image  # noqa: E402
from maya_envs.records import make_env  # noqa: E402
from tests.helpers.render import legend_texts, random_states, svg_unchanged_by_resampling  # noqa: E402
from tests.maya_quarry.hidden import resample_hidden as resample_quarry  # noqa: E402


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_quarry_face_down_values_do_not_change_a_seats_picture(variant):
    env = make_env("maya_quarry", num_players=4, variant=variant)
    rules = env.rules
    rng = np.random.default_rng(7)
    changed = 0
    for seed in range(2):
        for state in random_states(env, seed=seed, every=9):
            for observer in (0, 3):
                other = resample_quarry(state, observer, rng)
                if other == state:
                    continue
                changed += 1
                assert np.array_equal(quarry_image(rules, state, observer), quarry_image(rules, other, observer))
                if other.columns != state.columns:  # a face-down card changed: the referee sees it
                    assert not np.array_equal(quarry_image(rules, state, None), quarry_image(rules, other, None))
    assert changed > 15


def test_quarry_svg_of_a_seat_does_not_change_with_face_down_values():
    env = make_env("maya_quarry", num_players=4, variant="advanced", render_mode="svg")
    states = random_states(env, seed=1, every=9)
    assert svg_unchanged_by_resampling(env, states, (0, 3), resample_quarry, np.random.default_rng(8)) > 15


def test_the_legend_names_the_games_pieces():
    texts = legend_texts('maya_quarry')
    assert any('face down' in t for t in texts), texts
