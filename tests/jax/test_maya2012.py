"""The JAX engine (maya_envs.jax, issue 33) equals the rules engine step for step, passes Pgx's own
api_test, and its step compiles once.

Each config compiles one vmapped step and one vmapped all-seats observation (module-scoped
fixtures); its games are the pinned trajectories' (``reset(seed=1000 + g)`` of the PettingZoo env,
random masked-in actions from ``default_rng(g)``), played side by side in one batch, so finished
and unfinished games share every batched step. The drafted setup's chance outcomes (blocks,
cards) come from different generators: the JAX draw is checked for validity, then the rules'
outcome is put in and the game goes on from the same state.
"""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pgx = pytest.importorskip("pgx")
jnp = jax.numpy

from maya_envs.jax import (  # noqa: E402
    Maya2012,
    relabel_board,
    sample_board,
    state_from_rules,
    state_to_rules,
    unpack_towers,
)
from maya_envs.maya2012 import actions as A  # noqa: E402
from maya_envs.maya2012.rules import DRAFT, EMPTY  # noqa: E402
from tests.conformance import env_module  # noqa: E402
from tests.jax.pgx_referee import run_api_test  # noqa: E402

ENV_MODULE = env_module("maya2012")

CONFIGS = {
    "2p choose": {},
    "2p random score_diff": {"setup": "random", "max_turns": 150, "reward_scheme": "score_diff"},
    "2p draft truncate": {"setup": "draft", "max_turns": 60, "at_max_turns": "truncate"},
    "3p random": {"num_players": 3},
    "3p draft always best": {"num_players": 3, "setup": "draft", "declare_step": "always", "three_plus_two": "best"},
    "4p random score_diff": {"num_players": 4, "reward_scheme": "score_diff", "max_turns": 120},
    "4p draft eligible best": {"num_players": 4, "setup": "draft", "declare_step": "eligible", "three_plus_two": "best"},
}
GAMES = 2


class Batch:
    """One config's compiled functions: vmapped step, observations of every seat, re-wrap."""

    def __init__(self, options: dict) -> None:
        self.env = env = Maya2012(**options)
        n = env.num_players
        self.step = jax.jit(jax.vmap(env.step))
        self.observe_all = jax.jit(jax.vmap(lambda s: jnp.stack([env.observe(s, p) for p in range(n)])))

        def rewrap(state, x):  # chance outcomes put in: mask and observation again, rewards kept
            fresh = env._wrap(x, x, state._step_count)
            fresh = fresh.replace(rewards=state.rewards)
            return fresh.replace(observation=env.observe(fresh))

        self.rewrap = jax.jit(jax.vmap(rewrap))


@pytest.fixture(scope="module", params=list(CONFIGS))
def batch(request):
    return request.param, Batch(CONFIGS[request.param])


def _stack(states):
    return jax.tree_util.tree_map(lambda *v: jnp.stack(v), *states)


def _row(tree, g):
    return jax.tree_util.tree_map(lambda v: v[g], tree)


def _check_draft_draw(jax_state) -> None:
    """The JAX engine's own chance outcome is a legal one: the next block is a colour the level
    still lacks (any colour once a level is done), the deal a partition of the 8 hidden cards."""
    ours = state_to_rules(jax_state)
    if ours.phase == DRAFT:
        built = [sum(c != EMPTY for c in column) for column in ours.towers]
        level = min(built)
        placed = {ours.towers[t][level] for t in range(9) if built[t] > level}
        assert ours.draft_block not in placed
    if ours.tasks:
        cards = [c for hand in ours.tasks for c in hand] + list(ours.spare)
        assert sorted(cards) == sorted(set(range(9)) - {ours.towers[4][0]})
        assert all(list(hand) == sorted(hand) for hand in ours.tasks)


