"""Yaxha observation encoder (pure): one flat ``float32`` vector in [0, 1] per seat.

Seats appear relative to the observer: ``r = (seat - observer) % N``, so ``r = 0`` is always
"me" (decision 11: all pyramids, the market, initiative, bonus cards, the round and my own
cubes are visible; another seat's hidden tile choice and its cubes placed this round are not,
and the bag is seen only as colour counts). ``N = num_players``, ``C`` = cells (126
floating, 30 fixed; cell order as in :mod:`maya_envs.yaxha.actions`).

==============  ===========  ===================================================================
slice name      length       meaning
==============  ===========  ===================================================================
``pyramids``    ``N*C*5``    index ``(r*C + cell)*5 + colour``: 1 if seat ``r`` has that colour
                             on that cell. Another seat's cubes placed during the current
                             round's building are left out until the round's building ends.
``initiative``  ``N*N``      ``r*N + (initiative - 1)``: one-hot initiative of seat ``r``.
``market``      ``N*5``      ``tile*5 + colour``: cubes of that colour on the tile / 3.
``owner``       ``N*N``      ``tile*N + r``: 1 if seat ``r`` has taken the tile this round.
``choices``     ``N*N``      ``r*N + tile``: the tile seat ``r`` chose this round. While choices
                             are being collected only ``r = 0`` (my own) is shown; after the
                             reveal (pending picks, building) every seat's.
``pending``     ``N``        ``r``: 1 if seat ``r`` still has to pick after a clash.
``hand``        ``5``        my cubes still to place this round, per colour / 3.
``bag``         ``5``        cubes left in the bag per colour / ``cubes_per_colour``.
``bonus``       ``18``       1 for each bonus card in play.
``round``       ``10``       one-hot round (all 0 once the game is over).
``phase``       ``4``        one-hot: select, pending, build, over.
==============  ===========  ===================================================================

Sizes: 2 players floating 1326, 3 players 1977, 4 players 2634; fixed footprint 366, 537, 714.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from maya_envs.yaxha.actions import NUM_COLOURS
from maya_envs.yaxha.scoring import NUM_BONUS_CARDS

if TYPE_CHECKING:
    from maya_envs.yaxha.rules import YaxhaRules, YaxhaState

NUM_ROUNDS = 10
NUM_PHASES = 4
_COLOUR_RANGE = np.arange(NUM_COLOURS, dtype=np.int8)


def observation_layout(num_players: int, num_cells: int) -> dict[str, slice]:
    """Slice of each named part of the vector (the module table), in order."""
    n = num_players
    lengths = [
        ("pyramids", n * num_cells * NUM_COLOURS),
        ("initiative", n * n),
        ("market", n * NUM_COLOURS),
        ("owner", n * n),
        ("choices", n * n),
        ("pending", n),
        ("hand", NUM_COLOURS),
        ("bag", NUM_COLOURS),
        ("bonus", NUM_BONUS_CARDS),
        ("round", NUM_ROUNDS),
        ("phase", NUM_PHASES),
    ]
    out, start = {}, 0
    for name, length in lengths:
        out[name] = slice(start, start + length)
        start += length
    return out


def observation_size(num_players: int, num_cells: int) -> int:
    """Length of the observation vector."""
    return list(observation_layout(num_players, num_cells).values())[-1].stop


def encode(rules: YaxhaRules, state: YaxhaState, observer: int) -> np.ndarray:
    """Observation of ``observer`` (a seat) as ``float32`` of shape ``rules.spec.observation_shape``.

    Raises:
        ValueError: ``observer`` is not a seat of this game.
    """
    n = rules.num_players
    if not 0 <= observer < n:
        raise ValueError(f"observer seat {observer!r} is out of range: allowed 0..{n - 1}")
    num_cells = rules.geometry.num_cells
    layout = observation_layout(n, num_cells)
    obs = np.zeros(layout["phase"].stop, np.float32)
    seats = [(observer + r) % n for r in range(n)]  # absolute seat of relative seat r

    cells = np.empty((n, num_cells), np.int8)
    for r, seat in enumerate(seats):
        cells[r] = state.pyramids[seat]
        if r and state.fresh[seat]:
            cells[r, list(state.fresh[seat])] = -1
    obs[layout["pyramids"]] = (cells[:, :, None] == _COLOUR_RANGE).reshape(-1)

    part = obs[layout["initiative"]]
    for r, seat in enumerate(seats):
        part[r * n + state.initiative[seat] - 1] = 1.0
    obs[layout["market"]] = np.asarray(state.market, np.float32).reshape(-1) / 3.0
    part = obs[layout["owner"]]
    for tile, seat in enumerate(state.owner):
        if seat >= 0:
            part[tile * n + (seat - observer) % n] = 1.0
    part = obs[layout["choices"]]
    revealed = state.phase in (1, 2)  # PENDING, BUILD
    for r, seat in enumerate(seats):
        tile = state.choices[seat]
        if tile >= 0 and (revealed or r == 0):
            part[r * n + tile] = 1.0
    part = obs[layout["pending"]]
    for seat in state.pending:
        part[(seat - observer) % n] = 1.0
    obs[layout["hand"]] = np.asarray(state.hands[observer], np.float32) / 3.0
    obs[layout["bag"]] = np.asarray(state.bag, np.float32) / rules.config.cubes_per_colour
    part = obs[layout["bonus"]]
    part[list(state.bonus_cards)] = 1.0
    if state.round < NUM_ROUNDS:
        obs[layout["round"].start + state.round] = 1.0
    obs[layout["phase"].start + state.phase] = 1.0
    return obs
