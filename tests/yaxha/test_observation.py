"""The observation index table of maya_envs.yaxha.observation, checked slice by slice."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.core.layout import action_feature_block
from maya_envs.yaxha.determinize import determinize
from maya_envs.yaxha.observation import YaxhaObserver, observation_layout
from maya_envs.yaxha.rules import BUILD, YaxhaRules
from maya_envs.yaxha.scoring import find_groups, score_pyramids

from ..conformance import check_seat_reads
from .helpers import play_random, with_fields


@pytest.mark.parametrize(
    ("n", "footprint", "size", "with_features"),
    [(2, "floating", 1326, 3222), (3, "floating", 1977, 3876), (4, "floating", 2634, 4536), (2, "fixed", 366, 822)]
    + [(4, "fixed", 714, 1176)],
)
def test_sizes_match_the_documented_table(n, footprint, size, with_features):
    rules = YaxhaRules(num_players=n, footprint=footprint)
    assert YaxhaObserver(rules).layout.shape == (size,)
    layout = observation_layout(n, rules.geometry.num_cells)
    assert layout["pyramids"] == slice(0, n * rules.geometry.num_cells * 5)
    assert layout["phase"].stop == size and "action_features" not in layout
    observer = YaxhaObserver(rules, action_features=True)
    assert observer.layout.shape == (with_features,)
    layout = observation_layout(n, rules.geometry.num_cells, action_features=True)
    assert layout["phase"].stop == size and layout["action_features"].stop == with_features
    assert action_feature_block(observer.layout) == (size, 3, rules.table.discard_start)
    obs = observer.encode(rules.initial_state(np.random.default_rng(0)), 0)
    assert obs.shape == (with_features,) and obs.min() >= 0 and obs.max() <= 1


def test_slices_hold_what_the_table_says():
    rules = YaxhaRules(num_players=3, bonus_cards=[2, 11, 17])
    n, cells = 3, rules.geometry.num_cells
    lay = observation_layout(n, cells)
    state = with_fields(
        rules.initial_state(np.random.default_rng(0)),
        initiative=(2, 3, 1),
        market=((3, 0, 0, 0, 0), (0, 1, 2, 0, 0), (0, 0, 0, 1, 2)),
    )
    obs = YaxhaObserver(rules).encode(state, 1)  # observer seat 1: r=0 is seat 1, r=1 seat 2, r=2 seat 0
    assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1
    np.testing.assert_array_equal(obs[lay["initiative"]].reshape(3, 3), [[0, 0, 1], [1, 0, 0], [0, 1, 0]])
    np.testing.assert_allclose(obs[lay["market"]].reshape(3, 5)[1], [0, 1 / 3, 2 / 3, 0, 0])
    np.testing.assert_array_equal(np.flatnonzero(obs[lay["bonus"]]), [2, 11, 17])
    assert obs[lay["round"]][0] == 1 and obs[lay["phase"]].tolist() == [1, 0, 0, 0]
    np.testing.assert_allclose(obs[lay["bag"]], np.array(state.bag) / 24)
    # Seat 0 picks tile 2: only seat 0 sees it (r=0 of its own view).
    state = rules.apply_action(state, 2, None)
    assert obs[lay["choices"]].sum() == 0
    assert YaxhaObserver(rules).encode(state, 0)[lay["choices"]].reshape(3, 3)[0].tolist() == [0, 0, 1]
    assert YaxhaObserver(rules).encode(state, 1)[lay["choices"]].sum() == 0
    # Seats 1 and 2 pick 0 and 1: revealed, everyone sees every choice; building starts.
    state = rules.apply_action(rules.apply_action(state, 0, None), 1, None)
    assert state.phase == BUILD
    view = YaxhaObserver(rules).encode(state, 1)
    np.testing.assert_array_equal(view[lay["choices"]].reshape(3, 3), [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    np.testing.assert_array_equal(view[lay["owner"]].reshape(3, 3), [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    np.testing.assert_allclose(view[lay["hand"]], [1, 0, 0, 0, 0])  # tile 0: three orange
    # Seat 0 places a white cube on the anchor: its own view shows it, seat 1's not yet.
    place = rules.table.place(4, rules.geometry.anchor)
    state = rules.apply_action(state, place, None)
    index = (0 * cells + rules.geometry.anchor) * 5 + 4
    assert YaxhaObserver(rules).encode(state, 0)[index] == 1
    other = (2 * cells + rules.geometry.anchor) * 5 + 4  # seat 0 is r=2 for observer 1
    assert YaxhaObserver(rules).encode(state, 1)[lay["pyramids"]][other] == 0
    assert state.pyramids[0][rules.geometry.anchor] == 4


def _brute_force(rules, state, observer, pyramid):
    """(colour points, margin) of ``observer`` with its pyramid replaced by ``pyramid``, the
    other seats' pyramids without their cubes of this round: scoring.score_pyramids itself."""
    visible = [
        pyramid if seat == observer else tuple(-1 if i in state.fresh[seat] else c for i, c in enumerate(p))
        for seat, p in enumerate(state.pyramids)
    ]
    scores = score_pyramids(rules.geometry, tuple(visible), state.bonus_cards, rules.config.bonus_zero_ties_score)
    totals = [s["total"] for s in scores]
    colour = sum(scores[observer]["colour_points"].values())
    return colour, totals[observer] - max(t for seat, t in enumerate(totals) if seat != observer)


