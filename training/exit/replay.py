"""The replay buffer: the recorded positions of the last K iterations, drawn in shuffled
minibatches padded to the batch's widest legal-action set (the network's batch layout,
:func:`maya_envs.nn.inputs.collate`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from training.exit.data import Positions


@dataclass
class Batch:
    """One minibatch: ``board float32 (B, D)``, ``actions int64 (B, Amax)``, ``features
    float32 (B, Amax, F)``, ``valid bool (B, Amax)``, ``policy float32 (B, Amax)`` (0 where
    not valid), ``values float32 (B, num_players)``, ``seats int64 (B,)`` and ``hooks float32
    (B, num_players)``, the game's leaf estimate of each row (absolute seat order; ``None``
    where the rows have none); ``root_values``, ``policy_weights``, ``value_weights`` and
    ``margins``: those fields of :class:`~training.exit.data.Positions` for the rows (``None``
    where absent)."""

    board: np.ndarray
    actions: np.ndarray
    features: np.ndarray
    valid: np.ndarray
    policy: np.ndarray
    values: np.ndarray
    seats: np.ndarray
    hooks: np.ndarray | None = None
    root_values: np.ndarray | None = None
    policy_weights: np.ndarray | None = None
    value_weights: np.ndarray | None = None
    margins: np.ndarray | None = None


class ReplayBuffer:
    """Positions of the ``iterations`` most recent :meth:`add` calls (one per iteration)."""

    def __init__(self, iterations: int) -> None:
        if iterations < 1:
            raise ValueError(f"iterations={iterations!r}; allowed: an int >= 1")
        self.chunks: deque[Positions] = deque(maxlen=iterations)

    def add(self, positions: Positions) -> None:
        """Add one iteration's positions (the oldest iteration leaves when full)."""
        self.chunks.append(positions)

    def extend(self, positions: Positions) -> None:
        """Add rows to the newest iteration's positions (its held-out games, after training)."""
        self.chunks[-1] = Positions.concat([self.chunks[-1], positions])

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        """One pass: every kept row once, shuffled (row indices into :attr:`positions`)."""
        return rng.permutation(len(self))

    def __len__(self) -> int:
        return sum(len(c) for c in self.chunks)

    @property
    def positions(self) -> Positions:
        """All kept positions as one :class:`Positions`: the one kept iteration's own, else the
        iterations joined afresh on each call (not kept here: a kept join held every row twice
        from one training to the next, checkpoint included)."""
        chunks = list(self.chunks)
        return chunks[0] if len(chunks) == 1 else Positions.concat(chunks)

    def batches(self, batch_size: int, rng: np.random.Generator) -> Iterator[Batch]:
        """One shuffled pass over every kept position in minibatches of ``batch_size`` (the
        last one smaller)."""
        data = self.positions
        yield from minibatches(data, rng.permutation(len(data)), batch_size)


def minibatches(data: Positions, order: np.ndarray, batch_size: int) -> Iterator[Batch]:
    """The rows of ``data`` in ``order`` as padded batches of ``batch_size`` (the last smaller)."""
    for start in range(0, len(order), batch_size):
        yield gather(data, order[start : start + batch_size])


def gather(data: Positions, rows: np.ndarray) -> Batch:
    """The rows ``rows`` of ``data`` as a padded :class:`Batch`."""
    starts = data.offsets[rows]
    lengths = data.offsets[rows + 1] - starts
    width = int(lengths.max())
    column = np.arange(width)
    valid = column[None, :] < lengths[:, None]
    index = np.where(valid, starts[:, None] + column[None, :], 0)
    return Batch(
        board=data.boards[rows].astype(np.float32),
        actions=np.where(valid, data.actions[index], 0),
        features=np.where(valid[..., None], data.features[index], 0).astype(np.float32),
        valid=valid,
        policy=np.where(valid, data.policies[index], 0).astype(np.float32),
        values=data.values[rows],
        seats=data.seats[rows],
        hooks=None if data.hooks is None else data.hooks[rows],
        root_values=None if data.root_values is None else data.root_values[rows],
        policy_weights=None if data.policy_weights is None else data.policy_weights[rows],
        value_weights=None if data.value_weights is None else data.value_weights[rows],
        margins=None if data.margins is None else data.margins[rows],
    )
