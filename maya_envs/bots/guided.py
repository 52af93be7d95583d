"""Guided tree search: a policy-value evaluator in place of rollouts (AlphaZero, Gumbel MuZero).

The search runs over the same rules protocol and the same open-loop tree as
the rollout search :mod:`maya_envs.bots.mcts` (edges keyed by action ids; chance and hidden values are not part of
a node), but a leaf is not rolled out: an **evaluator** gives the leaf's prior over its legal
actions and a value per seat::

    evaluator(states, seats) -> (priors, values)
        priors: list of float arrays, priors[i] over rules.legal_actions(states[i]) in that order
        values: float array (len(states), num_players), each seat's value in [-1, 1]

(:class:`maya_envs.nn.agent.NetworkEvaluator` is the network's; any callable of that shape
works, e.g. an exact oracle in tests.) A finished game is scored by
:func:`maya_envs.bots.search_common.terminal_values` (returns over the largest absolute reward) without
the evaluator. Each node's edge statistics are arrays over its actions: visits ``n(a)`` and value
sums ``w(a)`` per seat; the seat that moves at a node reads its own entry (max-n backups, as in
the rollout search).

Selection (``GuidedConfig.selection``):

* ``"gumbel"`` (default; Danihelka, Guez, Schrittwieser & Silver 2022, "Policy improvement by
  planning with Gumbel", as implemented in DeepMind's ``mctx``): at the root, Gumbel noise
  ``g(a)`` (times ``gumbel_scale``) plus the prior's logits pick the top ``max_considered``
  actions, and sequential halving spreads the simulations over them (the visit schedule of
  ``mctx``'s ``get_table_of_considered_visits``), keeping the half with the larger
  ``g + logits + sigma(q)``; ``sigma(q) = (c_visit + max n) * c_scale * q`` with ``q`` the
  completed Q-values (an unvisited action gets the mixed value of the node) rescaled to [0, 1]
  over the node's actions. The move is the survivor with the largest ``g + logits + sigma(q)``;
  the **policy target** is the improved policy ``softmax(logits + sigma(completed q))``. Below the
  root, the deterministic rule ``argmax(pi'(a) - n(a) / (1 + sum n))`` with ``pi'`` the same
  improved policy at that node. Good with few simulations (16-64).
* ``"puct"`` (AlphaZero): ``argmax(q(a) + c_puct * P(a) * sqrt(sum n) / (1 + n(a)))`` everywhere,
  an unvisited action's ``q`` being the node's own evaluated value; the move is the most visited
  action (ties: the higher prior) and the policy target the visit counts.

Exact ties among root actions (a flat prior, no noise) are broken at random (from the root's
generator), never towards low action ids.

**Many roots in lock step** (:func:`search_many`): every simulation round walks one path in each
root's tree and evaluates all the new leaves in ONE evaluator call, so a batched network
evaluates many self-play games' leaves in one forward pass. The first call evaluates the roots.

**Hidden information**: as in the rollout search, every simulation starts from a
determinization of the root for the acting seat (the game's ``determinize`` hook), so the
evaluator is only ever asked about a state for the seat that moves there, and in a sampled world
that seat's observation holds only what it may see there. The root itself is evaluated in one
such sample too (its value, e.g. a ``leaf_values`` estimate, must not read the hidden cards).

Open loop: where a node's legal actions differ between samples (chance, determinization), a new
action joins the node with the prior ``1 / len(legal)`` and selection renormalises the prior over
the actions legal in the current sample.

Determinism: each root gets its own generator drawn from ``rng`` in root order; with a
deterministic evaluator the results depend only on ``rng``'s seed, the roots and the config
(and, with ``time_limit``, on the clock).

**Search cost** (issue 28 item 5; measured in ``benchmarks/bench_selfplay.py`` and
``benchmarks/equal_time_match.py``):

* the **node cache** (:attr:`GuidedConfig.cache`, on by default where it applies: perfect
  information, no chance, no determinization, i.e. Maya (2012) 2p): each node keeps its state,
  so an edge's action is applied once, not once per simulation through it; the same results;
* **tree reuse** (:attr:`GuidedConfig.reuse`, :class:`TreeKeeper`): the next search starts from
  the kept node of the state the moves played reached (at most :data:`REUSE_DEPTH` plies below
  the last root) with its visits and values; the Gumbel root's sequential halving counts only
  the new visits. A kept node that got the cheap prior (``prior_depth`` plies or more below
  the last root) and is now less deep gets the evaluator's prior, as in a fresh search. Off
  where information is hidden: a determinized tree is open loop (a node is many sampled
  worlds, not a state to match) and its statistics were gathered in worlds sampled for the
  seat that searched, which the next seat's search must not inherit;
* the **evaluation memo** (:attr:`GuidedConfig.memo`, :class:`EvaluationMemo`): a bot's evaluations
  of ``(state, seat)`` kept across its moves, asked again through transpositions and through the
  subtree of the move played;
* a **cheap prior below the root** (:attr:`GuidedConfig.prior_depth`, with ``leaf="hook"``):
  nodes that deep get a uniform prior and the hook's value, no evaluator call. Measured in
  Maya (2012) 2p: ``prior_depth=2`` halves the cost of an early move (57 -> 31 ms CPU at 32
  simulations) but loses strength (65.0% [55.3, 73.6] against the heuristic, 100 games, against
  86.8% [83.1, 89.7] without), so it is off by default;
* a **clock** (:attr:`GuidedConfig.time_limit`, ``az:...:time=SECONDS``): search until the time
  per move is spent, the Gumbel schedule planned for the simulations that fit. Every decision
  gets the same time, so one with many legal actions gets fewer simulations than one with few
  (Maya (2012) 2p at 20 ms: about 16 simulations with 20 or more legal actions, 37 with 2-4;
  a timed search plays as a fixed count of the simulations it ran, 304 of 305 positions);
* the **frozen network** (:class:`maya_envs.nn.frozen.FrozenNet`): the ``az:`` and ``policy:``
  bots run their network as a numpy copy of its weights, about 3x faster than torch a
  position at the search's batch of one, the same moves (``benchmarks/bench_pretrained.py
  --torch``); the selection keeps each node's prior logits instead of recomputing them.

Bot names: ``az:<model>[:SIMULATIONS][:KEY=VALUE...]`` (:data:`AZ_SYNTAX`; the network part is
in :mod:`maya_envs.nn.agent`).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from maya_envs.bots.search_common import (
    determinizer,
    game_hook,
    is_int,
    is_number,
    seat_to_act,
    terminal_values,
    with_overrides,
)
from maya_envs.core.protocol import Rules
from maya_envs.core.rng import make_rng
from maya_envs.core.specs import Grammar, parse_parts, positive_count

Evaluator = Callable[[Sequence[Any], Sequence[int]], tuple[Sequence[np.ndarray], np.ndarray]]
"""``evaluator(states, seats) -> (priors, values)``; see the module docstring."""

SELECTIONS = ("gumbel", "puct")
LEAVES = ("net", "hook", "mix", "residual")
"""Leaf values (:attr:`GuidedConfig.leaf`, :class:`LeafValueEvaluator`): ``net`` the evaluator's
own values, ``hook`` the game's ``leaf_values`` estimate, ``mix`` their mean, ``residual`` the
estimate plus the network's learned correction (its residual value head,
:class:`maya_envs.nn.model.PolicyValueNet`; design D2)."""
MIX_WEIGHT = 0.5
"""``mix``: ``MIX_WEIGHT * net + (1 - MIX_WEIGHT) * hook`` (design D1 of the strong-agents study)."""
TIEBREAK = 1e-9
"""Scale of the random term that breaks exact ties among root actions (a flat prior)."""
TIMED_SIMULATIONS = 800
"""The simulation cap of a timed search (``time_limit``) whose spec gives no count (``az:<model>:time=S``);
the web page's ``az`` maximum (:data:`maya_envs.web.session.PAGE_LIMITS`)."""
REUSE_DEPTH = 2
"""Tree reuse (:class:`TreeKeeper`) looks this many plies below a kept root: the child of the move played
and, below it, the child of the reply (two seats alternating)."""
AZ_SYNTAX = (
    "az:<model>[:SIMULATIONS][:KEY=VALUE...] with <model> a .pt network checkpoint or a shipped network name, "
    "SIMULATIONS a positive int (default 32) and KEY one of select (gumbel|puct), m (considered actions, "
    "int >= 1), noise (Gumbel scale, >= 0; default 0: no root noise, as a match wants; self-play explores "
    "with 1), c (PUCT constant, >= 0), c_visit and c_scale (Gumbel: sigma(q) = (c_visit + max n) * c_scale * q, "
    "each >= 0; defaults 50 and 0.1), leaf (net|hook|mix|residual: the leaf value, the network's, the game's "
    "leaf_values estimate, their mean, or the estimate plus the network's residual head; default: the leaf the "
    "network was trained with, else net), "
    f"time (seconds per move, > 0: search until it is spent, at most SIMULATIONS or {TIMED_SIMULATIONS} "
    "simulations), reuse (0|1: keep the subtree of the moves played, perfect-information games without chance), "
    "prior_depth (int >= 1, with leaf=hook: nodes this deep get a uniform prior and no network call), "
    "memo (int >= 0: evaluations kept for repeated states, 0 off); "
    "e.g. 'az:runs/x/model.pt:64', 'az:runs/x/model.pt:32:noise=1', 'az:<shipped network>:32:leaf=hook', "
    "'az:<shipped network>:time=0.02:leaf=hook:reuse=1' (an unknown name is refused with the shipped ones listed)"
)


