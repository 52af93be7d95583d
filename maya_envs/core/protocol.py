"""The rules protocol every game implements (OpenSpiel/Pgx vocabulary).

A rules object is built from a validated game config and is immutable afterwards. States
are plain values: ``apply_action`` returns a new state and never changes its argument, so
bots, search and tests can branch from any state for free.

Seats are ints ``0 .. num_players-1``; envs map them to agents ``player_<seat>``. The rules
do not encode observations: each game's observer (:class:`maya_envs.core.layout.Observer`, in
``<game>/observation.py``) imports the rules, never the other way round.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

import numpy as np

from maya_envs.core.spec import GameSpec

State = TypeVar("State")


class Rules(Protocol[State]):
    """Pure rules of one game at one config.

    Every method is side-effect free except through the ``rng`` it is handed.
    """

    spec: GameSpec
    #: The :meth:`final_info` keys whose value is a seat, or ``None`` where no seat has it (a
    #: draw, a truncation, nobody declared); ``()`` when there are none. Gymnasium views, whose
    #: vector envs type each info key by its first value, write ``-1`` for that ``None``.
    final_info_seat_keys: tuple[str, ...]

    def initial_state(self, rng: np.random.Generator) -> State:
        """Return the state before the first decision, drawing the setup from ``rng``."""

    def current_player(self, state: State) -> int:
        """Seat that must decide next; ``-1`` once the game is over."""

    def legal_actions(self, state: State) -> list[int]:
        """Sorted legal action ids for the current player; empty once the game is over."""

    def legal_mask(self, state: State) -> np.ndarray:
        """``int8`` array of shape ``(spec.num_actions,)``, 1 exactly at ``legal_actions``."""

    def apply_action(self, state: State, action: int, rng: np.random.Generator) -> State:
        """Return the state after the current player takes ``action``.

        Raises:
            IllegalActionError: ``action`` is not in ``legal_actions(state)``.
        """

    def is_terminal(self, state: State) -> bool:
        """Whether the game has ended by its rules (or a rule-like house limit)."""

    def is_truncated(self, state: State) -> bool:
        """Whether the episode was cut by a time limit with no outcome (Gymnasium truncation)."""

    def returns(self, state: State) -> np.ndarray:
        """``float64`` array ``(num_players,)``: each seat's reward for the episode; zeros
        before the end and after a truncation."""

    def action_to_string(self, action: int) -> str:
        """Readable notation of an action id."""

    def final_info(self, state: State) -> dict[str, Any]:
        """JSON-able facts about a finished game (scores, tie-breaks) for every agent's
        ``info``; always ``"end"``, the name of the end that happened (a real end wins over a
        turn cap reached on the same step)."""

    def idle_seats(self) -> tuple[int, ...]:
        """Seats that never get a decision under this config (the single-agent view refuses
        such a learner seat at construction); usually ``()``."""

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seats sharing ``seat``'s result, ``seat`` included (``(seat,)`` without
        teams); the env gives an illegal action's penalty to all of them."""

    def state_to_dict(self, state: State) -> dict[str, Any]:
        """JSON-able dict of ``state`` headed ``{"schema": "<game>.state", "version": N}``
        (the game's ``serialize.to_dict``; see :mod:`maya_envs.core.state_dict`)."""

    def state_from_dict(self, data: Any) -> State:
        """The state a :meth:`state_to_dict` dict (this or an older version) holds, validated.

        Raises:
            StateError: the first bad field, named.
        """
