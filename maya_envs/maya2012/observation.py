"""Maya (2012) observation encoder: a flat ``float32`` vector in ``[0, 1]``, from the
observing seat's point of view ("me" is the observer).

Two players: shape ``(610,)``; "opp" is the other player.

=============  =====  ==============================================================
slice          size   meaning
=============  =====  ==============================================================
[0, 405)       405    colour one-hot: index ``45*t + 9*(L-1) + c`` is 1 when tower ``t``
                      (0-8) has colour ``c`` (0-8) at level ``L`` (1-5); all 0 for a slot
                      not built yet (drafted setup)
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
[461, 464)     3      phase one-hot: setup_monolith, setup_raven, exchange (all 0 during
                      the draft and once the game is over)
464            1      exchanges made / max_turns
465            1      1 if I am White (``player_0``), else 0
[466, 514)     48     per exchange id ``x`` (0-47) legal now: ladders I would place / 2
[514, 562)     48     per exchange id: 1 if it would complete a tower (priest placed)
[562, 610)     48     per exchange id: change of (my VP - opponent's VP) if I made it,
                      mapped ``(delta + 2) / 6`` (0 for an exchange not legal now)
=============  =====  ==============================================================

Three and four players: shape ``(588,)`` (the same layout for both counts).

=============  =====  ==============================================================
slice          size   meaning
=============  =====  ==============================================================
[0, 405)       405    colour one-hot, as for two players
[405, 417)     12     Monolith pair one-hot; all 0 while it is off the board
[417, 426)     9      my task colours (2 ones once dealt; all 0 during the draft)
[426, 435)     9      the face-up centre card's colour one-hot (all 0 before the deal)
[435, 437)     2      phase: [0] exchange (also while another seat takes its declare
                      decision), [1] my own declare decision
437            1      1 if declaring now earns me the +5 centre bonus (my declare
                      decision only)
438            1      exchanges made / max_turns
[439, 443)     4      my seat one-hot (``player_0`` .. ``player_3``)
443            1      1 in the four-player team game (partner = seat + 2 mod 4)
[444, 492)     48     per exchange id legal now: change of my own task score (my 2
                      colours, no bonus) if I made it, mapped ``(delta + 6) / 12`` and
                      clipped to [0, 1]
[492, 540)     48     per exchange id legal now: 1 if after it I could declare the end
[540, 588)     48     per exchange id legal now: change of an average rival's expected task
                      score if I made it: the change of the 6 colours that are neither mine
                      nor the centre card's, divided by 3 (each is in a given other hand
                      with probability 1/3), mapped and clipped as the previous slice
=============  =====  ==============================================================

Drafted setup (``setup="draft"``, any player count): 10 more entries at the end:

===============  =====  ==============================================================
slice name       size   meaning
===============  =====  ==============================================================
``draft_block``  9      the drawn block's colour one-hot
``drafting``     1      1 while the draft is running
===============  =====  ==============================================================

The action-feature slices are the one-step consequences of each legal exchange for the
observer, computed from the rules (exactly what a one-ply lookahead would see).

Hidden information (3-4p): the encoder reads the board, the Monolith, the turn, the phase
and, from ``state.tasks``, only the observer's own cards; the centre card is the centre
tower's base colour. Another seat's declare decision is shown as an exchange phase, so the
observation never reveals whether somebody else may declare.

Named parts (:attr:`Maya2012Observer.layout`), in the order above. Two players: ``towers``
(9, 5, 9), ``monolith``, ``raven``, ``my_ladders``, ``opponent_ladders``, ``my_priests``,
``opponent_priests``, ``pieces``, ``phase``, ``turn``, ``seat``, ``action_features`` (3, 48).
Three and four players: ``towers``, ``monolith``, ``tasks``, ``centre_card``, ``phase``,
``bonus``, ``turn``, ``seat``, ``team_game``, ``action_features`` (3, 48). Drafted setup:
``draft_block`` (9) and ``drafting`` (1) at the end.

Pure: numpy only; imports the rules, never the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from itertools import chain
from typing import NamedTuple

import numpy as np

from maya_envs.core.checks import is_int
from maya_envs.core.layout import Layout
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import (
    CENTRE,
    DECLARE,
    DRAFT,
    EXCHANGE,
    NO_PRIEST,
    SETUP_MONOLITH,
    Maya2012Config,
    Maya2012Rules,
    Maya2012State,
    colour_totals,
    exchange_deltas,
    exchange_joins,
    is_complete,
    joins_formed,
    last_exchange_completed_centre,
    legal_exchanges,
    may_declare,
    state_exchanges,
    swap,
    unknown_colours,
)

COLOURS = 9
MAX_LADDER_SPACES = 4
# One-hot offsets of every (tower, level) slot in the ``towers`` part, for a vectorised colour write.
_SLOT_BASE = (np.arange(A.NUM_TOWERS * A.NUM_LEVELS) * COLOURS).astype(np.intp)
UNKNOWN_HANDS = 3  # the 6 unknown colours are spread over 3 other hands (3p: 2 rivals + the face-down pair)
# Task-score changes of one exchange are mostly within +-6; larger ones clip. A change maps to
# [0, 1] as ``(delta + 6) / 12``: the scale keeps one point visible to the action-feature head
# (1/12 per point; 1/40 was too faint to learn from).
SCORE_DELTA_SCALE = 6


def observation_layout(config: Maya2012Config) -> Layout:
    """The named parts of the observation for ``config`` (the module's index tables); the
    encoder, the batched engine and the JAX engine write by these names."""
    return _layout(config.num_players == 2, config.setup == "draft")


@cache
def _layout(two_players: bool, draft: bool) -> Layout:
    towers = ("towers", (A.NUM_TOWERS, A.NUM_LEVELS, COLOURS))
    features = ("action_features", (3, A.NUM_EXCHANGES))
    if two_players:
        parts = [
            towers,
            ("monolith", len(A.PAIRS)),
            ("raven", 4),
            ("my_ladders", A.NUM_TOWERS),
            ("opponent_ladders", A.NUM_TOWERS),
            ("my_priests", A.NUM_TOWERS),
            ("opponent_priests", A.NUM_TOWERS),
            ("pieces", 4),
            ("phase", 3),
            ("turn", 1),
            ("seat", 1),
            features,
        ]
    else:
        parts = [
            towers,
            ("monolith", len(A.PAIRS)),
            ("tasks", COLOURS),
            ("centre_card", COLOURS),
            ("phase", 2),
            ("bonus", 1),
            ("turn", 1),
            ("seat", 4),
            ("team_game", 1),
            features,
        ]
    if draft:
        parts += [("draft_block", COLOURS), ("drafting", 1)]
    return Layout(parts)


def observation_shape(config: Maya2012Config) -> tuple[int, ...]:
    """Shape of the observation vector for ``config``: ``(610,)`` for two players,
    ``(588,)`` for three or four, plus 10 with ``setup="draft"``."""
    return observation_layout(config).shape


class Maya2012Observer:
    """The observation encoder of one :class:`~maya_envs.maya2012.rules.Maya2012Rules` (the
    :class:`~maya_envs.core.layout.Observer` protocol).

    Attributes:
        rules: the rules.
        layout: the named parts (module docstring).
    """

    def __init__(self, rules: Maya2012Rules) -> None:
        self.rules = rules
        self.layout = observation_layout(rules.config)

    def encode(self, state: Maya2012State, seat: int) -> np.ndarray:
        """``seat``'s observation: ``float32`` of ``layout.shape`` in [0, 1].

        Raises:
            ValueError: ``seat`` is not a seat of this game.
        """
        n = self.rules.config.num_players
        if not is_int(seat) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} out of range 0..{n - 1}")
        return encode_observation(state, seat, self.rules.config)


def observe(rules: Maya2012Rules, state: Maya2012State, seat: int) -> np.ndarray:
    """``seat``'s observation of ``state`` by the default :class:`Maya2012Observer` of ``rules`` (for
    tests and tools; an env keeps its own observer)."""
    return Maya2012Observer(rules).encode(state, seat)


class _Plan(NamedTuple):
    """What the encoder reads from a layout once (not per state): its size, its part starts,
    the two-player block ``my_ladders`` .. ``pieces`` (one write) and the first index of each
    row of ``action_features`` (shape ``(3, 48)``)."""

    size: int
    at: Mapping[str, int]
    ladders_to_pieces: slice | None
    feature_rows: tuple[int, ...]


@cache
def _plan(two_players: bool, draft: bool) -> _Plan:
    layout = _layout(two_players, draft)
    features = layout.part("action_features")
    rows, width = features.shape
    return _Plan(
        layout.size,
        layout.starts,
        layout.span("my_ladders", "pieces") if two_players else None,
        tuple(features.start + row * width for row in range(rows)),
    )


def encode_observation(state, seat: int, config) -> np.ndarray:
    """Encode ``state`` for ``seat``; returns a new ``float32`` array of
    :func:`observation_shape` (index tables in the module docstring), written by the part
    names of :func:`observation_layout`."""
    plan = _plan(config.num_players == 2, config.setup == "draft")
    at = plan.at
    obs = np.zeros(plan.size, np.float32)
    colours = np.fromiter(chain.from_iterable(state.towers), np.intp, A.NUM_TOWERS * A.NUM_LEVELS)
    slots = at["towers"] + _SLOT_BASE
    if state.phase == DRAFT:
        built = colours >= 0
        obs[slots[built] + colours[built]] = 1.0
        obs[at["draft_block"] + state.draft_block] = 1.0
        obs[at["drafting"]] = 1.0
    else:
        obs[slots + colours] = 1.0
    if state.monolith >= 0:
        obs[at["monolith"] + state.monolith] = 1.0
    if config.num_players == 2:
        _encode_2p(obs, plan, state, seat, config)
    else:
        _encode_multi(obs, plan, state, seat, config)
    return obs


def _encode_2p(obs: np.ndarray, plan: _Plan, state, seat: int, config) -> None:
    at = plan.at
    if state.raven:
        obs[at["raven"] + state.raven - 2] = 1.0
    opp = 1 - seat
    ladders, priests = config.ladders_per_player, config.priests_per_player
    # ladders, priests and pieces left are consecutive parts: one write
    obs[plan.ladders_to_pieces] = [
        *[count / MAX_LADDER_SPACES for count in state.ladders[seat]],
        *[count / MAX_LADDER_SPACES for count in state.ladders[opp]],
        *[float(owner == seat) for owner in state.priests],
        *[float(owner != NO_PRIEST and owner != seat) for owner in state.priests],
        _ratio(state.ladders_left[seat], ladders),
        _ratio(state.ladders_left[opp], ladders),
        _ratio(state.priests_left[seat], priests),
        _ratio(state.priests_left[opp], priests),
    ]
    if SETUP_MONOLITH <= state.phase <= EXCHANGE:
        obs[at["phase"] + state.phase] = 1.0
    obs[at["turn"]] = min(state.turn / config.max_turns, 1.0)
    obs[at["seat"]] = 1.0 if seat == 0 else 0.0
    if state.phase == EXCHANGE:
        towers = state.towers
        legal = state_exchanges(state)
        placed_at, completes_at, swing_at = plan.feature_rows  # the action_features rows
        obs[swing_at + np.asarray(legal, np.intp)] = _swing_unit(0)
        for action in legal:
            if not joins_formed(towers, action):
                continue  # no join: no ladder, no priest, no swing
            ladders_placed, completes, swing = exchange_consequences(state, action, seat, config.ladder_spaces)
            obs[placed_at + action] = ladders_placed / 2
            obs[completes_at + action] = float(completes)
            obs[swing_at + action] = _swing_unit(swing)


def _encode_multi(obs: np.ndarray, plan: _Plan, state, seat: int, config) -> None:
    at = plan.at
    if state.tasks:
        obs[at["tasks"] + np.asarray(state.tasks[seat], np.intp)] = 1.0
        obs[at["centre_card"] + state.towers[CENTRE][0]] = 1.0
    if state.phase == DECLARE and state.to_move == seat:
        obs[at["phase"] + 1] = 1.0
        obs[at["bonus"]] = float(last_exchange_completed_centre(state))
    elif state.phase in (EXCHANGE, DECLARE):
        obs[at["phase"]] = 1.0
    obs[at["turn"]] = min(state.turn / config.max_turns, 1.0)
    obs[at["seat"] + seat] = 1.0
    obs[at["team_game"]] = 1.0 if config.num_players == 4 else 0.0
    if state.phase in (EXCHANGE, DECLARE) and state.tasks:
        outlook = seat_outlook(state, seat, config)
        if outlook:
            actions, deltas, cans, rival_deltas = zip(*outlook, strict=True)
            actions = np.asarray(actions, np.intp)
            scale, double = SCORE_DELTA_SCALE, 2 * SCORE_DELTA_SCALE  # (delta + 6) / 12, clipped
            mine_at, declare_at, rivals_at = plan.feature_rows  # the action_features rows
            obs[mine_at + actions] = [min(max((d + scale) / double, 0.0), 1.0) for d in deltas]
            obs[declare_at + actions] = cans
            obs[rivals_at + actions] = [min(max((d / UNKNOWN_HANDS + scale) / double, 0.0), 1.0) for d in rival_deltas]


def seat_outlook(state: Maya2012State, seat: int, config: Maya2012Config) -> list[tuple[int, int, bool, int]]:
    """Three and four players, once dealt: :func:`exchange_outlook` of ``state``'s exchanges for
    ``seat`` (its own task colours against the :func:`~maya_envs.maya2012.rules.unknown_colours`),
    computed once per state and seat and kept in the state's cache, so the observation, the
    per-action features and the heuristic bot share it (a shared list: do not modify it). Reads
    only ``seat``'s cards and the public board."""
    key = ("outlook", seat, config.three_plus_two)
    outlook = state._cache.get(key)
    if outlook is None:
        mine = state.tasks[seat]
        unknown = unknown_colours(state.towers, mine)
        outlook = exchange_outlook(state.towers, state.monolith, mine, config, unknown, state_exchanges(state))
        state._cache[key] = outlook
    return outlook


