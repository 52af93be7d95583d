"""Yaxha search hooks for both searches
(:mod:`maya_envs.bots.mcts`, :mod:`maya_envs.bots.guided`): ``determinize`` and ``leaf_values``;
and ``score_margins``, the score-margin head's target.

Hidden information (decision 11, :mod:`maya_envs.yaxha.observation`):

* **Tile choices** while they are being collected: another seat's choice already made is
  unknown; ``determinize`` draws it uniformly from the ``N`` tiles.
* **Cubes placed this round** by another seat during the simultaneous building: the observer
  knows the seat's tile (its 3 cubes), how many of its micro-steps are done (building is
  round-robin, so ``build_step`` tells) and its pyramid without this round's cubes, but not
  which colours went where, nor whether a step was a discard. ``determinize`` replays that
  many legal micro-steps from the visible pyramid with the tile's cubes, each uniformly among
  the legal place/discard actions (consistent, not the exact posterior: real players place
  better than at random), and recomputes the seat's hand, fresh cells and discard count.
* **The bag**: the state holds only colour counts (public), and each round's market is drawn
  from the generator passed to ``apply_action``, so there is no stored order to resample.

Pure: standard library and numpy.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from maya_envs.core.values import relative_leads
from maya_envs.yaxha.rules import BUILD, SELECT, YaxhaRules, YaxhaState

#: Score lead (:func:`leaf_leads`) worth tanh(1) in the leaf value, per player count. Fitted by
#: least squares of ``tanh(lead / scale)`` against the acting seat's final result over 200
#: heuristic self-play games per player count (``python benchmarks/fit_leaf_scales.py --games
#: 200 --only yaxha``, default footprint, 2026-12-02); the hand-set scale before the fit was 10:
#: 2p 10 -> 31 (fit 30.95; MSE 1.038 -> 0.944; predicting 0: 0.995), 3p 10 -> 33 (33.05; 0.554
#: -> 0.465; 0: 0.500), 4p 10 -> 41 (41.11; 0.408 -> 0.305; 0: 0.326). Even fitted, the estimate
#: is only a little better than a constant in Yaxha (the strong-agents study, D1).
LEAF_SCALES = {2: 31.0, 3: 33.0, 4: 41.0}


def steps_done(rules: YaxhaRules, state: YaxhaState, seat: int) -> int:
    """Building micro-steps ``seat`` has taken this round (0 outside the building phase)."""
    if state.phase != BUILD:
        return 0
    n = rules.num_players
    return state.build_step // n + int(seat < state.build_step % n)


def determinize(rules: YaxhaRules, state: YaxhaState, observer: int, rng: np.random.Generator) -> YaxhaState:
    """A full state that ``observer`` cannot tell from ``state`` (see the module docstring);
    ``state`` itself when nothing is hidden (pending picks, a round's first building step)."""
    n = rules.num_players
    if state.phase == SELECT:
        if all(c < 0 for seat, c in enumerate(state.choices) if seat != observer):
            return state
        choices = tuple(
            c if seat == observer or c < 0 else int(rng.integers(n)) for seat, c in enumerate(state.choices)
        )
        return dataclasses.replace(state, choices=choices)
    if state.phase != BUILD:
        return state
    hands, pyramids, fresh, discarded = (
        list(state.hands),
        list(state.pyramids),
        list(state.fresh),
        list(state.discarded),
    )
    for seat in range(n):
        done = steps_done(rules, state, seat)
        if seat == observer or done == 0:
            continue
        visible = list(pyramids[seat])
        for cell in state.fresh[seat]:
            visible[cell] = -1
        hand = list(state.market[state.owner.index(seat)])
        earlier_discards = state.discarded[seat] - (done - len(state.fresh[seat]))
        placed, discards, pyramid = _replay(rules, tuple(visible), hand, done, rng)
        hands[seat], pyramids[seat], fresh[seat] = tuple(hand), pyramid, placed
        discarded[seat] = earlier_discards + discards
    return dataclasses.replace(
        state, hands=tuple(hands), pyramids=tuple(pyramids), fresh=tuple(fresh), discarded=tuple(discarded)
    )


def _replay(
    rules: YaxhaRules,
    pyramid: tuple[int, ...],
    hand: list[int],
    steps: int,
    rng: np.random.Generator,
) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """Take ``steps`` uniformly random legal micro-steps for ``seat`` from ``pyramid`` with
    ``hand`` (changed in place); returns ``(fresh cells, discards, pyramid)``."""
    table = rules.table
    placed: list[int] = []
    discards = 0
    for _ in range(steps):
        legal = rules.build_actions(tuple(hand), pyramid)
        action = legal[int(rng.integers(len(legal)))]
        if action < table.discard_start:
            colour, cell = divmod(action - table.place_start, table.num_cells)
            pyramid = rules.place_cube(pyramid, colour, cell)
            placed.append(cell)
        else:
            colour = action - table.discard_start
            discards += 1
        hand[colour] -= 1
    return tuple(placed), discards, pyramid


def leaf_leads(rules: YaxhaRules, state: YaxhaState) -> np.ndarray:
    """``float64 (num_players,)``: each seat's current total score (colour points and bonus
    cards, :meth:`YaxhaRules.scores`) minus the others' mean."""
    return relative_leads(rules.totals(state))


def leaf_values(rules: YaxhaRules, state: YaxhaState) -> np.ndarray:
    """Per-seat values in (-1, 1) of an unfinished state: ``tanh`` of :func:`leaf_leads` over
    the player count's :data:`LEAF_SCALES`."""
    return np.tanh(leaf_leads(rules, state) / LEAF_SCALES[rules.num_players])


def score_margins(rules: YaxhaRules, state: YaxhaState) -> np.ndarray:
    """``float64 (num_players,)``: each seat's score margin as the scores stand (the total
    score's lead over the others' mean: :func:`leaf_leads`),
    over the player count's :data:`LEAF_SCALES`. Once the game is over: the final margins the
    network's score-margin head learns (:mod:`maya_envs.nn.model`, ``margin_head=True``).

    Why this scale: it is the hook's, the lead worth ``tanh(1)`` (about a decided game), so the
    head's target is in the units of the hook's pre-tanh lead and of order 1. Over 40 heuristic
    self-play games the root mean square of the final margins is 0.36 (2p), 0.21 (4p).
    """
    return leaf_leads(rules, state) / LEAF_SCALES[rules.num_players]
