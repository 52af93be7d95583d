"""Hidden information: resample what a seat cannot know, consistently with what it can know
(owners, positions, low/high backs, revealed values, its own cards), and check that the seat's
observation, mask, info and rendered view do not change."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.bots import make_bot
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.observation import MayaQuarryObserver, observe
from maya_envs.maya_quarry.render import render_text
from maya_envs.maya_quarry.rules.state import BID

from ..conformance import check_seat_reads, play_states
from .helpers import make_rules
from .hidden import resample_hidden


def _views(rules, s, seat):
    mask = rules.legal_mask(s) if rules.current_player(s) == seat else None
    return observe(rules, s, seat), mask, rules.final_info(s), render_text(rules, s, seat)


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("kind", ["random", "heuristic"])
@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_resampled_hidden_values_do_not_change_the_view(n, kind, variant):
    rules = make_rules(n, variant=variant)
    rng = np.random.default_rng(n)
    changed_somewhere = 0
    for game in range(6):
        bots = [make_bot(kind, rules, seed=game * 10 + seat) for seat in range(n)]
        for index, s in enumerate(play_states(rules, bots, np.random.default_rng(game))):
            if index % 3 and s.phase != BID:
                continue
            for observer in range(n):
                other = resample_hidden(s, observer, rng)
                changed_somewhere += other != s
                obs, mask, info, text = _views(rules, s, observer)
                obs2, mask2, info2, text2 = _views(rules, other, observer)
                assert np.array_equal(obs, obs2), f"observation of seat {observer} leaks hidden values"
                assert (mask is None and mask2 is None) or np.array_equal(mask, mask2)
                assert info == info2 and text == text2
    assert changed_somewhere > 100  # the resampling really changed hidden values


def test_observation_shows_own_values_and_hides_others():
    """Sensitivity check: the encoder does expose a seat's own card values (so the test above
    would catch a leak of another seat's)."""
    rules = make_rules(3)
    s = rules.initial_state()
    for p in (0, 0, 0, 1, 1, 1):
        s = rules.apply_action(s, A.place_id(p, 0))
    s = rules.apply_action(s, A.worker_id(0, 0))  # seat 0 plays its 3 at q0
    other = s.clone()
    other.columns[0] = [(0, 2)]  # ... or its 5
    other.hands[0:7] = [0, 2, 1, 1, 1, 1, 1]
    other.hands[2] = 0
    other.hands[0] = 1
    other._cache = {}
    assert not np.array_equal(observe(rules, s, 0), observe(rules, other, 0))
    assert np.array_equal(observe(rules, s, 1), observe(rules, other, 1))


@pytest.mark.parametrize("n", [3, 5])
def test_observation_in_unit_box(n):
    rules = make_rules(n)
    bots = [make_bot("random", rules, seed=seat) for seat in range(n)]
    for s in play_states(rules, bots, np.random.default_rng(1)):
        for seat in range(n):
            obs = observe(rules, s, seat)
            assert obs.dtype == np.float32 and obs.shape == MayaQuarryObserver(rules).layout.shape
            assert obs.min() >= 0.0 and obs.max() <= 1.0


def test_hidden_moves_read_differently_to_other_seats():
    """The per-seat notation check (every game: tests/test_conformance.py) meets hidden moves
    here: a face-down card is ``?`` to the other seats, and alternatives that look the same to
    them read the same."""
    hidden_texts, checked_alternatives = check_seat_reads(("maya_quarry", {"num_players": 4, "variant": "advanced"}))
    assert hidden_texts > 0 and checked_alternatives > 0
