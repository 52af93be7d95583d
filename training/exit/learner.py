"""The learner: fits the policy-value network to the replay buffer.

Loss per position: the cross-entropy of the network's policy over the legal actions against
the target policy (the search policy, or the teacher's in iteration 0), plus
``value_weight`` times the mean squared error of the value head against every seat's final
value (:func:`maya_envs.bots.search_common.terminal_values`). A network with the residual value
head (:class:`maya_envs.nn.model.PolicyValueNet`, ``residual=True``) gets the same value loss a
second time on that head's output ``combine(e, r)``, ``e`` the rows' recorded ``leaf_values``
estimate (``Positions.hooks``): its correction ``r`` learns target minus estimate in the
pre-tanh space (design D2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from training.exit.data import Positions, mixed_value_targets, value_targets
from training.exit.replay import Batch, ReplayBuffer, minibatches


@dataclass
class EpochStats:
    """Means over one :meth:`Learner.train` call: ``policy_loss`` (cross-entropy, nats),
    ``value_loss`` (mean squared error), ``agreement`` (share of positions where the network's
    most probable action is the target's), ``rows_trained`` (positions seen, over all
    epochs) and ``residual_value_loss`` (the residual head's mean squared error; ``None``
    without that head)."""

    policy_loss: float
    value_loss: float
    agreement: float
    rows_trained: int
    residual_value_loss: float | None = None


class Learner:
    """Adam on the policy-value network ``net``.

    Args:
        net: a :class:`maya_envs.nn.model.PolicyValueNet`.
        learning_rate, weight_decay, value_weight: the optimiser and the loss mix.
        value_target_hook: the weight of the game's leaf estimate in the value target
            (:func:`training.exit.data.mixed_value_targets`; 0: the final result alone).
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
    ) -> None:
        self.net = net
        self.value_target_hook = value_target_hook
        self.optimizer = torch.optim.AdamW(net.parameters(), lr=learning_rate, weight_decay=weight_decay)
        self.value_weight = value_weight
        self.batch_size = batch_size
        self.last_residual_loss: torch.Tensor | None = None  # the latest loss() call's

    def loss(self, batch: Batch, with_values: bool = False) -> tuple[torch.Tensor, ...]:
        """``(total, policy_loss, value_loss, agreement)`` of one batch (means over its rows),
        and with ``with_values`` the value head's output ``(B, num_players)`` (seat-relative)
        and the residual head's (``None`` without it). The residual head's value loss is in
        ``total`` (weighted like the value loss) and in :attr:`last_residual_loss`.

        Raises:
            ValueError: a residual network and rows without the leaf estimate (``hooks``).
        """
        valid = torch.from_numpy(batch.valid)
        inputs = [torch.from_numpy(x) for x in (batch.board, batch.actions, batch.features)] + [valid]
        residual = getattr(self.net, "has_residual", False)
        if residual:
            if batch.hooks is None:
                raise ValueError("the residual value head needs rows with the leaf estimate (Positions.hooks)")
            inputs.append(torch.from_numpy(value_targets(batch.hooks, batch.seats).astype(np.float32)))
        logits, values, *rest = self.net(*inputs)
        log_p = torch.log_softmax(logits, dim=-1).masked_fill(~valid, 0.0)
        target = torch.from_numpy(batch.policy)
        policy_loss = -(target * log_p).sum(-1).mean()
        wanted = torch.from_numpy(
            mixed_value_targets(batch.values, batch.seats, batch.hooks, self.value_target_hook)
        )
        value_loss = ((values - wanted) ** 2).mean()
        total = policy_loss + self.value_weight * value_loss
        residual_values = rest[0] if rest else None
        self.last_residual_loss = None
        if residual_values is not None:
            residual_loss = ((residual_values - wanted) ** 2).mean()
            total = total + self.value_weight * residual_loss
            self.last_residual_loss = residual_loss
        agreement = (logits.argmax(-1) == target.argmax(-1)).float().mean()
        out = (total, policy_loss, value_loss, agreement)
        return (*out, values, residual_values) if with_values else out

    def train(self, buffer: ReplayBuffer, epochs: int, rng: np.random.Generator) -> EpochStats:
        """``epochs`` shuffled passes over ``buffer``; the mean losses of the passes."""
        self.net.train()
        sums = np.zeros(4)
        seen = 0
        for _ in range(epochs):
            for batch in buffer.batches(self.batch_size, rng):
                total, policy_loss, value_loss, agreement = self.loss(batch)
                residual = self.last_residual_loss
                self.optimizer.zero_grad()
                total.backward()
                self.optimizer.step()
                rows = len(batch.seats)
                residual_item = 0.0 if residual is None else residual.item()
                sums += rows * np.array([policy_loss.item(), value_loss.item(), agreement.item(), residual_item])
                seen += rows
        self.net.eval()
        means = sums / max(seen, 1)
        residual_mean = float(means[3]) if getattr(self.net, "has_residual", False) else None
        return EpochStats(float(means[0]), float(means[1]), float(means[2]), seen, residual_mean)

    def measure(self, positions: Positions) -> tuple[float, float]:
        """``(policy_loss, value_loss)``: the mean losses on ``positions`` without learning from
        them. On an iteration's new games, before they enter the replay buffer, these are the
        losses on games the network has not fitted: a value loss far above the training one
        means the value head memorises its games (the trainer logs both)."""
        policy_loss, value_loss, _ = self.measure_values(positions)
        return policy_loss, value_loss

    def measure_values(self, positions: Positions) -> tuple[float, float, dict[str, float]]:
        """:meth:`measure` and the own-seat value error of each leaf value on ``positions``:
        ``{"net": ..., "hook": ..., "mix": ...}`` (and ``"residual"`` for a network with the
        residual head), the mean squared error against the acting seat's final value of the
        network's value, the game's ``leaf_values`` estimate (``positions.hooks``), their mix
        (:data:`maya_envs.bots.guided.MIX_WEIGHT`) and the residual head's value; the dict is
        empty when the rows hold no estimate. What ``exit.leaf_value: auto`` reads."""
        from maya_envs.bots.guided import MIX_WEIGHT

        self.net.eval()
        sums = np.zeros(2)
        own_net, own_hook, own_z, own_residual = [], [], [], []
        with torch.no_grad():
            for batch in minibatches(positions, np.arange(len(positions)), self.batch_size):
                _, policy_loss, value_loss, _, values, residual = self.loss(batch, with_values=True)
                sums += len(batch.seats) * np.array([policy_loss.item(), value_loss.item()])
                rows = np.arange(len(batch.seats))
                own_net.append(values[:, 0].numpy())  # seat-relative: entry 0 is the acting seat
                if residual is not None:
                    own_residual.append(residual[:, 0].numpy())
                own_z.append(batch.values[rows, batch.seats])
                if batch.hooks is not None:
                    own_hook.append(batch.hooks[rows, batch.seats])
        means = sums / max(len(positions), 1)
        errors: dict[str, float] = {}
        if own_z and len(own_hook) == len(own_z):
            z, net, hook = (np.concatenate(x).astype(np.float64) for x in (own_z, own_net, own_hook))
            mix = MIX_WEIGHT * net + (1 - MIX_WEIGHT) * hook
            errors = {name: float(np.mean((v - z) ** 2)) for name, v in (("net", net), ("hook", hook), ("mix", mix))}
            if own_residual:
                errors["residual"] = float(np.mean((np.concatenate(own_residual).astype(np.float64) - z) ** 2))
        return float(means[0]), float(means[1]), errors
