"""Bad inputs to the JAX Maya (2012) engine (issue 44): an illegal or out-of-range action id
ends the game on a valid position (the one before the move, as the PettingZoo env leaves it),
a non-integer id is refused rather than truncated, and a seat outside the game is refused
(static) or gives NaN (traced), never another seat's view."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")
jnp = jax.numpy

from maya_envs.jax import Maya2012, state_to_rules  # noqa: E402
from maya_envs.maya2012 import state as S  # noqa: E402

BAD_IDS = {"masked out": None, "75": 75, "-1": -1, "250": 250, "-48": -48}


_GAMES: dict[int, tuple] = {}


def _playing(num_players: int, moves: int = 6):
    """An env, its jitted step and a state ``moves`` legal steps into a game (the first legal
    id each time); compiled once per player count (module cache: compiling is most of the cost)."""
    if num_players not in _GAMES:
        env = Maya2012(num_players=num_players)
        step = jax.jit(env.step)
        state = jax.jit(env.init)(jax.random.PRNGKey(num_players))
        for _ in range(moves):
            state = step(state, jnp.int32(np.flatnonzero(np.asarray(state.legal_action_mask))[0]))
        assert not bool(state.terminated)
        _GAMES[num_players] = env, step, state
    return _GAMES[num_players]


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("label", list(BAD_IDS))
def test_an_illegal_id_ends_the_game_on_the_position_before_it(num_players, label):
    env, step, state = _playing(num_players)
    bad = BAD_IDS[label]
    if bad is None:
        bad = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    after = step(state, jnp.int32(bad))
    assert bool(after.terminated) and not bool(after.truncated)
    before = state_to_rules(state)
    assert state_to_rules(after) == dataclasses.replace(before, phase=S.OVER)
    offender = int(state.current_player)
    team = [s for s in range(num_players) if s == offender or (num_players == 4 and s % 2 == offender % 2)]
    expected = [-1.0 if s in team else 0.0 for s in range(num_players)]
    np.testing.assert_array_equal(np.asarray(after.rewards), expected)
    assert "<svg" in after.to_svg()
    assert env.rules.is_terminal(state_to_rules(after))


def test_illegal_ids_in_a_batch_touch_only_their_own_games():
    env, _, state = _playing(2)
    batch = jax.tree_util.tree_map(lambda v: jnp.stack([v, v, v]), state)
    legal = int(np.flatnonzero(np.asarray(state.legal_action_mask))[0])
    after = jax.jit(jax.vmap(env.step))(batch, jnp.asarray([legal, 75, -3], jnp.int32))
    np.testing.assert_array_equal(np.asarray(after.terminated), [False, True, True])
    np.testing.assert_array_equal(np.asarray(after.rewards[:, 1]), [0.0, 0.0, 0.0])
    alone = jax.jit(env.step)(state, jnp.int32(legal))
    assert state_to_rules(after, 0) == state_to_rules(alone)
    for row in (1, 2):
        assert state_to_rules(after, row) == dataclasses.replace(state_to_rules(state), phase=S.OVER)


NON_INTEGERS = {"float": 48.7, "f32": np.float32(3.0), "bool": True, "array": np.array([1.5, 2.0])}


@pytest.mark.parametrize("action", list(NON_INTEGERS.values()), ids=list(NON_INTEGERS))
def test_non_integer_ids_are_refused_not_truncated(action):
    env, _, state = _playing(2)
    with pytest.raises(TypeError, match="integer dtype"):
        env.step(state, action)
    with pytest.raises(TypeError, match="integer dtype"):  # under jit: refused when traced
        jax.jit(env.step).trace(state, jnp.asarray(action).reshape(-1)[0])
    batch = jax.tree_util.tree_map(lambda v: jnp.stack([v, v]), state)
    with pytest.raises(TypeError, match="integer dtype"):
        jax.jit(jax.vmap(env.step)).trace(batch, jnp.asarray([48.7, 1.0]))


def test_integer_ids_of_every_integer_kind_are_accepted():
    env, step, state = _playing(2)
    legal = int(np.flatnonzero(np.asarray(state.legal_action_mask))[0])
    expected = state_to_rules(step(state, jnp.int32(legal)))
    assert state_to_rules(step(state, np.int64(legal))) == expected
    for action in (legal, np.uint8(legal), jnp.int16(legal)):
        traced = jax.jit(env.step).trace(state, action)  # accepted whatever the int dtype
        assert traced.out_info.legal_action_mask.shape == (75,)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_a_seat_outside_the_game_is_refused_or_nan(num_players):
    env, _, state = _playing(num_players)
    for seat in (-1, num_players, 7, np.int64(num_players)):
        with pytest.raises(ValueError, match=f"allowed 0..{num_players - 1}"):
            env.observe(state, seat)
    with pytest.raises(TypeError, match="integer dtype"):
        env.observe(state, 1.0)
    traced = jax.jit(env.observe)
    assert np.isnan(np.asarray(traced(state, jnp.int32(num_players)))).all()
    assert np.isnan(np.asarray(traced(state, jnp.int32(-1)))).all()
    for seat in range(num_players):
        np.testing.assert_array_equal(np.asarray(traced(state, jnp.int32(seat))), np.asarray(env.observe(state, seat)))
