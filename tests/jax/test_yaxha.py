"""The JAX Yaxha engine (maya_envs.jax.Yaxha, issue 46) equals the rules engine step for step,
keeps hidden what a seat may not see, scores as the rules do, and passes Pgx's own api_test.

The lock-step games run in one vmapped batch per config, the rules' market draws put into the
JAX bag (``arrange_draws``); one game of each batch ends early on an illegal id, so finished and
unfinished games share the batched steps.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pgx = pytest.importorskip("pgx")
jnp = jax.numpy

from maya_envs.jax import Yaxha  # noqa: E402
from maya_envs.jax.yaxha import arrange_draws, game_from_rules, state_from_rules, state_to_rules  # noqa: E402
from maya_envs.yaxha.rules import BUILD, NUM_ROUNDS, OVER, SELECT, YaxhaRules  # noqa: E402
from maya_envs.yaxha.scoring import bonus_card_winners, pyramid_stats  # noqa: E402
from tests.jax.pgx_referee import run_api_test  # noqa: E402
from tests.jax.yaxha_lockstep import Batch, play_lockstep, random_pyramid  # noqa: E402

CONFIGS = {
    "2p floating": {},
    "2p fixed first_game diff": {"footprint": "fixed", "bonus_cards": "first_game", "reward_scheme": "score_diff"},
    "3p floating bga_random zero ties": {"num_players": 3, "bonus_cards": "bga_random", "bonus_zero_ties_score": True},
    "3p fixed small bag": {"num_players": 3, "footprint": "fixed", "cubes_per_colour": 18},
    "4p floating": {"num_players": 4},
    "4p fixed cards score_diff": {"num_players": 4, "footprint": "fixed", "bonus_cards": [5, 13, 15],
                                  "reward_scheme": "score_diff"},
}  # fmt: skip


@pytest.fixture(scope="module", params=list(CONFIGS))
def batch(request):
    return Batch(CONFIGS[request.param])


def test_the_jax_engine_equals_the_rules_engine_step_for_step(batch):
    seen = play_lockstep(batch, seeds=[1000, 1001], illegal_at={1: 9})
    assert seen["over"] == 0 and seen["illegal"] == 1
    assert seen["pending pick"] + seen["clash of 2"] > 0  # clashes and initiative swaps were met


def _all_on_tile_0(game, mask, rules_state, rng):
    """Every seat picks tile 0 (an N-way clash every round); pending picks and cubes at random."""
    if rules_state.phase == SELECT:
        return 0
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize(
    "options", [{"num_players": 4}, pytest.param({"num_players": 3, "footprint": "fixed"}, marks=pytest.mark.slow)]
)
def test_rare_branches_in_lock_step(options):
    """All-seat clashes (4p: initiative 1<->4 and 2<->3; 3p: the middle keeps its number), chains
    of pending picks with a forced last one, the bag emptied by round 10's market (4p: 120 of
    120 cubes), discards: met, and equal in both engines."""
    seen = play_lockstep(Batch(options), seeds=[7], policy=_all_on_tile_0)
    n = options["num_players"]
    assert seen[f"clash of {n}"] == NUM_ROUNDS
    assert seen["pending pick"] == NUM_ROUNDS * (n - 2)  # n - 1 pending seats, the last one forced
    assert seen["discard"] > 0
    if n == 4:
        assert seen["empty bag"] > 0


def _over_state(rules: YaxhaRules, pyramids, cards):
    start = rules.initial_state(np.random.default_rng(0))
    return dataclasses.replace(start, round=NUM_ROUNDS, phase=OVER, pyramids=tuple(pyramids), bonus_cards=cards)


@pytest.mark.parametrize(
    "options",
    [
        {"num_players": 3},
        {"num_players": 4, "footprint": "fixed", "bonus_zero_ties_score": True, "reward_scheme": "score_diff"},
    ],
)
def test_scores_cards_and_returns_equal_the_rules(options):
    """Totals, the winners of each of the 18 bonus cards, and the returns, on random pyramids
    built by the placement rules, some of them copies (ties at the top); every card is won and
    lost in the sample."""
    rng = np.random.default_rng(5)
    env = Yaxha(**options)
    rules, n, zero_ties = env.rules, env.num_players, env.config.bonus_zero_ties_score
    scores_of = jax.jit(jax.vmap(lambda x: (env._card_winners(x)[1], env._totals(x), env._returns(x))))
    games, overs, expected = [], [], []
    for k in range(48):
        pyramids = [random_pyramid(rules, rng) for _ in range(n)]
        if k % 3 == 0:
            pyramids[1] = pyramids[0]
        cards = tuple(sorted(rng.choice(18, 3, replace=False).tolist()))
        overs.append(_over_state(rules, pyramids, cards))
        games.append(game_from_rules(env, overs[-1]))
        stats = [pyramid_stats(rules.geometry, p) for p in pyramids]
        expected.append(np.array([bonus_card_winners(c, stats, zero_ties) for c in range(18)]).T)
    winners, totals, returns = map(np.asarray, scores_of(jax.tree_util.tree_map(lambda *v: jnp.stack(v), *games)))
    for k, over in enumerate(overs):
        np.testing.assert_array_equal(winners[k], expected[k], err_msg=f"pyramids {k}")
        assert totals[k].tolist() == rules.totals(over)
        np.testing.assert_array_equal(returns[k], rules.returns(over).astype(np.float32))
    assert winners.any(axis=(0, 1)).all() and (~winners).any(axis=(0, 1)).all()
    assert sum(int((t == t.max()).sum() > 1) for t in totals) > 0  # shared wins were scored


def test_a_seat_never_sees_other_picks_before_the_reveal_others_fresh_cubes_or_the_bag_order():
    """Resampling what a seat may not see leaves its observation (and the mask) unchanged: other
    seats' committed picks, the order of the bag, other seats' cubes placed this round. Its own
    pick and own cubes do show (the check is not vacuous)."""
    env = Yaxha(num_players=4)
    views_of = jax.jit(lambda s: jnp.stack([env.observe(s, p) for p in range(4)]))
    step, mask_of = jax.jit(env.step), jax.jit(env._mask)
    state = jax.jit(env.init)(jax.random.PRNGKey(3))
    rng = np.random.default_rng(0)
    checked = {"picks": 0, "bag": 0, "fresh": 0}

    def compare(changes, hidden_from):
        views = np.asarray(views_of(state.replace(_x=state._x._replace(**changes))))
        for seat in range(4):
            same = np.array_equal(views[seat], base[seat])
            assert same == (seat in hidden_from), (changes.keys(), seat)

    for _ in range(4 + 12 + 3):  # round 1 and the picks of round 2
        x = jax.device_get(state._x)
        base = np.asarray(views_of(state))
        drawn = env._total_cubes - int(x.bag.sum())
        order = x.order.copy()
        rng.shuffle(order[drawn:])
        compare({"order": jnp.asarray(order)}, hidden_from=range(4))
        mask = mask_of(state._x._replace(order=jnp.asarray(order)))
        np.testing.assert_array_equal(np.asarray(mask), np.asarray(state.legal_action_mask))
        checked["bag"] += 1
        if int(x.phase) == SELECT:
            for seat in np.flatnonzero(x.choices >= 0):
                choices = x.choices.copy()
                choices[seat] = (choices[seat] + 1) % 4
                compare({"choices": jnp.asarray(choices)}, hidden_from=[s for s in range(4) if s != seat])
                checked["picks"] += 1
        if int(x.phase) == BUILD:
            for seat, cells in enumerate(x.fresh):
                for cell in cells[cells >= 0]:
                    pyramids = x.pyramids.copy()
                    pyramids[seat, cell] = (pyramids[seat, cell] + 1) % 5
                    compare({"pyramids": jnp.asarray(pyramids)}, hidden_from=[s for s in range(4) if s != seat])
                    checked["fresh"] += 1
        action = int(rng.choice(np.flatnonzero(np.asarray(state.legal_action_mask))))
        state = step(state, jnp.int32(action))
    assert all(checked.values()), checked


def test_arrange_draws_sets_the_next_market_and_refuses_cubes_not_in_the_bag():
    env = Yaxha(num_players=2, footprint="fixed", cubes_per_colour=12)
    state = jax.jit(env.init)(jax.random.PRNGKey(0))
    market = [[3, 0, 0, 0, 0], [0, 1, 1, 0, 1]]
    x = arrange_draws(state, market)._x
    np.testing.assert_array_equal(np.asarray(env._draw(x.order, x.bag)[0]), market)
    short = dataclasses.replace(env.rules.initial_state(np.random.default_rng(0)), bag=(2, 12, 12, 12, 12))
    with pytest.raises(ValueError, match="not in the bag"):
        arrange_draws(state_from_rules(env, short), market)
    with pytest.raises(ValueError, match="expected 2 tiles"):
        arrange_draws(state, [[3, 0, 0, 0, 0]])


@pytest.mark.parametrize("num_players,footprint", [(2, "floating"), (3, "fixed"), (4, "floating")])
def test_pgx_api_test_passes(num_players, footprint):
    """Pgx's own referee (single and batched random games), patched as tests/jax/pgx_referee.py says."""
    run_api_test(Yaxha(num_players=num_players, footprint=footprint), num=1)


def test_init_draws_the_bag_cards_and_initiative_from_the_key():
    env = Yaxha(num_players=3, bonus_cards="first_game")
    states = jax.device_get(jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(1), 64)))
    bags = {tuple(states._x.order[g]) for g in range(64)}
    assert len(bags) == 64
    for g in range(64):
        s = state_to_rules(states, g)
        assert sorted(s.initiative) == [1, 2, 3] and len(set(s.bonus_cards)) == 3
        assert set(s.bonus_cards) <= {0, 1, 2, 3, 4, 10, 11, 12}
        assert sum(map(sum, s.market)) == 9 and [sum(t) for t in s.market] == [3, 3, 3]
        assert np.bincount(states._x.order[g], minlength=5).tolist() == [24] * 5
