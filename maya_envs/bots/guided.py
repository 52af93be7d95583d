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
that seat's observation holds only what it may see there.

Open loop: where a node's legal actions differ between samples (chance, determinization), a new
action joins the node with the prior ``1 / len(legal)`` and selection renormalises the prior over
the actions legal in the current sample.

Determinism: each root gets its own generator drawn from ``rng`` in root order; with a
deterministic evaluator the results depend only on ``rng``'s seed, the roots and the config.

Bot names: ``az:<model>[:SIMULATIONS][:KEY=VALUE...]`` (:data:`AZ_SYNTAX`; the network part is
in :mod:`maya_envs.nn.agent`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from maya_envs.bots.search_common import determinizer, game_hook, is_int, is_number, terminal_values, with_overrides
from maya_envs.core.protocol import Rules
from maya_envs.core.rng import make_rng
from maya_envs.core.specs import Grammar, parse_parts, positive_count

Evaluator = Callable[[Sequence[Any], Sequence[int]], tuple[Sequence[np.ndarray], np.ndarray]]
"""``evaluator(states, seats) -> (priors, values)``; see the module docstring."""

SELECTIONS = ("gumbel", "puct")
LEAVES = ("net", "hook", "mix")
"""Leaf values (:attr:`GuidedConfig.leaf`, :class:`LeafValueEvaluator`): ``net`` the evaluator's
own values, ``hook`` the game's ``leaf_values`` estimate, ``mix`` their mean."""
MIX_WEIGHT = 0.5
"""``mix``: ``MIX_WEIGHT * net + (1 - MIX_WEIGHT) * hook`` (design D1 of the strong-agents study)."""
TIEBREAK = 1e-9
"""Scale of the random term that breaks exact ties among root actions (a flat prior)."""
AZ_SYNTAX = (
    "az:<model>[:SIMULATIONS][:KEY=VALUE...] with <model> a .pt network checkpoint or a shipped network name, "
    "SIMULATIONS a positive int (default 32) and KEY one of select (gumbel|puct), m (considered actions, "
    "int >= 1), noise (Gumbel scale, >= 0; default 0: no root noise, as a match wants; self-play explores "
    "with 1), c (PUCT constant, >= 0), leaf (net|hook|mix: the leaf value, the network's, the game's leaf_values "
    "estimate or their mean; default: the leaf the network was trained with, else net); "
    "e.g. 'az:runs/x/model.pt:64', 'az:maya2012_2p:32:noise=1', 'az:maya2012_2p_exit:32:leaf=hook'"
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
            their mean; ``None``: the evaluator's (for an ``az:`` spec: the leaf recorded with
            the network, :func:`maya_envs.nn.agent.make_network_bot`). The priors always come
            from the evaluator.
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


class LeafValueEvaluator:
    """An evaluator (module docstring) with ``base``'s priors and, as values, ``base``'s
    (``"net"``), the game's ``leaf_values`` hook (``"hook"``; each game's
    ``<game>/determinize.py``, about 0.005 ms per state) or ``MIX_WEIGHT * net + (1 -
    MIX_WEIGHT) * hook`` (``"mix"``). Values: ``float32 (B, num_players)``, absolute seat
    order, in [-1, 1]. Source: design D1 of the strong-agents study (the learned value is worse
    than the hook on fresh games in Maya (2012) and Yaxha).

    Raises:
        ValueError: an unknown mode, or ``hook``/``mix`` for a game without the hook.
    """

    def __init__(self, base: Evaluator, rules: Rules, mode: str) -> None:
        if mode not in LEAVES:
            raise ValueError(f"leaf={mode!r}; allowed: {', '.join(LEAVES)}")
        self.base, self.rules, self.mode = base, rules, mode
        self.hook = game_hook(rules, "leaf_values") if mode != "net" else None
        if mode != "net" and self.hook is None:
            raise ValueError(f"leaf={mode!r}: {type(rules).__name__} has no leaf_values hook (maya_envs.games)")

    def __call__(self, states: Sequence[Any], seats: Sequence[int]) -> tuple[Sequence[np.ndarray], np.ndarray]:
        priors, values = self.base(states, seats)
        if self.mode == "net":
            return priors, values
        hooked = np.stack([np.asarray(self.hook(self.rules, state), np.float64) for state in states])
        if self.mode == "mix":
            hooked = MIX_WEIGHT * np.asarray(values, np.float64) + (1.0 - MIX_WEIGHT) * hooked
        return priors, hooked.astype(np.float32)


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
    """

    action: int
    policy: np.ndarray
    value: np.ndarray
    simulations: int


class _Node:
    """A tree node: its actions (python list, open loop: may grow), their prior, visits
    ``n (A,)``, value sums ``w (A, num_players)``, children (``None`` until evaluated) and the
    evaluated value ``raw (num_players,)``."""

    __slots__ = ("actions", "index", "prior", "n", "w", "children", "raw")

    def __init__(self, actions: list[int], prior: np.ndarray, raw: np.ndarray) -> None:
        self.actions = list(actions)
        self.index = {a: i for i, a in enumerate(self.actions)}
        p = np.maximum(np.asarray(prior, np.float64).reshape(len(self.actions)), 0.0)
        total = p.sum()
        self.prior = p / total if total > 0 else np.full(len(p), 1.0 / len(p))
        self.n = np.zeros(len(self.actions))
        self.w = np.zeros((len(self.actions), len(raw)))
        self.children: list[_Node | None] = [None] * len(self.actions)
        self.raw = np.asarray(raw, np.float64)

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
            self.n = np.concatenate([self.n, np.zeros(k)])
            self.w = np.concatenate([self.w, np.zeros((k, self.w.shape[1]))])
        return np.array([self.index[a] for a in legal])

    def value(self) -> np.ndarray:
        """Each seat's mean of the evaluated value and every backed-up value."""
        return (self.raw + self.w.sum(axis=0)) / (1.0 + self.n.sum())


def _completed_q(node: _Node, idx: np.ndarray, seat: int) -> np.ndarray:
    """``mctx``'s completed Q-values of ``seat`` over ``idx``: the mean value of a visited action,
    the node's mixed value (its evaluated value averaged with the prior-weighted mean Q of the
    visited actions, weighted by their visits) for an unvisited one."""
    n = node.n[idx]
    visited = n > 0
    q = np.where(visited, node.w[idx, seat] / np.maximum(n, 1), 0.0)
    total = n.sum()
    if total == 0:
        return np.full(len(idx), node.raw[seat])
    prior = np.maximum(node.prior[idx], np.finfo(np.float64).tiny)
    weighted = (prior * q)[visited].sum() / prior[visited].sum()
    mixed = (node.raw[seat] + total * weighted) / (total + 1)
    return np.where(visited, q, mixed)


def _sigma(config: GuidedConfig, node: _Node, idx: np.ndarray, seat: int) -> np.ndarray:
    """``sigma(completed q)`` over ``idx``: the completed Q-values rescaled to [0, 1] over the
    node's actions, times ``(c_visit + max n) * c_scale``."""
    q = _completed_q(node, idx, seat)
    low, high = q.min(), q.max()
    q = (q - low) / max(high - low, 1e-8)
    return (config.c_visit + node.n[idx].max()) * config.c_scale * q


def _logits(prior: np.ndarray) -> np.ndarray:
    p = np.maximum(prior, np.finfo(np.float64).tiny)
    logits = np.log(p / p.sum())
    return logits - logits.max()


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
    ) -> None:
        self.rules, self.state, self.seat, self.config, self.rng = rules, state, seat, config, rng
        self.determinize = determinize
        self.legal = list(rules.legal_actions(state))
        self.root: _Node | None = None
        self.count = 0
        self.gumbel = np.zeros(len(self.legal))
        self.tiebreak = np.zeros(len(self.legal))
        self.schedule: tuple[int, ...] = ()

    def start(self, prior: np.ndarray, value: np.ndarray) -> None:
        self.root = _Node(self.legal, prior, value)
        cfg = self.config
        # Ties at the root (a flat prior with no noise) are broken at random, not towards low ids.
        self.tiebreak = TIEBREAK * self.rng.random(len(self.legal))
        if cfg.selection == "gumbel":
            self.gumbel = cfg.gumbel_scale * self.rng.gumbel(size=len(self.legal)) + self.tiebreak
            m = min(cfg.max_considered, len(self.legal))
            self.schedule = considered_visits(m, cfg.simulations)

    @property
    def forced(self) -> bool:
        return len(self.legal) == 1

    def select(self, node: _Node, idx: np.ndarray, mover: int) -> int:
        """The index (into ``node.actions``) of the edge a simulation follows from ``node``."""
        cfg = self.config
        n = node.n[idx]
        if cfg.selection == "puct":
            q = np.where(n > 0, node.w[idx, mover] / np.maximum(n, 1), node.raw[mover])
            prior = node.prior[idx] / node.prior[idx].sum()
            score = q + cfg.c_puct * prior * math.sqrt(max(n.sum(), 1.0)) / (1.0 + n)
            if node is self.root:
                score = score + self.tiebreak
        elif node is self.root:
            target = self.schedule[self.count]
            score = self.gumbel + _logits(node.prior) + _sigma(cfg, node, idx, mover)
            score = np.where(n == target, score, -np.inf)
            if not np.isfinite(score).any():  # not reached with the mctx schedule; stay safe
                score = -n
        else:
            improved = _softmax(_logits(node.prior[idx]) + _sigma(cfg, node, idx, mover))
            score = improved - n / (1.0 + n.sum())
        return int(idx[int(np.argmax(score))])

    def descend(self) -> tuple[list[tuple[_Node, int]], Any, np.ndarray | None]:
        """Walk one simulation down from a (sampled) root: ``(path, leaf state, values)`` with
        ``values`` set when the walk ended at a finished game, else ``None`` (the leaf state
        then needs the evaluator, for the seat to move there)."""
        rules = self.rules
        determinize = self.determinize
        state = self.state if determinize is None else determinize(rules, self.state, self.seat, self.rng)
        node = self.root
        path: list[tuple[_Node, int]] = []
        while True:
            mover = rules.current_player(state)
            legal = self.legal if node is self.root else list(rules.legal_actions(state))
            idx = node.edges(legal)
            i = self.select(node, idx, mover)
            path.append((node, i))
            state = rules.apply_action(state, node.actions[i], self.rng)
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
            n = root.n[idx]
            score = np.where(n == n.max(), self.gumbel + _logits(root.prior) + sigma, -np.inf)
            action = self.legal[int(np.argmax(score))]
            policy[self.legal] = _softmax(_logits(root.prior) + sigma)
        else:
            n = root.n[idx]
            best = np.flatnonzero(n == n.max())
            # then the prior, then at random
            action = self.legal[int(best[np.argmax(root.prior[idx][best] + self.tiebreak[best])])]
            policy[self.legal] = n / n.sum()
        i = root.index[action]
        value = root.w[i] / root.n[i] if root.n[i] > 0 else root.value()
        return SearchResult(int(action), policy, value.astype(np.float32), self.count)


