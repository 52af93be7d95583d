"""Maya (2012)'s pictures (PNG and SVG): what another seat may not know does not change a
seat's picture, and the legend names the game's pieces. Moved from tests/test_render.py (issue 31
item 2: a test about one game lives in its folder)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL")

from maya_envs.maya2012.render_image import render_image as maya2012_image  # noqa: E402
from maya_envs.records import make_env  # noqa: E402
from tests.helpers.render import legend_texts, random_states, svg_unchanged_by_resampling  # noqa: E402
from tests.maya2012.hidden import resample_hidden as resample_maya2012  # noqa: E402


@pytest.mark.parametrize("n", [3, 4])
def test_maya2012_task_cards_of_others_do_not_change_a_seats_picture(n):
    env = make_env("maya2012", num_players=n)
    rng = np.random.default_rng(n)
    changed = 0
    for state in random_states(env, seed=n, every=20):
        for observer in range(n):
            other = resample_maya2012(state, observer, rng)
            if other.tasks == state.tasks:
                continue
            changed += 1
            mine = maya2012_image(env.rules, state, observer)
            assert np.array_equal(mine, maya2012_image(env.rules, other, observer))
            everything = maya2012_image(env.rules, state, None)
            assert not np.array_equal(everything, maya2012_image(env.rules, other, None))
    assert changed > 5


@pytest.mark.parametrize("n", [3, 4])
def test_maya2012_svg_of_a_seat_does_not_change_with_others_cards(n):
    env = make_env("maya2012", num_players=n, render_mode="svg")
    states = random_states(env, seed=n, every=20)
    assert svg_unchanged_by_resampling(env, states, range(n), resample_maya2012, np.random.default_rng(n)) > 5


def test_the_legend_names_the_games_pieces():
    texts = legend_texts('maya2012')
    assert any('Raven' in t for t in texts), texts
