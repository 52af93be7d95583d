"""The guided search's selection arithmetic (Gumbel, as in DeepMind's ``mctx``): completed
Q-values, ``sigma``, the interior choice below the root, and the root's sequential-halving
visit schedule (:func:`considered_visits`). Read by :class:`~maya_envs.bots.guided.root.RootSearch`."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from maya_envs.bots.guided.config import GuidedConfig

TINY = np.finfo(np.float64).tiny
"""The smallest positive float64: a prior's floor before its logarithm."""


def completed_q(node: Any, idx: np.ndarray | None, seat: int) -> np.ndarray:
    """``mctx``'s completed Q-values of ``seat`` at ``node`` (a
    :class:`~maya_envs.bots.guided.tree.Node`, which imports this module) over ``idx``
    (``None``: all the node's actions, in order): the mean value of a visited action, the
    node's mixed value (its evaluated value averaged with the prior-weighted mean Q of the
    visited actions, weighted by their visits) for an unvisited one."""
    if idx is None:
        n, w, prior = node.n, node.w[:, seat], node.prior
    else:
        n, w, prior = node.n[idx], node.w[idx, seat], node.prior[idx]
    visited = n > 0
    q = np.where(visited, w / np.maximum(n, 1), 0.0)
    total = n.sum()
    if total == 0:
        return np.full(len(n), node.raw[seat])
    prior = np.maximum(prior, TINY)
    weighted = (prior * q)[visited].sum() / prior[visited].sum()
    mixed = (node.raw[seat] + total * weighted) / (total + 1)
    return np.where(visited, q, mixed)


def sigma(config: GuidedConfig, node: Any, idx: np.ndarray | None, seat: int) -> np.ndarray:
    """``sigma(completed q)`` over ``idx`` (``None``: all): the completed Q-values rescaled to
    [0, 1] over the node's actions, times ``(c_visit + max n) * c_scale``."""
    q = completed_q(node, idx, seat)
    low, high = q.min(), q.max()
    q = (q - low) / max(high - low, 1e-8)
    return (config.c_visit + (node.n if idx is None else node.n[idx]).max()) * config.c_scale * q


def logits_of(prior: np.ndarray) -> np.ndarray:
    """The log of ``prior`` (floored at :data:`TINY`, normalised), shifted so that its largest is 0."""
    p = np.maximum(prior, TINY)
    logits = np.log(p / p.sum())
    return logits - logits.max()


def interior_choice(
    config: GuidedConfig, n: np.ndarray, w: np.ndarray, prior: np.ndarray, logits: np.ndarray, raw: float
) -> int:
    """Gumbel selection below the root (``mctx``'s interior action selection): the position of
    the largest ``softmax(logits + sigma(completed q)) - n / (1 + sum n)``, the first on a tie.
    The arithmetic of :func:`completed_q`, :func:`sigma` and :func:`softmax` on one node's few
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
                p = max(p, TINY)
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


def softmax(x: np.ndarray) -> np.ndarray:
    """``exp(x) / sum(exp(x))``, computed from ``x - max(x)``."""
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
