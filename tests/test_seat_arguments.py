"""A seat passed to a game's observer or action-feature block is an int (numpy ints too) in
range, in every game of the table; anything else is a ValueError naming it (issue 48 item 4:
the one predicate, maya_envs.core.checks.is_int, so ``True``, ``1.0`` or ``"1"`` never pass as
seat 1, nor fail with an unrelated TypeError)."""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.games import GAMES

NOT_SEATS = [True, False, 1.0, np.float32(0), "1", None, [0]]


def _game(key):
    game = GAMES[key]
    rules = game.make_rules({})
    return game, rules, rules.initial_state(np.random.default_rng(0))


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
def test_an_observer_refuses_a_seat_that_is_not_an_int(key, seat):
    game, rules, state = _game(key)
    with pytest.raises(ValueError, match="seat"):
        game.hook("observer")(rules).encode(state, seat)


@pytest.mark.parametrize("key", sorted(k for k, g in GAMES.items() if g.hook("features") is not None))
@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
def test_a_feature_block_refuses_a_seat_that_is_not_an_int(key, seat):
    game, rules, state = _game(key)
    with pytest.raises(ValueError, match="seat"):
        game.hook("features")(rules)(state, seat, [])


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_numpy_int_seat_is_a_seat(key):
    game, rules, state = _game(key)
    observer = game.hook("observer")(rules)
    np.testing.assert_array_equal(observer.encode(state, np.int64(0)), observer.encode(state, 0))