@dataclass(frozen=True)
class GuidedConfig:
    """Guided search settings (module docstring).

    Attributes:
        simulations: simulations per root (>= 1); each is one evaluator call in lock step.
        selection: ``"gumbel"`` or ``"puct"``.
        max_considered: Gumbel: actions considered at the root (``m``, >= 1).
        gumbel_scale: Gumbel: the root noise's scale (0: no noise, the top-``m`` prior actions).
        c_puct: PUCT exploration constant (values are in [-1, 1]).
        c_visit, c_scale: Gumbel: ``sigma(q) = (c_visit + max n) * c_scale * q``
            (``mctx`` defaults 50 and 0.1).
        determinize: sample the root's hidden information for the acting seat (``None``:
            exactly when ``rules.spec.information`` is not ``"perfect"``).
        leaf: the value backed up from a new leaf (:data:`LEAVES`; :class:`LeafValueEvaluator`):
            ``"net"`` the evaluator's, ``"hook"`` the game's ``leaf_values`` estimate, ``"mix"``
            their mean, ``"residual"`` the evaluator's residual values (a network with a
            residual value head); ``None``: the evaluator's (for an ``az:`` spec: the leaf recorded with
            the network, :func:`maya_envs.nn.agent.make_network_bot`). The priors come from the
            evaluator (below ``prior_depth``: uniform).
        time_limit: seconds per move (``> 0``, finite), or ``None`` (no clock: the search depends
            only on its seed). With a clock the search runs until the time is spent (counted from
            the call, the root's evaluation included; at least one simulation) or ``simulations``
            simulations are done; the Gumbel schedule is planned, after its first pass over the
            considered actions, for the simulations the measured rate fits into the time left.
        cache: keep each node's state and legal actions on the node, so that a simulation through
            an edge does not apply its action again (the results are identical). ``None``: exactly
            when the game has perfect information and no chance (``rules.spec``) and the search
            does not determinize; ``True`` elsewhere is an error (the node of an open-loop tree
            stands for many states).
        reuse: keep the tree between moves (:class:`TreeKeeper`, :class:`AZBot`): a search whose
            root is the state reached by the move played (and the reply to it) starts from that
            subtree, its visit counts and values (kept nodes now less than ``prior_depth``
            plies deep that had the cheap prior get the evaluator's). Needs ``cache`` (perfect
            information, no chance): in a determinized (open-loop) tree a node holds no state to
            match, and its statistics mix worlds sampled for the seat that searched.
        prior_depth: with ``leaf="hook"``: a new node at this depth or deeper (the root is depth
            0) gets a uniform prior over its legal actions and the hook's value, without an
            evaluator call; ``None``: every node is evaluated. With ``reuse``, such a node kept
            from the last search and now less deep gets the evaluator's prior at the start of
            the search.
        memo: evaluations an :class:`AZBot` (or a self-play agent) keeps for states it meets
            again, in this move or a later one (:class:`EvaluationMemo`, least recently used
            dropped first); 0: none. A deterministic evaluator gives the same search with it.
    """

    simulations: int = 32
    selection: str = "gumbel"
    max_considered: int = 16
    gumbel_scale: float = 1.0
    c_puct: float = 1.25
    c_visit: float = 50.0
    c_scale: float = 0.1
    determinize: bool | None = None
    leaf: str | None = None
    time_limit: float | None = None
    cache: bool | None = None
    reuse: bool = False
    prior_depth: int | None = None
    memo: int = 0

    def __post_init__(self) -> None:
        if not is_int(self.simulations) or self.simulations < 1:
            raise ValueError(f"simulations={self.simulations!r}; allowed: an int >= 1")
        if self.selection not in SELECTIONS:
            raise ValueError(f"selection={self.selection!r}; allowed: {', '.join(SELECTIONS)}")
        if not is_int(self.max_considered) or self.max_considered < 1:
            raise ValueError(f"max_considered={self.max_considered!r}; allowed: an int >= 1")
        for name in ("gumbel_scale", "c_puct", "c_visit", "c_scale"):
            value = getattr(self, name)
            if not is_number(value) or not 0 <= value < math.inf:
                raise ValueError(f"{name}={value!r}; allowed: a finite number >= 0")
        if self.determinize not in (None, True, False):
            raise ValueError(f"determinize={self.determinize!r}; allowed: None, True, False")
        if self.leaf is not None and self.leaf not in LEAVES:
            raise ValueError(f"leaf={self.leaf!r}; allowed: {', '.join(LEAVES)} (or None: the evaluator's)")
        if self.time_limit is not None and not (is_number(self.time_limit) and 0 < self.time_limit < math.inf):
            raise ValueError(f"time_limit={self.time_limit!r}; allowed: seconds > 0 (finite) or None")
        if not (self.cache is None or isinstance(self.cache, bool)):
            raise ValueError(f"cache={self.cache!r}; allowed: None, True, False")
        if not isinstance(self.reuse, bool):
            raise ValueError(f"reuse={self.reuse!r}; allowed: True, False")
        if self.reuse and self.cache is False:
            raise ValueError("reuse=True needs the node cache (cache=None or True), got cache=False")
        if not is_int(self.memo) or self.memo < 0:
            raise ValueError(f"memo={self.memo!r}; allowed: an int >= 0 (evaluations kept; 0: none)")
        if self.prior_depth is not None:
            if not is_int(self.prior_depth) or self.prior_depth < 1:
                raise ValueError(f"prior_depth={self.prior_depth!r}; allowed: an int >= 1 or None")
            if self.leaf not in (None, "hook"):
                raise ValueError(
                    f"prior_depth={self.prior_depth} needs leaf='hook' (no evaluator value there), "
                    f"got leaf={self.leaf!r}"
                )


