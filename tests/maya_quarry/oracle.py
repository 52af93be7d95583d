"""An independent legality oracle for Maya (Abacusspiele 2003), written from the rule text
(seed and rules file sections 5-6) without calling the engine's legality helpers."""

from __future__ import annotations

from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules import config as C
from maya_envs.maya_quarry.rules.state import Phase


def _cnt(s, p, lv, seat):
    return s.board[(p * 4 + lv) * s.num_players + seat]


def _tot(s, p, lv):
    return sum(_cnt(s, p, lv, x) for x in range(s.num_players))


def _buildable(rules, s, seat, p, lv) -> bool:
    pyramids = rules.components.pyramids
    levels = pyramids[p].levels
    if lv >= len(levels) or _tot(s, p, lv) >= levels[lv][0]:
        return False
    for below in range(lv):
        if _cnt(s, p, below, seat) == 0:  # rule (b)
            return False
        for q, other in enumerate(pyramids):  # rule (a), "current" reading, shorter = full
            if below < len(other.levels) and _tot(s, q, below) < other.levels[below][0]:
                return False
    return True


def _places(rules, s, seat):
    return [
        A.place_id(p, lv)
        for p in range(len(rules.components.pyramids))
        for lv in range(4)
        if _buildable(rules, s, seat, p, lv)
    ]


def oracle_legal(rules, s) -> set[int]:
    """Legal ids under the default options (``minus3_no_target``, ``relocate="forbid"``)."""
    seat, n, comp = s.actor, s.num_players, rules.components
    phase = s.phase
    if phase == Phase.SETUP:
        return {
            A.place_id(p, 0)
            for p, pyr in enumerate(comp.pyramids)
            if _cnt(s, p, 0, seat) == 0 and _tot(s, p, 0) < pyr.levels[0][0]
        }
    if phase == Phase.WORKERS:
        out = {A.WORKER_PASS}
        hand = s.hands[seat * 7 : seat * 7 + 7]
        for q, quarry in enumerate(comp.quarries):
            col = s.columns[q]
            for t in range(7):
                if hand[t] > 0 and len(col) < quarry.max_cards and (col or A.CARD_VALUES[t] in (3, 4, 5)):
                    out.add(A.worker_id(q, t))
        return out
    if phase == Phase.MINUS3:
        q = s.resolving
        present = {o for o, _ in s.columns[q]}
        if s.plus2_q == q:  # DECISION: the +2 points make their holder present there
            present.add(s.plus2_seat)
        out = {A.MINUS3_NONE}
        for target in present - {seat}:
            protected = (s.protect_q, s.protect_seat) == (q, target) or (s.joker_protect_q, s.joker_seat) == (q, target)
            if not protected:
                out.add(A.MINUS3_BASE + (target - seat) % n - 1)
        return out
    if phase == Phase.PROTECT_CHOICE:  # green marker, or the joker before any reveal (all quarries)
        return {A.PROTECT_BASE + q for q in range(len(comp.quarries)) if q < s.resolving and s.columns[q]}
    if phase == Phase.BID:
        return {A.BID_BASE + b for b in range(31) if b <= s.gold[seat]}
    if phase == Phase.BLUE_CHOICE:
        return {A.BLUE_CHOOSE_BASE + m for m in s.blue_offer if s.blue_holder[m] == -1}
    if phase == Phase.PLUS2_CHOICE:
        return {A.PLUS2_DECLINE} | {A.PLUS2_BASE + q for q, col in enumerate(s.columns) if col}
    if phase == Phase.JOKER_CHOICE:
        out = {A.JOKER_DECLINE, A.JOKER_BASE + 3, A.JOKER_BASE + 4, A.JOKER_BASE + 5}  # transport, passes
        if any(s.columns):
            out.add(A.JOKER_BASE + 0)
        probe = s.clone()
        probe.phase = Phase.RELOCATE_SRC
        if oracle_legal(rules, probe) - {A.RELOCATE_DECLINE}:
            out.add(A.JOKER_BASE + 1)
        probe.phase = Phase.FREE_BLOCK_CHOICE
        if s.pool[seat] > 0 and oracle_legal(rules, probe) - {A.FREE_BLOCK_DECLINE}:
            out.add(A.JOKER_BASE + 2)
        return out
    if phase == Phase.APPOINT:
        return {A.APPOINT_BASE + k for k in range(n)}
    if phase == Phase.FREE_BLOCK_CHOICE:
        out = {A.FREE_BLOCK_DECLINE}
        for p, pyr in enumerate(comp.pyramids):
            free = [lv for lv in range(len(pyr.levels)) if _tot(s, p, lv) < pyr.levels[lv][0]]
            if free and _buildable(rules, s, seat, p, free[0]):
                out.add(A.FREE_BLOCK_BASE + p)
        return out
    if phase in (Phase.RELOCATE_SRC, Phase.RELOCATE_DST):
        sources = {}
        for p, pyr in enumerate(comp.pyramids):
            for lv in range(len(pyr.levels)):
                c = _cnt(s, p, lv, seat)
                if c == 0:
                    continue
                above = any(_cnt(s, p, up, seat) for up in range(lv + 1, len(pyr.levels)))
                if c == 1 and above:
                    continue
                targets = {
                    A.RELOCATE_DST_BASE + t
                    for t, other in enumerate(comp.pyramids)
                    if _tot(s, t, 0) < other.levels[0][0] and not (lv == 0 and t == p)
                }
                if targets:
                    sources[A.relocate_src_id(p, lv)] = targets
        if phase == Phase.RELOCATE_SRC:
            return set(sources) | {A.RELOCATE_DECLINE}
        return sources[A.RELOCATE_SRC_BASE + s.reloc_src]
    if phase == Phase.DOUBLE:
        return set(_places(rules, s, seat))
    if phase == Phase.BUILD:
        places = set(_places(rules, s, seat))
        out = set(places)
        held = s.held[seat]
        if places:
            out.add(A.PASS_PAY)
            if held >= 3:
                out.add(A.DOUBLE_PAY)
            if held >= 2 and (s.holder[C.FREE_DOUBLE] == seat or (s.joker_seat, s.joker_as) == (seat, C.FREE_DOUBLE)):
                out.add(A.DOUBLE_FREE)
        else:
            out.add(A.FORCED_PASS)
        if s.holder[C.FREE_PASS] == seat or (s.joker_seat, s.joker_as) == (seat, C.FREE_PASS):
            out.add(A.PASS_FREE)
        return out
    return set()
