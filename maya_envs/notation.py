"""One per-seat action description for every game: the move as a given seat may see it.

Every text a seat reads about another seat's move (``maya-play``'s move log, ``maya-replay``'s
captions, the web page, adapters) comes from :func:`describe_action`, so a hidden choice never
reaches a seat through a log line. Each game has one function with the same signature in
``maya_envs.<game>.notation`` (beside its action table); this module finds it through the
game table's ``notation`` hook (:mod:`maya_envs.games`).

Examples (quarry game, ``player_0`` plays the worker card 3 face down on quarry 2)::

    describe_action(rules, state, action, actor=0, viewer=None)  # "worker q2 card 3"
    describe_action(rules, state, action, actor=0, viewer=0)     # "worker q2 card 3"
    describe_action(rules, state, action, actor=0, viewer=1)     # "worker q2 card ? (low back)"
"""

from __future__ import annotations

from typing import Any

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
        The game's notation (:meth:`Rules.action_to_string`) when ``viewer`` may see the whole
        move, else its public part with ``?`` for what is hidden (e.g. ``"pick tile ?"``).
        Without the actor's name: callers write ``f"player_{actor} {text}"``.

    Raises:
        ValueError: ``action`` is out of range, or ``actor`` / ``viewer`` is not a seat.
    """
    n = rules.spec.num_players
    for name, seat in (("actor", actor), ("viewer", viewer)):
        if seat is None and name == "viewer":
            continue
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"{name}={seat!r}; allowed: a seat 0..{n - 1}" + (" or None" if name == "viewer" else ""))
    return game_of_rules(rules).hook("notation")(rules, state, int(action), actor, viewer)