class LeafValueEvaluator:
    """An evaluator (module docstring) with ``base``'s priors and, as values, ``base``'s
    (``"net"``), the game's ``leaf_values`` hook (``"hook"``; each game's
    ``<game>/determinize.py``, about 0.005 ms per state), ``MIX_WEIGHT * net + (1 -
    MIX_WEIGHT) * hook`` (``"mix"``) or ``base.residual_values(states, seats)`` (``"residual"``:
    the hook plus the learned correction of a network's residual value head,
    :meth:`maya_envs.nn.agent.NetworkEvaluator.residual_values`; the priors then come from that
    same call). Values: ``float32 (B, num_players)``, absolute seat order, in [-1, 1]. Source:
    designs D1 and D2 of the strong-agents study (the learned value is worse than the hook on
    fresh games in Maya (2012) and Yaxha).

    Raises:
        ValueError: an unknown mode, ``hook``/``mix``/``residual`` for a game without the hook,
            or ``residual`` with a ``base`` that has no residual values (``has_residual``).
    """

    def __init__(self, base: Evaluator, rules: Rules, mode: str) -> None:
        if mode not in LEAVES:
            raise ValueError(f"leaf={mode!r}; allowed: {', '.join(LEAVES)}")
        self.base, self.rules, self.mode = base, rules, mode
        self.hook = game_hook(rules, "leaf_values") if mode != "net" else None
        if mode != "net" and self.hook is None:
            raise ValueError(f"leaf={mode!r}: {type(rules).__name__} has no leaf_values hook (maya_envs.games)")
        if mode == "residual" and not getattr(base, "has_residual", False):
            raise ValueError(
                "leaf='residual': the evaluator has no residual value head (a network built with residual=True, "
                "trained with exit.leaf_value residual or auto)"
            )

    def hook_values(self, states: Sequence[Any]) -> np.ndarray:
        """The hook's values ``float64 (len(states), num_players)`` (``hook``/``mix`` modes)."""
        return np.stack([np.asarray(self.hook(self.rules, state), np.float64) for state in states])

    def __call__(self, states: Sequence[Any], seats: Sequence[int]) -> tuple[Sequence[np.ndarray], np.ndarray]:
        if self.mode == "residual":
            return self.base.residual_values(states, seats)
        priors, values = self.base(states, seats)
        if self.mode == "net":
            return priors, values
        hooked = self.hook_values(states)
        if self.mode == "mix":
            hooked = MIX_WEIGHT * np.asarray(values, np.float64) + (1.0 - MIX_WEIGHT) * hooked
        return priors, hooked.astype(np.float32)