def test_the_jax_engine_equals_the_rules_engine_step_for_step(batch):
    label, b = batch
    options = CONFIGS[label]
    envs = [ENV_MODULE.env(**options) for _ in range(GAMES)]
    rngs = [np.random.default_rng(g) for g in range(GAMES)]
    for g, env in enumerate(envs):
        env.reset(seed=1000 + g)
    seats = {f"player_{s}": s for s in range(b.env.num_players)}
    state = _stack([state_from_rules(b.env, env.unwrapped.game_state) for env in envs])
    draft = options.get("setup") == "draft"
    key = jax.random.PRNGKey(0)
    steps = 0
    was_over = [False] * GAMES
    while True:
        observations = np.asarray(b.observe_all(state))
        masks = np.asarray(state.legal_action_mask)
        done = np.asarray(state.terminated | state.truncated)
        host = jax.device_get(state)
        actions = np.zeros(GAMES, np.int32)
        for g, env in enumerate(envs):
            over = all(env.terminations.values()) or all(env.truncations.values())
            assert done[g] == over, (label, g, steps)
            assert bool(state.terminated[g]) == all(env.terminations.values())
            assert bool(state.truncated[g]) == (all(env.truncations.values()) and not any(env.terminations.values()))
            assert state_to_rules(host, g) == env.unwrapped.game_state, (label, g, steps)
            for agent, seat in seats.items():
                expected = env.unwrapped.observer.encode(env.unwrapped.game_state, seat)
                np.testing.assert_array_equal(observations[g, seat], expected, err_msg=f"{label} game {g} {agent}")
            rewards = np.array([env.rewards[a] for a in seats], np.float32) * (not was_over[g])
            was_over[g] = over  # a finished game is not stepped again: Pgx gives zero rewards after the end
            np.testing.assert_array_equal(np.asarray(state.rewards[g]), rewards, err_msg=f"{label} game {g}")
            if over:
                assert masks[g].all()  # Pgx: every action is allowed (and does nothing) once over
                continue
            agent = env.agent_selection
            assert int(state.current_player[g]) == seats[agent]
            mask = env.observe(agent)["action_mask"]
            np.testing.assert_array_equal(masks[g], mask.astype(bool), err_msg=f"{label} game {g} step {steps}")
            actions[g] = int(rngs[g].choice(np.flatnonzero(mask)))
            env.step(int(actions[g]))
        if done.all():
            break
        key, sub = jax.random.split(key)
        state = b.step(state, jnp.asarray(actions), jax.random.split(sub, GAMES))
        steps += 1
        if draft:
            rows = []
            host = jax.device_get(state)
            for g, env in enumerate(envs):
                ours = _row(host, g)
                _check_draft_draw(ours)
                theirs = env.unwrapped.game_state
                chance = dict(
                    draft_block=jnp.int32(theirs.draft_block),
                    tasks=jnp.asarray(theirs.tasks or ((-1, -1),) * b.env.num_players, jnp.int32),
                    spare=jnp.asarray(theirs.spare or (-1, -1), jnp.int32),
                )
                rows.append(jax.tree_util.tree_map(jnp.asarray, ours._x)._replace(**chance))
            state = b.rewrap(state, _stack(rows))
    assert steps > 20


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_pgx_api_test_passes(num_players):
    """Pgx's own referee (``pgx.api_test``, single and batched random games), with the two
    patches of ``tests/jax/pgx_referee.py`` (the game-id list, the random mover)."""
    run_api_test(Maya2012(num_players=num_players, max_turns=60), num=1)


def test_init_draws_valid_boards_deals_and_uniform_slots():
    """Every drawn board is valid and every deal a partition of the 8 hidden cards; and a quick
    chi-square on the colour of two slots over 270 boards (a biased sampler, e.g. level-by-level
    rejection, still passes this; the exactness rests on the algorithm, setup.py's)."""
    env = Maya2012(num_players=3)
    states = jax.device_get(jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(3), 270)))
    for g in range(270):
        rules_state = state_to_rules(states, g)
        towers = np.array(rules_state.towers)
        assert all(len(set(column)) == 5 for column in rules_state.towers)
        assert all(sorted(towers[:, level]) == list(range(9)) for level in range(5))
        cards = [c for hand in rules_state.tasks for c in hand] + list(rules_state.spare)
        assert sorted(cards) == sorted(set(range(9)) - {rules_state.towers[4][0]})
        assert all(list(hand) == sorted(hand) for hand in rules_state.tasks)
    boards = np.asarray(unpack_towers(states._x.towers))
    for tower, level in ((0, 0), (4, 4)):
        counts = np.bincount(boards[:, tower, level], minlength=9)
        chi2 = ((counts - 30) ** 2 / 30).sum()
        assert chi2 < 26.1, counts  # 8 degrees of freedom, p = 0.001


