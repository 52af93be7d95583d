"""Compiled kernels of :mod:`maya_envs.maya2012.batched` (optional: needs numba, the
``fast`` extra). One loop over the games does what the numpy backend does with array
operations; ``tests/maya2012/test_batched.py`` checks both backends against the single
engine. Importing this module raises ``ImportError`` without numba."""

from __future__ import annotations

import numba

# Phases of maya_envs.maya2012.rules (numba needs them as plain globals).
SETUP_MONOLITH, SETUP_RAVEN, EXCHANGE, OVER = 0, 1, 2, 5
MONOLITH_BASE, RAVEN_BASE, NUM_ACTIONS = 48, 60, 75

OBS_STARTS = (
    "towers", "monolith", "raven", "my_ladders", "opponent_ladders", "my_priests", "opponent_priests", "pieces",
    "phase", "turn", "seat", "action_features",
)  # fmt: skip
"""The parts of the two-player observation layout whose starts :func:`observe` takes, in this
order (an argument, not globals: numba's cache would keep a global's value from compile time
when the layout in :mod:`maya_envs.maya2012.observation` changed)."""


@numba.njit(cache=True)
def _update_mask_row(g, towers, monolith, raven, phase, turn, mask, max_turns, limit_phase, pa, pb, blocked):
    for x in range(NUM_ACTIONS):
        mask[g, x] = 0
    ph = phase[g]
    if ph == EXCHANGE:
        any_legal = False
        m = monolith[g] + 1
        r = raven[g] - 2
        for p in range(12):
            if blocked[m, p]:
                continue
            a, b = pa[p], pb[p]
            for j in range(4):
                if j != r and towers[g, a, j] != towers[g, a, j + 1] and towers[g, b, j] != towers[g, b, j + 1]:
                    mask[g, 4 * p + j] = 1
                    any_legal = True
        if not any_legal:
            phase[g] = OVER  # a real end, checked before the turn limit
        elif turn[g] >= max_turns:
            phase[g] = limit_phase
            for x in range(NUM_ACTIONS):
                mask[g, x] = 0
    elif ph == SETUP_MONOLITH:
        for p in range(12):
            mask[g, MONOLITH_BASE + p] = 1
    elif ph == SETUP_RAVEN:
        for k in range(4):
            mask[g, RAVEN_BASE + k] = 1


@numba.njit(cache=True)
def check_actions(rows, actions, mask):
    """Index into ``rows`` of the first illegal action, or -1."""
    for k in range(rows.size):
        a = actions[k]
        if a < 0 or a >= NUM_ACTIONS or mask[rows[k], a] != 1:
            return k
    return -1


@numba.njit(cache=True)
def step_rows(
    rows, actions, towers, monolith, raven, ladders, priests, ladders_left, priests_left, to_move, phase, turn,
    mask, spaces, max_turns, limit_phase, pa, pb, blocked,
):  # fmt: skip
    """Apply ``actions[k]`` in game ``rows[k]`` (legal, checked before) and rebuild its mask."""
    for k in range(rows.size):
        g = rows[k]
        act = actions[k]
        ph = phase[g]
        if ph == EXCHANGE:
            pair = act >> 2
            i = (act & 3) + 1
            ta, tb = pa[pair], pb[pair]
            for level in range(i, 5):
                c = towers[g, ta, level]
                towers[g, ta, level] = towers[g, tb, level]
                towers[g, tb, level] = c
            mover = to_move[g]
            for side in range(2):
                t = ta if side == 0 else tb
                if towers[g, t, i - 1] != towers[g, t, i]:
                    continue
                if ladders_left[g, mover] > 0 and ladders[g, 0, t] + ladders[g, 1, t] < spaces[t]:
                    ladders[g, mover, t] += 1
                    ladders_left[g, mover] -= 1
                base = towers[g, t, 0]
                complete = True
                for level in range(1, 5):
                    if towers[g, t, level] != base:
                        complete = False
                if complete and priests_left[g, mover] > 0:
                    priests[g, t] = mover
                    priests_left[g, mover] -= 1
            monolith[g] = pair
            raven[g] = i + 1
            to_move[g] = 1 - mover
            turn[g] += 1
        elif ph == SETUP_MONOLITH:
            monolith[g] = act - MONOLITH_BASE
            phase[g] = SETUP_RAVEN
        elif ph == SETUP_RAVEN:
            raven[g] = act - RAVEN_BASE + 2
            to_move[g] = 0
            phase[g] = EXCHANGE
        _update_mask_row(g, towers, monolith, raven, phase, turn, mask, max_turns, limit_phase, pa, pb, blocked)


