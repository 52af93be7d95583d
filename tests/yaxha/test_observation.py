"""The observation index table of maya_envs.yaxha.observation, checked slice by slice."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.yaxha.observation import observation_layout
from maya_envs.yaxha.rules import BUILD, YaxhaRules

from .helpers import with_fields


@pytest.mark.parametrize(
    ("n", "footprint", "size"),
    [(2, "floating", 1326), (3, "floating", 1977), (4, "floating", 2634), (2, "fixed", 366), (4, "fixed", 714)],
)
def test_sizes_match_the_documented_table(n, footprint, size):
    rules = YaxhaRules(num_players=n, footprint=footprint)
    assert rules.spec.observation_shape == (size,)
    layout = observation_layout(n, rules.geometry.num_cells)
    assert layout["pyramids"] == slice(0, n * rules.geometry.num_cells * 5)
    assert layout["phase"].stop == size


def test_slices_hold_what_the_table_says():
    rules = YaxhaRules(num_players=3, bonus_cards=[2, 11, 17])
    n, cells = 3, rules.geometry.num_cells
    lay = observation_layout(n, cells)
    state = with_fields(
        rules.initial_state(np.random.default_rng(0)),
        initiative=(2, 3, 1),
        market=((3, 0, 0, 0, 0), (0, 1, 2, 0, 0), (0, 0, 0, 1, 2)),
    )
    obs = rules.observe(state, 1)  # observer seat 1: r=0 is seat 1, r=1 seat 2, r=2 seat 0
    assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1
    np.testing.assert_array_equal(obs[lay["initiative"]].reshape(3, 3), [[0, 0, 1], [1, 0, 0], [0, 1, 0]])
    np.testing.assert_allclose(obs[lay["market"]].reshape(3, 5)[1], [0, 1 / 3, 2 / 3, 0, 0])
    np.testing.assert_array_equal(np.flatnonzero(obs[lay["bonus"]]), [2, 11, 17])
    assert obs[lay["round"]][0] == 1 and obs[lay["phase"]].tolist() == [1, 0, 0, 0]
    np.testing.assert_allclose(obs[lay["bag"]], np.array(state.bag) / 24)
    # Seat 0 picks tile 2: only seat 0 sees it (r=0 of its own view).
    state = rules.apply_action(state, 2, None)
    assert obs[lay["choices"]].sum() == 0
    assert rules.observe(state, 0)[lay["choices"]].reshape(3, 3)[0].tolist() == [0, 0, 1]
    assert rules.observe(state, 1)[lay["choices"]].sum() == 0
    # Seats 1 and 2 pick 0 and 1: revealed, everyone sees every choice; building starts.
    state = rules.apply_action(rules.apply_action(state, 0, None), 1, None)
    assert state.phase == BUILD
    view = rules.observe(state, 1)
    np.testing.assert_array_equal(view[lay["choices"]].reshape(3, 3), [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    np.testing.assert_array_equal(view[lay["owner"]].reshape(3, 3), [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    np.testing.assert_allclose(view[lay["hand"]], [1, 0, 0, 0, 0])  # tile 0: three orange
    # Seat 0 places a white cube on the anchor: its own view shows it, seat 1's not yet.
    place = rules.table.place(4, rules.geometry.anchor)
    state = rules.apply_action(state, place, None)
    index = (0 * cells + rules.geometry.anchor) * 5 + 4
    assert rules.observe(state, 0)[index] == 1
    other = (2 * cells + rules.geometry.anchor) * 5 + 4  # seat 0 is r=2 for observer 1
    assert rules.observe(state, 1)[lay["pyramids"]][other] == 0
    assert state.pyramids[0][rules.geometry.anchor] == 4