def _mapped(change):
    return min(max(0.5 + change / 12, 0), 1)


@pytest.mark.parametrize(
    ("n", "cards", "seed"), [(2, "random", 1), (3, [5, 13, 15], 2), (4, [10, 12, 16], 3), (3, [11, 14, 17], 4)]
)
def test_action_features_are_the_scoring_of_each_placement_on_the_visible_pyramids(n, cards, seed):
    rules = YaxhaRules(num_players=n, bonus_cards=cards)
    observer = YaxhaObserver(rules, action_features=True)
    g, t = rules.geometry, rules.table
    start, rows, width = action_feature_block(observer.layout)
    assert (rows, width) == (3, t.discard_start)
    checked = {"place": 0, "pick": 0}
    for state, _ in play_random(rules, seed):
        if rules.is_terminal(state):
            break
        me = rules.current_player(state)
        features = observer.encode(state, me)[start:].reshape(3, width)
        legal = rules.legal_actions(state)
        assert not features[:, [a for a in range(width) if a not in legal]].any()
        mine = state.pyramids[me]
        colour0, margin0 = _brute_force(rules, state, me, mine)
        best = {}
        for colour in range(5):
            options = []
            for cell in rules.legal_cells(mine, colour):
                after = mine[:cell] + (colour,) + mine[cell + 1 :]
                colour1, margin1 = _brute_force(rules, state, me, after)
                options.append((colour1 - colour0, margin1 - margin0))
                action = t.place(colour, cell)
                if state.phase == BUILD and action in legal:
                    size = next(gr.size for gr in find_groups(g, after) if cell in gr.cells)
                    expected = [_mapped(colour1 - colour0), _mapped(margin1 - margin0), min(size / 12, 1)]
                    np.testing.assert_allclose(features[:, action], expected, atol=1e-6)
                    checked["place"] += 1
            best[colour] = (max(p for p, _ in options), max(m for _, m in options)) if options else None
        if state.phase != BUILD:
            for tile in legal:
                counts = state.market[tile]
                points = sum(k * best[c][0] for c, k in enumerate(counts) if k and best[c])
                margin = sum(k * best[c][1] for c, k in enumerate(counts) if k and best[c])
                stuck = sum(k for c, k in enumerate(counts) if k and not best[c])
                np.testing.assert_allclose(features[:, tile], [_mapped(points), _mapped(margin), stuck / 3], atol=1e-6)
                checked["pick"] += 1
    assert checked["place"] > 100 and checked["pick"] > 10


@pytest.mark.parametrize("n", [2, 3, 4])
def test_observation_and_action_features_use_only_what_the_seat_may_know(n):
    """Every seat's observation, action features included, is the same for the true state and
    for a determinization of it (other seats' hidden tile choices and cubes of this round redrawn)."""
    rules = YaxhaRules(num_players=n, bonus_cards=[2, 13, 15] if n > 2 else [0, 13, 15])
    encoder = YaxhaObserver(rules, action_features=True)
    rng = np.random.default_rng(n)
    differs = 0
    for state, _ in play_random(rules, 10 + n):
        if rules.is_terminal(state):
            break
        for observer in range(n):
            other = determinize(rules, state, observer, rng)
            differs += other != state
            np.testing.assert_array_equal(encoder.encode(state, observer), encoder.encode(other, observer))
    assert differs > 50


def test_hidden_moves_read_differently_to_other_seats():
    """The per-seat notation check (every game: tests/test_conformance.py) meets hidden moves
    here: a tile picked in secret is ``?`` to the other seats, and alternatives that look the same
    to them read the same."""
    hidden_texts, checked_alternatives = check_seat_reads(("yaxha", {"num_players": 3, "footprint": "fixed"}))
    assert hidden_texts > 0 and checked_alternatives > 0
