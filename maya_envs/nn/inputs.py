"""What the policy-value network sees of a state, as numpy arrays (no torch here).

For one decision of ``seat`` in ``state`` the network reads exactly two things:

* the **board**: the game's observer (the ``observer`` hook of :mod:`maya_envs.games`),
  ``Observer(rules).encode(state, seat)``, a ``float32`` vector of shape ``(D,)`` from ``seat``'s
  point of view holding only what ``seat`` may know;
* the **per-action features** of each legal action: the game's ``features`` hook,
  ``ActionFeatures(rules)(state, seat, actions)``, ``float32 (A, F)``, also computed only
  from what ``seat`` may see. A game whose ``features`` hook is still ``None`` gets
  :class:`ConstantFeatures` (one column of ones, ``F = 1``): the network then scores actions
  from the board and its per-id bias alone.

Values are **seat-relative**: the network's value entry ``k`` is the value of seat
``(seat + k) % num_players`` for the observing ``seat`` (entry 0 = "me", then the next seats in
turn order), as the observation itself is written from the observer's point of view.
:func:`to_seat_relative` turns a per-seat value vector (absolute seat order, as
``rules.returns`` and :class:`~maya_envs.bots.guided.SearchResult` give it) into the network's
target for ``seat``; :func:`to_absolute` turns the network's output back (the evaluator does it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from maya_envs.games import game_of_rules

Encoded = tuple[np.ndarray, np.ndarray, np.ndarray]
"""``(board float32 (D,), actions int64 (A,), features float32 (A, F))`` of one decision."""


class ConstantFeatures:
    """The fallback per-action features of a game without a ``features`` hook: one feature,
    ``"constant"``, equal to 1 for every action (unit: none). The network's action score is then a
    function of the board only, plus the per-id bias of :class:`~maya_envs.nn.model.PolicyValueNet`."""

    names: tuple[str, ...] = ("constant",)

    def __init__(self, rules: Any = None) -> None:
        self.rules = rules

    def __call__(self, state: Any, seat: int, actions: Sequence[int]) -> np.ndarray:
        return np.ones((len(actions), 1), np.float32)


class NetworkInputs:
    """The network's inputs for one rules object (module docstring).

    Args:
        rules: the game's rules (any game of :data:`maya_envs.games.GAMES`).

    Attributes:
        rules, observer, features: the rules, the game's observer and its per-action features.
        game: the game's key (``"maya2012"``).
        board_dim: ``D``, the observation length.
        feature_names: the ``F`` feature names (``("constant",)`` without a ``features`` hook).
        feature_dim: ``F``.
        num_actions: the size of the game's action space (ids ``0 .. num_actions - 1``).
        num_players: the number of seats (and of value entries).

    Raises:
        ValueError: ``rules`` belong to no game of the table.
    """

    def __init__(self, rules: Any) -> None:
        game = game_of_rules(rules)
        self.rules = rules
        self.game = game.key
        self.observer = game.hook("observer")(rules)
        features = game.hook("features")
        self.features = features(rules) if features is not None else ConstantFeatures(rules)
        self.board_dim = int(self.observer.layout.size)
        self.feature_names = tuple(self.features.names)
        self.feature_dim = len(self.feature_names)
        self.num_actions = int(rules.spec.num_actions)
        self.num_players = int(rules.spec.num_players)

    def encode(self, state: Any, seat: int, actions: Sequence[int] | None = None) -> Encoded:
        """The inputs of ``seat``'s decision in ``state``.

        Args:
            actions: the action ids to score (default: ``rules.legal_actions(state)``, sorted).

        Returns:
            ``(board float32 (D,), actions int64 (A,), features float32 (A, F))``.

        Raises:
            ValueError: no action to score (the game is over, or ``seat`` is not to move).
        """
        if actions is None:
            actions = self.rules.legal_actions(state)
        if len(actions) == 0:
            raise ValueError("NetworkInputs.encode: no action to score (the game is over)")
        board = np.asarray(self.observer.encode(state, seat), np.float32)
        ids = np.asarray(actions, np.int64)
        features = np.asarray(self.features(state, seat, actions), np.float32).reshape(len(ids), self.feature_dim)
        return board, ids, features

    def meta(self, game_options: dict[str, Any] | None = None) -> dict[str, Any]:
        """The facts a saved network keeps about its inputs (:func:`maya_envs.nn.model.save_network`):
        game key, game options, num_players, num_actions, board_dim, feature_dim, feature names."""
        return {
            "game": self.game,
            "game_options": dict(game_options or {}),
            "num_players": self.num_players,
            "num_actions": self.num_actions,
            "board_dim": self.board_dim,
            "feature_dim": self.feature_dim,
            "feature_names": list(self.feature_names),
        }


def collate(items: Sequence[Encoded]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pad a list of :meth:`NetworkInputs.encode` results into one batch.

    Returns:
        ``board float32 (B, D)``, ``actions int64 (B, Amax)``, ``features float32 (B, Amax, F)``,
        ``valid bool (B, Amax)``; padding has action id 0, features 0 and ``valid`` False, and row
        ``i``'s first ``len(actions_i)`` entries are its actions in their given order.

    Raises:
        ValueError: an empty list.
    """
    if not items:
        raise ValueError("collate: an empty batch")
    lengths = [len(actions) for _, actions, _ in items]
    batch, amax = len(items), max(lengths)
    board = np.stack([b for b, _, _ in items]).astype(np.float32, copy=False)
    feature_dim = items[0][2].shape[1]
    actions = np.zeros((batch, amax), np.int64)
    features = np.zeros((batch, amax, feature_dim), np.float32)
    valid = np.zeros((batch, amax), bool)
    for i, ((_, ids, rows), length) in enumerate(zip(items, lengths, strict=True)):
        actions[i, :length] = ids
        features[i, :length] = rows
        valid[i, :length] = True
    return board, actions, features, valid


def to_seat_relative(values: Sequence[float] | np.ndarray, seat: int) -> np.ndarray:
    """Per-seat values in absolute seat order -> the network's order for observer ``seat``:
    entry ``k`` = ``values[(seat + k) % n]``. Accepts ``(n,)`` or ``(..., n)``."""
    values = np.asarray(values)
    return np.roll(values, -int(seat), axis=-1)


def to_absolute(values: Sequence[float] | np.ndarray, seat: int) -> np.ndarray:
    """The inverse of :func:`to_seat_relative`: the network's output for observer ``seat`` ->
    absolute seat order."""
    values = np.asarray(values)
    return np.roll(values, int(seat), axis=-1)


def to_absolute_rows(values: np.ndarray, seats: Sequence[int]) -> np.ndarray:
    """:func:`to_absolute` of each row: ``values (B, n)`` seat-relative, row ``i`` for observer
    ``seats[i]`` -> ``(B, n)`` in absolute seat order (one gather for the batch)."""
    values = np.asarray(values)
    n = values.shape[-1]
    order = (np.arange(n) - np.asarray(seats, np.intp)[:, None]) % n
    return values[np.arange(len(order))[:, None], order]
