"""Maya (2012) observation encoder: a flat ``float32`` vector in ``[0, 1]``, from the
observing seat's point of view ("me" is the observer, "opp" the other player).

Two players: shape ``(466,)``.

=============  =====  ==============================================================
slice          size   meaning
=============  =====  ==============================================================
[0, 405)       405    colour one-hot: index ``45*t + 9*(L-1) + c`` is 1 when tower ``t``
                      (0-8) has colour ``c`` (0-8) at level ``L`` (1-5)
[405, 417)     12     Monolith pair one-hot (pair ids of ``actions.PAIRS``); all 0
                      before it is placed
[417, 421)     4      Raven level one-hot, levels 2-5; all 0 before it is set
[421, 430)     9      my ladders per tower / 4
[430, 439)     9      opponent's ladders per tower / 4
[439, 448)     9      1 where my priest stands on the tower
[448, 457)     9      1 where the opponent's priest stands on the tower
[457, 461)     4      my ladders left / ladders_per_player, opponent's ladders left /
                      ladders_per_player, my priests left / priests_per_player,
                      opponent's priests left / priests_per_player (0 when the owned
                      count is 0)
[461, 464)     3      phase one-hot: setup_monolith, setup_raven, exchange (all 0 once
                      the game is over)
464            1      exchanges made / max_turns
465            1      1 if I am White (``player_0``), else 0
[466, 514)     48     per exchange id ``x`` (0-47) legal now: ladders I would place / 2
[514, 562)     48     per exchange id: 1 if it would complete a tower (priest placed)
[562, 610)     48     per exchange id: change of (my VP - opponent's VP) if I made it,
                      mapped ``(delta + 2) / 6`` (0 for an exchange not legal now)
=============  =====  ==============================================================

The last three slices are action features: the one-step consequences of each legal
exchange for the observer, computed from the rules (they are exactly what a one-ply
lookahead would see). They are derived, public information that a network would
otherwise have to learn from colour one-hots of neighbouring towers.

Everything in Maya (2012) two-player is public, so the encoder hides nothing; it only
rotates seats so that a policy sees the board the same way from either seat.
"""

from __future__ import annotations

import numpy as np

from maya_envs.maya2012 import actions as A

COLOURS = 9
TOWER_PLANES = A.NUM_TOWERS * A.NUM_LEVELS * COLOURS  # 405
MONOLITH_AT = TOWER_PLANES
RAVEN_AT = MONOLITH_AT + len(A.PAIRS)
LADDERS_AT = RAVEN_AT + 4
PRIESTS_AT = LADDERS_AT + 18
PIECES_AT = PRIESTS_AT + 18
PHASE_AT = PIECES_AT + 4
TURN_AT = PHASE_AT + 3
SEAT_AT = TURN_AT + 1
ACTION_FEATURES_AT = SEAT_AT + 1  # 466
SIZE_2P = ACTION_FEATURES_AT + 3 * A.NUM_EXCHANGES  # 610

MAX_LADDER_SPACES = 4
# One-hot offsets of every (tower, level) slot, for a vectorised colour write.
_SLOT_BASE = (np.arange(A.NUM_TOWERS * A.NUM_LEVELS) * COLOURS).astype(np.intp)


def observation_shape(config) -> tuple[int, ...]:
    """Shape of the observation vector for ``config`` (``(610,)`` for two players)."""
    return (SIZE_2P,)


def encode_observation(state, seat: int, config) -> np.ndarray:
    """Encode ``state`` for ``seat`` (0 or 1); returns a new ``float32`` array of shape ``(610,)``."""
    from maya_envs.maya2012.rules import EXCHANGE, NO_PRIEST, SETUP_MONOLITH, legal_exchanges

    obs = np.zeros(SIZE_2P, np.float32)
    colours = np.fromiter((c for tower in state.towers for c in tower), np.intp, A.NUM_TOWERS * A.NUM_LEVELS)
    obs[_SLOT_BASE + colours] = 1.0
    if state.monolith >= 0:
        obs[MONOLITH_AT + state.monolith] = 1.0
    if state.raven:
        obs[RAVEN_AT + state.raven - 2] = 1.0
    opp = 1 - seat
    obs[LADDERS_AT : LADDERS_AT + 9] = np.asarray(state.ladders[seat], np.float32) / MAX_LADDER_SPACES
    obs[LADDERS_AT + 9 : LADDERS_AT + 18] = np.asarray(state.ladders[opp], np.float32) / MAX_LADDER_SPACES
    for tower, owner in enumerate(state.priests):
        if owner != NO_PRIEST:
            obs[PRIESTS_AT + tower + (0 if owner == seat else 9)] = 1.0
    ladders, priests = config.ladders_per_player, config.priests_per_player
    obs[PIECES_AT : PIECES_AT + 4] = (
        _ratio(state.ladders_left[seat], ladders),
        _ratio(state.ladders_left[opp], ladders),
        _ratio(state.priests_left[seat], priests),
        _ratio(state.priests_left[opp], priests),
    )
    if SETUP_MONOLITH <= state.phase <= EXCHANGE:
        obs[PHASE_AT + state.phase] = 1.0
    obs[TURN_AT] = min(state.turn / config.max_turns, 1.0)
    obs[SEAT_AT] = 1.0 if seat == 0 else 0.0
    if state.phase == EXCHANGE:
        for action in legal_exchanges(state.towers, state.monolith, state.raven):
            ladders_placed, completes, swing = exchange_consequences(state, action, seat, config.ladder_spaces)
            obs[ACTION_FEATURES_AT + action] = ladders_placed / 2
            obs[ACTION_FEATURES_AT + A.NUM_EXCHANGES + action] = float(completes)
            obs[ACTION_FEATURES_AT + 2 * A.NUM_EXCHANGES + action] = min(max((swing + 2) / 6, 0.0), 1.0)
    return obs


def exchange_consequences(state, action: int, seat: int, ladder_spaces) -> tuple[int, bool, int]:
    """``(ladders placed, completes a tower, change of my VP minus opponent's VP)`` if ``seat``
    made exchange ``action`` now (rules section 4: a ladder where the seam joins and a space
    and a ladder are free; a priest on a completed tower if one is left)."""
    pair, offset = divmod(action, 4)
    i = offset + 1
    a, b = A.PAIRS[pair]
    towers = state.towers
    new = {a: towers[a][:i] + towers[b][i:], b: towers[b][:i] + towers[a][i:]}
    opp = 1 - seat
    placed, completes, swing = 0, False, 0
    ladders_left = state.ladders_left[seat]
    for tower, column in new.items():
        if column[i - 1] != column[i]:
            continue
        mine, theirs = state.ladders[seat][tower], state.ladders[opp][tower]
        if ladders_left and mine + theirs < ladder_spaces[tower]:
            ladders_left -= 1
            placed += 1
            my_gain = int(mine + 1 > theirs) - int(mine > theirs)
            their_loss = int(theirs > mine) - int(theirs > mine + 1)
            swing += my_gain + their_loss
        if column.count(column[0]) == 5 and state.priests_left[seat]:
            completes = True
            swing += 1
    return placed, completes, swing


def _ratio(count: int, total: int) -> float:
    return count / total if total else 0.0
