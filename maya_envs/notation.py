"""One per-seat action description for every game: the move as a given seat may see it.

Every text a seat reads about another seat's move (``maya-play``'s move log, ``maya-replay``'s
captions, the web page, adapters) comes from :func:`describe_action`, so a hidden choice never
reaches a seat through a log line. Each game has one function with the same signature in
``maya_envs.<game>.notation`` (beside its action table); this module finds it through the
game table's ``notation`` hook (:mod:`maya_envs.games`).

:func:`why_illegal` (in the same per-game modules) says why a well-formed move is not legal
now, from the rules, for ``maya-play``'s refusals; :func:`read_move` reads what a player typed
(a notation, the words of :func:`describe_action`, or a move the action table cannot hold,
such as an exchange of two towers that are not neighbours, with the rule that forbids it).

:func:`end_reason` is the one wording of why a game ended, from one table per game
(``END_TEXTS`` in each notation module, keyed by ``final_info()["end"]``) and
:data:`END_TEXTS` here for the ends the env makes (an illegal action): the terminal, the
replay, its GIF captions and the web page all read it.

Examples (quarry game, ``player_0`` plays the worker card 3 face down on quarry 2)::

    describe_action(rules, state, action, actor=0, viewer=None)  # "worker q2 (Transport +2) card 3"
    describe_action(rules, state, action, actor=0, viewer=0)     # "worker q2 (Transport +2) card 3"
    describe_action(rules, state, action, actor=0, viewer=1)     # "worker q2 (Transport +2) card ? (low back)"
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from maya_envs.core.checks import is_int
from maya_envs.core.protocol import Rules
from maya_envs.games import game_of_rules


def describe_action(rules: Rules, state: Any, action: int, actor: int, viewer: int | None = None) -> str:
    """The move ``action`` of seat ``actor`` in ``state`` (the state *before* the move) as
    seat ``viewer`` may see it when it is made.

    Args:
        rules: the game's rules object.
        state: the state in which ``actor`` takes ``action``.
        action: a legal action id of ``actor`` there.
        actor: the acting seat (``0 .. n-1``).
        viewer: the seat reading the text, or ``None`` for the full move (records, the end of
            a game, a spectator who sees everything). The actor itself always reads the full
            move.

    Returns:
        The move in a player's words: the game's notation (:meth:`Rules.action_to_string`)
        made plain where the table is terse (seats by name, markers by title, where the Monolith
        and Raven went), with ``?`` for what ``viewer`` may not see (e.g. ``"pick tile ?"``).
        Without the actor's name: callers write ``f"player_{actor} {text}"``.

    Raises:
        ValueError: ``action`` is out of range, or ``actor`` / ``viewer`` is not a seat.
    """
    n = rules.spec.num_players
    for name, seat in (("actor", actor), ("viewer", viewer)):
        if seat is None and name == "viewer":
            continue
        if not is_int(seat, numpy=False) or not 0 <= seat < n:
            raise ValueError(f"{name}={seat!r}; allowed: a seat 0..{n - 1}" + (" or None" if name == "viewer" else ""))
    return _game_module(rules).describe_action(rules, state, int(action), actor, viewer)


def why_illegal(rules: Rules, state: Any, action: int) -> str:
    """Why the current player may not take ``action`` in ``state``, from the rules (e.g.
    ``"t4 stands beside the Monolith (t1|t4): its towers cannot be exchanged"``); for a
    human who typed a well-formed move that is not legal now. ``""`` if ``action`` is legal.

    Raises:
        ValueError: ``action`` is out of range.
    """
    action = int(action)
    if not 0 <= action < rules.spec.num_actions:
        raise ValueError(f"action {action} is out of range: allowed ids are 0..{rules.spec.num_actions - 1}")
    if action in rules.legal_actions(state):
        return ""
    reason = _game_module(rules).why_illegal(rules, state, action)
    return reason or f"{rules.action_to_string(action)} is not legal in this position"


def read_move(rules: Rules, text: str) -> int | str | None:
    """What a player typed (spaces and case ignored): the action id whose notation it is
    (:meth:`Rules.action_to_string`; legal now or not), or a move the game's grammar reads
    (e.g. ``swap t1-t0 @L3``), or the rule's reason when the game's notation can write no such
    move (``swap t0-t2 @L3``: "t0 and t2 are not neighbours ..."), or ``None`` for text that is
    no move at all. Each game's ``read_move`` in its notation module reads its grammar."""
    wanted = _normal(text)
    for action in range(rules.spec.num_actions):
        if _normal(rules.action_to_string(action)) == wanted:
            return action
    return _game_module(rules).read_move(rules, wanted)


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


#: Ends that the env makes, not the rules (:mod:`maya_envs.aec_base`, :mod:`maya_envs.parallel_base`):
#: ``final_info()["end"]`` code -> text, formatted with the info (``offender``: who).
END_TEXTS = {"illegal_action": "{offender} chose an illegal action"}


def end_reason(rules: Rules, state: Any, info: Mapping[str, Any] | None = None) -> str:
    """Why the finished game in ``state`` ended, in the one wording every view uses (e.g.
    ``"6 turns were played (the max_turns limit)"``): the text of ``info["end"]`` from the
    game's ``END_TEXTS`` table or, for an env's end, :data:`END_TEXTS`.

    Args:
        info: the env's final info (it names an illegal action's offender); default
            ``rules.final_info(state)``.

    Raises:
        KeyError: ``info["end"]`` is no known end (``None``: the game has not ended).
    """
    info = dict(rules.final_info(state) if info is None else info)
    code = "illegal_action" if "illegal_action" in info else info.get("end")
    if code in END_TEXTS:
        offenders = info.get("offender") or ", ".join(info.get("offenders", ())) or "a player"
        return END_TEXTS[code].format(offender=offenders)
    texts = _game_module(rules).END_TEXTS
    if code not in texts:
        raise KeyError(f"end {code!r} has no text; known ends: {sorted(texts) + sorted(END_TEXTS)}")
    return texts[code].format_map(info)


def describe_end(rules: Rules, state: Any, info: Mapping[str, Any] | None = None) -> str:
    """Two lines for the end of a finished game: why it ended (:func:`end_reason`) and the
    scores with the winners, e.g. ``"the game ended: 60 turns were played (the max_turns
    limit)"`` / ``"victory points: player_0 14, player_1 9; winner: player_0"``."""
    reason, scores = end_reason(rules, state, info), final_scores(rules, state)
    winners = rules.final_info(state).get("winners")
    if winners is None and "winner" in rules.final_info(state):
        winner = rules.final_info(state)["winner"]
        winners = [] if winner is None or winner < 0 else [winner]
    who = ", ".join(f"player_{s}" for s in winners or [])
    result = f"; winner{'s' if len(winners) > 1 else ''}: {who}" if who else "; no winner"
    return f"the game ended: {reason}\n{scores}{result}"


def final_scores(rules: Rules, state: Any) -> str:
    """The scores of a finished game, e.g. ``"gold: player_0 31, player_1 24, player_2 18"``
    (the game's ``final_scores``)."""
    return _game_module(rules).final_scores(rules, state)


def _game_module(rules: Rules):
    """The game's notation module: the module of its ``notation`` hook (:mod:`maya_envs.games`)."""
    return importlib.import_module(game_of_rules(rules).hooks["notation"].partition(":")[0])
