"""One root's guided search (:class:`RootSearch`: its tree, generator, Gumbel noise and
schedule; the walk down, the backup and the move) and its result (:class:`SearchResult`).
:func:`~maya_envs.bots.guided.search.search_many` runs many in lock step."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from maya_envs.bots.guided.config import TIEBREAK, GuidedConfig
from maya_envs.bots.guided.selection import considered_visits, interior_choice, logits_of, sigma, softmax
from maya_envs.bots.guided.tree import Node
from maya_envs.core.protocol import Rules
from maya_envs.core.values import terminal_values


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
        tree: the search tree's root (for :class:`~maya_envs.bots.guided.reuse.TreeKeeper`; not compared).
    """

    action: int
    policy: np.ndarray
    value: np.ndarray
    simulations: int
    tree: Any = field(default=None, compare=False, repr=False)


class RootSearch:
    """The search of one root (its tree, generator, Gumbel noise and schedule).

    Attributes:
        legal: the root's legal action ids, in the rules' order.
        tree: the kept subtree it starts from (only where it is this state's node), else ``None``.
        root: the tree's root :class:`~maya_envs.bots.guided.tree.Node` (after :meth:`start`).
        count, limit: simulations run so far and the most it runs (a clock may lower it).
        first_pass: Gumbel: the simulations of the first pass over the considered actions.
        gumbel, tiebreak: per legal action, the root noise (tie-break term included) and the
            tie-break term alone.
        base: per legal action, the visits a kept tree had (the schedule counts from them).
        schedule: Gumbel: the visit count each simulation's root action must have.
    """

    def __init__(
        self,
        rules: Rules,
        state: Any,
        seat: int,
        config: GuidedConfig,
        rng: np.random.Generator,
        determinize: Callable | None,
        cached: bool = False,
        tree: Node | None = None,
    ) -> None:
        self.rules, self.state, self.seat, self.config, self.rng = rules, state, seat, config, rng
        self.determinize = determinize
        self.cached = cached
        self.legal = list(rules.legal_actions(state))
        # A kept subtree is used only where it is this state's node (TreeKeeper matched the state).
        self.tree = tree if tree is not None and tree.state is not None and tree.actions == self.legal else None
        self.root: Node | None = None
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
            self.root = Node(self.legal, prior, value, self.state, self.seat)
        else:
            self.root = Node(self.legal, prior, value)
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
        """Whether the root has one legal action (no simulation is run)."""
        return len(self.legal) == 1

    def select(self, node: Node, idx: np.ndarray | None, mover: int) -> int:
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
            score = self.gumbel + node.logits + sigma(cfg, node, idx, mover)
            score = np.where(n - self.base[idx] == target, score, -np.inf)
            if not np.isfinite(score).any():  # not reached with the mctx schedule; stay safe
                score = -n
        else:
            if idx is None:
                return interior_choice(cfg, node.n, node.w[:, mover], node.prior, node.logits, node.raw[mover])
            prior = node.prior[idx]
            choice = interior_choice(cfg, n, node.w[idx, mover], prior, logits_of(prior), node.raw[mover])
            return int(idx[choice])
        return int(idx[int(np.argmax(score))])

    def descend(self) -> tuple[list[tuple[Node, int]], Any, np.ndarray | None]:
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
        path: list[tuple[Node, int]] = []
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
    def backup(path: list[tuple[Node, int]], values: np.ndarray) -> None:
        """Add one visit and ``values`` (each seat's, ``(num_players,)``) to every edge of ``path``."""
        for node, i in path:
            node.n[i] += 1
            node.w[i] += values

    def result(self, num_actions: int) -> SearchResult:
        """The move, the policy target over ``num_actions`` ids and the move's value (:class:`SearchResult`)."""
        root, cfg = self.root, self.config
        policy = np.zeros(num_actions, np.float32)
        idx = root.edges(self.legal)
        if self.forced:
            action = self.legal[0]
            policy[action] = 1.0
        elif cfg.selection == "gumbel":
            mover = self.seat
            sigma_q = sigma(cfg, root, idx, mover)
            n = root.n[idx] - self.base[idx]
            score = np.where(n == n.max(), self.gumbel + root.logits + sigma_q, -np.inf)
            action = self.legal[int(np.argmax(score))]
            policy[self.legal] = softmax(root.logits + sigma_q)
        else:
            n = root.n[idx]
            best = np.flatnonzero(n == n.max())
            # then the prior, then at random
            action = self.legal[int(best[np.argmax(root.prior[idx][best] + self.tiebreak[best])])]
            policy[self.legal] = n / n.sum()
        i = root.index[action]
        value = root.w[i] / root.n[i] if root.n[i] > 0 else root.value()
        return SearchResult(int(action), policy, value.astype(np.float32), self.count, root)

    def expand(
        self,
        path: list[tuple[Node, int]],
        leaf: Any,
        mover: int,
        legal: list[int],
        prior: np.ndarray,
        value: np.ndarray,
        cheap: bool = False,
    ) -> None:
        """Add the new leaf's node under the last edge of ``path`` and back its value up (``cheap``:
        its prior is the uniform one below ``prior_depth``)."""
        node, i = path[-1]
        if self.cached:
            node.children[i] = Node(legal, prior, value, leaf, mover, cheap)
        else:
            node.children[i] = Node(legal, prior, value, cheap=cheap)
        self.backup(path, np.asarray(value, np.float64))
