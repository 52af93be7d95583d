"""Yaxha's pictures (PNG and SVG): what another seat may not know does not change a
seat's picture, and the legend names the game's pieces. Moved from tests/test_render.py (issue 31
item 2: a test about one game lives in its folder)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL")

from maya_envs.records import make_env  # noqa: E402
from maya_envs.yaxha.render import render_text as yaxha_text  # noqa: E402
from maya_envs.yaxha.render_image import render_image as yaxha_image  # noqa: E402
from tests.helpers.render import legend_texts, random_states, svg_unchanged_by_resampling  # noqa: E402
from tests.yaxha.hidden import resample_hidden  # noqa: E402


def test_yaxha_hidden_choices_and_fresh_cubes_do_not_change_a_seats_picture():
    env = make_env("yaxha", num_players=3)
    rules = env.rules
    rng = np.random.default_rng(3)
    for state in random_states(env, seed=3, every=5):
        for observer in range(3):
            other = resample_hidden(state, observer, rng)
            assert np.array_equal(yaxha_image(rules, state, observer), yaxha_image(rules, other, observer))
            assert yaxha_text(rules, state, observer) == yaxha_text(rules, other, observer)


def test_yaxha_svg_of_a_seat_does_not_change_with_hidden_choices_and_fresh_cubes():
    env = make_env("yaxha", num_players=4, render_mode="svg")
    states = random_states(env, seed=9, every=6)
    assert svg_unchanged_by_resampling(env, states, range(4), resample_hidden, np.random.default_rng(9)) > 15


def test_the_legend_names_the_games_pieces():
    texts = legend_texts('yaxha')
    assert any('empty cell' in t for t in texts), texts
