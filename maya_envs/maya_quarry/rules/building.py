"""Phase 2, building pyramids (seed "Phase 2 - Building pyramids"; rules file section 5).

Functions here read a state and mutate only a state the engine has already cloned.

* Level 1 is always open. Level ``k >= 2`` of pyramid ``p`` is open to ``seat`` when (a)
  levels ``1..k-1`` of *all* pyramids are full (``global_level_rule``: ``"current"`` = full now,
  ``"ever_filled"`` = full at some point; a pyramid shorter than ``k-1`` counts as full if
  ``missing_levels_full``) and (b) ``seat`` has a block on every level ``1..k-1`` of ``p``.
* A placement that completes a level may earn a bonus block from the pool on the next level of
  that pyramid (see :func:`place_block`).

The phase's decisions (legal actions and their effect, ``(rules, state, seat[, action, rng])``
as the engine's handler table calls them): SETUP (the starting blocks), BUILD and DOUBLE
(place, double move, pass, the involuntary pass), and the FREE_PASS and FREE_DOUBLE_MOVE
markers (or the joker acting as them), read here only.

Pure: standard library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import maya_envs.maya_quarry.actions as A
from maya_envs.maya_quarry.actions import MAX_LEVELS
from maya_envs.maya_quarry.rules.config import FREE_DOUBLE, FREE_PASS, Components, MayaQuarryConfig
from maya_envs.maya_quarry.rules.flow import Flow
from maya_envs.maya_quarry.rules.state import BUILD, DOUBLE, MayaQuarryState

if TYPE_CHECKING:
    import numpy as np


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
    n = state.num_players
    board = state.board
    ever = cfg.global_level_rule == "ever_filled"
    top = 0
    for level in range(comp.num_levels - 1):
        for p, pyramid in enumerate(comp.pyramids):
            if level >= len(pyramid.levels):
                if not cfg.missing_levels_full:
                    return top
            elif ever:
                if not state.ever_full[p * MAX_LEVELS + level]:
                    return top
            else:
                start = (p * MAX_LEVELS + level) * n
                if sum(board[start : start + n]) < pyramid.levels[level][0]:
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
    """Every ``(pyramid, level)`` where ``seat`` may place a block now, in id order (what
    :func:`can_build` allows: a level stops the climb of a pyramid once ``seat`` has no block
    on it, rule (b))."""
    n = state.num_players
    board = state.board
    top = open_level(state, comp, cfg)
    out = []
    for p, pyramid in enumerate(comp.pyramids):
        levels = pyramid.levels
        for level in range(min(top + 1, len(levels))):
            start = (p * MAX_LEVELS + level) * n
            if level and board[start - n + seat] == 0:
                break
            if sum(board[start : start + n]) < levels[level][0]:
                out.append((p, level))
    return out


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


# -- the phase's decisions (handlers of the engine's table) ----------------------------------


def setup_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """SETUP: a starting block on level 1 of a pyramid without one of ``seat``'s colour."""
    comp = rules.components
    return [
        A.place_id(p, 0) for p in range(rules.num_pyramids) if s.count(p, 0, seat) == 0 and not is_full(s, comp, p, 0)
    ]


def setup_apply(rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
    place_block(s, rules.components, rules.config, seat, (action - A.PLACE_BASE) // MAX_LEVELS, 0)
    nxt = rules.next_seat(s, lambda t: s.held[t] > 0)
    if nxt < 0:
        rules.begin_round(s, 0, rng)
    else:
        s.turn = s.actor = nxt


def has_free(s: MayaQuarryState, seat: int, green: int) -> bool:
    """``seat`` holds ``green`` (FREE_PASS or FREE_DOUBLE_MOVE) or the joker acting as it."""
    return s.holder[green] == seat or (s.joker_seat == seat and s.joker_as == green)


def spend_free(s: MayaQuarryState, seat: int, green: int) -> None:
    """Use ``green`` once: the green marker first, else the joker acting as it."""
    if s.holder[green] == seat:
        s.holder[green] = -1
    else:
        s.joker_as = s.joker_seat = -1


def build_legal(rules: Flow, s: MayaQuarryState, seat: int) -> list[int]:
    """BUILD: placements, double move (pay 1 with 3 blocks; free with 2), pass (pay 1; free),
    and only without a placement the involuntary pass. DOUBLE: placements only."""
    places = [A.PLACE_BASE + p * MAX_LEVELS + lv for p, lv in legal_placements(s, rules.components, rules.config, seat)]
    if s.phase == DOUBLE:
        return places
    held = s.held[seat]
    out = list(places)  # a copy: ``places`` must stay the placements for the forced-pass test
    if places:
        if held >= 3:
            out.append(A.DOUBLE_PAY)
        if held >= 2 and has_free(s, seat, FREE_DOUBLE):
            out.append(A.DOUBLE_FREE)
        out.append(A.PASS_PAY)
    if has_free(s, seat, FREE_PASS):
        out.append(A.PASS_FREE)
    if not places:
        out.append(A.FORCED_PASS)
    return out


def build_apply(rules: Flow, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
    comp, cfg = rules.components, rules.config
    if A.PLACE_BASE <= action < A.DOUBLE_PAY:
        p, level = divmod(action - A.PLACE_BASE, MAX_LEVELS)
        place_block(s, comp, cfg, seat, p, level)
        if s.phase == DOUBLE:
            s.double_left -= 1
            if s.double_left and s.held[seat] and legal_placements(s, comp, cfg, seat):
                return
            s.double_left, s.phase = 0, BUILD
    elif action in (A.DOUBLE_PAY, A.DOUBLE_FREE):
        if action == A.DOUBLE_PAY:
            s.held[seat] -= 1
            s.pool[seat] += 1
        else:
            spend_free(s, seat, FREE_DOUBLE)
        s.double_left, s.phase = 2, DOUBLE
        return
    elif action == A.PASS_FREE:
        spend_free(s, seat, FREE_PASS)
    else:  # PASS_PAY or FORCED_PASS
        s.held[seat] -= 1
        s.pool[seat] += 1
        if action == A.FORCED_PASS:
            s.gold[seat] += 1
    nxt = rules.next_seat(s, lambda t: s.held[t] > 0)
    if nxt < 0:
        rules.end_building(s, rng)
    else:
        s.turn = s.actor = nxt
