"""The pyramids as array operations: where a seat may build, placing a block with its bonus
blocks, erosion and the round's scoring (:mod:`maya_envs.maya_quarry.rules.building` and
:mod:`~maya_envs.maya_quarry.rules.scoring`, the rules these functions repeat)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from maya_envs.jax.maya_quarry.tables import LEVELS, Game, Tables

_LEVEL_IDS = jnp.arange(LEVELS)


def full(t: Tables, board: jax.Array) -> jax.Array:
    """``(P, 4) bool``: the level exists and has no free space."""
    return jnp.asarray(t.exists) & (board.sum(-1) >= jnp.asarray(t.spaces))


def open_level(t: Tables, x: Game) -> jax.Array:
    """Rules ``open_level``: the highest level index rule (a) opens (levels below it are full,
    or were once with ``global_level_rule="ever_filled"``, in every pyramid)."""
    done = x.ever_full if t.cfg.global_level_rule == "ever_filled" else full(t, x.board)
    ok = jnp.where(jnp.asarray(t.exists), done, t.cfg.missing_levels_full)
    below_top = ok.all(axis=0)[: t.num_levels - 1]
    return jnp.cumprod(below_top.astype(jnp.int32)).sum()


def placements(t: Tables, x: Game, seat: jax.Array) -> jax.Array:
    """``(P, 4) bool``: where ``seat`` may place a block now (rules ``legal_placements`` and
    ``can_build``: an open level with a free space, the seat on every level below it)."""
    mine = (x.board[:, :, seat] > 0).astype(jnp.int32)
    below = jnp.concatenate([jnp.ones((t.num_pyramids, 1), jnp.int32), jnp.cumprod(mine, axis=1)[:, :-1]], axis=1)
    reach = (below > 0) & (_LEVEL_IDS[None, :] <= open_level(t, x))
    return jnp.asarray(t.exists) & reach & ~full(t, x.board)


def lowest_buildable(t: Tables, x: Game, seat: jax.Array) -> jax.Array:
    """``(P,)`` rules ``lowest_buildable_level`` per pyramid: its lowest level with a free space
    if ``seat`` may build there, else -1."""
    free = jnp.asarray(t.exists) & ~full(t, x.board)
    level = jnp.argmax(free, axis=1)
    ok = free.any(axis=1) & jnp.take_along_axis(placements(t, x, seat), level[:, None], axis=1)[:, 0]
    return jnp.where(ok, level, -1).astype(jnp.int32)


def place_block(t: Tables, x: Game, seat, pyramid, level, from_pool, special) -> Game:
    """Rules ``place_block``: one of ``seat``'s blocks (from ``held``, or the pool) on ``level``
    of ``pyramid``, then the bonus blocks it earns, each completing level chaining to the next
    (at most one per level above, so a fixed loop of :data:`LEVELS`)."""
    cfg = t.cfg
    from_pool = jnp.asarray(from_pool, jnp.int32)
    board = x.board.at[pyramid, level, seat].add(1)
    pool = x.pool.at[seat].add(-from_pool)
    held = x.held.at[seat].add(from_pool - 1)
    ever = x.ever_full
    spaces, height = jnp.asarray(t.spaces), jnp.asarray(t.height)
    active, special = jnp.bool_(True), jnp.asarray(special, bool)
    for _ in range(LEVELS):
        counts = board[pyramid, level]
        complete = counts.sum() >= spaces[pyramid, level]
        ever = ever.at[pyramid, level].set(ever[pyramid, level] | (active & complete))
        above = jnp.minimum(level + 1, LEVELS - 1)
        best = counts.max()
        recipient = jnp.argmax(counts).astype(jnp.int32)
        bonus = active & complete & (level + 1 < height[pyramid]) & (board[pyramid, above].sum() == 0)
        bonus &= ((counts == best).sum() == 1) & (pool[recipient] > 0)
        if not cfg.bonus_on_special_placements:
            bonus &= ~special
        if cfg.bonus_block_recipient == "placer":
            bonus &= recipient == seat
        board = board.at[pyramid, above, recipient].add(bonus.astype(jnp.int32))
        pool = pool.at[recipient].add(-bonus.astype(jnp.int32))
        seat = jnp.where(bonus, recipient, seat)
        level = jnp.where(bonus, above, level)
        special, active = special | bonus, bonus
    return x._replace(board=board, pool=pool, held=held, ever_full=ever)


def remove_unsupported(t: Tables, board: jax.Array, pool: jax.Array, which: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Rules ``remove_unsupported`` for every ``(pyramid, seat)`` where ``which`` ``(P, n)`` is
    true: the seat's blocks above its lowest empty level go back to its pool."""
    exists = jnp.asarray(t.exists)[:, :, None]
    has = ((board > 0) & exists).astype(jnp.int32)
    gap = jnp.cumprod(has, axis=1).sum(axis=1)  # (P, n): levels from the bottom holding a block
    drop = (_LEVEL_IDS[None, :, None] > gap[:, None, :]) & exists & which[:, None, :]
    return jnp.where(drop, 0, board), pool + jnp.where(drop, board, 0).sum(axis=(0, 1))


