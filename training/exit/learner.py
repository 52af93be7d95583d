"""The learner: fits the policy-value network to the replay buffer.

Loss per position: the cross-entropy of the network's policy over the legal actions against
the target policy (the search policy, or the teacher's in iteration 0), plus
``value_weight`` times the mean squared error of the value head against its target: every
seat's final value (:func:`maya_envs.bots.search_common.terminal_values`), mixed with the
game's leaf estimate and the search's value by ``value_target_hook`` / ``value_target_q``
(:func:`training.exit.data.mixed_value_targets`). Rows carrying loss weights
(``Positions.policy_weights`` / ``value_weights``) count by them (weighted means).

Held-out early stopping (:meth:`Learner.fit` with ``holdout``): the value loss on held-out
games is measured before training and at ``checks`` points of it; at the first point where it
is not below its best so far, training ends with the weights of the best point (``stop``
``all``), or only the value loss leaves the objective (``value``). Design D3 of the
strong-agents study: the value head memorised its games while its error on fresh games rose.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import torch

from training.exit.config import HOLDOUT_STOPS
from training.exit.data import Positions, mixed_value_targets, value_targets  # noqa: F401 (value_targets: API)
from training.exit.replay import Batch, ReplayBuffer, gather, minibatches


@dataclass
class EpochStats:
    """Means over one :meth:`Learner.train` call: ``policy_loss`` (cross-entropy, nats),
    ``value_loss`` (mean squared error), ``agreement`` (share of positions where the network's
    most probable action is the target's) and ``rows_trained`` (positions seen, over all
    epochs)."""

    policy_loss: float
    value_loss: float
    agreement: float
    rows_trained: int
    holdout_value_losses: list[float] | None = None
    """With held-out rows: their value loss before training and at each check."""
    value_stopped_after: int | None = None
    """With held-out rows: the rows trained when the value loss left the objective (``None``:
    it improved at every check)."""


class Learner:
    """Adam on the policy-value network ``net``.

    Args:
        net: a :class:`maya_envs.nn.model.PolicyValueNet`.
        learning_rate, weight_decay, value_weight: the optimiser and the loss mix.
        value_target_hook: the weight of the game's leaf estimate in the value target
            (:func:`training.exit.data.mixed_value_targets`; 0: the final result alone).
        value_target_q: the weight of the search's value in it (0: none).
        batch_size: positions per minibatch.
    """

    def __init__(
        self,
        net: torch.nn.Module,
        learning_rate: float,
        weight_decay: float,
        value_weight: float,
        batch_size: int,
        value_target_hook: float = 0.0,
        value_target_q: float = 0.0,
    ) -> None:
        self.net = net
        self.value_target_hook, self.value_target_q = value_target_hook, value_target_q
        self.optimizer = torch.optim.AdamW(net.parameters(), lr=learning_rate, weight_decay=weight_decay)
        self.value_weight = value_weight
        self.batch_size = batch_size

    def loss(
        self, batch: Batch, with_values: bool = False, value_weight: float | None = None
    ) -> tuple[torch.Tensor, ...]:
        """``(total, policy_loss, value_loss, agreement)`` of one batch (means over its rows,
        weighted by the rows' loss weights where the batch has them), and the value head's
        output ``(B, num_players)`` (seat-relative) with ``with_values``; ``value_weight``
        replaces the learner's in ``total``."""
        valid = torch.from_numpy(batch.valid)
        logits, values = self.net(
            torch.from_numpy(batch.board),
            torch.from_numpy(batch.actions),
            torch.from_numpy(batch.features),
            valid,
        )
        log_p = torch.log_softmax(logits, dim=-1).masked_fill(~valid, 0.0)
        target = torch.from_numpy(batch.policy)
        wanted = torch.from_numpy(
            mixed_value_targets(
                batch.values, batch.seats, batch.hooks, self.value_target_hook, batch.root_values, self.value_target_q
            )
        )
        policy_rows = -(target * log_p).sum(-1)
        value_rows = ((values - wanted) ** 2).mean(-1)
        policy_loss = _weighted_mean(policy_rows, batch.policy_weights)
        value_loss = _weighted_mean(value_rows, batch.value_weights)
        agreement = _weighted_mean((logits.argmax(-1) == target.argmax(-1)).float(), batch.policy_weights)
        weight = self.value_weight if value_weight is None else value_weight
        # weight 0: the value loss leaves the graph, so the value head gets no gradient and Adam
        # (which skips parameters without one) neither moves it by momentum nor decays it
        total = policy_loss if weight == 0 else policy_loss + weight * value_loss
        out = (total, policy_loss, value_loss, agreement)
        return (*out, values) if with_values else out

    def train(
        self, buffer: ReplayBuffer, epochs: int, rng: np.random.Generator, holdout: Positions | None = None,
        checks: int = 4, stop: str = "all",
    ) -> EpochStats:  # fmt: skip
        """``epochs`` shuffled passes over ``buffer`` (:meth:`fit`); the mean losses of the passes."""
        return self.fit(buffer.positions, [buffer.draw(rng) for _ in range(epochs)], holdout, checks, stop)

    def fit(
        self,
        data: Positions,
        orders: list[np.ndarray],
        holdout: Positions | None = None,
        checks: int = 4,
        stop: str = "all",
    ) -> EpochStats:
        """Train on the rows ``orders`` of ``data`` (each an index array, one pass, cut into
        minibatches of ``batch_size``; the passes in turn); the mean losses of the rows trained.

        With ``holdout`` rows (games the call does not train on), their value loss is measured
        before training and after each of ``checks`` equal shares of the minibatches. At the
        first that is not below the best so far, ``stop`` ``"value"``: the value loss leaves the
        objective (``value_weight`` 0) for the rest of the call (the shared trunk keeps learning
        the policy); ``"all"``: training ends and the network goes back to its weights at the
        best measurement. Both are in the returned stats.

        Raises:
            ValueError: an unknown ``stop``.
        """
        if stop not in HOLDOUT_STOPS:
            raise ValueError(f"stop={stop!r}; allowed: {', '.join(HOLDOUT_STOPS)}")
        batches = [order[i : i + self.batch_size] for order in orders for i in range(0, len(order), self.batch_size)]
        check_at: set[int] = set()
        losses = best = None
        if holdout is not None and len(holdout) and batches:
            check_at = {int(round(k * len(batches) / checks)) for k in range(1, checks + 1)} - {0}
            losses = [self.measure(holdout)[1]]
            best = copy.deepcopy(self.net.state_dict()) if stop == "all" else None
        value_weight, stopped = self.value_weight, None
        self.net.train()
        sums = np.zeros(3)
        seen = 0
        for step, rows in enumerate(batches, start=1):
            total, policy_loss, value_loss, agreement = self.loss(gather(data, rows), value_weight=value_weight)
            self.optimizer.zero_grad()
            total.backward()
            self.optimizer.step()
            sums += len(rows) * np.array([policy_loss.item(), value_loss.item(), agreement.item()])
            seen += len(rows)
            if step in check_at and stopped is None:
                losses.append(self.measure(holdout)[1])
                self.net.train()
                if losses[-1] < min(losses[:-1]):
                    best = copy.deepcopy(self.net.state_dict()) if stop == "all" else None
                    continue
                stopped = seen
                if stop == "all":
                    self.net.load_state_dict(best)
                    break
                value_weight = 0.0
        self.net.eval()
        means = sums / max(seen, 1)
        return EpochStats(float(means[0]), float(means[1]), float(means[2]), seen, losses, stopped)

    def measure(self, positions: Positions) -> tuple[float, float]:
        """``(policy_loss, value_loss)``: the mean losses on ``positions`` without learning from
        them. On an iteration's new games, before they enter the replay buffer, these are the
        losses on games the network has not fitted: a value loss far above the training one
        means the value head memorises its games (the trainer logs both)."""
        policy_loss, value_loss, _ = self.measure_values(positions)
        return policy_loss, value_loss

    def measure_values(self, positions: Positions) -> tuple[float, float, dict[str, float]]:
        """:meth:`measure` and the own-seat value error of each leaf value on ``positions``:
        ``{"net": ..., "hook": ..., "mix": ...}``, the mean squared error against the acting
        seat's final value of the network's value, the game's ``leaf_values`` estimate
        (``positions.hooks``) and their mix (:data:`maya_envs.bots.guided.MIX_WEIGHT`); the
        dict is empty when the rows hold no estimate. What ``exit.leaf_value: auto`` reads."""
        from maya_envs.bots.guided import MIX_WEIGHT

        self.net.eval()
        sums = np.zeros(2)
        own_net, own_hook, own_z = [], [], []
        with torch.no_grad():
            for batch in minibatches(positions, np.arange(len(positions)), self.batch_size):
                _, policy_loss, value_loss, _, values = self.loss(batch, with_values=True)
                sums += len(batch.seats) * np.array([policy_loss.item(), value_loss.item()])
                rows = np.arange(len(batch.seats))
                own_net.append(values[:, 0].numpy())  # seat-relative: entry 0 is the acting seat
                own_z.append(batch.values[rows, batch.seats])
                if batch.hooks is not None:
                    own_hook.append(batch.hooks[rows, batch.seats])
        means = sums / max(len(positions), 1)
        errors: dict[str, float] = {}
        if own_z and len(own_hook) == len(own_z):
            z, net, hook = (np.concatenate(x).astype(np.float64) for x in (own_z, own_net, own_hook))
            mix = MIX_WEIGHT * net + (1 - MIX_WEIGHT) * hook
            errors = {name: float(np.mean((v - z) ** 2)) for name, v in (("net", net), ("hook", hook), ("mix", mix))}
        return float(means[0]), float(means[1]), errors


def _weighted_mean(rows: torch.Tensor, weights: np.ndarray | None) -> torch.Tensor:
    """The mean of per-row losses, weighted by ``weights`` (``None``: the plain mean; all 0: 0)."""
    if weights is None:
        return rows.mean()
    w = torch.from_numpy(np.asarray(weights, np.float32))
    return (w * rows).sum() / w.sum().clamp_min(1e-12)