class EvaluationMemo:
    """An evaluator (module docstring) that answers a ``(state, seat)`` it has answered before
    from memory and asks ``base`` only about the others (in one call, each state once). A
    guided search meets the same state again in later moves (the subtree below the move
    played) and through transpositions: about a quarter of the evaluations of a Maya (2012) 2p
    game at 32 simulations repeat an earlier one. States must be hashable; an unhashable one
    is passed through.

    Args:
        base: the evaluator (deterministic: the memo returns its first answer).
        entries: the most evaluations kept (>= 1); the least recently used goes first.

    Attributes:
        hits, misses: answers from memory / from ``base`` so far.
    """

    def __init__(self, base: Evaluator, entries: int) -> None:
        if not is_int(entries) or entries < 1:
            raise ValueError(f"entries={entries!r}; allowed: an int >= 1")
        self.base, self.entries = base, entries
        self._memo: OrderedDict[Any, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self.hits = self.misses = 0

    @property
    def has_residual(self) -> bool:
        """Whether ``base`` has residual values (``leaf="residual"`` reads them through the memo)."""
        return bool(getattr(self.base, "has_residual", False))

    def __call__(self, states: Sequence[Any], seats: Sequence[int]) -> tuple[list[np.ndarray], np.ndarray]:
        return self._answer(self.base, "value", states, seats)

    def residual_values(self, states: Sequence[Any], seats: Sequence[int]) -> tuple[list[np.ndarray], np.ndarray]:
        """``base.residual_values``, kept apart from the plain evaluations (another value)."""
        return self._answer(self.base.residual_values, "residual", states, seats)

    def _answer(self, ask_base, kind: str, states: Sequence[Any], seats: Sequence[int]):
        try:
            keys = [(kind, state, int(seat)) for state, seat in zip(states, seats, strict=True)]
            found = [self._memo.get(key) for key in keys]
        except TypeError:  # an unhashable state
            return ask_base(states, seats)
        ask = list(dict.fromkeys(k for k, f in zip(keys, found, strict=True) if f is None))
        if ask:
            priors, values = ask_base([k[1] for k in ask], [k[2] for k in ask])
            values = np.asarray(values)
            for key, prior, value in zip(ask, priors, values, strict=True):
                self._memo[key] = (prior, value)
        out = []
        for key, answer in zip(keys, found, strict=True):
            if answer is None:
                self.misses += 1
            else:
                self.hits += 1
            out.append(self._memo[key])
            self._memo.move_to_end(key)
        while len(self._memo) > self.entries:
            self._memo.popitem(last=False)
        return [p for p, _ in out], np.stack([v for _, v in out])


@dataclass(frozen=True)
class SearchResult:
    """One root's search.

    Attributes:
        action: the chosen legal action id.
        policy: ``float32 (num_actions,)``, the search policy target (Gumbel: the improved
            policy; PUCT: visit counts over their sum), 0 at illegal ids, summing to 1.
        value: ``float32 (num_players,)``, each seat's value in [-1, 1] of the chosen action
            (the mean of the values backed up through it; the root's evaluated value when the
            move was forced).
        simulations: simulations run (0 when the move was forced).
        tree: the search tree's root (for :class:`TreeKeeper`; not compared).
    """

    action: int
    policy: np.ndarray
    value: np.ndarray
    simulations: int
    tree: Any = field(default=None, compare=False, repr=False)


class _Node:
    """A tree node: its actions (python list, open loop: may grow), their prior, visits
    ``n (A,)``, value sums ``w (A, num_players)``, children (``None`` until evaluated) and the
    evaluated value ``raw (num_players,)``. With the node cache (:attr:`GuidedConfig.cache`)
    also its ``state``, the seat to move there (``mover``) and ``after[i]``, the state action
    ``i`` leads to (``None`` until first applied); else these are ``None``. ``cheap``: the
    prior is the uniform one of a node at or below :attr:`GuidedConfig.prior_depth`, not the
    evaluator's (tree reuse asks the evaluator once such a node is kept above that depth).
    ``logits``: :func:`_logits` of the whole prior, kept with it (selection reads it at every
    visit)."""

    __slots__ = ("actions", "index", "prior", "logits", "n", "w", "children", "raw", "state", "mover", "after", "cheap")

    def __init__(
        self,
        actions: list[int],
        prior: np.ndarray,
        raw: np.ndarray,
        state: Any = None,
        mover: int | None = None,
        cheap: bool = False,
    ) -> None:
        self.actions = list(actions)
        self.index = {a: i for i, a in enumerate(self.actions)}
        self.set_prior(prior)
        self.cheap = cheap
        self.n = np.zeros(len(self.actions))
        self.w = np.zeros((len(self.actions), len(raw)))
        self.children: list[_Node | None] = [None] * len(self.actions)
        self.raw = np.asarray(raw, np.float64)
        self.state, self.mover = state, mover
        self.after: list[Any] | None = None if mover is None else [None] * len(self.actions)

    def set_prior(self, prior: np.ndarray) -> None:
        """The prior over ``actions``: ``prior`` clipped at 0 and normalised (uniform if it sums to 0)."""
        p = np.maximum(np.asarray(prior, np.float64).reshape(len(self.actions)), 0.0)
        total = p.sum()
        self.prior = p / total if total > 0 else np.full(len(p), 1.0 / len(p))
        self.logits = _logits(self.prior)

    def edges(self, legal: list[int]) -> np.ndarray:
        """Indices of ``legal`` (the current sample's legal actions) among this node's actions,
        adding the ones it has not seen (prior ``1 / len(legal)``)."""
        if legal == self.actions:
            return np.arange(len(self.actions))
        new = [a for a in legal if a not in self.index]
        if new:
            for a in new:
                self.index[a] = len(self.actions)
                self.actions.append(a)
                self.children.append(None)
            k = len(new)
            self.prior = np.concatenate([self.prior, np.full(k, 1.0 / len(legal))])
            self.logits = _logits(self.prior)
            self.n = np.concatenate([self.n, np.zeros(k)])
            self.w = np.concatenate([self.w, np.zeros((k, self.w.shape[1]))])
        return np.array([self.index[a] for a in legal])

    def value(self) -> np.ndarray:
        """Each seat's mean of the evaluated value and every backed-up value."""
        return (self.raw + self.w.sum(axis=0)) / (1.0 + self.n.sum())


def _completed_q(node: _Node, idx: np.ndarray | None, seat: int) -> np.ndarray:
    """``mctx``'s completed Q-values of ``seat`` over ``idx`` (``None``: all the node's actions,
    in order): the mean value of a visited action, the node's mixed value (its evaluated value
    averaged with the prior-weighted mean Q of the visited actions, weighted by their visits)
    for an unvisited one."""
    if idx is None:
        n, w, prior = node.n, node.w[:, seat], node.prior
    else:
        n, w, prior = node.n[idx], node.w[idx, seat], node.prior[idx]
    visited = n > 0
    q = np.where(visited, w / np.maximum(n, 1), 0.0)
    total = n.sum()
    if total == 0:
        return np.full(len(n), node.raw[seat])
    prior = np.maximum(prior, _TINY)
    weighted = (prior * q)[visited].sum() / prior[visited].sum()
    mixed = (node.raw[seat] + total * weighted) / (total + 1)
    return np.where(visited, q, mixed)


def _sigma(config: GuidedConfig, node: _Node, idx: np.ndarray | None, seat: int) -> np.ndarray:
    """``sigma(completed q)`` over ``idx`` (``None``: all): the completed Q-values rescaled to
    [0, 1] over the node's actions, times ``(c_visit + max n) * c_scale``."""
    q = _completed_q(node, idx, seat)
    low, high = q.min(), q.max()
    q = (q - low) / max(high - low, 1e-8)
    return (config.c_visit + (node.n if idx is None else node.n[idx]).max()) * config.c_scale * q


_TINY = np.finfo(np.float64).tiny


def _logits(prior: np.ndarray) -> np.ndarray:
    p = np.maximum(prior, _TINY)
    logits = np.log(p / p.sum())
    return logits - logits.max()


def _interior_choice(
    config: GuidedConfig, n: np.ndarray, w: np.ndarray, prior: np.ndarray, logits: np.ndarray, raw: float
) -> int:
    """Gumbel selection below the root (``mctx``'s interior action selection): the position of
    the largest ``softmax(logits + sigma(completed q)) - n / (1 + sum n)``, the first on a tie.
    The arithmetic of :func:`_completed_q`, :func:`_sigma` and :func:`_softmax` on one node's few
    actions, in plain floats: numpy's per-call cost on arrays this small was most of the tree
    walk's time (``n``, ``w``: the actions' visits and the mover's value sums; ``raw``: the
    node's evaluated value for the mover)."""
    visits = n.tolist()
    total = sum(visits)
    if total == 0:
        q = [float(raw)] * len(visits)
    else:
        weighted = weights = 0.0
        means: list[float | None] = []
        for visit, value, p in zip(visits, w.tolist(), prior.tolist(), strict=True):
            if visit > 0:
                mean = value / visit
                p = max(p, _TINY)
                weighted += p * mean
                weights += p
                means.append(mean)
            else:
                means.append(None)
        mixed = (raw + total * (weighted / weights)) / (total + 1)
        q = [mixed if mean is None else mean for mean in means]
    low = min(q)
    span = max(max(q) - low, 1e-8)
    scale = (config.c_visit + max(visits)) * config.c_scale
    x = [logit + scale * ((value - low) / span) for logit, value in zip(logits.tolist(), q, strict=True)]
    top = max(x)
    e = [math.exp(v - top) for v in x]
    z = sum(e)
    best, choice = -math.inf, 0
    for i, (ei, visit) in enumerate(zip(e, visits, strict=True)):
        score = ei / z - visit / (1.0 + total)
        if score > best:
            best, choice = score, i
    return choice


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


def considered_visits(max_considered: int, simulations: int) -> tuple[int, ...]:
    """The visit count the root action of each simulation must have (sequential halving over
    ``max_considered`` actions in ``simulations`` simulations; ``mctx``'s
    ``get_sequence_of_considered_visits``)."""
    if max_considered <= 1:
        return tuple(range(simulations))
    log2max = math.ceil(math.log2(max_considered))
    sequence: list[int] = []
    visits = [0] * max_considered
    considered = max_considered
    while len(sequence) < simulations:
        extra = max(1, int(simulations / (log2max * considered)))
        for _ in range(extra):
            sequence.extend(visits[:considered])
            for i in range(considered):
                visits[i] += 1
        considered = max(2, considered // 2)
    return tuple(sequence[:simulations])


class _Search:
    """The search of one root (its tree, generator, Gumbel noise and schedule)."""

    def __init__(
        self,
        rules: Rules,
        state: Any,
        seat: int,
        config: GuidedConfig,
        rng: np.random.Generator,
        determinize: Callable | None,
        cached: bool = False,
        tree: _Node | None = None,
    ) -> None:
        self.rules, self.state, self.seat, self.config, self.rng = rules, state, seat, config, rng
        self.determinize = determinize
        self.cached = cached
        self.legal = list(rules.legal_actions(state))
        # A kept subtree is used only where it is this state's node (TreeKeeper matched the state).
        self.tree = tree if tree is not None and tree.state is not None and tree.actions == self.legal else None
        self.root: _Node | None = None
        self.count = 0
        self.limit = config.simulations
        self.first_pass = 0
        self.gumbel = np.zeros(len(self.legal))
        self.tiebreak = np.zeros(len(self.legal))
        self.base = np.zeros(len(self.legal))
        self.schedule: tuple[int, ...] = ()

    def start(self, prior: np.ndarray | None = None, value: np.ndarray | None = None) -> None:
        """Root the tree: a new node from the evaluator's ``prior`` and ``value``, or the kept
        subtree (its visits so far are the ``base`` the Gumbel schedule counts from)."""
        if self.tree is not None:
            self.root = self.tree
            self.base = self.root.n.copy()
        elif self.cached:
            self.root = _Node(self.legal, prior, value, self.state, self.seat)
        else:
            self.root = _Node(self.legal, prior, value)
        cfg = self.config
        # Ties at the root (a flat prior with no noise) are broken at random, not towards low ids.
        self.tiebreak = TIEBREAK * self.rng.random(len(self.legal))
        if cfg.selection == "gumbel":
            self.gumbel = cfg.gumbel_scale * self.rng.gumbel(size=len(self.legal)) + self.tiebreak
            m = min(cfg.max_considered, len(self.legal))
            self.schedule = considered_visits(m, cfg.simulations)
            self.first_pass = min(m, cfg.simulations)

    def plan(self, simulations: int) -> None:
        """Gumbel, timed: re-plan the schedule for ``simulations`` in all (after the first pass,
        which every schedule of these ``m`` actions shares)."""
        m = min(self.config.max_considered, len(self.legal))
        self.limit = max(self.count, min(simulations, self.config.simulations))
        self.schedule = considered_visits(m, self.limit)

    @property
    def forced(self) -> bool:
        return len(self.legal) == 1

    def select(self, node: _Node, idx: np.ndarray | None, mover: int) -> int:
        """The index (into ``node.actions``) of the edge a simulation follows from ``node``, among
        ``idx`` (``None``: all its actions; the node cache's walk, where they are the state's)."""
        cfg = self.config
        if idx is None and (cfg.selection == "puct" or node is self.root):
            idx = np.arange(len(node.actions))
        n = node.n if idx is None else node.n[idx]
        if cfg.selection == "puct":
            q = np.where(n > 0, node.w[idx, mover] / np.maximum(n, 1), node.raw[mover])
            prior = node.prior[idx] / node.prior[idx].sum()
            score = q + cfg.c_puct * prior * math.sqrt(max(n.sum(), 1.0)) / (1.0 + n)
            if node is self.root:
                score = score + self.tiebreak
        elif node is self.root:
            target = self.schedule[self.count]
            score = self.gumbel + node.logits + _sigma(cfg, node, idx, mover)
            score = np.where(n - self.base[idx] == target, score, -np.inf)
            if not np.isfinite(score).any():  # not reached with the mctx schedule; stay safe
                score = -n
        else:
            if idx is None:
                return _interior_choice(cfg, node.n, node.w[:, mover], node.prior, node.logits, node.raw[mover])
            prior = node.prior[idx]
            choice = _interior_choice(cfg, n, node.w[idx, mover], prior, _logits(prior), node.raw[mover])
            return int(idx[choice])
        return int(idx[int(np.argmax(score))])

    def descend(self) -> tuple[list[tuple[_Node, int]], Any, np.ndarray | None]:
        """Walk one simulation down from a (sampled) root: ``(path, leaf state, values)`` with
        ``values`` set when the walk ended at a finished game, else ``None`` (the leaf state
        then needs the evaluator, for the seat to move there). With the node cache the walk
        reads each node's state and legal actions and applies an edge's action only the first
        time through it (the same walk)."""
        rules = self.rules
        cached = self.cached
        determinize = self.determinize
        if cached or determinize is None:
            state = self.state
        else:
            state = determinize(rules, self.state, self.seat, self.rng)
        node = self.root
        path: list[tuple[_Node, int]] = []
        while True:
            if cached:
                i = self.select(node, None, node.mover)
                state = node.after[i]
                if state is None:
                    state = node.after[i] = rules.apply_action(node.state, node.actions[i], self.rng)
            else:
                legal = self.legal if node is self.root else list(rules.legal_actions(state))
                idx = node.edges(legal)
                # this sample's legal actions are the node's, in order (the common case): all of them
                i = self.select(node, None if legal == node.actions else idx, rules.current_player(state))
                state = rules.apply_action(state, node.actions[i], self.rng)
            path.append((node, i))
            if rules.current_player(state) < 0:
                return path, state, terminal_values(rules, state)
            child = node.children[i]
            if child is None:
                return path, state, None
            node = child

    @staticmethod
    def backup(path: list[tuple[_Node, int]], values: np.ndarray) -> None:
        for node, i in path:
            node.n[i] += 1
            node.w[i] += values

    def result(self, num_actions: int) -> SearchResult:
        root, cfg = self.root, self.config
        policy = np.zeros(num_actions, np.float32)
        idx = root.edges(self.legal)
        if self.forced:
            action = self.legal[0]
            policy[action] = 1.0
        elif cfg.selection == "gumbel":
            mover = self.seat
            sigma = _sigma(cfg, root, idx, mover)
            n = root.n[idx] - self.base[idx]
            score = np.where(n == n.max(), self.gumbel + root.logits + sigma, -np.inf)
            action = self.legal[int(np.argmax(score))]
            policy[self.legal] = _softmax(root.logits + sigma)
        else:
            n = root.n[idx]
            best = np.flatnonzero(n == n.max())
            # then the prior, then at random
            action = self.legal[int(best[np.argmax(root.prior[idx][best] + self.tiebreak[best])])]
            policy[self.legal] = n / n.sum()
        i = root.index[action]
        value = root.w[i] / root.n[i] if root.n[i] > 0 else root.value()
        return SearchResult(int(action), policy, value.astype(np.float32), self.count, root)


def search_many(
    rules: Rules,
    roots: Sequence[Any],
    seats: Sequence[int],
    evaluator: Evaluator,
    config: GuidedConfig | None = None,
    rng: int | np.random.Generator | None = None,
    trees: Sequence[Any] | None = None,
) -> list[SearchResult]:
    """Search every root in lock step; see the module docstring.

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
        trees: per root, a kept subtree to start from or ``None`` (:meth:`TreeKeeper.find`; a
            tree that is not this root's node is ignored, and so is one that shares a node with
            an earlier root's kept tree: the same position in two games, or one inside the
            other, is searched from one root only, the others start afresh); needs the node
            cache.

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
    if config.prior_depth is not None and config.leaf != "hook":
        raise ValueError(f"prior_depth={config.prior_depth} needs leaf='hook', got leaf={config.leaf!r}")
    if config.leaf not in (None, "net"):
        evaluator = LeafValueEvaluator(evaluator, rules, config.leaf)
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
        searches.append(_Search(rules, state, int(seat), config, root_rng, determinize, cached, tree))
    if not searches:
        return []
    if sum(s.tree is not None for s in searches) > 1:
        _one_root_per_tree(searches)
    num_players = rules.spec.num_players
    # A hidden-information root is evaluated in one sampled world for its seat, like every leaf:
    # the estimate (leaf hook, mix, residual) of the true state would pass the hidden cards into
    # the root's value and from there into the completed Q-values and the policy target. A root
    # whose tree is kept from the last move (reuse: perfect information only) needs no evaluation.
    # A kept node that got the cheap uniform prior (it was prior_depth or more plies below the
    # last root) and is now less deep gets the evaluator's prior, as in a fresh search; in the
    # same call.
    fresh = [s for s in searches if s.tree is None]
    promoted = [node for s in searches if s.tree is not None for node in _cheap_above(s.tree, config.prior_depth)]
    if fresh or promoted:
        seen = [s.state if determinize is None else determinize(rules, s.state, s.seat, s.rng) for s in fresh]
        seen += [node.state for node in promoted]
        asked = [s.seat for s in fresh] + [node.mover for node in promoted]
        priors, values = _evaluate(evaluator, seen, asked, num_players)
        priors = list(priors)
        for search, prior, value in zip(fresh, priors[: len(fresh)], values[: len(fresh)], strict=True):
            if len(prior) != len(search.legal):
                raise ValueError(
                    f"evaluator gave {len(prior)} priors for a state with {len(search.legal)} legal actions"
                )
            search.start(prior, value)
        for node, prior in zip(promoted, priors[len(fresh) :], strict=True):
            if len(prior) != len(node.actions):
                raise ValueError(
                    f"evaluator gave {len(prior)} priors for a state with {len(node.actions)} legal actions"
                )
            node.set_prior(prior)
            node.cheap = False
    for search in searches:
        if search.tree is not None:
            search.start()
    active = [s for s in searches if not s.forced]
    planned = False
    loop_start = time.perf_counter()
    for done in range(config.simulations):
        if deadline is not None and done > 0:
            now = time.perf_counter()
            if now >= deadline:
                break
            if not planned and config.selection == "gumbel" and done >= max((s.first_pass for s in active), default=0):
                # Every search has had its first pass (shared by all schedules): plan the rest
                # for the simulations the measured rate fits into the time left.
                fits = done + int((deadline - now) / max((now - loop_start) / done, 1e-9))
                for search in active:
                    search.plan(fits)
                planned = True
        active = [s for s in active if s.count < s.limit]
        if not active:
            break
        pending = []
        for search in active:
            path, leaf, terminal = search.descend()
            search.count += 1
            if terminal is not None:
                search.backup(path, terminal)
            else:
                pending.append((search, path, leaf, rules.current_player(leaf)))
        if not pending:
            continue
        cheap = [] if config.prior_depth is None else [p for p in pending if len(p[1]) >= config.prior_depth]
        if cheap:
            pending = [p for p in pending if len(p[1]) < config.prior_depth]
            hooked = evaluator.hook_values([p[2] for p in cheap])
            for (search, path, leaf, mover), value in zip(cheap, hooked, strict=True):
                legal = list(rules.legal_actions(leaf))
                _expand(search, path, leaf, mover, legal, np.full(len(legal), 1.0 / len(legal)), value, cheap=True)
        if not pending:
            continue
        priors, values = _evaluate(evaluator, [p[2] for p in pending], [p[3] for p in pending], num_players)
        for (search, path, leaf, mover), prior, value in zip(pending, priors, values, strict=True):
            legal = list(rules.legal_actions(leaf))
            if len(prior) != len(legal):
                raise ValueError(f"evaluator gave {len(prior)} priors for a state with {len(legal)} legal actions")
            _expand(search, path, leaf, mover, legal, prior, value)
    return [search.result(rules.spec.num_actions) for search in searches]


def _expand(
    search: _Search,
    path: list[tuple[_Node, int]],
    leaf: Any,
    mover: int,
    legal: list[int],
    prior,
    value,
    cheap: bool = False,
) -> None:
    """Add the new leaf's node under the last edge of ``path`` and back its value up (``cheap``:
    its prior is the uniform one below ``prior_depth``)."""
    node, i = path[-1]
    if search.cached:
        node.children[i] = _Node(legal, prior, value, leaf, mover, cheap)
    else:
        node.children[i] = _Node(legal, prior, value, cheap=cheap)
    search.backup(path, np.asarray(value, np.float64))


def _one_root_per_tree(searches: list[_Search]) -> None:
    """Drop the kept tree of each search whose tree shares a node with an earlier search's (the
    same node handed to two roots, or one kept tree inside another): two roots walking one
    tree would each add their visits to the other's statistics and Gumbel schedule."""
    claimed: set[int] = set()
    for search in searches:
        if search.tree is None:
            continue
        ids: list[int] = []
        frontier = [search.tree]
        while frontier:
            ids.extend(id(node) for node in frontier)
            frontier = [child for node in frontier for child in node.children if child is not None]
        if claimed.isdisjoint(ids):
            claimed.update(ids)
        else:
            search.tree = None