def score_round(t: Tables, x: Game, erode: jax.Array) -> Game:
    """Rules ``score_round``: every level pays its most (``gold_first``) and next (``gold_second``)
    counts; with ``erode`` every paid seat loses a block there, then the cascade."""
    board = x.board
    first = board.max(axis=-1, keepdims=True)
    second = jnp.where((board > 0) & (board < first), board, -1).max(axis=-1, keepdims=True)
    gold_first, gold_second = jnp.asarray(t.gold_first)[..., None], jnp.asarray(t.gold_second)[..., None]
    pay = jnp.where(first > 0, jnp.where(board == first, gold_first, jnp.where(board == second, gold_second, 0)), 0)
    eroded = ((pay != 0) & (board > 0)).astype(jnp.int32)
    worn, pool = remove_unsupported(
        t, board - eroded, x.pool + eroded.sum(axis=(0, 1)), jnp.ones((t.num_pyramids, t.n), bool)
    )
    return x._replace(
        board=jnp.where(erode, worn, board),
        pool=jnp.where(erode, pool, x.pool),
        gold=x.gold + pay.sum(axis=(0, 1)),
    )


def relocation_targets(t: Tables, x: Game) -> jax.Array:
    """``(P, 4, P) bool``: for a source ``(p, l)``, the pyramids whose level 1 has a free space
    (a level-1 source cannot go back to its own)."""
    open_first = ~full(t, x.board)[:, 0]
    own = (_LEVEL_IDS == 0)[None, :, None] & jnp.eye(t.num_pyramids, dtype=bool)[:, None, :]
    return open_first[None, None, :] & ~own


def relocation_sources(t: Tables, x: Game, seat: jax.Array) -> jax.Array:
    """``(P, 4) bool`` rules ``relocate_sources``: the seat's blocks with a level-1 target, not
    (``relocate_unsupported="forbid"``) its last block on a level under another of its blocks."""
    count = x.board[:, :, seat]
    ok = jnp.asarray(t.exists) & (count > 0)
    if t.cfg.relocate_unsupported == "forbid":
        above = jnp.flip(jnp.cumsum(jnp.flip(count, 1), 1), 1) - count  # the seat's blocks higher up
        ok &= ~((count == 1) & (above > 0))
    return ok & relocation_targets(t, x).any(axis=-1)


def free_block_usable(t: Tables, x: Game, seat: jax.Array) -> jax.Array:
    """Rules ``free_block_usable``: a pool block and a pyramid to put it on."""
    return (x.pool[seat] > 0) & (lowest_buildable(t, x, seat) >= 0).any()


def one_seat(t: Tables, seat: jax.Array) -> jax.Array:
    """``(n,) bool`` one-hot of ``seat`` (all false for -1)."""
    return jnp.arange(t.n) == seat
