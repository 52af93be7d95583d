"""The static tables of one quarry-game config, and the game state as arrays.

:class:`Tables` holds what never changes for a :class:`~maya_envs.maya_quarry.rules.MayaQuarryRules`
(the component table and the options) as numpy arrays and Python constants, so the traced
functions of :mod:`.board`, :mod:`.flow` and :mod:`.observe` read them as constants.
:class:`Game` is the rules state (:class:`~maya_envs.maya_quarry.rules.MayaQuarryState`) as
fixed-shape ``int32``/``bool`` arrays.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules import MayaQuarryRules

#: Internal phases after :class:`~maya_envs.maya_quarry.rules.Phase`'s 15: no seat decides, the
#: engine goes on in the same step (the rules' ``reveal_next`` and ``finish_quarry``, which call
#: each other once per quarry: a loop of the step, not a recursion of traced code).
REVEAL = 15
FINISH = 16
LEVELS = A.MAX_LEVELS
CARD_VALUES = np.array(A.CARD_VALUES, np.int32)
CARD_COUNTS = np.array(A.CARD_COUNTS, np.int32)
CARD_IS_LOW = np.array(A.CARD_IS_LOW, bool)


class Game(NamedTuple):
    """A rules state as arrays (``n`` players, ``Q`` quarries, ``S`` card slots, ``P``
    pyramids). Scalars are ``int32`` ``()``; ``-1`` means none, as in the rules.

    Attributes:
        round, phase, start, turn, actor: as the rules (phase: the rules' ids, plus
            :data:`REVEAL` and :data:`FINISH` inside a step only).
        gold, pool, held, deduct, bids: ``(n,)`` per seat.
        board: ``(P, 4, n)`` blocks per pyramid, level (0 = bottom) and seat.
        hands: ``(n, 7)`` cards per type in hand (private).
        passed, pending: ``(n,) bool``; ``pending``: the -3 owners still to choose (the rules'
            list, whose order is turn order from the start player).
        col_seat, col_card: ``(Q, S)`` the cards placed at each quarry in order, ``-1`` padded
            (card types private until the quarry is revealed).
        resolving, protect_q, protect_seat, reloc_src, double_left: as the rules.
        holder: ``(7,)`` per green marker; blue_holder ``(4,)`` per blue marker.
        ever_full: ``(P, 4) bool``.
        blue_offer: ``(4,) bool`` the markers on offer (the rules' sorted list).
        choosers: ``(n,)`` the auction winners still to pick, in order, ``-1`` padded.
        plus2_q, plus2_seat, joker_seat, joker_as, joker_protect_q: as the rules.
    """

    round: jax.Array
    phase: jax.Array
    start: jax.Array
    turn: jax.Array
    actor: jax.Array
    gold: jax.Array
    pool: jax.Array
    held: jax.Array
    board: jax.Array
    hands: jax.Array
    passed: jax.Array
    col_seat: jax.Array
    col_card: jax.Array
    resolving: jax.Array
    deduct: jax.Array
    pending: jax.Array
    protect_q: jax.Array
    protect_seat: jax.Array
    holder: jax.Array
    ever_full: jax.Array
    reloc_src: jax.Array
    double_left: jax.Array
    bids: jax.Array
    blue_offer: jax.Array
    blue_holder: jax.Array
    choosers: jax.Array
    plus2_q: jax.Array
    plus2_seat: jax.Array
    joker_seat: jax.Array
    joker_as: jax.Array
    joker_protect_q: jax.Array


class Tables:
    """The constants of one rules config.

    Attributes:
        rules: the rules object; cfg its config.
        n, num_quarries (Q), slots (S), num_pyramids (P), num_levels (the tallest pyramid).
        ranks: ``(Q, n)`` blocks per rank (0-padded); num_ranks ``(Q,)``; max_cards ``(Q,)``;
            marker ``(Q,)`` green marker id or -1.
        spaces, gold_first, gold_second: ``(P, 4)`` (0 where a level does not exist);
            exists ``(P, 4) bool``; height ``(P,)``.
        advanced, num_actions, starting_gold, blocks (per colour), starting (blocks).
    """

    def __init__(self, rules: MayaQuarryRules) -> None:
        self.rules = rules
        self.cfg = rules.config
        comp = rules.components
        self.n = n = rules.num_players
        self.num_quarries = len(comp.quarries)
        self.slots = max(q.max_cards for q in comp.quarries)
        self.num_pyramids = len(comp.pyramids)
        self.num_levels = comp.num_levels
        self.ranks = np.zeros((self.num_quarries, n), np.int32)
        for q, quarry in enumerate(comp.quarries):
            self.ranks[q, : len(quarry.ranks)] = quarry.ranks
        self.num_ranks = np.array([len(q.ranks) for q in comp.quarries], np.int32)
        self.max_cards = np.array([q.max_cards for q in comp.quarries], np.int32)
        self.marker = np.array([q.marker for q in comp.quarries], np.int32)
        shape = (self.num_pyramids, LEVELS)
        self.spaces, self.gold_first, self.gold_second = (np.zeros(shape, np.int32) for _ in range(3))
        for p, pyramid in enumerate(comp.pyramids):
            for level, (spaces, first, second) in enumerate(pyramid.levels):
                self.spaces[p, level], self.gold_first[p, level], self.gold_second[p, level] = spaces, first, second
        self.height = np.array([len(p.levels) for p in comp.pyramids], np.int32)
        self.exists = np.arange(LEVELS)[None, :] < self.height[:, None]
        self.advanced = rules.advanced
        self.num_actions = rules.spec.num_actions
        self.starting_gold = rules.starting_gold
        self.blocks = comp.blocks_per_color
        self.starting = comp.starting_blocks


def ratio(count: jax.Array, denominator: int, top: int) -> jax.Array:
    """``min(count / denominator, 1)`` as the observation encoder stores it (a float64 quotient
    rounded to float32, read from a table: float32 division may differ in the last bit), for
    integer ``count`` in ``0..top`` (clipped)."""
    table = np.array([min(k / denominator, 1.0) for k in range(top + 1)], np.float32)
    return jnp.asarray(table)[jnp.clip(count, 0, top)]


def select(cond: jax.Array, a: Game, b: Game) -> Game:
    """``a`` where ``cond`` else ``b``, field by field."""
    return jax.tree_util.tree_map(lambda u, v: jnp.where(cond, u, v), a, b)


def i32(value) -> jax.Array:
    return jnp.asarray(value, jnp.int32)
