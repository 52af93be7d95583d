"""The quarry game's decisions and game flow as array operations: the legal-action mask, one
decision applied, and the steps no seat decides (:data:`~.tables.REVEAL`, :data:`~.tables.FINISH`).

Each function repeats a handler or flow method of :mod:`maya_envs.maya_quarry.rules` (named in
its docstring) on a :class:`~.tables.Game`; under ``jax.vmap`` every phase's branch is computed
and one is selected, so the branches are small array updates without Python control flow on
traced values.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from maya_envs.jax.maya_quarry import board as B
from maya_envs.jax.maya_quarry.tables import (
    CARD_COUNTS,
    CARD_IS_LOW,
    CARD_VALUES,
    FINISH,
    LEVELS,
    REVEAL,
    Game,
    Tables,
    i32,
    select,
)
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules import config as C
from maya_envs.maya_quarry.rules.state import Phase

P_ = Phase
MINUS3_POINTS, TRANSPORT_BONUS, BLUE_TRANSPORT_BONUS, PLUS2_POINTS = 3, 2, 4, 2


# -- seats ----------------------------------------------------------------------------------------


def next_seat(t: Tables, turn: jax.Array, eligible: jax.Array) -> jax.Array:
    """Rules ``next_seat``: the first eligible seat clockwise after ``turn`` (``turn`` last), else -1."""
    order = (turn + jnp.arange(1, t.n + 1)) % t.n
    ok = eligible[order]
    return jnp.where(ok.any(), order[jnp.argmax(ok)], -1).astype(jnp.int32)


def first_from(t: Tables, start: jax.Array, eligible: jax.Array) -> jax.Array:
    """The first eligible seat clockwise from ``start`` itself, else -1."""
    return next_seat(t, (start - 1) % t.n, eligible)


def _ids(t: Tables) -> jax.Array:
    return jnp.arange(t.n)


# -- quarries -------------------------------------------------------------------------------------


def quarry_view(t: Tables, x: Game, q: jax.Array) -> dict[str, jax.Array]:
    """Per seat at quarry ``q``: ``card`` (a card there), ``scored`` (rules ``participants``: a
    card, or the +2 marker there), ``score`` (rules ``base_scores``), ``first`` (position of the
    first card; the +2 holder without a card after every card), ``minus3`` (owns a -3 there)."""
    seats, cards = x.col_seat[q], x.col_card[q]
    mine = seats[:, None] == _ids(t)[None, :]  # (S, n)
    value = jnp.maximum(jnp.asarray(CARD_VALUES)[jnp.clip(cards, 0, 6)], 0)
    plus2 = (x.plus2_q == q) & (_ids(t) == x.plus2_seat)
    card = mine.any(axis=0)
    return {
        "card": card,
        "scored": card | plus2,
        "score": (mine * value[:, None]).sum(axis=0) + PLUS2_POINTS * plus2,
        "first": jnp.where(card, jnp.argmax(mine, axis=0), t.slots),
        "minus3": (mine & (cards == A.MINUS3_CARD)[:, None]).any(axis=0),
    }


def protected(t: Tables, x: Game, q: jax.Array) -> jax.Array:
    """``(n,) bool`` rules ``is_protected`` at ``q`` (the green marker or the joker)."""
    return ((x.protect_q == q) & (_ids(t) == x.protect_seat)) | ((x.joker_protect_q == q) & (_ids(t) == x.joker_seat))


def minus3_targets(t: Tables, x: Game, q: jax.Array) -> jax.Array:
    """``(n,) bool``: the seats a -3 at ``q`` may hit, before excluding its owner (rules
    ``minus3_targets`` with the ``minus3_targets`` reading)."""
    view = quarry_view(t, x, q)
    present = view["card"] if t.cfg.minus3_targets == "card" else view["scored"]
    return present & ~protected(t, x, q)


def distribute(t: Tables, x: Game, q: jax.Array) -> tuple[Game, jax.Array]:
    """Rules ``distribute``: ranks by score after deductions (ties to the earlier first card),
    blocks from each rank's pool (``pool_shortfall``); returns the game and the rank-1 seat or -1."""
    view = quarry_view(t, x, q)
    final = view["score"] - x.deduct
    ranked = view["scored"] & (final > 0)
    first = view["first"]
    beats = ranked[:, None] & (
        (final[:, None] > final[None, :]) | ((final[:, None] == final[None, :]) & (first[:, None] < first[None, :]))
    )
    rank = beats.sum(axis=0)
    want = jnp.asarray(t.ranks)[q][jnp.clip(rank, 0, t.n - 1)]
    got = jnp.minimum(want, x.pool)
    if t.cfg.pool_shortfall == "nothing":
        got = jnp.where(got < want, 0, got)
    got = jnp.where(ranked & (rank < jnp.asarray(t.num_ranks)[q]), got, 0)
    winner = jnp.where(ranked.any(), jnp.argmax(ranked & (rank == 0)), -1).astype(jnp.int32)
    return x._replace(pool=x.pool - got, held=x.held + got), winner


