"""Maya (Abacusspiele 2003) search hooks for both searches
(:mod:`maya_envs.bots.mcts`, :mod:`maya_envs.bots.guided`): ``determinize`` and
``leaf_values``; and ``score_margins``, the score-margin head's target.

Hidden information (rules file section 6 and the observation module's table): each other
seat's worker cards in hand and the values of its cards lying face down in quarries not yet
revealed; in the advanced variant, the other seats' sealed bids until every bid is in. The
observer knows, per seat, every card's owner, quarry, position and back (low: 3, 4, 4, 5;
high: 6, 7, 8, -3), the revealed quarries' values and its own cards; and each seat owns one
known set of worker cards per round.

So a seat's hidden cards are exactly its hand plus its face-down cards, and the observer can
tell low from high on every one of them (backs are public; a hand's low/high counts follow).
``determinize`` shuffles each other seat's hidden low cards among its low places (face-down
low slots and the hand) and the same for high cards: uniform over all assignments consistent
with the observer's view (the basic rules put no other constraint on which value went where).
Sealed bids already made by other seats are drawn uniformly from ``0 .. min(gold, MAX_BID)``
(the legal range; gold is public). Nothing else is random in the state: the advanced
variant's blue markers are drawn from the generator passed to ``apply_action``.

Pure: standard library and numpy.
"""

from __future__ import annotations

import numpy as np

from maya_envs.core.values import relative_leads
from maya_envs.maya_quarry.actions import CARD_IS_LOW, MAX_BID, NUM_CARD_TYPES
from maya_envs.maya_quarry.features import scored_now
from maya_envs.maya_quarry.rules import MayaQuarryRules, MayaQuarryState
from maya_envs.maya_quarry.rules.state import BID, NUM_ROUNDS

#: Projected gold lead (:func:`leaf_leads`) worth tanh(1) in the leaf value, per player count
#: (both variants). Fitted by least squares of ``tanh(lead / scale)`` against the acting seat's
#: final result over 200 heuristic self-play games per variant (``python
#: benchmarks/fit_leaf_scales.py --games 200``): 3p 15 -> 34 (fits 34.2 basic, 33.5 advanced;
#: MSE 0.439 -> 0.382 basic, 0.436 -> 0.382 advanced; predicting 0: 0.52), 4p 15 -> 54 (fits
#: 49.5, 58.5; 0.377 -> 0.266, 0.425 -> 0.286; 0: 0.35), 5p 15 -> 63 (fits 62.7 basic, 64.3
#: advanced; 0.364 -> 0.214 basic, 0.364 -> 0.213 advanced; 0: 0.266, 0.268; ``--players 5
#: [--variant advanced]``, 2026-12-02).
LEAF_SCALES = {3: 34.0, 4: 54.0, 5: 63.0}


def hidden_slots(state: MayaQuarryState, seat: int) -> list[tuple[int, int]]:
    """``(quarry, index)`` of ``seat``'s cards lying face down in quarries not yet revealed."""
    resolving = state.resolving
    return [
        (q, i)
        for q, column in enumerate(state.columns)
        if resolving >= 0 and q < resolving
        for i, (owner, _card) in enumerate(column)
        if owner == seat
    ]


def determinize(
    rules: MayaQuarryRules, state: MayaQuarryState, observer: int, rng: np.random.Generator
) -> MayaQuarryState:
    """A full state that ``observer`` cannot tell from ``state`` (a new state; the module
    docstring says what is resampled and why the result is uniform)."""
    out = state.clone()
    for seat in range(state.num_players):
        if seat == observer:
            continue
        slots = hidden_slots(state, seat)
        hand = state.hand(seat)
        for low in (True, False):
            places = [(q, i) for q, i in slots if CARD_IS_LOW[state.columns[q][i][1]] == low]
            cards = [state.columns[q][i][1] for q, i in places]
            cards += [t for t in range(NUM_CARD_TYPES) if CARD_IS_LOW[t] == low for _ in range(hand[t])]
            cards = [cards[k] for k in rng.permutation(len(cards))]
            for (q, i), card in zip(places, cards, strict=False):
                out.columns[q][i] = (seat, card)
            in_hand = cards[len(places) :]
            for t in range(NUM_CARD_TYPES):
                if CARD_IS_LOW[t] == low:
                    out.hands[seat * NUM_CARD_TYPES + t] = in_hand.count(t)
        if state.phase == BID and state.bids and state.bids[seat] >= 0:
            out.bids[seat] = int(rng.integers(min(state.gold[seat], MAX_BID) + 1))
    out._cache = {}
    return out


def leaf_leads(rules: MayaQuarryRules, state: MayaQuarryState) -> np.ndarray:
    """``float64 (num_players,)``: each seat's projected gold lead over the others' mean.
    Projected gold = gold now + what the board would pay now (every level, rules phase 3) once
    per scoring still to come (this round's included), a rough stand-in for the remaining
    rounds."""
    n = state.num_players
    per_scoring = scored_now(rules, state)
    scorings_left = NUM_ROUNDS - state.round
    return relative_leads([state.gold[seat] + scorings_left * per_scoring[seat] for seat in range(n)])


def leaf_values(rules: MayaQuarryRules, state: MayaQuarryState) -> np.ndarray:
    """Per-seat values in (-1, 1) of an unfinished state: ``tanh`` of :func:`leaf_leads` over
    the player count's :data:`LEAF_SCALES`."""
    return np.tanh(leaf_leads(rules, state) / LEAF_SCALES[state.num_players])


def score_margins(rules: MayaQuarryRules, state: MayaQuarryState) -> np.ndarray:
    """``float64 (num_players,)``: each seat's score margin as the scores stand (the gold lead
    over the others' mean; not :func:`leaf_leads`, which adds what the board would pay in the
    scorings still to come), over the player count's :data:`LEAF_SCALES`. Once the game is
    over: the final margins the network's score-margin head learns (:mod:`maya_envs.nn.model`, ``margin_head=True``).

    Why this scale: it is the hook's, the lead worth ``tanh(1)`` (about a decided game), so the
    head's target is in the units of the hook's pre-tanh lead and of order 1. Over 40 heuristic
    self-play games the root mean square of the final margins is 0.59 (3p), 0.31 (5p).
    """
    return relative_leads(state.gold) / LEAF_SCALES[state.num_players]
