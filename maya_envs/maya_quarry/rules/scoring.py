"""Phase 3, scoring and erosion, and the game end (seed "Phase 3 - Scoring", "Game End").

* Gold per level (incomplete levels too): every seat with the most blocks (``m1 > 0``) gets
  ``gold_first``; every seat with the highest count below ``m1`` (``> 0``) gets
  ``gold_second``. If all present seats tie for the most, nobody is second.
* Erosion (not after round 3): each paid seat removes one block from that level; a seat whose
  last block on a level goes also loses all its blocks above it in that pyramid. DERIVED: the
  result does not depend on the order levels are processed in, so no option is needed.
* Winner: most gold; tie-break fewest blocks left in the pool; a remaining tie is shared.

Pure: standard library only.
"""

from __future__ import annotations

from maya_envs.maya_quarry.actions import MAX_LEVELS
from maya_envs.maya_quarry.rules.building import remove_unsupported
from maya_envs.maya_quarry.rules.config import Components
from maya_envs.maya_quarry.rules.state import MayaQuarryState


def level_payouts(counts: list[int], gold_first: int, gold_second: int) -> list[int]:
    """Gold each seat earns for one level with per-seat block ``counts`` (seed "Gold payment")."""
    first = max(counts)
    if first == 0:
        return [0] * len(counts)
    below = [c for c in counts if 0 < c < first]
    second = max(below) if below else -1
    return [gold_first if c == first else gold_second if c == second else 0 for c in counts]


def score_round(state: MayaQuarryState, comp: Components, erode: bool) -> list[int]:
    """Pay every level of every pyramid, then (if ``erode``) apply erosion; mutates ``state``.

    Returns:
        Gold paid to each seat this scoring.
    """
    n = state.num_players
    earned = [0] * n
    for p, pyramid in enumerate(comp.pyramids):
        paid_levels: list[list[int]] = []
        for level, (_spaces, first, second) in enumerate(pyramid.levels):
            pay = level_payouts(state.level_counts(p, level), first, second)
            paid_levels.append(pay)
            for seat in range(n):
                earned[seat] += pay[seat]
        if not erode:
            continue
        # Blocks are removed only after the whole pyramid is scored (seed).
        for level, pay in enumerate(paid_levels):
            base = (p * MAX_LEVELS + level) * n
            for seat in range(n):
                if pay[seat] and state.board[base + seat] > 0:
                    state.board[base + seat] -= 1
                    state.pool[seat] += 1
        for seat in range(n):
            remove_unsupported(state, comp, seat, p)
    for seat in range(n):
        state.gold[seat] += earned[seat]
    return earned


def winners(state: MayaQuarryState) -> list[int]:
    """Seats that win: most gold, then fewest blocks in the pool (seed "Game End")."""
    best = max(state.gold)
    rich = [s for s in range(state.num_players) if state.gold[s] == best]
    fewest = min(state.pool[s] for s in rich)
    return [s for s in rich if state.pool[s] == fewest]