def transport(t: Tables, x: Game) -> Game:
    """Rules ``transport``: keep at most the capacity, then BLUE_EXTRA_BLOCK's block; the
    transport markers are spent."""
    ids = _ids(t)
    capacity = x.hands @ jnp.maximum(jnp.asarray(CARD_VALUES), 0)
    capacity += TRANSPORT_BONUS * (x.holder[C.TRANSPORT_PLUS_2] == ids)
    capacity += TRANSPORT_BONUS * ((x.joker_seat == ids) & (x.joker_as == C.TRANSPORT_PLUS_2))
    capacity += BLUE_TRANSPORT_BONUS * (x.blue_holder[C.BLUE_TRANSPORT_PLUS_4] == ids)
    keep = jnp.minimum(x.held, capacity)
    pool = x.pool + x.held - keep
    extra = ((x.blue_holder[C.BLUE_EXTRA_BLOCK] == ids) & (pool > 0)).astype(jnp.int32)
    spent = x.joker_as == C.TRANSPORT_PLUS_2
    return x._replace(
        pool=pool - extra,
        held=keep + extra,
        holder=x.holder.at[C.TRANSPORT_PLUS_2].set(-1),
        blue_holder=x.blue_holder.at[C.BLUE_TRANSPORT_PLUS_4].set(-1).at[C.BLUE_EXTRA_BLOCK].set(-1),
        joker_as=jnp.where(spent, -1, x.joker_as),
        joker_seat=jnp.where(spent, -1, x.joker_seat),
    )


def plus2_quarries(t: Tables, x: Game) -> jax.Array:
    """``(Q,) bool`` rules ``plus2_quarries``."""
    if t.cfg.plus2_empty_quarry:
        return jnp.ones(t.num_quarries, bool)
    return x.col_seat[:, 0] >= 0


def joker_usable(t: Tables, x: Game, seat: jax.Array) -> jax.Array:
    """``(6,) bool`` rules ``joker_usable`` for each of :data:`~maya_envs.maya_quarry.actions.JOKER_GREEN`."""
    usable = {
        C.PROTECT: (x.col_seat[:, 0] >= 0).any(),
        C.RELOCATE: B.relocation_sources(t, x, seat).any(),
        C.FREE_BLOCK: B.free_block_usable(t, x, seat),
    }
    return jnp.stack([usable.get(green, jnp.bool_(True)) for green in A.JOKER_GREEN])


# -- the legal-action mask ----------------------------------------------------------------------------


def _pad(values: jax.Array, size: int) -> jax.Array:
    return jnp.concatenate([values, jnp.zeros(size - values.shape[0], bool)])