def _cheap_above(root: _Node, prior_depth: int | None) -> list[_Node]:
    """The nodes of a kept tree less than ``prior_depth`` plies below ``root`` (any depth with
    ``None``) whose prior is the cheap uniform one: they were ``prior_depth`` or more plies
    below the root of the search that made them."""
    found: list[_Node] = []
    frontier, depth = [root], 0
    while frontier and (prior_depth is None or depth < prior_depth):
        found.extend(node for node in frontier if node.cheap)
        frontier = [child for node in frontier for child in node.children if child is not None]
        depth += 1
    return found


def node_cache(rules: Rules, config: GuidedConfig, determinize: Callable | None) -> bool:
    """Whether the search keeps states on its nodes (:attr:`GuidedConfig.cache`): where the game
    has perfect information and no chance and the search does not determinize.

    Raises:
        ValueError: ``cache=True`` or ``reuse=True`` where it does not apply.
    """
    spec = rules.spec
    fits = determinize is None and spec.information == "perfect" and not getattr(spec, "chance", True)
    if (config.cache or config.reuse) and not fits:
        raise ValueError(
            f"cache={config.cache}, reuse={config.reuse}: the node cache (and tree reuse) needs a game of perfect "
            f"information without chance and no determinization; {spec.name!r} has information={spec.information!r}, "
            f"chance={getattr(spec, 'chance', None)!r}"
        )
    return fits if config.cache is None else bool(config.cache)


