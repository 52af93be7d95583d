"""One seat's observation of a :class:`~.tables.Game`: the vector of
:class:`maya_envs.maya_quarry.observation.MayaQuarryObserver`, value for value, built from what
that seat may see (its own hand and cards, cards of revealed quarries, bids once all are in).

The parts that never change for a config (quarry limits, yields and markers; level spaces and
gold) are the encoder's own template (``MayaQuarryObserver._template``, read once), so they are
written in one place; this module adds the state's values to it.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from maya_envs.jax.maya_quarry.tables import CARD_COUNTS, CARD_IS_LOW, LEVELS, Game, Tables, ratio
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.observation import GOLD_NORM, MayaQuarryObserver
from maya_envs.maya_quarry.rules import config as C
from maya_envs.maya_quarry.rules.state import BASIC_PHASES, Phase

_MAX_SPACES = 30  # the component table's limit on a level's spaces


class Encoder:
    """The observation of one config: ``Encoder(tables)(game, seat) -> (size,) float32``."""

    def __init__(self, t: Tables) -> None:
        self.t = t
        observer = MayaQuarryObserver(t.rules)
        self.layout = observer.layout
        self.template = observer._template  # the fixed values, written by the encoder itself
        per_level = np.zeros((t.num_pyramids, LEVELS, _MAX_SPACES + 1), np.float32)
        for p in range(t.num_pyramids):
            for level in range(LEVELS):
                if t.exists[p, level]:
                    per_level[p, level] = [min(k / t.spaces[p, level], 1.0) for k in range(_MAX_SPACES + 1)]
        self.per_level = per_level

    def __call__(self, x: Game, seat: jax.Array) -> jax.Array:
        t, n = self.t, self.t.n
        rel = (seat + jnp.arange(n)) % n  # relative seat k -> seat

        def hot(value, size, when=True):
            return jax.nn.one_hot(value, size, dtype=jnp.float32) * jnp.asarray(when, jnp.float32)

        def rel_hot(other, when=True):
            return hot((other - seat) % n, n, when & (other >= 0))

        parts = [
            hot(jnp.where(x.phase < BASIC_PHASES, x.phase, -1), BASIC_PHASES),
            hot(x.round, 3),
            rel_hot(x.start),
            rel_hot(x.actor),
            x.hands[seat] / jnp.asarray(CARD_COUNTS, jnp.float32),
            self._seats(x, rel),
            self._quarries(x, seat, rel_hot),
            self._levels(x, rel),
            self._relocation(x),
            (x.double_left / 2)[None],
        ]
        if t.advanced:
            parts += self._advanced(x, seat, rel, hot, rel_hot)
        flat = jnp.concatenate([jnp.asarray(p, jnp.float32).reshape(-1) for p in parts])
        return flat + jnp.asarray(self.template)

    def _seats(self, x: Game, rel: jax.Array) -> jax.Array:
        t = self.t
        hands = x.hands[rel]
        low = (hands * jnp.asarray(CARD_IS_LOW)).sum(axis=1)
        total = hands.sum(axis=1)
        holds = [(x.holder[m] == rel).astype(jnp.float32) for m in (C.TRANSPORT_PLUS_2, C.FREE_PASS, C.FREE_DOUBLE)]
        columns = [
            ratio(x.gold[rel], GOLD_NORM, int(GOLD_NORM)),
            ratio(x.held[rel], t.blocks, t.blocks),
            ratio(x.pool[rel], t.blocks, t.blocks),
            x.passed[rel].astype(jnp.float32),
            total / 8,
            low / 4,
            (total - low) / 4,
            *holds,
            ratio(x.deduct[rel], 12, 12),
            x.pending[rel].astype(jnp.float32),
        ]
        return jnp.stack(columns, axis=1)

    def _quarries(self, x: Game, seat, rel_hot) -> jax.Array:
        t, n = self.t, self.t.n
        quarries = jnp.arange(t.num_quarries)
        revealed = (x.resolving < 0) | (quarries >= x.resolving)
        length = (x.col_seat >= 0).sum(axis=1)
        protect = jax.vmap(lambda q: rel_hot(x.protect_seat, x.protect_q == q))(quarries)
        present = x.col_seat >= 0
        owner = jax.nn.one_hot((x.col_seat - seat) % n, n) * present[..., None]
        card = jnp.clip(x.col_card, 0, A.NUM_CARD_TYPES - 1)
        high = present & ~jnp.asarray(CARD_IS_LOW)[card]
        known = present & (revealed[:, None] | (x.col_seat == seat))
        value = jax.nn.one_hot(card, A.NUM_CARD_TYPES) * known[..., None]
        slots = jnp.concatenate([present[..., None], owner, high[..., None], known[..., None], value], axis=-1)
        fixed = 1 + 5 + len(C.MARKERS)  # max_cards, ranks, marker: the template's
        return jnp.concatenate(
            [
                (revealed & (length > 0))[:, None],
                (quarries == x.resolving)[:, None],
                protect,
                jnp.zeros((t.num_quarries, fixed)),
                ratio(length, t.slots, t.slots)[:, None],
                slots.reshape(t.num_quarries, -1),
            ],
            axis=1,
        )

    def _levels(self, x: Game, rel: jax.Array) -> jax.Array:
        t, height = self.t, self.t.num_levels
        exists = jnp.asarray(t.exists)
        counts = x.board[:, :, rel]  # (P, 4, n) in relative seats
        full = exists & (x.board.sum(-1) >= jnp.asarray(t.spaces))
        share = jnp.take_along_axis(jnp.asarray(self.per_level), jnp.clip(counts, 0, _MAX_SPACES), axis=2)
        rows = jnp.concatenate(
            [jnp.zeros((t.num_pyramids, LEVELS, 4)), full[..., None], (exists & x.ever_full)[..., None], share], axis=-1
        )
        return rows[:, :height]

    def _relocation(self, x: Game) -> jax.Array:
        t = self.t
        src_p, src_l = jnp.divmod(x.reloc_src, LEVELS)
        grid = (jnp.arange(t.num_pyramids)[:, None] == src_p) & (jnp.arange(t.num_levels)[None, :] == src_l)
        return grid & (x.reloc_src >= 0)

    def _advanced(self, x: Game, seat, rel, hot, rel_hot) -> list[jax.Array]:
        t = self.t
        made = x.bids >= 0
        own = x.bids[seat]
        bid_seen = made[rel] & (x.phase != Phase.BID)  # sealed until every bid is in
        choosing = (x.choosers[None, :] == rel[:, None]).any(axis=1)
        blue = x.blue_holder[None, :] == rel[:, None]
        joker = jax.vmap(lambda other: hot(x.joker_as, len(C.MARKERS), (x.joker_seat == other) & (x.joker_as >= 0)))(
            rel
        )
        seats = jnp.concatenate(
            [
                made[rel][:, None],
                (ratio(x.bids[rel], A.MAX_BID, A.MAX_BID) * bid_seen)[:, None],
                choosing[:, None],
                blue,
                joker,
            ],
            axis=1,
        )
        open_offer = (x.phase == Phase.BID) | (x.phase == Phase.BLUE_CHOICE)
        on = x.plus2_q >= 0
        return [
            hot(x.phase - BASIC_PHASES, 4, x.phase >= BASIC_PHASES),
            jnp.stack([own >= 0, jnp.where(own >= 0, ratio(own, A.MAX_BID, A.MAX_BID), 0.0)]),
            seats,
            jnp.stack([x.blue_offer, x.blue_offer & open_offer & (x.blue_holder < 0)]),
            hot(x.plus2_q, t.num_quarries, on),
            rel_hot(x.plus2_seat, on),
            hot(x.joker_protect_q, t.num_quarries, x.joker_protect_q >= 0),
        ]
