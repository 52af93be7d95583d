"""Maya (quarry game): the move as a seat may see it (see :mod:`maya_envs.notation`).

Hidden parts of a move (rules file section 6, :mod:`maya_envs.maya_quarry.observation`):

* a worker card is played face down: the others see the quarry and the card's back (low for
  3, 4, 5; high for 6, 7, 8, -3), not its value: ``"worker q2 (Transport +2) card ? (low back)"``;
* a bid (advanced variant) is sealed: the others read ``"bid ?"``.

Everything else (passes, -3 targets, markers, placements, blue markers) is done in view of
everyone. Moves read in a player's words, not the action table's: seats by name (the table's
``-3 on +1`` and ``start player +0`` are relative to the mover: ``"-3 at q4 on player_2"``,
``"appoints player_0 (self) start player"``), markers by their title (:data:`MARKER_TITLES`,
:data:`BLUE_TITLES`: ``"takes blue marker Extra block"``, not ``BLUE_EXTRA_BLOCK``).
"""

from __future__ import annotations

import re
from typing import Any

from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules.building import is_full, open_level
from maya_envs.maya_quarry.rules.config import BLUE_PLUS_2, FREE_BLOCK, FREE_DOUBLE, FREE_PASS, PROTECT, RELOCATE
from maya_envs.maya_quarry.rules.quarry import is_protected
from maya_envs.maya_quarry.rules.state import BUILD, DOUBLE, PHASE_NAMES, SETUP, WORKERS

#: Titles of the seven green Special Property markers (rules file section 4), in the order of
#: :data:`maya_envs.maya_quarry.rules.config.MARKERS`: the words every text and picture shows.
MARKER_TITLES = (
    "Protect from -3",
    "Relocate to L1",
    "Free block",
    "First player",
    "Transport +2",
    "Free pass",
    "Free double move",
)
#: Titles of the four blue markers (advanced variant), in the order of ``BLUE_MARKERS``.
BLUE_TITLES = ("Transport +4", "Joker", "Extra block", "+2 quarry points")


def marker_title(marker: int) -> str:
    """The title of green marker ``marker`` (a ``rules.config`` id), ``"no marker"`` for -1."""
    return MARKER_TITLES[marker] if marker >= 0 else "no marker"


def describe_action(rules: Any, state: Any, action: int, actor: int, viewer: int | None) -> str:
    """``action`` of ``actor`` in ``state`` in a player's words (seats by name, markers by
    title), with ``?`` for what ``viewer`` may not see: another seat's face-down card (its back
    only: ``"worker q2 card ? (low back)"``) and sealed bid (``"bid ?"``)."""
    move = A.decode(action, rules.spec.num_actions)
    hidden = viewer is not None and viewer != actor
    n = rules.num_players
    kind = move.kind
    if kind == "worker":
        card = f"? ({'low' if A.CARD_IS_LOW[move.b] else 'high'} back)" if hidden else A.card_label(move.b)
        return f"worker {_quarry(rules, move.a)} card {card}"
    if kind == "bid":
        return "bid ?" if hidden else f"bid {move.a}"
    if kind == "minus3":
        return f"-3 at q{state.resolving} on player_{(actor + move.a) % n}"
    if kind == "minus3_none":
        return f"-3 at q{state.resolving} on nobody"
    if kind == "appoint":
        seat = (actor + move.a) % n
        return f"appoints player_{seat}{' (self)' if seat == actor else ''} start player"
    if kind == "protect":
        return f"{MARKER_TITLES[PROTECT]} on {_quarry(rules, move.a)}"
    if kind == "relocate_decline":
        return f"keeps {MARKER_TITLES[RELOCATE]} unused"
    if kind == "free_block":
        return f"{MARKER_TITLES[FREE_BLOCK]} to {rules.pyramid_names[move.a]}"
    if kind == "free_block_decline":
        return f"keeps {MARKER_TITLES[FREE_BLOCK]} unused"
    if kind == "blue_choose":
        return f"takes blue marker {BLUE_TITLES[move.a]}"
    if kind == "plus2":
        return f"{BLUE_TITLES[BLUE_PLUS_2]} at {_quarry(rules, move.a)}"
    if kind == "plus2_decline":
        return f"keeps {BLUE_TITLES[BLUE_PLUS_2]} unused"
    if kind == "joker":
        return f"Joker as {MARKER_TITLES[A.JOKER_GREEN[move.a]]}"
    if kind == "joker_decline":
        return "keeps Joker unused"
    if kind in ("double_free", "pass_free"):
        title = MARKER_TITLES[FREE_DOUBLE] if kind == "double_free" else MARKER_TITLES[FREE_PASS]
        return f"{'double move' if kind == 'double_free' else 'pass'} ({title})"
    return rules.action_to_string(action)


def _quarry(rules: Any, quarry: int) -> str:
    """``"q2 (Transport +2)"``: a quarry with the title of the marker printed on it."""
    marker = rules.components.quarries[quarry].marker if quarry < len(rules.components.quarries) else -1
    return f"q{quarry} ({MARKER_TITLES[marker]})" if marker >= 0 else f"q{quarry}"


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
    return _why_not_choice(rules, state, move)