def mask(t: Tables, x: Game) -> jax.Array:
    """Rules ``_compute_legal`` as a ``(num_actions,) bool`` mask (all false in the internal
    phases and at the end)."""
    cfg, n, phase = t.cfg, t.n, x.phase
    seat = jnp.clip(x.actor, 0, n - 1)
    # WORKERS
    length = (x.col_seat >= 0).sum(axis=1)
    hand = x.hands[seat] > 0
    open_q = length < jnp.asarray(t.max_cards)
    cards = jnp.where((length > 0)[:, None], hand[None, :], hand[None, :] & jnp.asarray(CARD_IS_LOW)[None, :])
    workers = _pad((cards & open_q[:, None]).reshape(-1), A.MAX_QUARRIES * A.NUM_CARD_TYPES) & (phase == P_.WORKERS)
    # MINUS3: targets by offset 1..4 after the chooser
    targets = minus3_targets(t, x, jnp.clip(x.resolving, 0, t.num_quarries - 1))
    offsets = jnp.arange(1, A.MAX_PLAYERS)
    minus3 = (offsets < n) & targets[(seat + offsets) % n] & (phase == P_.MINUS3)
    minus3_none = jnp.bool_(cfg.minus3_no_target) & (phase == P_.MINUS3)
    # PROTECT_CHOICE
    protect = (length > 0) & (jnp.arange(t.num_quarries) < x.resolving) & (phase == P_.PROTECT_CHOICE)
    # RELOCATE_SRC, RELOCATE_DST
    sources = B.relocation_sources(t, x, seat) & (phase == P_.RELOCATE_SRC)
    src = jnp.clip(x.reloc_src, 0, t.num_pyramids * LEVELS - 1)
    dst = B.relocation_targets(t, x)[src // LEVELS, src % LEVELS] & (phase == P_.RELOCATE_DST)
    # FREE_BLOCK_CHOICE
    free = (B.lowest_buildable(t, x, seat) >= 0) & (phase == P_.FREE_BLOCK_CHOICE)
    # APPOINT
    appoint = (jnp.arange(A.MAX_PLAYERS) < n) & (phase == P_.APPOINT)
    # SETUP, BUILD, DOUBLE
    places = B.placements(t, x, seat)
    setup = (x.board[:, 0, seat] == 0) & ~B.full(t, x.board)[:, 0]
    level0 = jnp.arange(LEVELS) == 0
    place = jnp.where(
        phase == P_.SETUP, setup[:, None] & level0[None, :], places & ((phase == P_.BUILD) | (phase == P_.DOUBLE))
    )
    any_place, held, building = places.any(), x.held[seat], phase == P_.BUILD
    free_double = (x.holder[C.FREE_DOUBLE] == seat) | ((x.joker_seat == seat) & (x.joker_as == C.FREE_DOUBLE))
    free_pass = (x.holder[C.FREE_PASS] == seat) | ((x.joker_seat == seat) & (x.joker_as == C.FREE_PASS))
    passes = jnp.stack(
        [any_place & (held >= 3), any_place & (held >= 2) & free_double, any_place, free_pass, ~any_place]
    )
    parts = [
        workers,
        (phase == P_.WORKERS)[None],
        minus3,
        minus3_none[None],
        _pad(protect, A.MAX_QUARRIES),
        _pad(sources.reshape(-1), A.MAX_PYRAMIDS * LEVELS),
        _pad(dst, A.MAX_PYRAMIDS),
        (phase == P_.RELOCATE_SRC)[None],
        _pad(free, A.MAX_PYRAMIDS),
        (phase == P_.FREE_BLOCK_CHOICE)[None],
        appoint,
        _pad(place.reshape(-1), A.MAX_PYRAMIDS * LEVELS),
        passes & building,
    ]
    if t.advanced:
        bids = (jnp.arange(A.MAX_BID + 1) <= x.gold[seat]) & (phase == P_.BID)
        blue = x.blue_offer & (x.blue_holder < 0) & (phase == P_.BLUE_CHOICE)
        plus2 = plus2_quarries(t, x) & (phase == P_.PLUS2_CHOICE)
        joker = joker_usable(t, x, seat) & (phase == P_.JOKER_CHOICE)
        parts += [
            bids,
            blue,
            _pad(plus2, A.MAX_QUARRIES),
            (phase == P_.PLUS2_CHOICE)[None],
            joker,
            (phase == P_.JOKER_CHOICE)[None],
        ]
    return jnp.concatenate(parts)


# -- the game flow (rules engine methods) ---------------------------------------------------------


def begin_round(t: Tables, x: Game, round_index: jax.Array, key: jax.Array | None) -> Game:
    """Rules ``begin_round`` (and ``_begin_auction``): fresh hands and quarries, markers back;
    the advanced variant's auction, its ``n - 1`` blue markers drawn from ``key``."""
    n, nq = t.n, t.num_quarries
    x = x._replace(
        round=i32(round_index),
        phase=i32(P_.WORKERS),
        hands=jnp.tile(jnp.asarray(CARD_COUNTS), (n, 1)),
        passed=jnp.zeros(n, bool),
        col_seat=jnp.full((nq, t.slots), -1, jnp.int32),
        col_card=jnp.full((nq, t.slots), -1, jnp.int32),
        resolving=i32(nq),
        deduct=jnp.zeros(n, jnp.int32),
        pending=jnp.zeros(n, bool),
        protect_q=i32(-1),
        protect_seat=i32(-1),
        holder=jnp.full(7, -1, jnp.int32),
        turn=x.start,
        actor=x.start,
    )
    if not t.advanced:
        return x
    if n - 1 >= A.NUM_BLUE:
        offer = jnp.ones(A.NUM_BLUE, bool)
    else:
        if key is None:
            raise ValueError(
                f"the advanced variant draws {n - 1} of the {A.NUM_BLUE} blue markers each round: pass a PRNG key"
            )
        drawn = jax.random.permutation(jax.random.fold_in(key, round_index), A.NUM_BLUE)[: n - 1]
        offer = jnp.zeros(A.NUM_BLUE, bool).at[drawn].set(True)
    none = i32(-1)
    return x._replace(
        bids=jnp.full(n, -1, jnp.int32),
        blue_holder=jnp.full(A.NUM_BLUE, -1, jnp.int32),
        choosers=jnp.full(n, -1, jnp.int32),
        plus2_q=none,
        plus2_seat=none,
        joker_seat=none,
        joker_as=none,
        joker_protect_q=none,
        blue_offer=offer,
        phase=i32(P_.BID),
    )


def begin_placement(x: Game) -> Game:
    return x._replace(phase=i32(P_.WORKERS), turn=x.start, actor=x.start)


def after_plus2(t: Tables, x: Game) -> Game:
    """Rules ``after_plus2``: the joker's holder chooses, else the reveal."""
    if not t.advanced:
        return x._replace(phase=i32(REVEAL))
    seat = x.blue_holder[C.BLUE_JOKER]
    return x._replace(
        phase=jnp.where(seat >= 0, P_.JOKER_CHOICE, REVEAL).astype(jnp.int32), actor=jnp.where(seat >= 0, seat, x.actor)
    )


def end_placement(t: Tables, x: Game) -> Game:
    """Rules ``end_placement``: the +2 points' holder places them, then :func:`after_plus2`."""
    if not t.advanced:
        return after_plus2(t, x)
    seat = x.blue_holder[C.BLUE_PLUS_2]
    choose = (seat >= 0) & plus2_quarries(t, x).any()
    return select(choose, x._replace(phase=i32(P_.PLUS2_CHOICE), actor=seat), after_plus2(t, x))


def end_building(t: Tables, x: Game, key: jax.Array | None) -> Game:
    """Rules ``end_building``: the round's scoring (erosion but after the last), then the next
    round or the end."""
    last = x.round == 2
    x = B.score_round(t, x, ~last)
    over = x._replace(phase=i32(P_.OVER), actor=i32(-1))
    return select(last, over, begin_round(t, x, jnp.minimum(x.round + 1, 2), key))


def begin_building(t: Tables, x: Game, key: jax.Array | None) -> Game:
    """Rules ``_begin_building``: from the start player, seats holding blocks."""
    x = x._replace(phase=i32(P_.BUILD), turn=(x.start - 1) % t.n)
    first = next_seat(t, x.turn, x.held > 0)
    return select(first < 0, end_building(t, x, key), x._replace(turn=first, actor=first))


def reveal(t: Tables, x: Game, key: jax.Array | None) -> Game:
    """Rules ``reveal_next``: the next quarry to the left holding cards (or the +2 marker), its
    -3 owners with a target to choose; else transport and the building phase."""
    nq = t.num_quarries
    quarries = jnp.arange(nq)
    waiting = ((x.col_seat[:, 0] >= 0) | (quarries == x.plus2_q)) & (quarries < x.resolving)
    q = jnp.where(waiting.any(), nq - 1 - jnp.argmax(waiting[::-1]), -1).astype(jnp.int32)
    x = x._replace(deduct=jnp.zeros(t.n, jnp.int32))
    none = i32(-1)
    joker_protect = x.joker_as == C.PROTECT
    done = x._replace(
        resolving=none,
        protect_q=none,
        protect_seat=none,
        plus2_q=none,
        plus2_seat=none,
        joker_protect_q=none,
        joker_as=jnp.where(joker_protect, -1, x.joker_as),
        joker_seat=jnp.where(joker_protect, -1, x.joker_seat),
    )
    done = begin_building(t, transport(t, done), key)
    q = jnp.maximum(q, 0)
    view = quarry_view(t, x, q)
    targets = minus3_targets(t, x, q)
    pending = view["minus3"] & (targets.sum() - targets > 0)
    chooser = first_from(t, x.start, pending)
    going = x._replace(
        resolving=q,
        pending=pending,
        phase=jnp.where(pending.any(), P_.MINUS3, FINISH).astype(jnp.int32),
        actor=jnp.where(pending.any(), chooser, x.actor),
    )
    return select(waiting.any(), going, done)


def finish(t: Tables, x: Game) -> Game:
    """Rules ``finish_quarry`` and ``take_marker``: distribute, then the winner's marker decision,
    else the next reveal."""
    q = x.resolving
    x, winner = distribute(t, x, q)
    marker = jnp.asarray(t.marker)[q]
    seat = jnp.maximum(winner, 0)
    follow = jnp.select(
        [marker == C.PROTECT, marker == C.RELOCATE, marker == C.FREE_BLOCK, marker == C.FIRST_PLAYER],
        [
            jnp.where(((x.col_seat[:, 0] >= 0) & (jnp.arange(t.num_quarries) < q)).any(), P_.PROTECT_CHOICE, -1),
            jnp.where(B.relocation_sources(t, x, seat).any(), P_.RELOCATE_SRC, -1),
            jnp.where(B.free_block_usable(t, x, seat), P_.FREE_BLOCK_CHOICE, -1),
            P_.APPOINT,
        ],
        -1,
    )
    won = (winner >= 0) & (marker >= 0)
    kept = won & ~jnp.isin(marker, jnp.array([C.PROTECT, C.RELOCATE, C.FREE_BLOCK, C.FIRST_PLAYER]))
    holder = jnp.where(kept & (jnp.arange(7) == marker), winner, x.holder)
    decides = won & (follow >= 0)
    return x._replace(
        holder=holder, actor=jnp.where(won, winner, x.actor), phase=jnp.where(decides, follow, REVEAL).astype(jnp.int32)
    )


# -- one decision ---------------------------------------------------------------------------------------


def _next_or(t: Tables, x: Game, eligible: jax.Array, otherwise: Game) -> Game:
    """The next eligible seat takes the turn, else ``otherwise``."""
    seat = next_seat(t, x.turn, eligible)
    return select(seat < 0, otherwise, x._replace(turn=seat, actor=seat))


def _setup(t, x, seat, a, key):
    x = B.place_block(t, x, seat, (a - A.PLACE_BASE) // LEVELS, 0, False, False)
    return _next_or(t, x, x.held > 0, begin_round(t, x, 0, key))


def _workers(t, x, seat, a, key):
    is_pass = a == A.WORKER_PASS
    q, card = jnp.divmod(jnp.clip(a, 0, A.WORKER_PASS - 1), A.NUM_CARD_TYPES)
    q = jnp.minimum(q, t.num_quarries - 1)
    at = jnp.minimum((x.col_seat[q] >= 0).sum(), t.slots - 1)
    placed = x._replace(
        hands=x.hands.at[seat, card].add(-1),
        col_seat=x.col_seat.at[q, at].set(seat),
        col_card=x.col_card.at[q, at].set(card),
    )
    x = select(is_pass, x._replace(passed=x.passed.at[seat].set(True)), placed)
    return _next_or(t, x, ~x.passed, end_placement(t, x))


def _minus3(t, x, seat, a, key):
    target = (seat + a - A.MINUS3_BASE + 1) % t.n
    hit = (a != A.MINUS3_NONE) & (_ids(t) == target)
    pending = x.pending.at[seat].set(False)
    x = x._replace(deduct=x.deduct + MINUS3_POINTS * hit, pending=pending)
    return x._replace(
        phase=jnp.where(pending.any(), P_.MINUS3, FINISH).astype(jnp.int32),
        actor=jnp.where(pending.any(), first_from(t, x.start, pending), x.actor),
    )


def _protect(t, x, seat, a, key):
    q = i32(a - A.PROTECT_BASE)
    joker = x.resolving == t.num_quarries  # the joker acting as PROTECT, before any reveal
    return x._replace(
        joker_protect_q=jnp.where(joker, q, x.joker_protect_q),
        protect_q=jnp.where(joker, x.protect_q, q),
        protect_seat=jnp.where(joker, x.protect_seat, seat),
        phase=i32(REVEAL),
    )


def _relocate_src(t, x, seat, a, key):
    decline = a == A.RELOCATE_DECLINE
    return x._replace(
        reloc_src=jnp.where(decline, x.reloc_src, a - A.RELOCATE_SRC_BASE).astype(jnp.int32),
        phase=jnp.where(decline, REVEAL, P_.RELOCATE_DST).astype(jnp.int32),
    )


def _relocate_dst(t, x, seat, a, key):
    src_p, src_l = jnp.divmod(jnp.maximum(x.reloc_src, 0), LEVELS)
    board = x.board.at[src_p, src_l, seat].add(-1)
    pool = x.pool
    if t.cfg.relocate_unsupported == "cascade":
        which = (jnp.arange(t.num_pyramids)[:, None] == src_p) & (_ids(t)[None, :] == seat)
        board, pool = B.remove_unsupported(t, board, pool, which)
    x = x._replace(board=board, pool=pool, held=x.held.at[seat].add(1))
    x = B.place_block(t, x, seat, jnp.clip(a - A.RELOCATE_DST_BASE, 0, t.num_pyramids - 1), 0, False, True)
    return x._replace(reloc_src=i32(-1), phase=i32(REVEAL))


def _free_block(t, x, seat, a, key):
    p = jnp.clip(a - A.FREE_BLOCK_BASE, 0, t.num_pyramids - 1)
    level = jnp.maximum(B.lowest_buildable(t, x, seat)[p], 0)
    placed = B.place_block(t, x, seat, p, level, True, True)
    return select(a == A.FREE_BLOCK_DECLINE, x, placed)._replace(phase=i32(REVEAL))


def _appoint(t, x, seat, a, key):
    return x._replace(start=((seat + a - A.APPOINT_BASE) % t.n).astype(jnp.int32), phase=i32(REVEAL))


def _spend(x: Game, seat, green: int, when) -> Game:
    """Rules ``spend_free`` when ``when``: the green marker first, else the joker acting as it."""
    green_held = x.holder[green] == seat
    return x._replace(
        holder=jnp.where(when & green_held, x.holder.at[green].set(-1), x.holder),
        joker_as=jnp.where(when & ~green_held, -1, x.joker_as),
        joker_seat=jnp.where(when & ~green_held, -1, x.joker_seat),
    )


def _build(t, x, seat, a, key):
    """BUILD and DOUBLE (rules ``build_apply``)."""
    placing = (a >= A.PLACE_BASE) & (a < A.DOUBLE_PAY)
    p, level = jnp.divmod(jnp.clip(a - A.PLACE_BASE, 0, A.MAX_PYRAMIDS * LEVELS - 1), LEVELS)
    placed = B.place_block(t, x, seat, jnp.minimum(p, t.num_pyramids - 1), level, False, False)
    doubling = x.phase == P_.DOUBLE
    left = x.double_left - 1
    stay = doubling & (left > 0) & (placed.held[seat] > 0) & B.placements(t, placed, seat).any()
    placed = placed._replace(
        double_left=jnp.where(stay, left, jnp.where(doubling, 0, x.double_left)),
        phase=jnp.where(stay, P_.DOUBLE, P_.BUILD).astype(jnp.int32),
    )
    pay = (a == A.DOUBLE_PAY) | (a == A.PASS_PAY) | (a == A.FORCED_PASS)
    other = x._replace(
        held=x.held.at[seat].add(-pay.astype(jnp.int32)),
        pool=x.pool.at[seat].add(pay.astype(jnp.int32)),
        gold=x.gold.at[seat].add((a == A.FORCED_PASS).astype(jnp.int32)),
    )
    other = _spend(other, seat, C.FREE_DOUBLE, a == A.DOUBLE_FREE)
    other = _spend(other, seat, C.FREE_PASS, a == A.PASS_FREE)
    double = (a == A.DOUBLE_PAY) | (a == A.DOUBLE_FREE)
    other = other._replace(
        double_left=jnp.where(double, 2, other.double_left).astype(jnp.int32),
        phase=jnp.where(double, P_.DOUBLE, P_.BUILD).astype(jnp.int32),
    )
    x = select(placing, placed, other)
    turn_ends = jnp.where(placing, ~stay, ~double)
    return select(turn_ends, _next_or(t, x, x.held > 0, end_building(t, x, key)), x)


def _bid(t, x, seat, a, key):
    n = t.n
    bids = x.bids.at[seat].set(a - A.BID_BASE)
    x = x._replace(bids=bids)
    # rules bid_order: highest first, ties clockwise from the start player; the last is out
    order = jnp.argsort((A.MAX_BID + 1 - bids) * n + (_ids(t) - x.start) % n)
    last = order[n - 1]
    wins = (bids > 0) & (_ids(t) != last)
    queue = _compact(order, wins[order])
    resolved = x._replace(gold=x.gold - jnp.where(wins, bids, 0), choosers=queue)
    resolved = select(
        queue[0] >= 0, resolved._replace(phase=i32(P_.BLUE_CHOICE), actor=queue[0]), begin_placement(resolved)
    )
    return _next_or(t, x, bids < 0, resolved)


def _compact(values: jax.Array, keep: jax.Array) -> jax.Array:
    """``values[keep]`` in order, then -1s (a fixed-shape filter)."""
    order = jnp.argsort(~keep, stable=True)
    return jnp.where(keep[order], values[order], -1).astype(jnp.int32)


def _blue(t, x, seat, a, key):
    queue = jnp.concatenate([x.choosers[1:], jnp.full(1, -1, jnp.int32)])
    x = x._replace(blue_holder=x.blue_holder.at[a - A.BLUE_CHOOSE_BASE].set(seat), choosers=queue)
    return select(queue[0] >= 0, x._replace(actor=queue[0]), begin_placement(x))


def _plus2(t, x, seat, a, key):
    decline = a == A.PLUS2_DECLINE
    x = x._replace(
        blue_holder=x.blue_holder.at[C.BLUE_PLUS_2].set(-1),
        plus2_q=jnp.where(decline, x.plus2_q, a - A.PLUS2_BASE).astype(jnp.int32),
        plus2_seat=jnp.where(decline, x.plus2_seat, seat).astype(jnp.int32),
    )
    return after_plus2(t, x)


def _joker(t, x, seat, a, key):
    x = x._replace(blue_holder=x.blue_holder.at[C.BLUE_JOKER].set(-1))
    decline = a == A.JOKER_DECLINE
    green = jnp.asarray(np.array(A.JOKER_GREEN, np.int32))[jnp.clip(a - A.JOKER_BASE, 0, len(A.JOKER_GREEN) - 1)]
    acts_now = (green == C.RELOCATE) | (green == C.FREE_BLOCK)  # its decisions follow; the joker is spent
    keeps = ~decline & ~acts_now
    phase = jnp.select(
        [decline, green == C.PROTECT, green == C.RELOCATE, green == C.FREE_BLOCK],
        [REVEAL, P_.PROTECT_CHOICE, P_.RELOCATE_SRC, P_.FREE_BLOCK_CHOICE],
        REVEAL,
    )
    return x._replace(
        joker_seat=jnp.where(keeps, seat, x.joker_seat).astype(jnp.int32),
        joker_as=jnp.where(keeps, green, x.joker_as).astype(jnp.int32),
        phase=phase.astype(jnp.int32),
    )


DECISIONS = {
    P_.SETUP: _setup,
    P_.WORKERS: _workers,
    P_.MINUS3: _minus3,
    P_.PROTECT_CHOICE: _protect,
    P_.RELOCATE_SRC: _relocate_src,
    P_.RELOCATE_DST: _relocate_dst,
    P_.FREE_BLOCK_CHOICE: _free_block,
    P_.APPOINT: _appoint,
    P_.BUILD: _build,
    P_.BID: _bid,
    P_.BLUE_CHOICE: _blue,
    P_.PLUS2_CHOICE: _plus2,
    P_.JOKER_CHOICE: _joker,
}
"""Phase -> ``(tables, game, seat, action, key) -> game`` (DOUBLE is :func:`_build`'s)."""


def decide(t: Tables, x: Game, action: jax.Array, key: jax.Array | None) -> Game:
    """The game after the actor takes ``action`` (a legal id), before the steps nobody decides."""
    seat = jnp.clip(x.actor, 0, t.n - 1)
    phases = [p for p in DECISIONS if t.advanced or p < P_.OVER]
    out = x
    for phase in phases:
        branch = DECISIONS[phase](t, x, seat, action, key)
        hit = (x.phase == phase) | ((x.phase == P_.DOUBLE) & (phase == P_.BUILD))
        out = select(hit, branch, out)
    return out


def run_auto(t: Tables, x: Game, key: jax.Array | None) -> Game:
    """The steps nobody decides (:data:`REVEAL`, :data:`FINISH`: a quarry's reveal, its -3
    choosers, distribution and marker, then transport, scoring and the next round) until a
    seat must decide. Its own loop: under ``vmap`` a loop runs as often as its busiest game,
    and at a round's end that is about two passes per quarry, which here cost only the reveal
    and the distribution, not a decision and a mask."""
    return jax.lax.while_loop(
        lambda x: (x.phase == REVEAL) | (x.phase == FINISH),
        lambda x: select(x.phase == REVEAL, reveal(t, x, key), finish(t, x)),
        x,
    )


def settle(
    t: Tables, x: Game, key: jax.Array | None, action: jax.Array | int = -1, legal: jax.Array | None = None
) -> tuple[Game, jax.Array]:
    """Take ``action`` (a legal id; -1: none), then :func:`run_auto` and, with ``skip_forced``,
    every decision with one legal action the same way (rules ``apply_action`` and
    ``_settle``); returns the game and its mask. ``legal``: ``x``'s mask, if known."""

    def going(carry):
        _x, legal, todo = carry
        if not t.cfg.skip_forced:
            return todo >= 0
        return (todo >= 0) | (legal.sum() == 1)

    def body(carry):
        x, legal, todo = carry
        x = decide(t, x, jnp.where(todo >= 0, todo, jnp.argmax(legal)).astype(jnp.int32), key)
        x = run_auto(t, x, key)
        return x, mask(t, x), i32(-1)

    legal = mask(t, x) if legal is None else legal
    x, legal, _ = jax.lax.while_loop(going, body, (x, legal, i32(action)))
    return x, legal
