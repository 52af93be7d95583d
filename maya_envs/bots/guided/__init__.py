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

The package, one concept a module: :mod:`~maya_envs.bots.guided.config` (:class:`GuidedConfig`,
the constants, :func:`node_cache`), :mod:`~maya_envs.bots.guided.spec` (the ``az:`` name),
:mod:`~maya_envs.bots.guided.evaluators` (leaf values, the memo, answer checks),
:mod:`~maya_envs.bots.guided.tree` (a node), :mod:`~maya_envs.bots.guided.selection` (Gumbel
and PUCT arithmetic, the visit schedule), :mod:`~maya_envs.bots.guided.root` (one root's
search and its :class:`SearchResult`), :mod:`~maya_envs.bots.guided.reuse` (tree reuse),
:mod:`~maya_envs.bots.guided.search` (:func:`search_many`) and
:mod:`~maya_envs.bots.guided.bot` (:class:`AZBot`). Import from the package: the names below
are its public surface.
"""

from maya_envs.bots.guided.bot import AZBot
from maya_envs.bots.guided.config import (
    LEAVES,
    MIX_WEIGHT,
    REUSE_DEPTH,
    SELECTIONS,
    TIEBREAK,
    TIMED_SIMULATIONS,
    Evaluator,
    GuidedConfig,
    node_cache,
)
from maya_envs.bots.guided.evaluators import EvaluationMemo, LeafValueEvaluator
from maya_envs.bots.guided.reuse import TreeKeeper
from maya_envs.bots.guided.root import SearchResult
from maya_envs.bots.guided.search import search_many
from maya_envs.bots.guided.selection import considered_visits
from maya_envs.bots.guided.spec import AZ_GRAMMAR, AZ_SYNTAX, parse_az_spec

__all__ = [
    "AZ_GRAMMAR",
    "AZ_SYNTAX",
    "LEAVES",
    "MIX_WEIGHT",
    "REUSE_DEPTH",
    "SELECTIONS",
    "TIEBREAK",
    "TIMED_SIMULATIONS",
    "AZBot",
    "EvaluationMemo",
    "Evaluator",
    "GuidedConfig",
    "LeafValueEvaluator",
    "SearchResult",
    "TreeKeeper",
    "considered_visits",
    "node_cache",
    "parse_az_spec",
    "search_many",
]