class TreeKeeper:
    """Tree reuse between moves (:attr:`GuidedConfig.reuse`): :meth:`keep` the trees of the last
    searches, then :meth:`find` the kept node of each new root, a node at most
    :data:`REUSE_DEPTH` plies below a kept root whose state equals it (the subtree under the
    move played and, for the opponent's move, under the reply). Its visit counts and values
    carry over (:func:`search_many` gives the evaluator's prior to its nodes that had the cheap
    one and are now above ``prior_depth``); the rest of the old trees is dropped. States must
    be hashable (else nothing is found); the tree must have been searched with the node cache.
    """

    def __init__(self, depth: int = REUSE_DEPTH) -> None:
        self.depth = depth
        self._index: dict[Any, _Node] = {}

    def keep(self, results: Sequence[SearchResult]) -> None:
        """Index the nodes 1..depth plies below each result's root (replacing what was kept)."""
        index: dict[Any, _Node] = {}
        try:
            for result in results:
                frontier = [] if result.tree is None or result.tree.state is None else [result.tree]
                for _ in range(self.depth):
                    frontier = [child for node in frontier for child in node.children if child is not None]
                    for child in frontier:
                        index[child.state] = child
        except TypeError:  # an unhashable state: no reuse
            index = {}
        self._index = index

    def find(self, states: Sequence[Any]) -> list[_Node | None]:
        """The kept node of each state, or ``None``."""
        try:
            return [self._index.get(state) for state in states]
        except TypeError:
            return [None] * len(states)


