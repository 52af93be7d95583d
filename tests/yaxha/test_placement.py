"""Placement legality for both footprints, discards (section 5, decision 11)."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.core.errors import IllegalActionError
from maya_envs.yaxha.rules import BUILD, YaxhaRules

from .helpers import pyramid, with_fields

ORANGE, BLUE, GREEN, YELLOW, WHITE = range(5)


def names(rules, cells):
    return sorted(rules.geometry.coords[c][:3] for c in cells)


def test_floating_first_cube_goes_to_the_anchor_then_grows_orthogonally():
    rules = YaxhaRules(num_players=2, footprint="floating")
    g = rules.geometry
    empty = pyramid(g)
    assert names(rules, rules.legal_cells(empty, ORANGE)) == [(3, 3, 0)]
    cells = list(empty)
    cells[g.index[(3, 3, 0)]] = ORANGE
    assert names(rules, rules.legal_cells(tuple(cells), BLUE)) == [(2, 3, 0), (3, 2, 0), (3, 4, 0), (4, 3, 0)]


def test_floating_bounding_box_stays_within_four_by_four():
    rules = YaxhaRules(num_players=2, footprint="floating")
    p = pyramid(rules.geometry, "....... ....... ....... ...OOOO")  # row y=3, x=3..6
    cells = names(rules, rules.legal_cells(p, BLUE))
    # x is pinned to 3..6 (4 wide): no (2,3); above and below the row are fine.
    assert cells == sorted([(x, 2, 0) for x in range(3, 7)] + [(x, 4, 0) for x in range(3, 7)])
    q = pyramid(rules.geometry, "....... ....... ....... ...O... ...O... ...O... ...O...")  # y=3..6
    assert (3, 2, 0) not in names(rules, rules.legal_cells(q, BLUE))
    assert (2, 3, 0) in names(rules, rules.legal_cells(q, BLUE))


def test_fixed_first_cube_anywhere_then_adjacent_within_the_board():
    rules = YaxhaRules(num_players=2, footprint="fixed")
    g = rules.geometry
    assert len(rules.legal_cells(pyramid(g), WHITE)) == 16
    corner = pyramid(g, "O...")
    assert names(rules, rules.legal_cells(corner, WHITE)) == [(0, 1, 0), (1, 0, 0)]


def test_upper_cube_needs_four_supports_and_same_colour_contact():
    rules = YaxhaRules(num_players=2, footprint="fixed")
    g = rules.geometry
    three = pyramid(g, "OO.. O...")  # (0,0,1) lacks the support (1,1,0)
    assert all(g.level[c] == 0 for c in rules.legal_cells(three, ORANGE))
    square = pyramid(g, "OO.. OB..")
    assert (0, 0, 1) in names(rules, rules.legal_cells(square, ORANGE))  # orange below
    assert (0, 0, 1) in names(rules, rules.legal_cells(square, BLUE))  # blue below
    assert (0, 0, 1) not in names(rules, rules.legal_cells(square, GREEN))  # no green around


def test_same_colour_beside_counts_but_diagonal_does_not():
    rules = YaxhaRules(num_players=2, footprint="fixed")
    g = rules.geometry
    p = pyramid(g, "WWWW WWWW WWWW WWWW", "B..")
    upper = [g.coords[c] for c in rules.legal_cells(p, BLUE) if g.level[c] > 0]
    assert upper == [(1, 0, 1), (0, 1, 1)]  # orthogonal neighbours of the blue; not (1,1,1)
    assert len([c for c in rules.legal_cells(p, WHITE) if g.level[c] == 1]) == 8


def _build_state(rules, pyr, hand):
    state = rules.initial_state(np.random.default_rng(0))
    return with_fields(
        state,
        phase=BUILD,
        owner=(0, 1),
        choices=(0, 1),
        hands=(hand, (1, 1, 1, 0, 0)),
        pyramids=(pyr, state.pyramids[1]),
    )


@pytest.mark.parametrize("footprint", ["fixed", "floating"])
def test_discard_only_when_that_colour_has_no_legal_cell(footprint):
    rules = YaxhaRules(num_players=2, footprint=footprint)
    g = rules.geometry
    rows = "OOOO OOOO OOOO OOOO" if footprint == "fixed" else "... ... ... ...OOOO ...OOOO ...OOOO ...OOOO"
    p = pyramid(g, rows)
    state = _build_state(rules, p, (1, 1, 0, 0, 1))  # orange, blue, white
    legal = rules.legal_actions(state)
    t = rules.table
    # The base is full: orange may go on any of the 9 level-2 cells; blue and white only go back.
    xs = range(3) if footprint == "fixed" else range(3, 6)
    expected = sorted(t.place(ORANGE, g.index[(x, y, 1)]) for x in xs for y in xs)
    assert sorted(a for a in legal if a < t.discard_start) == expected
    assert [a for a in legal if a >= t.discard_start] == [t.discard(BLUE), t.discard(WHITE)]
    with pytest.raises(IllegalActionError, match="discard orange"):
        rules.apply_action(state, t.discard(ORANGE), np.random.default_rng(0))
    after = rules.apply_action(state, t.discard(BLUE), np.random.default_rng(0))
    assert after.hands[0] == (1, 0, 0, 0, 1) and after.discarded == (1, 0) and after.pyramids[0] == p


def test_cube_placed_earlier_in_the_round_counts_for_support_and_colour():
    rules = YaxhaRules(num_players=2, footprint="fixed")
    g, t = rules.geometry, rules.table
    state = _build_state(rules, pyramid(g, "OO.. G..."), (0, 0, 2, 0, 1))
    rng = np.random.default_rng(0)
    assert t.place(GREEN, g.index[(0, 0, 1)]) not in rules.legal_actions(state)
    state = rules.apply_action(state, t.place(GREEN, g.index[(1, 1, 0)]), rng)  # seat 0, cube 1
    state = rules.apply_action(state, rules.legal_actions(state)[0], rng)  # seat 1, cube 1
    assert rules.current_player(state) == 0
    assert t.place(GREEN, g.index[(0, 0, 1)]) in rules.legal_actions(state)
    assert t.place(WHITE, g.index[(0, 0, 1)]) not in rules.legal_actions(state)
    assert state.fresh[0] == (g.index[(1, 1, 0)],)


def test_place_outside_legal_cells_raises_and_names_the_move():
    rules = YaxhaRules(num_players=2, footprint="floating")
    state = _build_state(rules, pyramid(rules.geometry), (1, 1, 1, 0, 0))
    bad = rules.table.place(ORANGE, rules.geometry.index[(0, 0, 0)])
    with pytest.raises(IllegalActionError, match=r"place orange L1 \(0,0\).*'build'"):
        rules.apply_action(state, bad, np.random.default_rng(0))
    with pytest.raises(IllegalActionError):  # white is not in the hand
        rules.apply_action(state, rules.table.place(WHITE, rules.geometry.anchor), np.random.default_rng(0))


def _cells_by_definition(rules, pyramid, colour):
    """Section 5 read literally, cell by cell (no frontier, no memo)."""
    g = rules.geometry
    base = [g.coords[i][:2] for i in g.base_cells if pyramid[i] >= 0]
    out = []
    for cell in range(g.num_cells):
        if pyramid[cell] >= 0:
            continue
        if g.level[cell] == 0 and not base:
            ok = g.anchor is None or cell == g.anchor
        elif g.level[cell] == 0:
            xs = [x for x, _ in base] + [g.coords[cell][0]]
            ys = [y for _, y in base] + [g.coords[cell][1]]
            ok = max(xs) - min(xs) <= 3 and max(ys) - min(ys) <= 3 and any(pyramid[j] >= 0 for j in g.orth[cell])
        else:
            ok = all(pyramid[j] >= 0 for j in g.supports[cell]) and any(pyramid[j] == colour for j in g.touch[cell])
        if ok:
            out.append(cell)
    return out


@pytest.mark.parametrize("footprint", ["floating", "fixed"])
def test_frontier_updated_cube_by_cube_matches_the_rule_read_literally(footprint):
    # apply_action derives each new pyramid's frontier from its predecessor's; a fresh rules
    # object (empty memo) computes it from scratch; both must be section 5 read literally.
    from maya_envs.bots import RandomBot

    rules = YaxhaRules(num_players=2, footprint=footprint)
    rng = np.random.default_rng(3)
    for game in range(6):
        state, bot = rules.initial_state(rng), RandomBot(rules, game)
        while not rules.is_terminal(state):
            fresh = YaxhaRules(num_players=2, footprint=footprint)
            for pyr in state.pyramids:
                for colour in range(5):
                    expected = _cells_by_definition(rules, pyr, colour)
                    assert rules.legal_cells(pyr, colour) == expected == fresh.legal_cells(pyr, colour)
                    assert all(rules.cell_is_legal(pyr, colour, c) for c in expected)
            state = rules.apply_action(state, bot.act(state), rng)
