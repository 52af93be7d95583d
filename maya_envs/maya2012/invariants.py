"""What every state of Maya (2012) that the rules reach keeps true: the one check a loaded
state must pass (:func:`check_invariants`, called by
:func:`maya_envs.maya2012.serialize.from_dict` once each field has its type and range).

A state that passes can be played to the end: the seat to move has a legal action and every
value stays inside the observation's bounds. The invariants (``n`` seats):

* **Towers.** Every finished level is a permutation of the 9 colours, and no tower repeats a
  colour; during the draft the board is built level by level (a level only once the one below
  is complete) without a repeated colour on the level being built.
* **Pieces conserved** (2p): per seat, ladders placed + ladders left = ``ladders_per_player``
  and priests placed + priests left = ``priests_per_player``; a tower holds at most its
  ``ladder_spaces`` ladders; a priest stands only on a complete tower. With 3-4 players no
  ladders or priests are used.
* **Task cards** (3-4p, once dealt): the hands (sorted pairs) and the spare cards, with the
  centre tower's bottom card set aside, hold every colour exactly once.
* **Phase.** The draft (``setup="draft"`` only) comes before any exchange, with no Monolith or
  Raven, the placement of block ``k`` made by seat ``k mod n`` and a drawn block of the level
  being built that is not on it yet and fits it; the setup phases (2p) come before any exchange
  with Black to move and the pieces they place still off the board; with 3-4 players the
  Monolith is off the board before the first exchange and between the exchanged towers after it;
  ``declare`` follows an exchange after which the mover may declare; ``exchange`` has a legal
  exchange and ``turn < max_turns``; ``over`` has a real end (no legal exchange, a declaration,
  or the turn limit with ``at_max_turns="score"``); ``truncated`` has the turn limit with
  ``at_max_turns="truncate"`` and a legal exchange left. A declaration belongs to a seat that
  was allowed to declare.

Raises :class:`~maya_envs.core.errors.StateError` naming the first field that breaks one.

Pure: standard library only.
"""

from __future__ import annotations

from typing import Any

from maya_envs.core.errors import StateError
from maya_envs.maya2012 import state as S
from maya_envs.maya2012.state import Maya2012Config, Maya2012State


def check_invariants(state: Maya2012State, rules: Any) -> None:
    """Raise unless ``state`` keeps every invariant of the module docstring under ``rules``
    (a :class:`~maya_envs.maya2012.rules.Maya2012Rules`, or its :class:`Maya2012Config`: the
    check reads only the config).

    Raises:
        StateError: the first broken invariant; ``field`` names the state field.
    """
    config = rules if isinstance(rules, Maya2012Config) else rules.config
    _check_towers(state.towers, drafting=state.phase == S.DRAFT)
    _check_pieces(config, state)
    if state.tasks:
        _check_cards(state)
    _check_phase(state, config)


def _check_towers(towers: tuple[tuple[int, ...], ...], drafting: bool) -> None:
    full_levels = 5
    if drafting:
        filled = [sum(t[level] != S.EMPTY for t in towers) for level in range(5)]
        full_levels = next((level for level, count in enumerate(filled) if count < 9), None)
        if full_levels is None:
            raise StateError("towers", "phase draft needs a slot not built yet")
        if filled[full_levels + 1 :] != [0] * (4 - full_levels) or any(
            len({c for c in t if c != S.EMPTY}) != 5 - t.count(S.EMPTY) for t in towers
        ):
            raise StateError("towers", "a drafted board is built level by level, without a repeated colour in a tower")
        placed = [t[full_levels] for t in towers if t[full_levels] != S.EMPTY]
        if len(set(placed)) != len(placed):
            raise StateError("towers", f"level {full_levels + 1} repeats a colour")
    for level in range(full_levels):
        if sorted(t[level] for t in towers) != list(range(9)):
            raise StateError("towers", f"level {level + 1} is not a permutation of the 9 colours")


def _check_pieces(config: Maya2012Config, state: Maya2012State) -> None:
    ladders, priests = state.ladders, state.priests
    if config.num_players > 2:
        if any(map(any, ladders)) or any(p != S.NO_PRIEST for p in priests) or any(
            state.ladders_left + state.priests_left
        ):
            raise StateError(
                "ladders", "with 3-4 players no ladders or priests are used: all counts must be 0 and priests null"
            )
        return
    for tower in range(9):
        used = ladders[0][tower] + ladders[1][tower]
        if used > config.ladder_spaces[tower]:
            raise StateError(
                "ladders", f"tower {tower} holds {used} ladders but has {config.ladder_spaces[tower]} spaces"
            )
    for tower, owner in enumerate(priests):
        if owner != S.NO_PRIEST and len(set(state.towers[tower])) != 1:
            raise StateError(
                "priests", f"a priest stands on tower {tower}, which is not complete: {list(state.towers[tower])}"
            )
    for seat in (0, 1):
        if sum(ladders[seat]) + state.ladders_left[seat] != config.ladders_per_player:
            raise StateError("ladders_left", f"seat {seat}: ladders placed + left != {config.ladders_per_player}")
        if priests.count(seat) + state.priests_left[seat] != config.priests_per_player:
            raise StateError("priests_left", f"seat {seat}: priests placed + left != {config.priests_per_player}")


