"""Search cost features of the guided search (maya_envs.bots.guided, issue 28 item 5): the node
cache gives the same search with fewer rule calls, tree reuse keeps the visit counts of the
subtree under the moves played, a timed search (``time=``) stops on its clock, and the cheap
prior below ``prior_depth`` skips the evaluator there. Behaviour only: no timed assertions.
No torch: the evaluators are plain functions."""

from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest

from maya_envs.bots.guided import (
    TIMED_SIMULATIONS,
    AZBot,
    EvaluationMemo,
    GuidedConfig,
    TreeKeeper,
    considered_visits,
    parse_az_spec,
    search_many,
)
from maya_envs.bots.guided import search as guided_search
from maya_envs.games import GAMES
from tests.helpers.search import random_oracle, random_positions, uniform_evaluator


def _configs(open_information: bool) -> list[tuple[str, int]]:
    """``(key, num_players)`` of the table's configs whose information is perfect without chance
    (``open_information``: where the node cache and tree reuse apply) or the others."""
    out = []
    for key, game in GAMES.items():
        for n in game.player_counts:
            spec = game.make_rules({"num_players": n}).spec
            if (spec.information == "perfect" and not spec.chance) == open_information:
                out.append((key, n))
    return out


OPEN_KEY, OPEN_N = _configs(True)[0]


def _maya2p():
    """The first config where the cache applies (Maya (2012), 2 players, today)."""
    return GAMES[OPEN_KEY].make_rules({"num_players": OPEN_N})


class CountingRules:
    """``rules`` with its ``apply_action`` and ``legal_actions`` calls counted."""

    def __init__(self, rules):
        self.rules, self.spec = rules, rules.spec
        self.applied = self.listed = 0

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def apply_action(self, state, action, rng=None):
        self.applied += 1
        return self.rules.apply_action(state, action, rng)

    def legal_actions(self, state):
        self.listed += 1
        return self.rules.legal_actions(state)


def _oracle(rules):
    return random_oracle(rules, GAMES[OPEN_KEY].hook("observer"))


def _same(a, b):
    assert a.action == b.action and a.simulations == b.simulations
    np.testing.assert_array_equal(a.policy, b.policy)
    np.testing.assert_array_equal(a.value, b.value)


@pytest.mark.parametrize("selection", ["gumbel", "puct"])
def test_the_node_cache_gives_the_same_search_with_each_edge_applied_once(selection):
    rules = _maya2p()
    roots = random_positions(rules, 3, seed=2, steps=(2, 7))
    seats = [rules.current_player(s) for s in roots]
    counted = {}
    results = {}
    for cache in (False, None):  # None: on, Maya (2012) 2p has perfect information and no chance
        counting = CountingRules(rules)
        config = GuidedConfig(simulations=40, selection=selection, cache=cache)
        results[cache] = search_many(counting, roots, seats, _oracle(rules), config, rng=3)
        counted[cache] = counting.applied
    for off, on in zip(results[False], results[None], strict=True):
        _same(off, on)
    # Off: one apply_action per edge walked (>= one per simulation); on: one per distinct edge.
    assert counted[False] >= 3 * 40
    assert counted[None] < counted[False]
    edges = sum(sum(a is not None for a in node.after) for node in _nodes(results[None]))
    assert counted[None] == edges


def _nodes(results):
    out, frontier = [], [r.tree for r in results]
    while frontier:
        out.extend(frontier)
        frontier = [c for node in frontier for c in node.children if c is not None]
    return out


@pytest.mark.parametrize(("key", "n"), _configs(False))
def test_cache_and_reuse_are_refused_where_a_node_stands_for_many_states(key, n):
    rules = GAMES[key].make_rules({"num_players": n})
    state = random_positions(rules, 1, seed=1)[0]
    seat = rules.current_player(state)
    for options in ({"cache": True}, {"reuse": True}):
        with pytest.raises(ValueError, match="perfect information"):
            search_many(rules, [state], [seat], uniform_evaluator(rules), GuidedConfig(simulations=2, **options))
        with pytest.raises(ValueError, match="perfect information"):
            AZBot(rules, uniform_evaluator(rules), GuidedConfig(simulations=2, **options))
    # Off by default there, and the search runs as before.
    result = search_many(rules, [state], [seat], uniform_evaluator(rules), GuidedConfig(simulations=2), rng=0)[0]
    assert result.tree.state is None and result.action in rules.legal_actions(state)


def _played_and_replied(rules, result, state):
    """The state after the search's move and the most visited expanded reply in its tree."""
    child = result.tree.children[result.tree.index[result.action]]
    after = rules.apply_action(state, result.action)
    replies = [i for i, c in enumerate(child.children) if c is not None]
    reply = max(replies, key=lambda i: child.n[i])
    return child.children[reply], rules.apply_action(after, child.actions[reply])


