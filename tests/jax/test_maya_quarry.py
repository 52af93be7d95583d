"""The quarry game's JAX engine (maya_envs.jax.maya_quarry, issue 47) equals the rules engine
step for step, keeps hidden information out of other seats' views, and passes Pgx's api_test.

Each config compiles one vmapped step that also returns every seat's observation (a
module-scoped cache); its games are played side by side in one batch, so finished and
unfinished games share every batched step. Chance: the JAX engine draws the advanced
variant's blue markers (and a random start player) from its key; the rules engine is then
handed the same outcomes through :class:`~maya_envs.core.chance.OutcomeScript`.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pgx = pytest.importorskip("pgx")
jnp = jax.numpy

from maya_envs.core.chance import OutcomeScript  # noqa: E402
from maya_envs.jax import MayaQuarry  # noqa: E402
from maya_envs.jax.maya_quarry import state_from_rules, state_to_rules  # noqa: E402
from maya_envs.maya_quarry import actions as A  # noqa: E402
from maya_envs.maya_quarry.determinize import determinize  # noqa: E402
from maya_envs.maya_quarry.observation import MayaQuarryObserver  # noqa: E402
from maya_envs.maya_quarry.rules import Phase, auction, quarry, scoring  # noqa: E402
from tests.jax.pgx_referee import run_api_test  # noqa: E402

CONFIGS = {
    "3p basic": {"num_players": 3},
    "4p basic card ever_filled nothing": {
        "num_players": 4,
        "minus3_targets": "card",
        "global_level_rule": "ever_filled",
        "pool_shortfall": "nothing",
        "first_start_player": 2,
    },
    "5p basic majority cascade gold_diff": {
        "num_players": 5,
        "bonus_block_recipient": "majority",
        "relocate_unsupported": "cascade",
        "reward_scheme": "gold_diff",
        "missing_levels_full": False,
        "bonus_on_special_placements": False,
    },
    "3p advanced random start": {"num_players": 3, "variant": "advanced", "first_start_player": "random"},
    "4p advanced card plus2_empty": {
        "num_players": 4,
        "variant": "advanced",
        "minus3_targets": "card",
        "plus2_empty_quarry": True,
        "minus3_no_target": False,
    },
    "5p advanced every decision": {"num_players": 5, "variant": "advanced", "skip_forced": False},
}
GAMES = 3
SLOW = {"4p basic card ever_filled nothing", "5p basic majority cascade gold_diff", "3p advanced random start"}
"""Configs whose equality run is marked ``slow`` (each config costs a compile of about 20 CPU
seconds); the default run keeps one config per count and both variants."""
_COMPILED: dict[str, Batch] = {}


class Batch:
    """One config's env and its compiled batched step (with every seat's observation)."""

    def __init__(self, options: dict) -> None:
        self.env = env = MayaQuarry(**options)
        self.observer = MayaQuarryObserver(env.rules)
        n = env.num_players

        def step(state, actions, keys):
            new = jax.vmap(env.step)(state, actions, keys)
            seats = jax.vmap(lambda s: jnp.stack([env.observe(s, p) for p in range(n)]))(new)
            return new, seats

        self.step = jax.jit(step)
        self.init = jax.jit(jax.vmap(env.init))
        self.observe_all = jax.jit(jax.vmap(lambda s: jnp.stack([env.observe(s, p) for p in range(n)])))


def _batch(label: str) -> Batch:
    if label not in _COMPILED:
        _COMPILED[label] = Batch(CONFIGS[label])
    return _COMPILED[label]


def _row(tree, g):
    return jax.tree_util.tree_map(lambda v: v[g], tree)


def _differences(ours, theirs) -> dict:
    return {
        f: (getattr(ours, f), getattr(theirs, f))
        for f in theirs.__dataclass_fields__
        if f != "_cache" and getattr(ours, f) != getattr(theirs, f)
    }


def play(label: str, choose, games: int = GAMES, seed: int = 0, on_state=None) -> Counter:
    """Play ``games`` games of config ``label`` in both engines, checking every step; ``choose(rules,
    state, legal, rng) -> action`` picks the moves. Returns the count of each action kind taken."""
    b = _batch(label)
    rules, n = b.env.rules, b.env.num_players
    keys = jax.random.split(jax.random.PRNGKey(seed), games)
    state = b.init(keys)
    observations = np.asarray(b.observe_all(state))
    host = jax.device_get(state)
    starts = [OutcomeScript([state_to_rules(host, g).start]) for g in range(games)]
    rule_states = [rules.initial_state(starts[g]) for g in range(games)]
    rngs = [np.random.default_rng(seed * 100 + g) for g in range(games)]
    kinds: Counter = Counter()
    key = jax.random.PRNGKey(seed + 1)
    ended_at = [None] * games
    for step in range(rules.spec.max_game_length + 1):
        actions = np.zeros(games, np.int32)
        for g in range(games):
            rs, where = rule_states[g], f"{label} game {g} step {step}"
            assert state_to_rules(host, g) == rs, (where, _differences(state_to_rules(host, g), rs))
            for seat in range(n):
                np.testing.assert_array_equal(observations[g, seat], b.observer.encode(rs, seat), err_msg=where)
            over = rules.is_terminal(rs)
            assert bool(host.terminated[g]) == over and not host.truncated[g], where
            expected = rules.returns(rs) if over and ended_at[g] == step else np.zeros(n)
            np.testing.assert_allclose(host.rewards[g], expected, rtol=1e-6, atol=1e-7, err_msg=where)
            if over:
                assert host.legal_action_mask[g].all(), where
                ended_at[g] = ended_at[g] if ended_at[g] is not None else step
                continue
            legal = rules.legal_actions(rs)
            assert np.flatnonzero(host.legal_action_mask[g]).tolist() == legal, where
            assert int(host.current_player[g]) == rules.current_player(rs), where
            if on_state is not None:
                on_state(rs, _row(state, g))
            actions[g] = choose(rules, rs, legal, rngs[g])
            kinds[A.decode(int(actions[g]), rules.spec.num_actions).kind] += 1
        if all(e is not None for e in ended_at):
            break
        key, sub = jax.random.split(key)
        before = host
        state, seen = b.step(state, jnp.asarray(actions), jax.random.split(sub, games))
        host, observations = jax.device_get(state), np.asarray(seen)
        for g in range(games):
            if ended_at[g] is not None:  # a finished game in the batch: nothing changes, nothing paid
                assert state_to_rules(host, g) == state_to_rules(before, g)
                assert not host.rewards[g].any()
                continue
            drawn = state_to_rules(host, g).blue_offer  # the JAX draw, if this step began a round
            rule_states[g] = rules.apply_action(rule_states[g], int(actions[g]), OutcomeScript(drawn))
            if rules.is_terminal(rule_states[g]):
                ended_at[g] = step + 1
    assert all(e is not None for e in ended_at), "a game did not end within max_game_length"
    return kinds


def uniform(rules, state, legal, rng) -> int:
    return int(rng.choice(legal))


@pytest.mark.parametrize("label", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW else c for c in CONFIGS])
def test_random_games_equal_the_rules_engine_step_for_step(label):
    kinds = play(label, uniform)
    assert kinds["worker"] > 0 and kinds["place"] > 0


def _rare_first(rules, state, legal, rng) -> int:
    """Moves that steer random play into the rules' rare branches: free passes, relocations,
    -3 targets, the +2 marker where its holder has no card, equal bids, new start players;
    random otherwise (the worker pass kept rare so that quarries fill)."""
    n = rules.num_players
    kinds = {a: A.decode(a, rules.spec.num_actions).kind for a in legal}
    if state.phase == Phase.MINUS3 and state.plus2_q == state.resolving:
        target = (state.plus2_seat - state.actor) % n
        if target and A.MINUS3_BASE + target - 1 in legal:
            return A.MINUS3_BASE + target - 1
    if state.phase == Phase.PLUS2_CHOICE:
        mine = {q for q, column in enumerate(state.columns) for seat, _card in column if seat == state.actor}
        empty_handed = [a for a in legal if kinds[a] == "plus2" and a - A.PLUS2_BASE not in mine]
        if empty_handed:
            return int(rng.choice(empty_handed))
    if state.phase == Phase.BID:
        return A.BID_BASE + min(3, state.gold[state.actor], A.MAX_BID)
    for kind in ("pass_free", "relocate_src", "relocate_dst", "minus3", "free_block", "joker"):
        chosen = [a for a in legal if kinds[a] == kind]
        if chosen and rng.random() < 0.8:
            return int(rng.choice(chosen))
    if state.phase == Phase.APPOINT:
        return A.APPOINT_BASE + 1 + int(rng.integers(n - 1))
    if state.phase == Phase.WORKERS and len(legal) > 1 and rng.random() < 0.9:
        legal = [a for a in legal if a != A.WORKER_PASS]
    return int(rng.choice(legal))


def test_rare_branches_are_hit_and_equal(monkeypatch):
    """Steered games of the 5-player advanced config (every green marker is on a quarry there, and
    every decision is an agent step): the rules engine's rare branches are reached, each
    recorded where the rules take it, and both engines stay equal through them."""
    hits: Counter = Counter()
    ranking, payouts, resolve = quarry.ranking, scoring.level_payouts, auction.resolve

    def ranking_seen(state, q):
        ranked = ranking(state, q)
        scores = quarry.base_scores(state, q)
        final = [scores[s] - state.deduct[s] for s in ranked]
        hits["quarry score tie"] += len(set(final)) < len(final)
        hits["-3 on a seat present only by the +2 marker"] += (
            state.plus2_q == q
            and state.deduct[state.plus2_seat] > 0
            and all(seat != state.plus2_seat for seat, _card in state.columns[q])
        )
        hits["protected seat at a revealed quarry"] += any(
            quarry.is_protected(state, q, s) for s in quarry.participants(state, q)
        )
        return ranked

    def payouts_seen(counts, first, second):
        top = max(counts)
        hits["level tie for most"] += top > 0 and counts.count(top) > 1
        return payouts(counts, first, second)

    def resolve_seen(state):
        made = [b for b in state.bids if b > 0]
        hits["bid tie"] += len(set(made)) < len(made)
        return resolve(state)

    monkeypatch.setattr(quarry, "ranking", ranking_seen)
    monkeypatch.setattr(scoring, "level_payouts", payouts_seen)
    monkeypatch.setattr(auction, "resolve", resolve_seen)
    starts: set = set()

    def seen(state, _jax_state):
        starts.add((state.round, state.start))

    kinds = play("5p advanced every decision", _rare_first, seed=5, on_state=seen)
    for kind in ("pass_free", "relocate_dst", "minus3", "appoint", "free_block", "plus2", "joker", "double_pay"):
        assert kinds[kind] > 0, (kind, kinds)
    for name in (
        "quarry score tie",
        "-3 on a seat present only by the +2 marker",
        "protected seat at a revealed quarry",
        "level tie for most",
        "bid tie",
    ):
        assert hits[name] > 0, (name, hits)
    later = {start for round_, start in starts if round_ > 0}
    assert len(later) > 1  # the First Player marker moved the start player across rounds


def _stack(states):
    return jax.tree_util.tree_map(lambda *v: jnp.stack(v), *states)


def _step_both(b: Batch, rule_state, action: int):
    """One step of ``rule_state`` in both engines (the compiled batch, ``GAMES`` copies); the
    JAX result's first row and the rules' next state."""
    state = _stack([state_from_rules(b.env, rule_state)] * GAMES)
    keys = jax.random.split(jax.random.PRNGKey(0), GAMES)
    new, seen = b.step(state, jnp.full(GAMES, action, jnp.int32), keys)
    host = jax.device_get(new)
    drawn = state_to_rules(host, 0).blue_offer
    return host, np.asarray(seen)[0], b.env.rules.apply_action(rule_state, action, OutcomeScript(drawn))


def _building_position(rules, seed: int = 0):
    """A rules state of the first building phase of a random game (setup and quarries played)."""
    rng = np.random.default_rng(seed)
    state = rules.initial_state(rng)
    while state.phase != Phase.BUILD:
        state = rules.apply_action(state, int(rng.choice(rules.legal_actions(state))), rng)
    return state


def test_forced_pass_in_a_constructed_position():
    """Every level 1 full of the other seats' blocks: the seat to build has blocks but no space,
    so only the forced pass (+1 gold) and the free pass it holds are legal; both engines agree on
    the mask, the step and the observations."""
    b = _batch("5p advanced every decision")
    rules, n = b.env.rules, b.env.num_players
    state = _building_position(rules).clone()
    seat = state.actor
    for p, pyramid in enumerate(rules.components.pyramids):
        spaces = pyramid.levels[0][0]
        for level in range(len(pyramid.levels)):
            for owner in range(n):
                at = (p * A.MAX_LEVELS + level) * n + owner
                state.pool[owner] += state.board[at]
                state.board[at] = 0
        for k in range(spaces):
            owner = (seat + 1 + k % (n - 1)) % n
            state.board[p * A.MAX_LEVELS * n + owner] += 1
            state.pool[owner] -= 1
    state.held[seat] = max(state.held[seat], 2)
    state.pool[seat] = rules.components.blocks_per_color - state.held[seat]
    state.holder[5] = seat  # FREE_PASS
    state._cache = {}
    assert rules.legal_actions(state) == [A.PASS_FREE, A.FORCED_PASS]
    assert np.flatnonzero(np.asarray(state_from_rules(b.env, state).legal_action_mask)).tolist() == rules.legal_actions(
        state
    )
    host, seen, expected = _step_both(b, state, A.FORCED_PASS)
    assert state_to_rules(host, 0) == expected and expected.gold[seat] == state.gold[seat] + 1
    for other in range(n):
        np.testing.assert_array_equal(seen[other], b.observer.encode(expected, other))


def test_an_observation_ignores_other_seats_hidden_cards_and_sealed_bids():
    """Hidden-information resampling: another seat's face-down cards and hand (within their
    public backs) and sealed bids redrawn (the rules' ``determinize``) change no value of the
    observer's vector, at every decision of steered advanced games."""
    b = _batch("4p advanced card plus2_empty")
    rules, n = b.env.rules, b.env.num_players
    rng = np.random.default_rng(3)
    changed: Counter = Counter()
    states = []

    def keep(state, _jax_state):
        if rng.random() < 0.25:
            states.append(state)

    play("4p advanced card plus2_empty", _rare_first, seed=7, on_state=keep)
    for state in states:
        observer = int(rng.integers(n))
        other = determinize(rules, state, observer, rng)
        changed["cards"] += other.columns != state.columns or other.hands != state.hands
        changed["bids"] += other.bids != state.bids
        pair = _stack([state_from_rules(b.env, state), state_from_rules(b.env, other)])
        views = np.asarray(b.observe_all(_stack([_row(pair, 0), _row(pair, 1), _row(pair, 0)])))
        np.testing.assert_array_equal(views[0, observer], views[1, observer])
    assert changed["cards"] > 5 and changed["bids"] > 0, changed


def test_an_illegal_or_out_of_range_id_ends_the_game_on_the_position_before():
    b = _batch("3p basic")
    rules = b.env.rules
    state = _building_position(rules, seed=1)
    illegal = next(a for a in range(rules.spec.num_actions) if a not in rules.legal_actions(state))
    for action in (illegal, rules.spec.num_actions, -1):
        batch = _stack([state_from_rules(b.env, state)] * GAMES)
        new = jax.device_get(
            b.step(batch, jnp.full(GAMES, action, jnp.int32), jax.random.split(jax.random.PRNGKey(0), GAMES))[0]
        )
        after = state_to_rules(new, 0)
        assert bool(new.terminated[0]) and after.phase == Phase.OVER
        assert _differences(after, state).keys() == {"phase"}
        expected = np.zeros(rules.num_players, np.float32)
        expected[state.actor] = -1.0
        np.testing.assert_array_equal(new.rewards[0], expected)
    with pytest.raises(TypeError):
        b.env.step(state_from_rules(b.env, state), 1.5)


@pytest.mark.parametrize(
    "num_players", [3, pytest.param(4, marks=pytest.mark.slow), pytest.param(5, marks=pytest.mark.slow)]
)
def test_pgx_api_test_passes(num_players):
    """Pgx's own referee (``pgx.api_test``, single and batched random games of the advanced
    variant), through the project's patched referee (``tests/jax/pgx_referee.py``)."""
    run_api_test(MayaQuarry(num_players=num_players, variant="advanced"), num=1)


def test_the_engine_is_written_for_the_game_tables_version():
    from maya_envs.games import GAMES

    assert MayaQuarry().version == f"v{GAMES['maya_quarry'].version}"
