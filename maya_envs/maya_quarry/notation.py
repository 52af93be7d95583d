"""Maya (quarry game): the move as a seat may see it (see :mod:`maya_envs.notation`).

Hidden parts of a move (rules file section 6, :mod:`maya_envs.maya_quarry.observation`):

* a worker card is played face down: the others see the quarry and the card's back (low for
  3, 4, 5; high for 6, 7, 8, -3), not its value: ``"worker q2 card ? (low back)"``;
* a bid (advanced variant) is sealed: the others read ``"bid ?"``.

Everything else (passes, -3 targets, markers, placements, blue markers) is done in view of
everyone and reads as its notation.
"""

from __future__ import annotations

from typing import Any

from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules.building import is_full, open_level
from maya_envs.maya_quarry.rules.state import BUILD, DOUBLE, PHASE_NAMES, SETUP, WORKERS


def describe_action(rules: Any, state: Any, action: int, actor: int, viewer: int | None) -> str:
    """The notation of ``action``, or its public part for a ``viewer`` other than ``actor``."""
    full = rules.action_to_string(action)
    if viewer is None or viewer == actor:
        return full
    move = A.decode(action, rules.spec.num_actions)
    if move.kind == "worker":
        back = "low" if A.CARD_IS_LOW[move.b] else "high"
        return f"worker q{move.a} card ? ({back} back)"
    if move.kind == "bid":
        return "bid ?"
    return full


def public_scores(rules: Any, state: Any) -> str:
    """Every seat's gold (public)."""
    return "gold: " + ", ".join(f"player_{s} {g}" for s, g in enumerate(state.gold))


def why_illegal(rules: Any, state: Any, action: int) -> str | None:
    """Why ``action`` is not legal in ``state`` (rules file section 6: cards held, quarry
    limits, the first card at a quarry low; section 7: building rules (a) and (b)), or ``None``
    to let the caller say it generally."""
    move = A.decode(action, rules.spec.num_actions)
    phase = PHASE_NAMES[state.phase]
    if move.kind == "worker":
        if state.phase != WORKERS:
            return f"no worker card now: this is the {phase} phase"
        quarries = rules.components.quarries
        if move.a >= len(quarries):
            return f"there is no quarry q{move.a} in this game (q0..q{len(quarries) - 1})"
        seat = rules.current_player(state)
        if not state.hand(seat)[move.b]:
            return f"you hold no card {A.card_label(move.b)}"
        column = state.columns[move.a]
        if len(column) >= quarries[move.a].max_cards:
            return f"q{move.a} is full ({quarries[move.a].max_cards} cards)"
        if not column and not A.CARD_IS_LOW[move.b]:
            return f"the first card at q{move.a} must be low (3, 4 or 5)"
        return None
    if move.kind == "place":
        return _why_not_place(rules, state, move.a, move.b)
    legal_kinds = sorted({A.decode(a, rules.spec.num_actions).kind for a in rules.legal_actions(state)})
    if move.kind not in legal_kinds:
        return f"no {move.kind.replace('_', ' ')} move now: this is the {phase} phase"
    return None


def describe_end(rules: Any, state: Any) -> tuple[str, str]:
    """(why the game ended, the gold) of a finished game."""
    info = rules.final_info(state)
    reason = "the game was cut by its time limit" if rules.is_truncated(state) else "the third round was scored"
    return reason, "gold: " + ", ".join(f"player_{s} {g}" for s, g in enumerate(info["gold"]))


def _why_not_place(rules: Any, state: Any, pyramid: int, level: int) -> str | None:
    phase = PHASE_NAMES[state.phase]
    if state.phase not in (SETUP, BUILD, DOUBLE):
        return f"no block placement now: this is the {phase} phase"
    comp = rules.components
    if pyramid >= len(comp.pyramids) or level >= len(comp.pyramids[pyramid].levels):
        return f"there is no such level in this game (p{pyramid} L{level + 1})"
    name = f"{comp.pyramids[pyramid].name} L{level + 1}"
    seat = rules.current_player(state)
    if is_full(state, comp, pyramid, level):
        return f"{name} is full"
    if state.phase == SETUP:
        if level:
            return "starting blocks go on level 1"
        return f"you already have a starting block in {comp.pyramids[pyramid].name}"
    top = open_level(state, comp, rules.config)
    if level > top:
        return f"level {level + 1} is not open: level {top + 1} of every pyramid must be full first (rule a)"
    missing = [below + 1 for below in range(level) if state.count(pyramid, below, seat) == 0]
    if missing:
        levels = ", ".join(f"L{m}" for m in missing)
        where = comp.pyramids[pyramid].name
        return f"you need a block of yours on every level below in {where} ({levels}: none, rule b)"
    return None