def _evaluate(
    evaluator: Evaluator, states: list[Any], seats: list[int], num_players: int
) -> tuple[Sequence[np.ndarray], np.ndarray]:
    priors, values = evaluator(states, seats)
    values = np.asarray(values, np.float64)
    if values.shape != (len(states), num_players) or len(priors) != len(states):
        raise ValueError(
            f"evaluator answered {len(priors)} priors and values of shape {values.shape} for {len(states)} states; "
            f"expected {len(states)} and {(len(states), num_players)}"
        )
    return priors, values


class AZBot:
    """A bot that plays the guided search's move (``az:`` bots).

    Args:
        rules: the game's rules.
        evaluator: the search's evaluator (module docstring).
        config: a :class:`GuidedConfig` (default ``GuidedConfig()``); keyword overrides of its
            fields may follow.
        seed: an int, ``None`` or a generator: the bot's own stream.

    Attributes:
        last_result: the :class:`SearchResult` of the latest :meth:`act`.

    Raises:
        ValueError: a bad setting.
    """

    def __init__(
        self,
        rules: Rules,
        evaluator: Evaluator,
        config: GuidedConfig | None = None,
        seed: int | np.random.Generator | None = None,
        **overrides: Any,
    ) -> None:
        config = with_overrides(config or GuidedConfig(), overrides, "guided search")
        # fail now, not in the middle of a game
        node_cache(rules, config, determinizer(rules, config.determinize))
        if config.leaf not in (None, "net"):
            LeafValueEvaluator(evaluator, rules, config.leaf)  # a game without the hook fails now
        if config.prior_depth is not None and config.leaf != "hook":
            raise ValueError(f"prior_depth={config.prior_depth} needs leaf='hook', got leaf={config.leaf!r}")
        self.rules, self.config = rules, config
        self.evaluator = EvaluationMemo(evaluator, config.memo) if config.memo else evaluator
        self.rng = make_rng(seed)
        self.keeper = TreeKeeper() if config.reuse else None
        self.last_result: SearchResult | None = None

    def act(self, state: Any) -> int:
        """Search from ``state`` and return the chosen legal action of the seat to move.

        Raises:
            ValueError: the game is over.
        """
        seat = seat_to_act(self.rules, state, "AZBot")
        trees = None if self.keeper is None else self.keeper.find([state])
        self.last_result = search_many(self.rules, [state], [seat], self.evaluator, self.config, self.rng, trees)[0]
        if self.keeper is not None:
            self.keeper.keep([self.last_result])
        return self.last_result.action