def search_many(
    rules: Rules,
    roots: Sequence[Any],
    seats: Sequence[int],
    evaluator: Evaluator,
    config: GuidedConfig | None = None,
    rng: int | np.random.Generator | None = None,
) -> list[SearchResult]:
    """Search every root in lock step; see the module docstring.

    Args:
        rules: the game's rules.
        roots: states, each unfinished.
        seats: the seat to move in each root (``rules.current_player(root)``); the search
            determinizes the root for it (hidden-information games).
        evaluator: ``evaluator(states, seats) -> (priors, values)``; called once for the roots,
            then at most once per simulation round with every root's new leaf (never with an
            empty list).
        config: a :class:`GuidedConfig` (default: ``GuidedConfig()``).
        rng: an int, ``None`` or a generator; each root gets its own generator from it.

    Returns:
        One :class:`SearchResult` per root, in order.

    Raises:
        ValueError: a finished root, a seat that is not the one to move, mismatched lengths, an
            evaluator answer of the wrong shape, or determinization for a game without the hook.
    """
    config = config or GuidedConfig()
    rng = make_rng(rng)
    if config.leaf not in (None, "net"):
        evaluator = LeafValueEvaluator(evaluator, rules, config.leaf)
    if len(roots) != len(seats):
        raise ValueError(f"search_many: {len(roots)} roots but {len(seats)} seats")
    determinize = determinizer(rules, config.determinize)
    searches = []
    for state, seat in zip(roots, seats, strict=True):
        mover = rules.current_player(state)
        if mover < 0:
            raise ValueError("search_many: a root is a finished game (no legal action)")
        if int(seat) != mover:
            raise ValueError(f"search_many: seat {seat!r} is given for a root where seat {mover} moves")
        root_rng = np.random.default_rng(int(rng.integers(2**63 - 1)))
        searches.append(_Search(rules, state, int(seat), config, root_rng, determinize))
    if not searches:
        return []
    num_players = rules.spec.num_players
    priors, values = _evaluate(evaluator, [s.state for s in searches], [s.seat for s in searches], num_players)
    for search, prior, value in zip(searches, priors, values, strict=True):
        if len(prior) != len(search.legal):
            raise ValueError(f"evaluator gave {len(prior)} priors for a state with {len(search.legal)} legal actions")
        search.start(prior, value)
    active = [s for s in searches if not s.forced]
    for _ in range(config.simulations):
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
        priors, values = _evaluate(evaluator, [p[2] for p in pending], [p[3] for p in pending], num_players)
        for (search, path, leaf, _), prior, value in zip(pending, priors, values, strict=True):
            legal = list(rules.legal_actions(leaf))
            if len(prior) != len(legal):
                raise ValueError(f"evaluator gave {len(prior)} priors for a state with {len(legal)} legal actions")
            node, i = path[-1]
            node.children[i] = _Node(legal, prior, value)
            search.backup(path, np.asarray(value, np.float64))
    return [search.result(rules.spec.num_actions) for search in searches]


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
        determinizer(rules, config.determinize)  # fail now, not in the middle of a game
        if config.leaf not in (None, "net"):
            LeafValueEvaluator(evaluator, rules, config.leaf)  # a game without the hook fails now
        self.rules, self.evaluator, self.config = rules, evaluator, config
        self.rng = make_rng(seed)
        self.last_result: SearchResult | None = None

    def act(self, state: Any) -> int:
        """Search from ``state`` and return the chosen legal action of the seat to move.

        Raises:
            ValueError: the game is over.
        """
        seat = self.rules.current_player(state)
        if seat < 0:
            raise ValueError("AZBot.act called on a finished game (no legal action)")
        self.last_result = search_many(self.rules, [state], [seat], self.evaluator, self.config, self.rng)[0]
        return self.last_result.action


AZ_GRAMMAR = Grammar(
    AZ_SYNTAX,
    model="first",
    positional=(("simulations", positive_count("simulations")),),
    options={
        "select": ("selection", str),
        "m": ("max_considered", int),
        "noise": ("gumbel_scale", float),
        "c": ("c_puct", float),
        "leaf": ("leaf", str),
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
    return parts.model, GuidedConfig(**parts.values)