def exchange_outlook(
    towers, monolith: int, task_colours, config, other_colours=(), exchanges: list[int] | None = None
) -> list[tuple[int, int, bool, int]]:
    """Three and four players: for each exchange legal on ``towers`` with the Monolith at
    ``monolith`` (no Raven), ``(action, change of the task score of task_colours, whether
    the mover may declare after it, change of the summed task scores of other_colours)``
    (rules section 7; the centre bonus is left out). Reads only the public board and the
    given colours. ``exchanges``: those legal ids when the caller has them. The scores after
    each exchange come from the board's colour totals updated through the two exchanged
    towers (:func:`~maya_envs.maya2012.rules.exchange_totals`)."""
    mode = config.three_plus_two
    totals = colour_totals(towers)
    mine_set, other_set = set(task_colours), set(other_colours)
    best = mode == "best"
    centre_done = is_complete(towers[CENTRE])
    result = []
    legal = legal_exchanges(towers, monolith, 0) if exchanges is None else exchanges
    for action in legal:
        mine = others = 0
        for colour, change in exchange_deltas(towers, action):
            if best:  # colour_score, inlined: [3, 2] (total 4) scores one less
                before = totals[colour]
                change -= (before + change == 4) - (before == 4)
            if colour in mine_set:
                mine += change
            if colour in other_set:
                others += change
        # a complete tower is never exchanged, so only the centre tower's own exchange can complete it
        can = (centre_done or CENTRE in A.PAIRS[action // 4]) and may_declare(swap(towers, action), task_colours)
        result.append((action, mine, can, others))
    return result


def exchange_consequences(state, action: int, seat: int, ladder_spaces) -> tuple[int, bool, int]:
    """``(ladders placed, completes a tower, change of my VP minus opponent's VP)`` if ``seat``
    made exchange ``action`` now (rules section 4, read from
    :func:`~maya_envs.maya2012.rules.exchange_joins`: a ladder where the seam joins and a space
    and a ladder are free; a priest on a completed tower if one is left)."""
    opp = 1 - seat
    placed, completes, swing = 0, False, 0
    after = swap(state.towers, action)
    for tower, ladder, complete in exchange_joins(
        after, action, state.ladders, state.ladders_left[seat], ladder_spaces
    ):
        if ladder:
            mine, theirs = state.ladders[seat][tower], state.ladders[opp][tower]
            placed += 1
            my_gain = int(mine + 1 > theirs) - int(mine > theirs)
            their_loss = int(theirs > mine) - int(theirs > mine + 1)
            swing += my_gain + their_loss
        if complete and state.priests_left[seat]:
            completes = True
            swing += 1
    return placed, completes, swing


def _swing_unit(swing: int) -> float:
    """A two-player VP-margin change mapped to [0, 1]: ``(swing + 2) / 6``, clipped."""
    return min(max((swing + 2) / 6, 0.0), 1.0)


def _ratio(count: int, total: int) -> float:
    return count / total if total else 0.0