@pytest.mark.parametrize("selection", ["gumbel", "puct"])
def test_reuse_keeps_the_visit_counts_of_the_subtree_under_the_move_and_the_reply(selection):
    rules = _maya2p()
    state = random_positions(rules, 1, seed=4, steps=(6, 0))[0]
    config = GuidedConfig(simulations=64, selection=selection, reuse=True)
    first = search_many(rules, [state], [rules.current_player(state)], _oracle(rules), config, rng=0)[0]
    kept, next_state = _played_and_replied(rules, first, state)
    assert kept.n.sum() > 0
    before_n = kept.n.copy()
    grandchildren = {i: c for i, c in enumerate(kept.children) if c is not None}
    keeper = TreeKeeper()
    keeper.keep([first])
    assert keeper.find([next_state]) == [kept]
    evaluator = _oracle(rules)
    calls = []

    def counting(states, seats):
        calls.append(len(states))
        return evaluator(states, seats)

    seat = rules.current_player(next_state)
    again = search_many(rules, [next_state], [seat], counting, config, rng=1, trees=keeper.find([next_state]))[0]
    assert again.tree is kept  # the kept node is the new root
    assert kept.n.sum() == before_n.sum() + config.simulations  # its visits carried over, then grew
    assert np.all(kept.n >= before_n)
    for i, child in grandchildren.items():  # the subtree below is the same nodes, not rebuilt
        assert kept.children[i] is child
    assert sum(calls) <= config.simulations  # no evaluation of the root: it was evaluated before
    assert again.action in rules.legal_actions(next_state)
    legal = rules.legal_actions(next_state)
    assert again.policy.shape == (rules.spec.num_actions,) and again.policy.dtype == np.float32
    assert set(np.flatnonzero(again.policy)) <= set(legal)
    assert again.policy.sum() == pytest.approx(1.0, abs=1e-5)
    # The same kind of answer as a fresh search of that state.
    fresh = search_many(rules, [next_state], [seat], evaluator, GuidedConfig(simulations=64, selection=selection), 1)[0]
    assert fresh.value.shape == again.value.shape and fresh.policy.shape == again.policy.shape


def _evaluator_prior(evaluator, node):
    """The evaluator's prior at ``node``'s state for its mover, normalised as a node keeps it."""
    p = np.asarray(evaluator([node.state], [node.mover])[0][0], np.float64)
    return p / p.sum()


def _above(root, depth):
    """The nodes of ``root``'s tree less than ``depth`` plies below it."""
    out, frontier = [], [root]
    for _ in range(depth):
        out.extend(frontier)
        frontier = [c for node in frontier for c in node.children if c is not None]
    return out


@pytest.mark.parametrize("selection", ["gumbel", "puct"])
@pytest.mark.parametrize("prior_depth", [1, 2, 3])
def test_reuse_gives_kept_nodes_above_prior_depth_the_evaluators_prior(selection, prior_depth):
    # A node made prior_depth or more plies below the last root got the cheap uniform prior;
    # kept as the new root (2 plies up) or near it, a fresh search would ask the evaluator
    # there. The reused search equals one from the same kept statistics with those priors.
    rules = _maya2p()
    state = random_positions(rules, 1, seed=4, steps=(6, 0))[0]
    config = GuidedConfig(simulations=64, selection=selection, leaf="hook", prior_depth=prior_depth, reuse=True)
    evaluator = _oracle(rules)
    first = search_many(rules, [state], [rules.current_player(state)], evaluator, config, rng=0)[0]
    kept, next_state = _played_and_replied(rules, first, state)
    stale = [
        node for node in _above(kept, prior_depth) if not np.allclose(node.prior, _evaluator_prior(evaluator, node))
    ]
    assert stale  # the case under test: kept nodes above prior_depth with the uniform prior
    expected = copy.deepcopy(kept)
    for node in _above(expected, prior_depth):
        node.prior = _evaluator_prior(evaluator, node)
    keeper = TreeKeeper()
    keeper.keep([first])
    seat = rules.current_player(next_state)
    want = search_many(rules, [next_state], [seat], evaluator, config, rng=1, trees=[expected])[0]
    got = search_many(rules, [next_state], [seat], evaluator, config, rng=1, trees=keeper.find([next_state]))[0]
    assert got.tree is kept
    _same(want, got)
    for node in _above(kept, prior_depth):
        np.testing.assert_allclose(node.prior, _evaluator_prior(evaluator, node))


