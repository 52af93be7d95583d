"""The batched guided search: many roots in lock step, every simulation round's new leaves
in one evaluator call (:func:`search_many`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from maya_envs.bots.guided.config import Evaluator, GuidedConfig, node_cache
from maya_envs.bots.guided.evaluators import check_priors, evaluate, leaf_evaluator
from maya_envs.bots.guided.reuse import cheap_above, one_root_per_tree
from maya_envs.bots.guided.root import RootSearch, SearchResult
from maya_envs.bots.guided.tree import Node
from maya_envs.bots.search_common import determinizer
from maya_envs.core.protocol import Rules
from maya_envs.core.rng import make_rng


def search_many(
    rules: Rules,
    roots: Sequence[Any],
    seats: Sequence[int],
    evaluator: Evaluator,
    config: GuidedConfig | None = None,
    rng: int | np.random.Generator | None = None,
    trees: Sequence[Any] | None = None,
) -> list[SearchResult]:
    """Search every root in lock step; see :mod:`maya_envs.bots.guided`.

    Args:
        rules: the game's rules.
        roots: states, each unfinished.
        seats: the seat to move in each root (``rules.current_player(root)``); the search
            determinizes the root for it (hidden-information games).
        evaluator: ``evaluator(states, seats) -> (priors, values)``; called once for the roots
            (those without a kept tree) and the nodes of kept trees now less than
            ``prior_depth`` plies deep (any depth with ``prior_depth=None``) that had the cheap
            uniform prior, then at most once per simulation round with every root's new leaf
            (never with an empty list).
        config: a :class:`GuidedConfig` (default: ``GuidedConfig()``).
        rng: an int, ``None`` or a generator; each root gets its own generator from it.
        trees: per root, a kept subtree to start from or ``None``
            (:meth:`~maya_envs.bots.guided.reuse.TreeKeeper.find`; a tree that is not this
            root's node is ignored, and so is one that shares a node with an earlier root's
            kept tree: the same position in two games, or one inside the other, is searched
            from one root only, the others start afresh); needs the node cache.

    Returns:
        One :class:`SearchResult` per root, in order.

    Raises:
        ValueError: a finished root, a seat that is not the one to move, mismatched lengths, an
            evaluator answer of the wrong shape, determinization for a game without the hook,
            ``cache=True``, ``reuse`` or ``trees`` where the node cache does not apply (hidden
            information, chance, determinization), or ``prior_depth`` without ``leaf="hook"``.
    """
    config = config or GuidedConfig()
    started = time.perf_counter()
    deadline = None if config.time_limit is None else started + config.time_limit
    rng = make_rng(rng)
    evaluator = leaf_evaluator(rules, config, evaluator)
    searches = _root_searches(rules, roots, seats, config, rng, trees)
    if not searches:
        return []
    _start(rules, searches, evaluator, config)
    clock = _Clock(deadline, config)
    active = [s for s in searches if not s.forced]
    for done in range(config.simulations):
        if clock.spent(done, active):
            break
        active = [s for s in active if s.count < s.limit]
        if not active:
            break
        _round(rules, active, evaluator, config)
    return [search.result(rules.spec.num_actions) for search in searches]


def _root_searches(
    rules: Rules,
    roots: Sequence[Any],
    seats: Sequence[int],
    config: GuidedConfig,
    rng: np.random.Generator,
    trees: Sequence[Any] | None,
) -> list[RootSearch]:
    """One :class:`RootSearch` per root, each with its own generator drawn from ``rng`` in root
    order, and its kept tree where one applies (:func:`search_many`'s arguments and errors)."""
    if len(roots) != len(seats) or (trees is not None and len(trees) != len(roots)):
        raise ValueError(f"search_many: {len(roots)} roots but {len(seats)} seats and {trees and len(trees)} trees")
    determinize = determinizer(rules, config.determinize)
    cached = node_cache(rules, config, determinize)
    if trees is not None and any(t is not None for t in trees) and not cached:
        raise ValueError("search_many: kept trees need the node cache (perfect information, no chance)")
    searches = []
    for k, (state, seat) in enumerate(zip(roots, seats, strict=True)):
        mover = rules.current_player(state)
        if mover < 0:
            raise ValueError("search_many: a root is a finished game (no legal action)")
        if int(seat) != mover:
            raise ValueError(f"search_many: seat {seat!r} is given for a root where seat {mover} moves")
        root_rng = np.random.default_rng(int(rng.integers(2**63 - 1)))
        tree = None if trees is None else trees[k]
        searches.append(RootSearch(rules, state, int(seat), config, root_rng, determinize, cached, tree))
    if sum(s.tree is not None for s in searches) > 1:
        one_root_per_tree(searches)
    return searches


def _start(rules: Rules, searches: list[RootSearch], evaluator: Evaluator, config: GuidedConfig) -> None:
    """Root every search's tree: the roots without a kept tree and the kept nodes that need the
    evaluator's prior are evaluated in one call, then the kept trees start as they are."""
    # A hidden-information root is evaluated in one sampled world for its seat, like every leaf:
    # the estimate (leaf hook, mix, residual) of the true state would pass the hidden cards into
    # the root's value and from there into the completed Q-values and the policy target. A root
    # whose tree is kept from the last move (reuse: perfect information only) needs no evaluation.
    # A kept node that got the cheap uniform prior (it was prior_depth or more plies below the
    # last root) and is now less deep gets the evaluator's prior, as in a fresh search; in the
    # same call.
    fresh = [s for s in searches if s.tree is None]
    promoted = [node for s in searches if s.tree is not None for node in cheap_above(s.tree, config.prior_depth)]
    if fresh or promoted:
        seen = [s.state if s.determinize is None else s.determinize(rules, s.state, s.seat, s.rng) for s in fresh]
        seen += [node.state for node in promoted]
        asked = [s.seat for s in fresh] + [node.mover for node in promoted]
        priors, values = evaluate(evaluator, seen, asked, rules.spec.num_players)
        priors = list(priors)
        for search, prior, value in zip(fresh, priors[: len(fresh)], values[: len(fresh)], strict=True):
            check_priors(prior, len(search.legal))
            search.start(prior, value)
        for node, prior in zip(promoted, priors[len(fresh) :], strict=True):
            check_priors(prior, len(node.actions))
            node.set_prior(prior)
            node.cheap = False
    for search in searches:
        if search.tree is not None:
            search.start()


class _Clock:
    """The time per move of a timed search (``time_limit``; ``deadline`` ``None``: no clock).
    Started after the roots' evaluation: the rate it measures is the simulations'."""

    def __init__(self, deadline: float | None, config: GuidedConfig) -> None:
        self.deadline, self.config = deadline, config
        self.planned = False
        self.start = time.perf_counter()

    def spent(self, done: int, active: list[RootSearch]) -> bool:
        """Whether the time is spent after ``done`` simulation rounds; once every search has had
        its first pass (shared by all Gumbel schedules), the rest of each schedule is planned for
        the simulations the measured rate fits into the time left."""
        if self.deadline is None or done == 0:
            return False
        now = time.perf_counter()
        if now >= self.deadline:
            return True
        first_passes = max((s.first_pass for s in active), default=0)
        if not self.planned and self.config.selection == "gumbel" and done >= first_passes:
            fits = done + int((self.deadline - now) / max((now - self.start) / done, 1e-9))
            for search in active:
                search.plan(fits)
            self.planned = True
        return False


class _Leaf(NamedTuple):
    """A simulation's new leaf: its search, the path down to it, its state and the seat to move."""

    search: RootSearch
    path: list[tuple[Node, int]]
    state: Any
    mover: int


def _round(rules: Rules, active: list[RootSearch], evaluator: Evaluator, config: GuidedConfig) -> None:
    """One simulation of every active search: a finished game is backed up at once, the new
    leaves at ``prior_depth`` or deeper get the cheap prior, the others one evaluator call."""
    pending = []
    for search in active:
        path, leaf, terminal = search.descend()
        search.count += 1
        if terminal is not None:
            search.backup(path, terminal)
        else:
            pending.append(_Leaf(search, path, leaf, rules.current_player(leaf)))
    if config.prior_depth is not None:
        cheap = [p for p in pending if len(p.path) >= config.prior_depth]
        pending = [p for p in pending if len(p.path) < config.prior_depth]
        if cheap:
            _expand_cheap(rules, cheap, evaluator)
    if pending:
        _expand_evaluated(rules, pending, evaluator)


def _expand_cheap(rules: Rules, leaves: list[_Leaf], evaluator: Any) -> None:
    """Expand ``leaves`` with a uniform prior and the game's ``leaf_values`` (no evaluator call;
    ``evaluator``: the config's :class:`~maya_envs.bots.guided.evaluators.LeafValueEvaluator`)."""
    hooked = evaluator.hook_values([p.state for p in leaves])
    for leaf, value in zip(leaves, hooked, strict=True):
        legal = list(rules.legal_actions(leaf.state))
        uniform = np.full(len(legal), 1.0 / len(legal))
        leaf.search.expand(leaf.path, leaf.state, leaf.mover, legal, uniform, value, cheap=True)


def _expand_evaluated(rules: Rules, leaves: list[_Leaf], evaluator: Evaluator) -> None:
    """Expand ``leaves`` with the evaluator's priors and values, asked in one call."""
    states, movers = [p.state for p in leaves], [p.mover for p in leaves]
    priors, values = evaluate(evaluator, states, movers, rules.spec.num_players)
    for leaf, prior, value in zip(leaves, priors, values, strict=True):
        legal = list(rules.legal_actions(leaf.state))
        check_priors(prior, len(legal))
        leaf.search.expand(leaf.path, leaf.state, leaf.mover, legal, prior, value)
