"""A frozen network's forward pass in numpy, for the search's small batches.

A guided search (:mod:`maya_envs.bots.guided`) asks its network about one position at a time
(the root, then one leaf per simulation); at that size torch's per-call cost (module dispatch,
tensor wrapping) is most of the time: Maya (2012) 2p's 256-wide network takes about 0.33 ms a
position through torch and about 0.11 ms through the same arithmetic in numpy on one CPU core
(whole decisions: ``benchmarks/bench_pretrained.py --torch``). :class:`FrozenNet` copies the
weights of a :class:`~maya_envs.nn.model.PolicyValueNet` once and computes what its ``forward``
computes (float32; equal to torch's output to float32 rounding, pinned by
``tests/test_frozen_net.py``). It is a snapshot: later changes to the torch network's weights (a
trainer's) do not reach it, so only networks that no longer learn use it: those read from a file
for play (:func:`maya_envs.nn.agent.make_network_bot`) and the trainer's match agents, built
from one iteration's weights (:mod:`training.exit.actors`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # the copy is made from a torch network, but computes with numpy alone
    from maya_envs.nn.model import PolicyValueNet


class FrozenNet:
    """``PolicyValueNet.forward`` (policy logits, value, residual value) in numpy, on a copy of
    the weights.

    Args:
        net: the network to copy (any device; its weights are read once, now).

    Attributes:
        config: the network's constructor arguments.
        has_residual: the network has the residual value head.
    """

    def __init__(self, net: PolicyValueNet) -> None:
        self.config = dict(net.config)
        self.has_residual = net.has_residual
        weights = {name: value.detach().cpu().float().numpy() for name, value in net.state_dict().items()}

        def layer(prefix: str) -> tuple[np.ndarray, np.ndarray | None]:
            # stored transposed and contiguous: x @ W.T without a strided copy per call
            bias = weights.get(f"{prefix}.bias")
            return np.ascontiguousarray(weights[f"{prefix}.weight"].T), None if bias is None else bias.copy()

        self._board = (layer("board.0"), layer("board.2"))
        self._action_board = layer("action_board")
        self._action_features = layer("action_features")[0]
        self._action_out = (layer("action_out.1"), layer("action_out.3"))
        self._id_bias = weights["bias.weight"][:, 0].copy() if "bias.weight" in weights else None
        self._value = (layer("value.0"), layer("value.2"))
        self._residual = (layer("residual.0"), layer("residual.2")) if self.has_residual else None

    def __call__(
        self,
        board: np.ndarray,
        actions: np.ndarray,
        features: np.ndarray,
        valid: np.ndarray,
        estimate: np.ndarray | None = None,
    ) -> tuple[np.ndarray, ...]:
        """What ``PolicyValueNet.forward(board, actions, features, valid[, estimate])`` returns,
        as float32 arrays: ``logits (B, A)`` (``-inf`` where not valid), ``values (B,
        num_values)`` in [-1, 1] and, with ``estimate`` (float ``(B, num_values)``,
        seat-relative, in [-1, 1]), the residual head's values ``(B, num_values)``.

        Args:
            board: float32 ``(B, D)``; actions: int64 ``(B, A)``; features: float32 ``(B, A, F)``;
                valid: bool ``(B, A)`` (:func:`maya_envs.nn.inputs.collate`).

        Raises:
            ValueError: ``estimate`` for a network without the residual head.
        """
        (w1, b1), (w2, b2) = self._board
        h = _relu(_relu(board @ w1 + b1) @ w2 + b2)
        (wa, ba) = self._action_board
        x = _relu((h @ wa + ba)[:, None, :] + features @ self._action_features)
        (wo1, bo1), (wo2, bo2) = self._action_out
        logits = (_relu(x @ wo1 + bo1) @ wo2)[..., 0] + bo2[0]
        if self._id_bias is not None:
            logits = logits + self._id_bias[actions]
        logits = np.where(valid, logits, np.float32(-np.inf)).astype(np.float32, copy=False)
        (wv1, bv1), (wv2, bv2) = self._value
        out: tuple[np.ndarray, ...] = (logits, np.tanh(_relu(h @ wv1 + bv1) @ wv2 + bv2))
        if estimate is not None:
            if self._residual is None:
                raise ValueError("an estimate was given, but this network has no residual value head (residual=False)")
            (wr1, br1), (wr2, br2) = self._residual
            out = (*out, _combine(np.asarray(estimate, np.float32), _relu(h @ wr1 + br1) @ wr2 + br2))
        return out


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0, out=x)


def _combine(estimate: np.ndarray, correction: np.ndarray) -> np.ndarray:
    """:func:`maya_envs.nn.model.combine` in numpy."""
    e = np.clip(estimate, -1.0, 1.0)
    t = np.tanh(correction)
    return (e + t) / np.maximum(1.0 + e * t, 1e-6)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of ``(B, A)`` logits with ``-inf`` entries (probability 0 there), float32."""
    shifted = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32, copy=False)