def _check_cards(state: Maya2012State) -> None:
    tasks, spare = [list(t) for t in state.tasks], list(state.spare)
    cards = [c for t in tasks for c in t] + spare
    centre = state.towers[S.CENTRE][0]
    if sorted(cards + [centre]) != list(range(9)):
        raise StateError(
            "tasks", f"task cards {cards} with the centre card {centre} must hold every colour 0..8 exactly once"
        )
    if any(t != sorted(t) for t in tasks) or spare != sorted(spare):
        raise StateError("tasks", f"tasks={tasks!r}, spare={spare!r}; each hand must be sorted")


def _check_phase(state: Maya2012State, config: Maya2012Config) -> None:
    phase, n = state.phase, config.num_players
    placed = (state.monolith != S.NO_MONOLITH, state.raven != S.NO_RAVEN)
    if phase == S.DRAFT:
        if config.setup != "draft" or state.turn or state.monolith != S.NO_MONOLITH or state.raven != S.NO_RAVEN:
            raise StateError("phase", "phase draft needs setup='draft', no exchange yet and no Monolith or Raven")
        built = sum(5 - t.count(S.EMPTY) for t in state.towers)
        if state.to_move != built % n:
            raise StateError(
                "to_move", f"in the draft placement {built} is made by seat {built % n}, not {state.to_move}"
            )
        level = min(t.index(S.EMPTY) for t in state.towers if S.EMPTY in t)
        if state.draft_block in (t[level] for t in state.towers):
            raise StateError(
                "draft_block",
                f"draft_block={state.draft_block} is already placed on level {level + 1}, the level drawn from",
            )
        if not S.draft_towers(state.towers, state.draft_block):
            raise StateError("draft_block", f"draft_block={state.draft_block} cannot be placed on this level")
        return
    if n > 2:
        if phase in (S.SETUP_MONOLITH, S.SETUP_RAVEN) or placed[1]:
            raise StateError("phase", f"phase {S.PHASE_NAMES[phase]} does not exist with {n} players")
        if state.turn == 0 and placed[0]:
            raise StateError("monolith", "with 3-4 players the Monolith starts off the board")
        if state.turn and not placed[0]:
            raise StateError("monolith", "after an exchange the Monolith stands between the exchanged towers")
    else:
        expected_pieces = {S.SETUP_MONOLITH: (False, False), S.SETUP_RAVEN: (True, False)}.get(phase, (True, True))
        if phase == S.DECLARE:
            raise StateError("phase", "phase declare exists only with 3-4 players")
        if placed != expected_pieces:
            raise StateError("phase", f"phase {S.PHASE_NAMES[phase]} does not match Monolith/Raven placement {placed}")
        if phase in (S.SETUP_MONOLITH, S.SETUP_RAVEN) and (state.turn or state.to_move != 1):
            raise StateError("phase", "setup phases happen before any exchange, with Black (seat 1) to move")
    if phase == S.DECLARE:
        if state.turn == 0 or not S.declare_step_follows(config.declare_step, state.towers, state.tasks[state.to_move]):
            raise StateError(
                "phase", f"phase declare does not follow this exchange with declare_step={config.declare_step!r}"
            )
        return
    if state.declared != S.NO_SEAT and not S.may_declare(state.towers, state.tasks[state.declared]):
        raise StateError("declared", f"seat {state.declared} declared the end without being allowed to")
    has_move = bool(S.legal_exchanges(state.towers, state.monolith, state.raven))
    at_limit = state.turn >= config.max_turns
    if phase == S.EXCHANGE and (at_limit or not has_move):
        raise StateError("phase", "phase exchange needs a legal exchange and turn < max_turns")
    ended = state.declared != S.NO_SEAT or not has_move or (at_limit and config.at_max_turns == "score")
    if phase == S.OVER and not ended:
        raise StateError(
            "phase", "phase over needs no legal exchange, a declaration, or max_turns reached with at_max_turns='score'"
        )
    if phase == S.TRUNCATED and not (at_limit and has_move and config.at_max_turns == "truncate"):
        raise StateError(
            "phase",
            "phase truncated needs max_turns reached with at_max_turns='truncate' and a legal exchange left "
            "(a real end wins over the turn limit)",
        )
