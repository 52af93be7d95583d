"""What a quarry seat may not see redrawn: the resampler every hidden-information test of the game
uses, and the cross-cutting web tests reach through the game's key
(:func:`tests.conformance.resample_hidden`)."""

from __future__ import annotations

from collections import Counter

from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.actions import CARD_COUNTS, CARD_IS_LOW, NUM_CARD_TYPES
from maya_envs.maya_quarry.rules.state import BID


def resample_hidden(s, observer, rng):
    """A copy of ``s`` where every other seat's face-down cards and hand are reshuffled within
    their low and high groups (same backs, same multiset per seat) and, while bids are sealed
    (advanced variant), every other seat's bid already made is redrawn within its gold."""
    out = s.clone()
    n = s.num_players
    for seat in range(n):
        if seat == observer:
            continue
        if s.phase == BID and s.bids[seat] >= 0:
            out.bids[seat] = int(rng.integers(0, min(s.gold[seat], A.MAX_BID) + 1))
        slots = [
            (q, i)
            for q, col in enumerate(out.columns)
            if not (s.resolving < 0 or q >= s.resolving)
            for i, (owner, _card) in enumerate(col)
            if owner == seat
        ]
        hand = out.hand(seat)
        for low in (True, False):
            group_slots = [(q, i) for q, i in slots if A.CARD_IS_LOW[out.columns[q][i][1]] == low]
            cards = [out.columns[q][i][1] for q, i in group_slots]
            cards += [t for t in range(7) if A.CARD_IS_LOW[t] == low for _ in range(hand[t])]
            rng.shuffle(cards)
            for (q, i), card in zip(group_slots, cards, strict=False):
                out.columns[q][i] = (seat, card)
            rest = cards[len(group_slots) :]
            for t in range(7):
                if A.CARD_IS_LOW[t] == low:
                    out.hands[seat * 7 + t] = rest.count(t)
    out._cache = {}
    return out


def conserved(rules, true, sampled, observer: int) -> None:
    """The components of ``sampled`` (a ``determinize`` sample for ``observer``) are those of
    ``true`` (tests/bots/test_determinize.py calls this for every hidden-information case)."""
    n = rules.spec.num_players
    assert sampled.board == true.board and sampled.gold == true.gold and sampled.pool == true.pool
    assert sampled.hand(observer) == true.hand(observer)
    for seat in range(n):
        owned = Counter(card for col in sampled.columns for s, card in col if s == seat)
        for t in range(NUM_CARD_TYPES):
            owned[t] += sampled.hands[seat * NUM_CARD_TYPES + t]
        if sampled.phase != BID and true.round == sampled.round:
            assert all(owned[t] == CARD_COUNTS[t] for t in range(NUM_CARD_TYPES)), (seat, owned)
        backs = [[CARD_IS_LOW[c] for s, c in col if s == seat] for col in sampled.columns]
        assert backs == [[CARD_IS_LOW[c] for s, c in col if s == seat] for col in true.columns]
