"""The trainer's data schema and targets: :class:`Positions` (the recorded decisions, the rows
the actors send, the replay buffer keeps and the learner reads), the recorder that writes them,
and the targets of the value head (:func:`value_targets`, :func:`mixed_value_targets`) and of
the score-margin head (:func:`margin_targets`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
        root_values: ``float32 (N, num_players)`` the guided search's value of the chosen
            action at the position (:attr:`maya_envs.bots.guided.SearchResult.value`: each
            seat's mean backed-up value, absolute seat order, in [-1, 1]); ``NaN`` in the rows
            of a decision without a search (a teacher bot); ``None``: no row has one.
        games: ``int64 (N,)`` the game each row comes from (distinct per game within one
            :class:`Positions`; :meth:`concat` keeps them distinct), or ``None`` (rows saved
            before it was recorded).
        policy_weights, value_weights: ``float32 (N,)`` each row's weight in the policy and the
            value loss (``None``: 1 for every row). A cheap search of playout-cap randomisation
            (``exit.playout_cap``) records its row with policy weight 0.
        margins: ``float32 (N, num_players)`` every seat's final score margin
            (:func:`maya_envs.bots.search_common.terminal_margins`), absolute seat order, the
            score-margin head's target; ``NaN`` in rows recorded before it was (joined by
            :meth:`concat`); ``None``: no row has one.
    """

    boards: np.ndarray
    actions: np.ndarray
    features: np.ndarray
    policies: np.ndarray
    offsets: np.ndarray
    seats: np.ndarray
    values: np.ndarray
    hooks: np.ndarray | None = None
    root_values: np.ndarray | None = None
    games: np.ndarray | None = None
    policy_weights: np.ndarray | None = None
    value_weights: np.ndarray | None = None
    margins: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.seats)

    def select(self, rows: np.ndarray) -> Positions:
        """The rows ``rows`` (an ``int`` index array, in that order) as a new :class:`Positions`."""
        rows = np.asarray(rows, np.int64)
        starts = self.offsets[rows]
        lengths = self.offsets[rows + 1] - starts
        offsets = np.zeros(len(rows) + 1, np.int64)
        np.cumsum(lengths, out=offsets[1:])
        # the picked rows' action indices, row after row (row i's from its start, lengths[i] of them),
        # in whole-array numpy: a Python list of one arange per row took 3 s at 550k rows
        spans = np.repeat(starts - offsets[:-1], lengths) + np.arange(offsets[-1], dtype=np.int64)

        def pick(array: np.ndarray | None) -> np.ndarray | None:
            return None if array is None else array[rows]

        return Positions(
            boards=self.boards[rows],
            actions=self.actions[spans],
            features=self.features[spans],
            policies=self.policies[spans],
            offsets=offsets,
            seats=self.seats[rows],
            values=self.values[rows],
            hooks=pick(self.hooks),
            root_values=pick(self.root_values),
            games=pick(self.games),
            policy_weights=pick(self.policy_weights),
            value_weights=pick(self.value_weights),
            margins=pick(self.margins),
        )

    def forced(self) -> np.ndarray:
        """``bool (N,)``: the rows with one legal action (a forced move: its policy target is
        that action whatever the search, so it teaches the policy nothing; its value row repeats
        the game's result once more)."""
        return np.diff(self.offsets) == 1

    @staticmethod
    def concat(parts: Sequence[Positions]) -> Positions:
        """The rows of ``parts`` in order (an empty ``parts`` is an error)."""
        parts = [p for p in parts if len(p)] or list(parts[:1])
        starts = np.cumsum([0] + [len(p.actions) for p in parts[:-1]])
        offsets = np.concatenate(
            [parts[0].offsets[:1]] + [p.offsets[1:] + s for p, s in zip(parts, starts, strict=True)]
        )
        games = None
        if all(p.games is not None for p in parts):  # shifted so that every part's games stay apart
            shifts = np.cumsum([0] + [int(p.games.max()) + 1 if len(p) else 0 for p in parts[:-1]])
            games = np.concatenate([p.games + shift for p, shift in zip(parts, shifts, strict=True)]).astype(np.int64)

        def optional(name: str, fill: float) -> np.ndarray | None:
            arrays = [getattr(p, name) for p in parts]
            if all(a is None for a in arrays):
                return None
            shape = next(a for a in arrays if a is not None).shape[1:]
            return np.concatenate(
                [
                    a if a is not None else np.full((len(p), *shape), fill, np.float32)
                    for a, p in zip(arrays, parts, strict=True)
                ]
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
            root_values=optional("root_values", np.nan),
            games=games,
            policy_weights=optional("policy_weights", 1.0),
            value_weights=optional("value_weights", 1.0),
            margins=optional("margins", np.nan),
        )


