"""Maya (2012)'s chance nodes: the board's sampler makes every valid board equally likely; the
chance contract every game keeps is in tests/test_conformance.py."""

from __future__ import annotations

import math

import numpy as np
import pytest

from maya_envs.core.chance import OutcomeScript
from maya_envs.maya2012.rules import Maya2012Rules
from maya_envs.maya2012.setup import _bregman_bound, board_outcomes, draw_towers, random_towers
from tests.conformance import chance_nodes


def test_every_board_has_the_same_chance_path_probability():
    """The board's chance nodes make every valid board equally likely: along a board's nodes
    (every attempt going on) the product of probabilities is ``1/9! * prod_L 1/B_L`` for any
    board (the sampler's acceptance of one attempt), which fails if a cell's weights were off."""
    expected = 1 / math.factorial(9) * math.prod(1 / _bregman_bound(9 - level, 9) for level in range(1, 5))
    rng = np.random.default_rng(0)
    for _ in range(6):
        towers = random_towers(rng)
        nodes = chance_nodes(draw_towers, board_outcomes(towers))
        probability = math.prod(dict(outcomes)[chosen] for outcomes, chosen in nodes)
        assert math.isclose(probability, expected, rel_tol=1e-9)
        assert draw_towers(OutcomeScript(board_outcomes(towers))) == towers


def test_start_over_empties_the_board():
    rng = np.random.default_rng(1)
    towers = random_towers(rng)
    outcomes = board_outcomes(towers)
    # level 1 is 8 nodes (the 9th tower's colour is forced), then level 2's attempt node
    assert outcomes[8] == 1
    restarted = outcomes[:8] + [0] + outcomes
    assert draw_towers(OutcomeScript(restarted)) == towers


def test_an_impossible_board_is_refused():
    with pytest.raises(ValueError, match="not a valid board"):
        board_outcomes(((0,) * 5,) * 9)


def test_spec_chance_is_false_where_nothing_is_drawn_after_setup():
    assert not Maya2012Rules({"num_players": 3}).spec.chance  # board and cards drawn in initial_state
