"""Phase 2, building pyramids (seed "Phase 2 - Building pyramids"; rules file section 5).

Functions here read a state and mutate only a state the engine has already cloned.

* Level 1 is always open. Level ``k >= 2`` of pyramid ``p`` is open to ``seat`` when (a)
  levels ``1..k-1`` of *all* pyramids are full (``global_level_rule``: ``"current"`` = full now,
  ``"ever_filled"`` = full at some point; a pyramid shorter than ``k-1`` counts as full if
  ``missing_levels_full``) and (b) ``seat`` has a block on every level ``1..k-1`` of ``p``.
* A placement that completes a level may earn a bonus block from the pool on the next level of
  that pyramid (see :func:`place_block`).

Pure: standard library only.
"""

from __future__ import annotations

from maya_envs.maya_quarry.actions import MAX_LEVELS
from maya_envs.maya_quarry.rules.config import Components, MayaQuarryConfig
from maya_envs.maya_quarry.rules.state import MayaQuarryState


def level_total(state: MayaQuarryState, pyramid: int, level: int) -> int:
    """Blocks of all colours on ``level`` of ``pyramid``."""
    n = state.num_players
    start = (pyramid * MAX_LEVELS + level) * n
    return sum(state.board[start : start + n])


def is_full(state: MayaQuarryState, comp: Components, pyramid: int, level: int) -> bool:
    """Whether ``level`` of ``pyramid`` has no free space."""
    return level_total(state, pyramid, level) >= comp.pyramids[pyramid].levels[level][0]


def open_level(state: MayaQuarryState, comp: Components, cfg: MayaQuarryConfig) -> int:
    """Highest level index (0-based) that rule (a) opens: levels below it are full everywhere."""
    top = 0
    for level in range(comp.num_levels - 1):
        for p, pyramid in enumerate(comp.pyramids):
            if level >= len(pyramid.levels):
                if not cfg.missing_levels_full:
                    return top
            elif cfg.global_level_rule == "ever_filled":
                if not state.ever_full[p * MAX_LEVELS + level]:
                    return top
            elif not is_full(state, comp, p, level):
                return top
        top = level + 1
    return top


def can_build(state: MayaQuarryState, comp: Components, top: int, seat: int, pyramid: int, level: int) -> bool:
    """Rules (a) and (b) and a free space, given ``top = open_level(...)``."""
    levels = comp.pyramids[pyramid].levels
    if level >= len(levels) or level > top or is_full(state, comp, pyramid, level):
        return False
    return all(state.count(pyramid, below, seat) > 0 for below in range(level))


def legal_placements(
    state: MayaQuarryState, comp: Components, cfg: MayaQuarryConfig, seat: int
) -> list[tuple[int, int]]:
    """Every ``(pyramid, level)`` where ``seat`` may place a block now, in id order."""
    top = open_level(state, comp, cfg)
    return [
        (p, level)
        for p in range(len(comp.pyramids))
        for level in range(min(top + 1, len(comp.pyramids[p].levels)))
        if can_build(state, comp, top, seat, p, level)
    ]


def lowest_buildable_level(
    state: MayaQuarryState, comp: Components, cfg: MayaQuarryConfig, seat: int, pyramid: int
) -> int:
    """FREE_BLOCK_FROM_POOL target (section 6 DECISION): the lowest level of ``pyramid`` with a
    free space where ``seat`` may build, or ``-1``."""
    top = open_level(state, comp, cfg)
    for level in range(len(comp.pyramids[pyramid].levels)):
        if not is_full(state, comp, pyramid, level):
            return level if can_build(state, comp, top, seat, pyramid, level) else -1
    return -1


def place_block(
    state: MayaQuarryState,
    comp: Components,
    cfg: MayaQuarryConfig,
    seat: int,
    pyramid: int,
    level: int,
    from_pool: bool = False,
    special: bool = False,
) -> None:
    """Put one of ``seat``'s blocks on ``level`` of ``pyramid`` (from ``held``, or from the pool)
    and award bonus blocks (mutates ``state``).

    Bonus block (seed; rules file section 5): when the placement completes the level, that
    level is not the pyramid's top, the next level holds no block, and the recipient has a
    strict plurality on the completed level, one block of the recipient's colour goes from its
    pool to the next level (rule (a) does not apply to it). The recipient is the placer
    (``bonus_block_recipient="placer"``) or the plurality holder (``"majority"``, the seed's
    Copan example). ``special`` marks FREE_BLOCK/RELOCATE/bonus placements, which earn a bonus
    only with ``bonus_on_special_placements``. A bonus block that completes its level chains.
    """
    n = state.num_players
    index = pyramid * MAX_LEVELS + level
    state.board[index * n + seat] += 1
    if from_pool:
        state.pool[seat] -= 1
    else:
        state.held[seat] -= 1
    levels = comp.pyramids[pyramid].levels
    counts = state.board[index * n : index * n + n]
    if sum(counts) < levels[level][0]:
        return
    state.ever_full[index] = True
    if special and not cfg.bonus_on_special_placements:
        return
    if level + 1 >= len(levels) or level_total(state, pyramid, level + 1) > 0:
        return
    best = max(counts)
    if counts.count(best) != 1:
        return
    recipient = counts.index(best)
    if cfg.bonus_block_recipient == "placer" and recipient != seat:
        return
    if state.pool[recipient] > 0:
        place_block(state, comp, cfg, recipient, pyramid, level + 1, from_pool=True, special=True)


def remove_unsupported(state: MayaQuarryState, comp: Components, seat: int, pyramid: int) -> None:
    """Erosion cascade: above ``seat``'s lowest empty level of ``pyramid``, return all of
    ``seat``'s blocks to the pool (mutates ``state``)."""
    n = state.num_players
    height = len(comp.pyramids[pyramid].levels)
    gap = next((lv for lv in range(height) if state.count(pyramid, lv, seat) == 0), height)
    for level in range(gap + 1, height):
        index = (pyramid * MAX_LEVELS + level) * n + seat
        state.pool[seat] += state.board[index]
        state.board[index] = 0