class _Column:
    """A growing array of rows (``width``: the shape of one row): rows are written in place and
    its memory grows by ``realloc`` (:meth:`numpy.ndarray.resize`, which moves large blocks
    without copying them), so that the recorded rows cost about their final size."""

    def __init__(self, dtype: Any, width: tuple[int, ...] = ()) -> None:
        self.array = np.zeros((0, *width), dtype)
        self.size = 0

    def reserve(self, count: int) -> int:
        """Room for ``count`` more rows; the index of the first."""
        start, end = self.size, self.size + count
        if end > len(self.array):
            shape = (max(end, len(self.array) + len(self.array) // 4 + 64), *self.array.shape[1:])
            try:
                self.array.resize(shape, refcheck=True)
            except ValueError:  # something else holds the array (a Positions made of it): grow a copy
                grown = np.zeros(shape, self.array.dtype)
                grown[:start] = self.array[:start]
                self.array = grown
        self.size = end
        return start

    def put(self, values: Any) -> None:
        """Append the rows ``values`` (cast to the column's dtype)."""
        values = np.asarray(values)
        start = self.reserve(len(values))
        self.array[start : self.size] = values

    def append(self, value: Any) -> None:
        """Append one row."""
        row = self.reserve(1)  # first: the array may change
        self.array[row] = value

    def trimmed(self) -> np.ndarray:
        """The rows so far, as an array of their size (this column's own, shrunk in place)."""
        if len(self.array) != self.size:
            try:
                self.array.resize((self.size, *self.array.shape[1:]), refcheck=True)
            except ValueError:
                self.array = self.array[: self.size].copy()
        return self.array


@dataclass
class Recorder:
    """Collects the rows of :func:`training.exit.play.play_games` until the games end.

    Each row goes straight into growing arrays of the :class:`Positions` dtypes (``float16``
    boards and features), which :meth:`positions` hands out without a copy: 100 quarry 5p
    imitation games (97 MB of rows) peaked 118 MB above the start, where a tuple of small arrays
    per row joined at the end peaked 221 MB above it (and float32 rows before that, more)."""

    inputs: Any
    num_players: int
    feature_dim: int
    board_dim: int

    def __post_init__(self) -> None:
        self.hook = game_hook(self.inputs.rules, "leaf_values")
        n = self.num_players
        self.boards = _Column(np.float16, (self.board_dim,))
        self.actions, self.features = _Column(np.int64), _Column(np.float16, (self.feature_dim,))
        self.policies, self.lengths = _Column(np.float32), _Column(np.int64)
        self.games, self.seats = _Column(np.int64), _Column(np.int64)
        self.hooks, self.root_values = _Column(np.float32, (n,)), _Column(np.float32, (n,))
        self.policy_weights, self.value_weights = _Column(np.float32), _Column(np.float32)

    def __len__(self) -> int:
        return self.seats.size

    def add(
        self,
        game: int,
        state: Any,
        seat: int,
        target: np.ndarray,
        root_value: np.ndarray | None = None,
        policy_weight: float = 1.0,
        value_weight: float = 1.0,
    ) -> None:
        """Record one decision: ``target`` the policy target over the legal actions,
        ``root_value`` the search's value (``(num_players,)``, absolute seats; ``None``: no
        search) and the row's loss weights (:class:`Positions`)."""
        board, actions, features = self.inputs.encode(state, seat)
        hooked = self.hook(self.inputs.rules, state) if self.hook is not None else np.zeros(self.num_players)
        q = np.full(self.num_players, np.nan) if root_value is None else np.asarray(root_value, np.float64)
        actions = np.asarray(actions, np.int64)
        self.boards.append(board)
        self.actions.put(actions)
        self.features.put(features)
        self.policies.put(target)
        self.lengths.append(len(actions))
        self.games.append(game)
        self.seats.append(seat)
        self.hooks.append(hooked)
        self.root_values.append(q)
        self.policy_weights.append(policy_weight)
        self.value_weights.append(value_weight)

    def positions(
        self, values_by_game: dict[int, np.ndarray], margins_by_game: dict[int, np.ndarray] | None = None
    ) -> Positions:
        """The recorded rows with each game's final values (and score margins: ``None``, the
        game has none), both ``(num_players,)`` in absolute seat order. The arrays are the
        recorder's own (recording more rows afterwards does not change them)."""
        n, games = self.num_players, self.games.trimmed()
        ids, inverse = np.unique(games, return_inverse=True)

        def by_game(table: dict[int, np.ndarray]) -> np.ndarray:
            return np.array([table[g] for g in ids.tolist()], np.float32).reshape(len(ids), n)[inverse.reshape(-1)]

        offsets = np.zeros(len(self) + 1, np.int64)
        np.cumsum(self.lengths.trimmed(), out=offsets[1:])
        return Positions(
            boards=self.boards.trimmed(),
            actions=self.actions.trimmed(),
            features=self.features.trimmed(),
            policies=self.policies.trimmed(),
            offsets=offsets,
            seats=self.seats.trimmed(),
            values=by_game(values_by_game),
            hooks=self.hooks.trimmed(),
            root_values=self.root_values.trimmed(),
            games=games,
            policy_weights=self.policy_weights.trimmed(),
            value_weights=self.value_weights.trimmed(),
            margins=None if margins_by_game is None else by_game(margins_by_game),
        )


def value_targets(values: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """The value head's target for positions seen by ``seats``: every seat's final value
    (``values (B, num_players)``, absolute seat order) turned seat-relative (entry ``k`` =
    seat ``(seat + k) % n``, :func:`maya_envs.nn.inputs.to_seat_relative`), as the head
    outputs them."""
    return np.stack([to_seat_relative(row, seat) for row, seat in zip(values, seats, strict=True)])


def mixed_value_targets(
    values: np.ndarray,
    seats: np.ndarray,
    hooks: np.ndarray | None,
    weight: float,
    root_values: np.ndarray | None = None,
    q_weight: float = 0.0,
) -> np.ndarray:
    """The value head's target ``(1 - weight - q_weight) * z + weight * h + q_weight * q``,
    seat-relative like :func:`value_targets` (design D3 of the strong-agents study):

    * ``z`` every seat's final value (``values (B, num_players)``);
    * ``h`` the game's ``leaf_values`` estimate of the position (``hooks (B, num_players)``);
    * ``q`` the guided search's value of the chosen action (``root_values (B, num_players)``;
      where a row has none, ``NaN``, its ``h``, else its ``z``).

    All inputs in absolute seat order. ``h`` and ``q`` are functions of the position, not of the
    game's later chance, so memorising a game stops paying: (z + hook) / 2 moved the Maya (2012)
    2p value error on fresh games from 0.74 to 0.71; averaging ``z`` with the search value is
    the Connect Four recipe of the study's table. With both weights 0 (or no ``hooks`` and no
    ``root_values``) this is :func:`value_targets`.

    Raises:
        ValueError: a weight outside [0, 1] or weights summing past 1.
    """
    if not (0 <= weight <= 1 and 0 <= q_weight <= 1 and weight + q_weight <= 1 + 1e-9):
        raise ValueError(f"value target weights {weight!r} (hook) and {q_weight!r} (q); allowed: >= 0, sum <= 1")
    z = value_targets(values, seats)
    if hooks is None:
        weight = 0.0
    if root_values is None:
        q_weight = 0.0
    if weight == 0 and q_weight == 0:
        return z
    target = (1.0 - weight - q_weight) * z.astype(np.float64)
    if weight:
        target += weight * value_targets(hooks, seats)
    if q_weight:
        fallback = z if hooks is None else value_targets(hooks, seats)
        q = value_targets(root_values, seats).astype(np.float64)
        target += q_weight * np.where(np.isnan(q), fallback, q)
    return target.astype(np.float32)


def margin_targets(margins: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """The score-margin head's target for positions seen by ``seats``: every seat's final score
    margin (``margins (B, num_players)``, absolute seat order, the game's ``score_margins``:
    score lead over the per-game scale) turned seat-relative exactly as :func:`value_targets`
    turns the values (entry ``k`` = seat ``(seat + k) % n``), ``float32``; ``NaN`` rows (no
    margin recorded) stay ``NaN``."""
    return value_targets(margins, seats).astype(np.float32)