def _why_not_choice(rules: Any, state: Any, move: A.Move) -> str | None:
    """The reason for a choice of the right kind now but not legal (rules file sections 5-6
    and the advanced variant): a seat offset beyond the players, a -3 target without a score
    there or protected, a revealed or empty quarry, a bid above the gold, a blue marker not on
    offer, a joker option that cannot take effect."""
    n, seat = rules.num_players, rules.current_player(state)
    if move.kind in ("minus3", "appoint") and move.a >= n:
        return f"there is no seat +{move.a} in a {n}-player game (offsets 0..{n - 1} from you)"
    if move.kind == "minus3":
        target, where = (seat + move.a) % n, state.resolving
        if is_protected(state, where, target):
            return f"player_{target} is protected from -3 at q{where}"
        return f"player_{target} has no score at q{where}: a -3 takes points from a player who scores there"
    if move.kind in ("protect", "plus2"):
        quarries = rules.components.quarries
        if move.a >= len(quarries):
            return f"there is no quarry q{move.a} in this game (q0..q{len(quarries) - 1})"
        if move.kind == "protect" and move.a >= state.resolving:
            return f"q{move.a} is already revealed: protection goes on a quarry still face down"
        return f"q{move.a} holds no cards"
    if move.kind in ("relocate_src", "relocate_dst", "free_block"):
        return _why_not_block_marker(rules, state, move, seat)
    if move.kind == "bid":
        return f"a bid of {move.a} is more than your {state.gold[seat]} gold"
    if move.kind == "blue_choose":
        if move.a not in state.blue_offer:
            return f"{BLUE_TITLES[move.a]} is not on offer this round"
        return f"{BLUE_TITLES[move.a]} is taken by player_{state.blue_holder[move.a]}"
    if move.kind == "joker":
        return f"the Joker as {MARKER_TITLES[A.JOKER_GREEN[move.a]]} could not take effect now"
    return None


def _why_not_block_marker(rules: Any, state: Any, move: A.Move, seat: int) -> str | None:
    """The reason for a relocation source or target, or a free block's pyramid, that is not
    legal (rules file section 6 and its DECISIONs: RELOCATE_TO_LEVEL1 moves one of your blocks to
    a level 1 with a free space, not a level-1 block back to its own pyramid, and under
    ``relocate_unsupported="forbid"`` not your last block under another of yours;
    FREE_BLOCK_FROM_POOL goes to the lowest level of the pyramid with a free space where you may
    build)."""
    comp = rules.components
    if move.a >= len(comp.pyramids):
        return f"there is no pyramid p{move.a} in this game (p0..p{len(comp.pyramids) - 1})"
    pyramid = comp.pyramids[move.a]
    if move.kind == "free_block":
        if state.pool[seat] == 0:
            return "you have no block in your pool"
        return f"{pyramid.name} has no level with a free space where you may build (rules a and b)"
    if move.kind == "relocate_dst":
        src_p, src_l = divmod(state.reloc_src, A.MAX_LEVELS)
        if src_l == 0 and move.a == src_p:
            return f"a level-1 block cannot be relocated to level 1 of its own pyramid ({pyramid.name})"
        return f"{pyramid.name} L1 is full"
    height = len(pyramid.levels)
    name = f"{pyramid.name} L{move.b + 1}"
    if move.b >= height:
        return f"there is no such level in this game ({name}: {pyramid.name} has L1..L{height})"
    count = state.count(move.a, move.b, seat)
    if count == 0:
        return f"you have no block in {name}"
    if count == 1 and rules.config.relocate_unsupported == "forbid":
        if any(state.count(move.a, above, seat) for above in range(move.b + 1, height)):
            return f"your block in {name} holds up a higher block of yours (relocate_unsupported='forbid')"
    return "no level 1 has a free space to take the block"


_WORKER = re.compile(r"worker q(\d+) card (-?\d+)")
_PLACE = re.compile(r"place (.+) l(\d+)")
_BID = re.compile(r"bid (\d+)")


def read_move(rules: Any, text: str) -> int | str | None:
    """What ``text`` (lower case, single spaces) names in the notation's grammar: an action
    id, or the rule that no action can be written so (rules file section 4: the quarries, the
    worker cards 3, 4, 5, 6, 7, 8 and -3, the pyramids and their levels; bids up to
    :data:`~maya_envs.maya_quarry.actions.MAX_BID`), or ``None`` when ``text`` is not in the
    grammar (the other moves are read by their notation alone)."""
    comp = rules.components
    found = _WORKER.fullmatch(text)
    if found:
        quarry, value = int(found[1]), int(found[2])
        if value not in A.CARD_VALUES:
            return f"there is no worker card {value}: the cards are {', '.join(map(str, A.CARD_VALUES))}"
        if quarry >= A.MAX_QUARRIES:  # q4..q6 of a smaller table are ids: why_illegal explains them
            return f"there is no quarry q{quarry} in this game (q0..q{len(comp.quarries) - 1})"
        return A.worker_id(quarry, A.CARD_VALUES.index(value))
    found = _PLACE.fullmatch(text)
    if found:
        names = [name.lower() for name in rules.pyramid_names]
        if found[1] not in names:
            return f"there is no pyramid {found[1]!r}: the pyramids are {', '.join(rules.pyramid_names)}"
        pyramid, level = names.index(found[1]), int(found[2])
        if not 1 <= level <= A.MAX_LEVELS:
            return f"{rules.pyramid_names[pyramid]} has levels L1..L{len(comp.pyramids[pyramid].levels)}"
        return A.place_id(pyramid, level - 1)
    found = _BID.fullmatch(text)
    if found and int(found[1]) > A.MAX_BID:
        return f"bids go up to {A.MAX_BID}"
    return None


#: Why a game ended, by ``final_info()["end"]``: the one wording of
#: :func:`maya_envs.notation.end_reason` (the third round's scoring is the game's only end).
END_TEXTS = {"last_round": "the third round was scored"}


def final_scores(rules: Any, state: Any) -> str:
    """The gold of a finished game."""
    return "gold: " + ", ".join(f"player_{s} {g}" for s, g in enumerate(rules.final_info(state)["gold"]))


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
