"""What a Yaxha seat may not see redrawn: the resampler every hidden-information test of the game
uses, and the cross-cutting web tests reach through the game's key
(:func:`tests.conformance.resample_hidden`)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np

from maya_envs.yaxha.rules import BUILD, SELECT


def resample_hidden(state, observer: int, rng: np.random.Generator):
    """Other seats' hidden data replaced: choices while choosing; while building, their hands,
    discards and the colours of the cubes they placed this round (any values: the picture must
    not read them). Outside the building, hands are empty and the discards public (every cube
    placed is revealed when the building ends), as everyone knows."""
    n = len(state.choices)
    choices, hands, discarded, pyramids = list(state.choices), list(state.hands), list(state.discarded), []
    for seat in range(n):
        pyramid = list(state.pyramids[seat])
        if seat != observer:
            if state.phase == SELECT and choices[seat] >= 0:
                choices[seat] = int(rng.integers(len(state.market)))
            if state.phase == BUILD:
                hands[seat] = tuple(int(k) for k in rng.integers(0, 3, 5))
                discarded[seat] = int(rng.integers(0, 10))
            for cell in state.fresh[seat]:
                pyramid[cell] = int(rng.integers(5))
        pyramids.append(tuple(pyramid))
    return dataclasses.replace(
        state, choices=tuple(choices), hands=tuple(hands), discarded=tuple(discarded), pyramids=tuple(pyramids)
    )


def conserved(rules, true, sampled, observer: int) -> None:
    """The components of ``sampled`` (a ``determinize`` sample for ``observer``) are those of
    ``true`` (tests/bots/test_determinize.py calls this for every hidden-information case)."""
    n = rules.spec.num_players
    for seat in range(n):
        placed = Counter(sampled.pyramids[seat][c] for c in sampled.fresh[seat])
        true_placed = Counter(true.pyramids[seat][c] for c in true.fresh[seat])
        # this round's cubes: hand + placed + discarded this round is the tile either way
        disc = sampled.discarded[seat] - true.discarded[seat]
        total = sum(sampled.hands[seat]) + sum(placed.values())
        assert total - (sum(true.hands[seat]) + sum(true_placed.values())) == -disc
        assert sampled.market == true.market and sampled.bag == true.bag