def test_relabelled_boards_are_valid_relabellings_of_their_base():
    """``relabel_board`` (the benchmark's cheap new boards): each result is a valid board with
    the base's relabelling invariant (how many towers hold each pair of colours, as a multiset:
    unchanged by permuting towers, levels and colours), and the relabellings of one base differ."""

    def pair_counts(board):
        together = np.zeros((9, 9), int)
        for column in board:
            together[np.ix_(column, column)] += 1
        return sorted(together[np.triu_indices(9, 1)])

    base = np.asarray(jax.jit(sample_board)(jax.random.PRNGKey(5)))
    relabel = jax.jit(jax.vmap(relabel_board, in_axes=(0, None)))
    boards = np.asarray(relabel(jax.random.split(jax.random.PRNGKey(6), 64), base))
    for board in boards:
        assert all(len(set(column)) == 5 for column in board)
        assert all(sorted(board[:, level]) == list(range(9)) for level in range(5))
        assert pair_counts(board) == pair_counts(base)
    assert len({board.tobytes() for board in boards}) > 60


def test_hidden_hands_and_the_illegal_action_penalty_4p():
    """Hidden information: resampling the other seats' cards changes nothing in my view. An
    illegal action ends the game: -1 for the offender's team (both partners), 0 for the others."""
    env = Maya2012(num_players=4)
    state = jax.jit(env.init)(jax.random.PRNGKey(11))
    observe = jax.jit(env.observe)
    mine = np.asarray(state._x.tasks[0])
    others = [c for c in range(9) if c not in mine and c != int(unpack_towers(state._x.towers)[4, 0])]
    rng = np.random.default_rng(0)
    base = np.asarray(observe(state, 0))
    for _ in range(3):
        rng.shuffle(others)
        tasks = jnp.asarray([sorted(mine), sorted(others[0:2]), sorted(others[2:4]), sorted(others[4:6])], jnp.int32)
        resampled = state.replace(_x=state._x._replace(tasks=tasks))
        np.testing.assert_array_equal(np.asarray(observe(resampled, 0)), base)
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    after = jax.jit(env.step)(state, jnp.int32(illegal))
    assert bool(after.terminated)
    np.testing.assert_array_equal(np.asarray(after.rewards), [-1.0, 0.0, -1.0, 0.0])


def test_step_does_not_recompile_across_steps():
    env = Maya2012()
    step = jax.jit(jax.vmap(env.step))
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 8))
    key = jax.random.PRNGKey(1)
    for _ in range(5):
        key, sub = jax.random.split(key)
        actions = jax.random.categorical(sub, jnp.log(state.legal_action_mask.astype(jnp.float32)), axis=1)
        state = step(state, actions, jax.random.split(sub, 8))
    assert step._cache_size() == 1
    assert A.NUM_ACTIONS == state.legal_action_mask.shape[1]


def test_observe_on_step_false_leaves_the_observation_to_observe():
    env = Maya2012(observe_on_step=False)
    state = jax.jit(env.init)(jax.random.PRNGKey(4))
    assert not np.asarray(state.observation).any()
    rules_state = state_to_rules(state)
    from maya_envs.maya2012.observation import observe

    for seat in (0, 1):
        expected = observe(env.rules, rules_state, seat)
        np.testing.assert_array_equal(np.asarray(jax.jit(env.observe)(state, seat)), expected)