def test_az_bot_with_reuse_and_prior_depth_has_the_evaluators_prior_above_prior_depth():
    # Over a game: after every move, each node less than prior_depth plies below the root has
    # the evaluator's prior (as in a fresh search), the kept roots included.
    rules = _maya2p()
    evaluator = _oracle(rules)
    bot = AZBot(rules, evaluator, GuidedConfig(simulations=12, leaf="hook", prior_depth=2, reuse=True), seed=0)
    rng = np.random.default_rng(1)
    state = rules.initial_state(rng)
    reused = 0
    for _ in range(30):
        if rules.current_player(state) < 0:
            break
        kept = bot.keeper.find([state])[0]
        action = bot.act(state)
        reused += kept is not None and bot.last_result.tree is kept
        for node in _above(bot.last_result.tree, 2):
            np.testing.assert_allclose(node.prior, _evaluator_prior(evaluator, node))
        state = rules.apply_action(state, action, rng)
    assert reused >= 10


@pytest.mark.parametrize("case", ["same node", "inside", "around"])
def test_a_kept_tree_is_searched_from_one_root_only(case):
    # Two games at one position in one call (a self-play batch) must not walk one kept tree from
    # two roots, nor a kept tree and a subtree of it: each would add its visits to the other's
    # statistics and Gumbel schedule. The first root keeps the tree, the other searches afresh,
    # exactly as if it had been given none.
    rules = _maya2p()
    state = random_positions(rules, 1, seed=4, steps=(6, 0))[0]
    config = GuidedConfig(simulations=64, reuse=True)
    evaluator = _oracle(rules)

    def kept_trees():
        first = search_many(rules, [state], [rules.current_player(state)], evaluator, config, rng=0)[0]
        kept, next_state = _played_and_replied(rules, first, state)
        parent = first.tree.children[first.tree.index[first.action]]
        assert kept.n.sum() > 0 and any(child is kept for child in parent.children)
        pairs = {
            "same node": [(kept, next_state), (kept, next_state)],
            "inside": [(parent, parent.state), (kept, next_state)],
            "around": [(kept, next_state), (parent, parent.state)],
        }[case]
        return [t for t, _ in pairs], [r for _, r in pairs]

    trees, roots = kept_trees()
    seats = [rules.current_player(r) for r in roots]
    alone = [copy.deepcopy(trees[0]), None]
    want = search_many(rules, roots, seats, evaluator, config, rng=1, trees=alone)
    trees, roots = kept_trees()
    before = trees[0].n.sum()
    got = search_many(rules, roots, seats, evaluator, config, rng=1, trees=trees)
    assert got[0].tree is trees[0] and got[1].tree is not trees[1]
    assert trees[0].n.sum() == before + config.simulations  # only its own root's visits
    for a, b in zip(want, got, strict=True):
        _same(a, b)


def test_a_tree_that_is_not_the_roots_node_is_ignored():
    rules = _maya2p()
    a, b = random_positions(rules, 2, seed=6)
    config = GuidedConfig(simulations=16, reuse=True)
    first = search_many(rules, [a], [rules.current_player(a)], _oracle(rules), config, rng=0)[0]
    seat = rules.current_player(b)
    fresh = search_many(rules, [b], [seat], _oracle(rules), config, rng=5)[0]
    wrong = search_many(rules, [b], [seat], _oracle(rules), config, rng=5, trees=[first.tree])[0]
    _same(fresh, wrong)
    assert TreeKeeper().find([b]) == [None]


def test_with_reuse_the_gumbel_schedule_counts_the_new_visits():
    # The root's kept visits are the base: the new simulations follow the full schedule of
    # sequential halving on top of them, so every considered action gets its share.
    rules = _maya2p()
    state = random_positions(rules, 1, seed=8, steps=(5, 0))[0]
    config = GuidedConfig(simulations=48, reuse=True, max_considered=4, gumbel_scale=0.0)
    first = search_many(rules, [state], [rules.current_player(state)], _oracle(rules), config, rng=0)[0]
    kept, next_state = _played_and_replied(rules, first, state)
    base = kept.n.copy()
    search_many(rules, [next_state], [rules.current_player(next_state)], _oracle(rules), config, 2, [kept])
    added = np.sort(kept.n - base)[::-1]
    m = min(4, len(kept.actions))
    schedule = considered_visits(m, 48)
    expected = np.sort(np.bincount(list(_visits_per_rank(schedule, m)), minlength=m))[::-1]
    np.testing.assert_array_equal(added[:m], expected)
    assert added[m:].sum() == 0