@numba.njit(cache=True)
def update_mask(rows, towers, monolith, raven, phase, turn, mask, max_turns, limit_phase, pa, pb, blocked):
    for k in range(rows.size):
        _update_mask_row(rows[k], towers, monolith, raven, phase, turn, mask, max_turns, limit_phase, pa, pb, blocked)


@numba.njit(cache=True)
def observe(
    rows, seats, obs, towers, monolith, raven, ladders, priests, ladders_left, priests_left, phase, turn, mask,
    spaces, ladders_total, priests_total, max_turns, pa, pb, swing_values, starts,
):  # fmt: skip
    """Write the 610-float observation of game ``rows[k]`` for seat ``seats[k]`` into the
    zeroed ``obs[k]``; ``starts``: the first index of each part of :data:`OBS_STARTS` in the
    layout (:func:`maya_envs.maya2012.observation.observation_layout`)."""
    at_towers, at_monolith, at_raven, at_my_ladders, at_opp_ladders = starts[0], starts[1], starts[2], starts[3], starts[4]
    at_my_priests, at_opp_priests, at_pieces, at_phase, at_turn = starts[5], starts[6], starts[7], starts[8], starts[9]
    at_seat, at_features = starts[10], starts[11]
    # rows of the action_features part, shape (3, 48)
    at_placed, at_completes, at_swing = at_features, at_features + 48, at_features + 2 * 48
    for k in range(rows.size):
        g = rows[k]
        me = seats[k]
        opp = 1 - me
        out = obs[k]
        for t in range(9):
            for level in range(5):
                out[at_towers + 45 * t + 9 * level + towers[g, t, level]] = 1.0
        if monolith[g] >= 0:
            out[at_monolith + monolith[g]] = 1.0
        if raven[g] > 0:
            out[at_raven + raven[g] - 2] = 1.0
        for t in range(9):
            out[at_my_ladders + t] = ladders[g, me, t] / 4.0
            out[at_opp_ladders + t] = ladders[g, opp, t] / 4.0
            if priests[g, t] == me:
                out[at_my_priests + t] = 1.0
            elif priests[g, t] == opp:
                out[at_opp_priests + t] = 1.0
        if ladders_total:
            out[at_pieces] = ladders_left[g, me] / ladders_total
            out[at_pieces + 1] = ladders_left[g, opp] / ladders_total
        if priests_total:
            out[at_pieces + 2] = priests_left[g, me] / priests_total
            out[at_pieces + 3] = priests_left[g, opp] / priests_total
        if phase[g] <= EXCHANGE:
            out[at_phase + phase[g]] = 1.0
        out[at_turn] = min(turn[g] / max_turns, 1.0)
        out[at_seat] = 1.0 if me == 0 else 0.0
        if phase[g] != EXCHANGE:
            continue
        my_priests = priests_left[g, me] > 0
        for x in range(48):
            if mask[g, x] != 1:
                continue
            i = (x & 3) + 1
            a, b = pa[x >> 2], pb[x >> 2]
            left = ladders_left[g, me]
            placed = 0
            completes = False
            swing = 0
            for side in range(2):
                t, u = (a, b) if side == 0 else (b, a)
                # the new column t: t's blocks below slot i, u's from slot i up
                if towers[g, t, i - 1] != towers[g, u, i]:
                    continue
                mine, theirs = ladders[g, me, t], ladders[g, opp, t]
                if left > 0 and mine + theirs < spaces[t]:
                    left -= 1
                    placed += 1
                    if mine == theirs or theirs == mine + 1:
                        swing += 1
                base = towers[g, t, 0]
                complete = True
                for level in range(5):
                    colour = towers[g, t, level] if level < i else towers[g, u, level]
                    if colour != base:
                        complete = False
                if complete and my_priests:
                    completes = True
                    swing += 1
            out[at_placed + x] = placed / 2.0
            out[at_completes + x] = 1.0 if completes else 0.0
            out[at_swing + x] = swing_values[swing + 2]


@numba.njit(cache=True)
def sample_legal(mask, uniforms, out):
    """A uniformly random legal action per game (``uniforms`` in [0, 1))."""
    for g in range(mask.shape[0]):
        out[g] = -1  # a game that is over
        count = 0
        for x in range(NUM_ACTIONS):
            count += mask[g, x]
        pick = int(uniforms[g] * count)
        for x in range(NUM_ACTIONS):
            if mask[g, x]:
                if pick == 0:
                    out[g] = x
                    break
                pick -= 1
