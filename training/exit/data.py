"""The trainer's data schema and targets: :class:`Positions` (the recorded decisions, the rows
the actors send, the replay buffer keeps and the learner reads), the recorder that writes them,
and the value head's targets (:func:`value_targets`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from maya_envs.bots.search_common import game_hook
from maya_envs.nn.inputs import to_seat_relative


@dataclass
class Positions:
    """Recorded decisions, one row per position (ragged over the legal actions).

    Attributes:
        boards: ``float16 (N, D)`` board inputs from the acting seat's observation.
        actions: ``int64`` legal action ids of all rows, concatenated.
        features: ``float16 (sum A, F)`` per-action features, concatenated like ``actions``.
        policies: ``float32 (sum A,)`` policy targets, concatenated like ``actions``.
        offsets: ``int64 (N + 1,)``: row ``i``'s actions are ``offsets[i]:offsets[i+1]``.
        seats: ``int64 (N,)`` the acting seat.
        values: ``float32 (N, num_players)`` every seat's final value
            (:func:`maya_envs.bots.search_common.terminal_values`), absolute seat order.
        hooks: ``float32 (N, num_players)`` the game's ``leaf_values`` estimate of the position,
            absolute seat order, in [-1, 1] (the leaf value ``hook`` of the search; what the
            trainer's ``leaf_value: auto`` compares the network's value with), or ``None``
            (rows saved before it was recorded).
    """

    boards: np.ndarray
    actions: np.ndarray
    features: np.ndarray
    policies: np.ndarray
    offsets: np.ndarray
    seats: np.ndarray
    values: np.ndarray
    hooks: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.seats)

    @staticmethod
    def concat(parts: Sequence[Positions]) -> Positions:
        """The rows of ``parts`` in order (an empty ``parts`` is an error)."""
        parts = [p for p in parts if len(p)] or list(parts[:1])
        starts = np.cumsum([0] + [len(p.actions) for p in parts[:-1]])
        offsets = np.concatenate(
            [parts[0].offsets[:1]] + [p.offsets[1:] + s for p, s in zip(parts, starts, strict=True)]
        )
        return Positions(
            boards=np.concatenate([p.boards for p in parts]),
            actions=np.concatenate([p.actions for p in parts]),
            features=np.concatenate([p.features for p in parts]),
            policies=np.concatenate([p.policies for p in parts]),
            offsets=offsets,
            seats=np.concatenate([p.seats for p in parts]),
            values=np.concatenate([p.values for p in parts]),
            hooks=None if any(p.hooks is None for p in parts) else np.concatenate([p.hooks for p in parts]),
        )


@dataclass
class Recorder:
    """Collects the rows of :func:`training.exit.play.play_games` until the games end."""

    inputs: Any
    num_players: int
    feature_dim: int
    board_dim: int
    rows: list[tuple] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.hook = game_hook(self.inputs.rules, "leaf_values")

    def add(self, game: int, state: Any, seat: int, target: np.ndarray) -> None:
        board, actions, features = self.inputs.encode(state, seat)
        hooked = self.hook(self.inputs.rules, state) if self.hook is not None else np.zeros(self.num_players)
        self.rows.append((game, board, np.asarray(actions, np.int64), features, target, seat, hooked))

    def positions(self, values_by_game: dict[int, np.ndarray]) -> Positions:
        rows = self.rows
        lengths = [len(r[2]) for r in rows]
        return Positions(
            boards=np.array([r[1] for r in rows], np.float16).reshape(len(rows), self.board_dim),
            actions=np.concatenate([r[2] for r in rows]) if rows else np.zeros(0, np.int64),
            features=(np.concatenate([r[3] for r in rows]) if rows else np.zeros((0, self.feature_dim))).astype(
                np.float16
            ),
            policies=np.concatenate([r[4] for r in rows]).astype(np.float32) if rows else np.zeros(0, np.float32),
            offsets=np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64),
            seats=np.array([r[5] for r in rows], np.int64),
            values=np.array([values_by_game[r[0]] for r in rows], np.float32).reshape(len(rows), self.num_players),
            hooks=np.array([r[6] for r in rows], np.float32).reshape(len(rows), self.num_players),
        )


def value_targets(values: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """The value head's target for positions seen by ``seats``: every seat's final value
    (``values (B, num_players)``, absolute seat order) turned seat-relative (entry ``k`` =
    seat ``(seat + k) % n``, :func:`maya_envs.nn.inputs.to_seat_relative`), as the head
    outputs them."""
    return np.stack([to_seat_relative(row, seat) for row, seat in zip(values, seats, strict=True)])


def mixed_value_targets(
    values: np.ndarray, seats: np.ndarray, hooks: np.ndarray | None, weight: float
) -> np.ndarray:
    """The value head's target ``(1 - weight) * z + weight * h``, seat-relative like
    :func:`value_targets`: ``z`` every seat's final value, ``h`` the game's ``leaf_values``
    estimate of the position (``hooks (B, num_players)``, absolute seat order; design D3 of the
    strong-agents study: a function of the position, not of the game's later chance, so
    memorising a game stops paying; (z + hook) / 2 moved the Maya (2012) 2p value error on fresh
    games from 0.74 to 0.71). ``weight`` 0 (or no ``hooks``) is :func:`value_targets`."""
    target = value_targets(values, seats)
    if weight == 0 or hooks is None:
        return target
    return ((1.0 - weight) * target + weight * value_targets(hooks, seats)).astype(np.float32)