def _visits_per_rank(schedule, m):
    """Which of ``m`` slots each simulation of ``schedule`` visits (slot = rank among those
    with that visit count: the visit counts per slot a halving schedule gives)."""
    counts = [0] * m
    for target in schedule:
        slot = next(i for i in range(m) if counts[i] == target)
        counts[slot] += 1
        yield slot


def test_az_bot_with_reuse_plays_legally_and_reuses_trees():
    # One bot in both seats (self-play): each search's root is the child of the move it played
    # last, a node of its kept tree unless a forced move came between.
    rules = _maya2p()
    bot = AZBot(rules, _oracle(rules), GuidedConfig(simulations=12, reuse=True), seed=0)
    rng = np.random.default_rng(0)
    state = rules.initial_state(rng)
    reused = searched = 0
    while rules.current_player(state) >= 0 and searched < 40:
        kept = bot.keeper.find([state])[0]
        action = bot.act(state)
        assert action in rules.legal_actions(state)
        if bot.last_result.simulations:
            searched += 1
            reused += kept is not None and bot.last_result.tree is kept
        state = rules.apply_action(state, action, rng)
    assert searched == 40 and reused >= searched // 2


def test_a_clock_that_never_runs_out_gives_the_untimed_search():
    rules = _maya2p()
    roots = random_positions(rules, 2, seed=9)
    seats = [rules.current_player(s) for s in roots]
    for selection in ("gumbel", "puct"):
        untimed = search_many(rules, roots, seats, _oracle(rules), GuidedConfig(24, selection), rng=4)
        timed = search_many(rules, roots, seats, _oracle(rules), GuidedConfig(24, selection, time_limit=1e6), rng=4)
        for a, b in zip(untimed, timed, strict=True):
            _same(a, b)


def test_a_spent_clock_stops_the_search_after_one_simulation(monkeypatch):
    rules = _maya2p()
    state = random_positions(rules, 1, seed=9)[0]
    ticks = itertools.count(0.0, 1.0)  # every clock reading is a second later
    monkeypatch.setattr(guided_search.time, "perf_counter", lambda: next(ticks))
    config = GuidedConfig(32, time_limit=0.5)
    result = search_many(rules, [state], [rules.current_player(state)], _oracle(rules), config)[0]
    assert result.simulations == 1 and result.action in rules.legal_actions(state)


def test_a_timed_gumbel_search_plans_its_schedule_for_the_simulations_that_fit(monkeypatch):
    # A fake clock: 1 s per reading. After the first pass (m rounds) the measured rate fits a
    # known number of rounds into the time left; the search runs the schedule planned for them.
    rules = _maya2p()
    state = random_positions(rules, 1, seed=10, steps=(4, 0))[0]
    m = min(4, len(rules.legal_actions(state)))
    ticks = itertools.count(0.0, 1.0)
    monkeypatch.setattr(guided_search.time, "perf_counter", lambda: next(ticks))
    config = GuidedConfig(500, max_considered=m, time_limit=60.0, gumbel_scale=0.0)
    result = search_many(rules, [state], [rules.current_player(state)], _oracle(rules), config)[0]
    assert m < result.simulations < 60  # stopped by the clock, well under the cap
    # the root's visits follow one halving schedule: the new visits are its per-slot counts
    n = np.sort(result.tree.n)[::-1][:m]
    planned = np.sort(np.bincount(list(_visits_per_rank(considered_visits(m, result.simulations), m)), minlength=m))
    np.testing.assert_array_equal(n, planned[::-1])


def test_prior_depth_skips_the_evaluator_below_it_and_plays_legal_moves():
    rules = _maya2p()
    roots = random_positions(rules, 2, seed=11)
    seats = [rules.current_player(s) for s in roots]
    for depth, most in ((1, 0), (2, None)):
        evaluator = uniform_evaluator(rules)
        config = GuidedConfig(simulations=20, leaf="hook", prior_depth=depth)
        results = search_many(rules, roots, seats, evaluator, config, rng=0)
        asked = [len(states) for states, _ in evaluator.calls]
        assert asked[0] == 2  # the roots keep the evaluator's prior
        if most == 0:
            assert len(asked) == 1  # every other node: uniform prior and the hook's value
        else:
            assert 0 < sum(asked[1:]) < 2 * 20
        for root, result in zip(roots, results, strict=True):
            assert result.action in rules.legal_actions(root)
            deep = [c for node in _nodes([result]) if node is not result.tree for c in node.children if c is not None]
            for node in deep if depth == 1 else []:
                np.testing.assert_allclose(node.prior, 1.0 / len(node.actions))
    with pytest.raises(ValueError, match="leaf='hook'"):
        search_many(rules, roots[:1], seats[:1], uniform_evaluator(rules), GuidedConfig(4, prior_depth=1))


