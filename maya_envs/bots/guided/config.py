"""The guided search's settings (:class:`GuidedConfig`), the evaluator's shape and the
constants they name; :func:`node_cache` says where a node may keep its state."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from maya_envs.core.checks import is_int, is_number
from maya_envs.core.errors import shorten
from maya_envs.core.protocol import Rules

Evaluator = Callable[[Sequence[Any], Sequence[int]], tuple[Sequence[np.ndarray], np.ndarray]]
"""``evaluator(states, seats) -> (priors, values)``; see :mod:`maya_envs.bots.guided`."""

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
the web page's ``az`` maximum (:data:`maya_envs.web.policy.PAGE_LIMITS`)."""
REUSE_DEPTH = 2
"""Tree reuse (:class:`TreeKeeper`) looks this many plies below a kept root: the child of the move played
and, below it, the child of the reply (two seats alternating)."""


@dataclass(frozen=True)
class GuidedConfig:
    """Guided search settings (:mod:`maya_envs.bots.guided`).

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
            raise ValueError(f"simulations={shorten(self.simulations)}; allowed: an int >= 1")
        if self.selection not in SELECTIONS:
            raise ValueError(f"selection={shorten(self.selection)}; allowed: {', '.join(SELECTIONS)}")
        if not is_int(self.max_considered) or self.max_considered < 1:
            raise ValueError(f"max_considered={shorten(self.max_considered)}; allowed: an int >= 1")
        for name in ("gumbel_scale", "c_puct", "c_visit", "c_scale"):
            value = getattr(self, name)
            if not is_number(value) or not 0 <= value < math.inf:
                raise ValueError(f"{name}={shorten(value)}; allowed: a finite number >= 0")
        if self.determinize not in (None, True, False):
            raise ValueError(f"determinize={shorten(self.determinize)}; allowed: None, True, False")
        if self.leaf is not None and self.leaf not in LEAVES:
            raise ValueError(f"leaf={shorten(self.leaf)}; allowed: {', '.join(LEAVES)} (or None: the evaluator's)")
        if self.time_limit is not None and not (is_number(self.time_limit) and 0 < self.time_limit < math.inf):
            raise ValueError(f"time_limit={shorten(self.time_limit)}; allowed: seconds > 0 (finite) or None")
        if not (self.cache is None or isinstance(self.cache, bool)):
            raise ValueError(f"cache={shorten(self.cache)}; allowed: None, True, False")
        if not isinstance(self.reuse, bool):
            raise ValueError(f"reuse={shorten(self.reuse)}; allowed: True, False")
        if self.reuse and self.cache is False:
            raise ValueError("reuse=True needs the node cache (cache=None or True), got cache=False")
        if not is_int(self.memo) or self.memo < 0:
            raise ValueError(f"memo={shorten(self.memo)}; allowed: an int >= 0 (evaluations kept; 0: none)")
        if self.prior_depth is not None:
            if not is_int(self.prior_depth) or self.prior_depth < 1:
                raise ValueError(f"prior_depth={shorten(self.prior_depth)}; allowed: an int >= 1 or None")
            if self.leaf not in (None, "hook"):
                raise ValueError(
                    f"prior_depth={self.prior_depth} needs leaf='hook' (no evaluator value there), "
                    f"got leaf={shorten(self.leaf)}"
                )


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
