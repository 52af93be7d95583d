"""The learner: fits the policy-value network to the replay buffer.

Loss per position: the cross-entropy of the network's policy over the legal actions against
the target policy (the search policy, or the teacher's in iteration 0), plus
``value_weight`` times the mean squared error of the value head against its target: every
seat's final value (:func:`maya_envs.bots.search_common.terminal_values`), mixed with the
game's leaf estimate and the search's value by ``value_target_hook`` / ``value_target_q``
(:func:`training.exit.data.mixed_value_targets`). Rows carrying loss weights
(``Positions.policy_weights`` / ``value_weights``) count by them (weighted means). A network
with the residual value head (:class:`maya_envs.nn.model.PolicyValueNet`, ``residual=True``) gets
the same value loss a second time on that head's output ``combine(e, r)``, ``e`` the rows'
recorded ``leaf_values`` estimate (``Positions.hooks``): its correction ``r`` learns target minus
estimate in the pre-tanh space (design D2). A network with the score-margin head
(``margin_head=True``) adds ``margin_weight`` times that head's mean squared error against each
seat's final score margin (:func:`training.exit.data.margin_targets`; rows without a recorded
margin count 0), trained through the shared trunk.

Held-out early stopping (:meth:`Learner.fit` with ``holdout``): the value loss on held-out
games is measured before training and at ``checks`` points of it; at the first point where it
is not below its best so far, training ends with the weights of the best point (``stop``
``all``), or only the value loss leaves the objective (``value``; the margin loss stays: it is
the auxiliary target meant to keep the trunk from memorising). The held-out margin loss is
measured and reported at the same points; it does not decide the stop. Design D3 of the
strong-agents study: the value head memorised its games while its error on fresh games rose.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import torch

from training.exit.config import HOLDOUT_STOPS
from training.exit.data import Positions, margin_targets, mixed_value_targets, value_targets
from training.exit.replay import Batch, ReplayBuffer, gather, minibatches


@dataclass
class EpochStats:
    """Means over one :meth:`Learner.train` call: ``policy_loss`` (cross-entropy, nats),
    ``value_loss`` (mean squared error), ``agreement`` (share of positions where the network's
    most probable action is the target's), ``rows_trained`` (positions seen, over all
    epochs), ``residual_value_loss`` (the residual head's mean squared error) and
    ``margin_loss`` (the score-margin head's; both ``None`` without that head)."""

    policy_loss: float
    value_loss: float
    agreement: float
    rows_trained: int
    holdout_value_losses: list[float] | None = None
    """With held-out rows: their value loss before training and at each check."""
    value_stopped_after: int | None = None
    """With held-out rows: the rows trained when the value loss left the objective (``None``:
    it improved at every check)."""
    residual_value_loss: float | None = None
    margin_loss: float | None = None
    holdout_margin_losses: list[float] | None = None
    """With held-out rows and the score-margin head: their margin loss at the same points."""


@dataclass
class Measured:
    """:meth:`Learner.measure_all` of some positions: the mean ``policy_loss`` and
    ``value_loss``, ``margin_loss`` (the score-margin head's mean squared error; ``None``
    without the head or without recorded margins) and ``errors``, the own-seat value error of
    each leaf value (:meth:`Learner.measure_values`)."""

    policy_loss: float
    value_loss: float
    margin_loss: float | None
    errors: dict[str, float]


class Learner:
    """Adam on the policy-value network ``net``.

    Args:
        net: a :class:`maya_envs.nn.model.PolicyValueNet`.
        learning_rate, weight_decay, value_weight: the optimiser and the loss mix.
        value_target_hook: the weight of the game's leaf estimate in the value target
            (:func:`training.exit.data.mixed_value_targets`; 0: the final result alone).
        value_target_q: the weight of the search's value in it (0: none).
        batch_size: positions per minibatch.
        margin_weight: the weight of the score-margin head's loss (a network with that head;
            0: it is measured, not trained).

    Raises:
        ValueError: ``margin_weight`` > 0 for a network without the score-margin head.
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
        margin_weight: float = 0.0,
    ) -> None:
        if margin_weight and not getattr(net, "has_margin", False):
            raise ValueError(f"margin_weight={margin_weight!r} for a network without the score-margin head")
        self.net = net
        self.margin_weight = margin_weight
        self.value_target_hook, self.value_target_q = value_target_hook, value_target_q
        self.optimizer = torch.optim.AdamW(net.parameters(), lr=learning_rate, weight_decay=weight_decay)
        self.value_weight = value_weight
        self.batch_size = batch_size
        self.last_residual_loss: torch.Tensor | None = None  # the latest loss() call's
        self.last_margin_loss: torch.Tensor | None = None  # the latest loss() call's (None: no head or no margins)

    def loss(
        self, batch: Batch, with_values: bool = False, value_weight: float | None = None
    ) -> tuple[torch.Tensor, ...]:
        """``(total, policy_loss, value_loss, agreement)`` of one batch (means over its rows,
        weighted by the rows' loss weights where the batch has them), and the value head's
        output ``(B, num_players)`` (seat-relative) and the residual head's (``None`` without
        it) with ``with_values``; ``value_weight`` replaces the learner's in ``total``. The
        residual head's value loss is in ``total`` (weighted like the value loss) and in
        :attr:`last_residual_loss`; the score-margin head's loss is in ``total`` (times
        ``margin_weight``) and in :attr:`last_margin_loss`.

        Raises:
            ValueError: a residual network and rows without the leaf estimate (``hooks``); a
                network with the score-margin head, ``margin_weight`` > 0 and rows without
                margins.
        """
        valid = torch.from_numpy(batch.valid)
        inputs = [torch.from_numpy(x) for x in (batch.board, batch.actions, batch.features)] + [valid]
        if getattr(self.net, "has_residual", False):
            if batch.hooks is None:
                raise ValueError("the residual value head needs rows with the leaf estimate (Positions.hooks)")
            inputs.append(torch.from_numpy(value_targets(batch.hooks, batch.seats).astype(np.float32)))
        with_margin = getattr(self.net, "has_margin", False)
        if with_margin and batch.margins is None and self.margin_weight:
            raise ValueError("the score-margin head needs rows with the final score margins (Positions.margins)")
        with_margin = with_margin and batch.margins is not None
        if with_margin:
            logits, values, *rest = self.net(*inputs, margins=True)
            margins, rest = rest[-1], rest[:-1]
        else:
            logits, values, *rest = self.net(*inputs)
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
        residual_values = rest[0] if rest else None
        self.last_residual_loss = None
        if residual_values is not None:
            residual_loss = _weighted_mean(((residual_values - wanted) ** 2).mean(-1), batch.value_weights)
            if weight != 0:
                total = total + weight * residual_loss
            self.last_residual_loss = residual_loss
        self.last_margin_loss = None
        if with_margin:
            margin_loss = _margin_loss(margins, margin_targets(batch.margins, batch.seats), batch.value_weights)
            if self.margin_weight:
                total = total + self.margin_weight * margin_loss
            self.last_margin_loss = margin_loss
        out = (total, policy_loss, value_loss, agreement)
        return (*out, values, residual_values) if with_values else out

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
        losses = best = margin_losses = None
        if holdout is not None and len(holdout) and batches:
            check_at = {int(round(k * len(batches) / checks)) for k in range(1, checks + 1)} - {0}
            first = self.measure_all(holdout)
            losses = [first.value_loss]
            margin_losses = None if first.margin_loss is None else [first.margin_loss]
            best = copy.deepcopy(self.net.state_dict()) if stop == "all" else None
        value_weight, stopped = self.value_weight, None
        self.net.train()
        sums = np.zeros(5)
        margin_rows = seen = 0  # margin_rows: the rows whose batch had margins (the margin mean's count)
        for step, rows in enumerate(batches, start=1):
            total, policy_loss, value_loss, agreement = self.loss(gather(data, rows), value_weight=value_weight)
            residual, margin = self.last_residual_loss, self.last_margin_loss
            self.optimizer.zero_grad()
            total.backward()
            self.optimizer.step()
            residual_item = 0.0 if residual is None else residual.item()
            margin_item = 0.0 if margin is None else margin.item()
            margin_rows += 0 if margin is None else len(rows)
            sums += len(rows) * np.array(
                [policy_loss.item(), value_loss.item(), agreement.item(), residual_item, margin_item]
            )
            seen += len(rows)
            if step in check_at and stopped is None:
                measured = self.measure_all(holdout)
                losses.append(measured.value_loss)
                if margin_losses is not None:
                    margin_losses.append(measured.margin_loss)
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
        residual_mean = float(means[3]) if getattr(self.net, "has_residual", False) else None
        margin_mean = float(sums[4] / margin_rows) if margin_rows else None
        return EpochStats(
            float(means[0]), float(means[1]), float(means[2]), seen, losses, stopped, residual_mean, margin_mean,
            margin_losses,
        )  # fmt: skip

    def measure(self, positions: Positions) -> tuple[float, float]:
        """``(policy_loss, value_loss)``: the mean losses on ``positions`` without learning from
        them. On an iteration's new games, before they enter the replay buffer, these are the
        losses on games the network has not fitted: a value loss far above the training one
        means the value head memorises its games (the trainer logs both)."""
        measured = self.measure_all(positions)
        return measured.policy_loss, measured.value_loss

    def measure_values(self, positions: Positions) -> tuple[float, float, dict[str, float]]:
        """:meth:`measure` and the own-seat value errors of :meth:`measure_all`."""
        measured = self.measure_all(positions)
        return measured.policy_loss, measured.value_loss, measured.errors

    def measure_all(self, positions: Positions) -> Measured:
        """The mean losses on ``positions`` (:meth:`measure`; and the score-margin head's) and
        the own-seat value error of each leaf value on them:
        ``{"net": ..., "hook": ..., "mix": ...}`` (and ``"residual"`` for a network with the
        residual head), the mean squared error against the acting seat's final value of the
        network's value, the game's ``leaf_values`` estimate (``positions.hooks``), their mix
        (:data:`maya_envs.bots.guided.MIX_WEIGHT`) and the residual head's value; the dict is
        empty when the rows hold no estimate. What ``exit.leaf_value: auto`` reads."""
        from maya_envs.bots.guided import MIX_WEIGHT

        self.net.eval()
        sums = np.zeros(3)
        margin_rows = 0
        own_net, own_hook, own_z, own_residual = [], [], [], []
        with torch.no_grad():
            for batch in minibatches(positions, np.arange(len(positions)), self.batch_size):
                _, policy_loss, value_loss, _, values, residual = self.loss(batch, with_values=True)
                margin = 0.0 if self.last_margin_loss is None else self.last_margin_loss.item()
                margin_rows += 0 if self.last_margin_loss is None else len(batch.seats)
                sums += len(batch.seats) * np.array([policy_loss.item(), value_loss.item(), margin])
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
        margin_loss = float(sums[2] / margin_rows) if margin_rows else None
        return Measured(float(means[0]), float(means[1]), margin_loss, errors)


def _weighted_mean(rows: torch.Tensor, weights: np.ndarray | None) -> torch.Tensor:
    """The mean of per-row losses, weighted by ``weights`` (``None``: the plain mean; all 0: 0)."""
    if weights is None:
        return rows.mean()
    w = torch.from_numpy(np.asarray(weights, np.float32))
    return (w * rows).sum() / w.sum().clamp_min(1e-12)


def _margin_loss(predicted: torch.Tensor, wanted: np.ndarray, weights: np.ndarray | None) -> torch.Tensor:
    """The score-margin head's mean squared error (the mean over seats per row), weighted by the
    rows' value weights (``None``: 1) over the rows with a recorded margin (rows of ``NaN``
    targets, recorded before margins were, count 0; none: 0)."""
    known = ~np.isnan(wanted).any(-1)
    weights = known.astype(np.float32) * (1.0 if weights is None else np.asarray(weights, np.float32))
    rows = ((predicted - torch.from_numpy(np.nan_to_num(wanted))) ** 2).mean(-1)
    return _weighted_mean(rows, weights)
