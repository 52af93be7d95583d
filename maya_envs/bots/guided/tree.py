"""A node of the guided search's open-loop tree: its actions, prior, visits and value sums
(:class:`Node`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.bots.guided.selection import logits_of


class Node:
    """A tree node: its actions (python list, open loop: may grow), their prior, visits
    ``n (A,)``, value sums ``w (A, num_players)``, children (``None`` until evaluated) and the
    evaluated value ``raw (num_players,)``. With the node cache (:attr:`GuidedConfig.cache`)
    also its ``state``, the seat to move there (``mover``) and ``after[i]``, the state action
    ``i`` leads to (``None`` until first applied); else these are ``None``. ``cheap``: the
    prior is the uniform one of a node at or below :attr:`GuidedConfig.prior_depth`, not the
    evaluator's (tree reuse asks the evaluator once such a node is kept above that depth).
    ``logits``: :func:`~maya_envs.bots.guided.selection.logits_of` of the whole prior, kept with
    it (selection reads it at every visit)."""

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
        self.children: list[Node | None] = [None] * len(self.actions)
        self.raw = np.asarray(raw, np.float64)
        self.state, self.mover = state, mover
        self.after: list[Any] | None = None if mover is None else [None] * len(self.actions)

    def set_prior(self, prior: np.ndarray) -> None:
        """The prior over ``actions``: ``prior`` clipped at 0 and normalised (uniform if it sums to 0)."""
        p = np.maximum(np.asarray(prior, np.float64).reshape(len(self.actions)), 0.0)
        total = p.sum()
        self.prior = p / total if total > 0 else np.full(len(p), 1.0 / len(p))
        self.logits = logits_of(self.prior)

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
            self.logits = logits_of(self.prior)
            self.n = np.concatenate([self.n, np.zeros(k)])
            self.w = np.concatenate([self.w, np.zeros((k, self.w.shape[1]))])
        return np.array([self.index[a] for a in legal])

    def value(self) -> np.ndarray:
        """Each seat's mean of the evaluated value and every backed-up value."""
        return (self.raw + self.w.sum(axis=0)) / (1.0 + self.n.sum())