@pytest.mark.parametrize(
    ("name", "fields"),
    [
        ("az:m:time=0.02", {"time_limit": 0.02, "simulations": TIMED_SIMULATIONS}),
        ("az:m:16:time=0.5", {"time_limit": 0.5, "simulations": 16}),
        ("az:m:8:reuse=1", {"reuse": True, "simulations": 8}),
        ("az:m:reuse=0", {"reuse": False}),
        ("az:m:leaf=hook:prior_depth=2", {"leaf": "hook", "prior_depth": 2}),
        ("az:m:memo=1000", {"memo": 1000}),
    ],
)
def test_az_spec_parses_the_cost_options(name, fields):
    _, config = parse_az_spec(name)
    for key, value in fields.items():
        assert getattr(config, key) == value


def test_bad_cost_config_values_are_named():
    for kwargs, word in (
        ({"time_limit": 0}, "time_limit"),
        ({"time_limit": float("inf")}, "time_limit"),
        ({"cache": 1}, "cache"),
        ({"reuse": "yes"}, "reuse"),
        ({"reuse": True, "cache": False}, "reuse"),
        ({"prior_depth": 0}, "prior_depth"),
        ({"memo": -1}, "memo"),
        ({"memo": 1.5}, "memo"),
        ({"prior_depth": 2, "leaf": "mix"}, "prior_depth"),
    ):
        with pytest.raises(ValueError, match=word):
            GuidedConfig(**kwargs)


def test_the_evaluation_memo_answers_like_its_base_and_asks_each_state_once():
    rules = _maya2p()
    states = random_positions(rules, 4, seed=12)
    seats = [rules.current_player(s) for s in states]
    base = _oracle(rules)
    asked = []

    def counting(batch, batch_seats):
        asked.extend(batch)
        return base(batch, batch_seats)

    memo = EvaluationMemo(counting, entries=3)
    batch, batch_seats = states + states[:2], seats + seats[:2]  # repeats inside one call
    priors, values = memo(batch, batch_seats)
    want_priors, want_values = base(batch, batch_seats)
    for got, want in zip(priors, want_priors, strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(values, want_values)
    assert len(asked) == 4 and (memo.hits, memo.misses) == (0, 6)
    assert len(memo._memo) == 3  # bounded: the least recently used went first
    memo(states[:2], seats[:2])  # still kept (used last); states[2] went first
    assert len(asked) == 4 and memo.hits == 2
    with pytest.raises(ValueError, match="entries"):
        EvaluationMemo(base, 0)


def test_az_bot_with_a_memo_plays_the_same_game_with_fewer_evaluations():
    rules = _maya2p()
    games = {}
    for memo in (0, 50_000):
        base = _oracle(rules)
        asked = []

        def counting(states, seats, base=base, asked=asked):
            asked.append(len(states))
            return base(states, seats)

        bots = [AZBot(rules, counting, GuidedConfig(simulations=12, memo=memo), seed=s) for s in range(2)]
        rng = np.random.default_rng(3)
        state, moves = rules.initial_state(rng), []
        while rules.current_player(state) >= 0 and len(moves) < 60:
            moves.append(bots[rules.current_player(state)].act(state))
            state = rules.apply_action(state, moves[-1], rng)
        games[memo] = (moves, sum(asked), bots)
    assert games[0][0] == games[50_000][0]  # the same moves
    assert games[50_000][1] < games[0][1]  # fewer states evaluated
    assert sum(bot.evaluator.hits for bot in games[50_000][2]) > 0


def test_self_play_agents_with_reuse_and_memo_play_legal_games_and_the_memo_changes_nothing():
    from training.exit.play import SearchAgent, play_games

    rules = _maya2p()
    base = _oracle(rules)
    asked = {}
    played = {}
    for name, options in (("plain", {}), ("memo", {"memo": 10_000}), ("reuse", {"reuse": True})):
        counts = []

        def counting(states, seats, counts=counts):
            counts.append(len(states))
            return base(states, seats)

        agent = SearchAgent(rules, counting, GuidedConfig(simulations=6, **options), rng=0)
        played[name] = play_games(rules, [[agent, agent] for _ in range(2)], [1, 2], in_flight=2)
        asked[name] = sum(counts)
        if name == "reuse":
            assert agent.keeper is not None
    np.testing.assert_array_equal(played["plain"].values, played["memo"].values)
    assert played["plain"].decisions == played["memo"].decisions
    assert asked["memo"] < asked["plain"]
    assert played["reuse"].decisions > 0 and np.all(np.abs(played["reuse"].values) <= 1)