def _zero_or_one(text: str) -> bool:
    """``"0"`` -> False, ``"1"`` -> True (the spec's ``reuse=``); anything else is a ValueError."""
    if text not in ("0", "1"):
        raise ValueError(f"{text!r} is not 0 or 1")
    return text == "1"


AZ_GRAMMAR = Grammar(
    AZ_SYNTAX,
    model="first",
    positional=(("simulations", positive_count("simulations")),),
    options={
        "select": ("selection", str),
        "m": ("max_considered", int),
        "noise": ("gumbel_scale", float),
        "c": ("c_puct", float),
        "c_visit": ("c_visit", float),
        "c_scale": ("c_scale", float),
        "leaf": ("leaf", str),
        "time": ("time_limit", float),
        "reuse": ("reuse", _zero_or_one),
        "prior_depth": ("prior_depth", int),
        "memo": ("memo", int),
    },
    check=lambda values: GuidedConfig(**values),
)
"""The parts of an ``az:`` spec (:mod:`maya_envs.core.specs`); each option is checked by
:class:`GuidedConfig` as it is read."""


def parse_az_spec(name: str) -> tuple[str, GuidedConfig]:
    """Split ``az:<model>[:SIMULATIONS][:KEY=VALUE...]`` into ``(model, config)``
    (syntax: :data:`AZ_SYNTAX`).

    Raises:
        ValueError: a malformed name; the message names the bad part and gives the syntax.
    """
    if name.partition(":")[0] != "az":
        raise ValueError(f"bot {name!r}: expected {AZ_SYNTAX}")
    parts = parse_parts(name, AZ_GRAMMAR, {"gumbel_scale": 0.0})  # a match bot plays without root noise
    values = dict(parts.values)
    if "time_limit" in values and not parts.positional:  # a clock without a count: the clock decides
        values["simulations"] = TIMED_SIMULATIONS
    return parts.model, GuidedConfig(**values)
