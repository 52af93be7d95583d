"""The action-scoring policy-value network (torch).

For a batch of decisions, each with a board vector ``b`` (the acting seat's observation) and a
list of candidate actions, each with an id ``a`` and a feature row ``f(a)``
(:mod:`maya_envs.nn.inputs`)::

    h         = MLP_board(b)                                  # (B, H) board embedding
    logit(a)  = MLP_action([h, f(a)]) + bias[a]               # one shared MLP for every action
    value     = tanh(MLP_value(h))                            # (B, num_values), in [-1, 1]
    residual  = combine(e, MLP_residual(stop_gradient(h)))    # optional: (B, num_values), in [-1, 1]
    margin    = MLP_margin(h)                                 # optional: (B, num_values), unbounded

Sharing ``MLP_action`` over actions lets one update teach the network about every action with
similar features, where a head with one output per id has to learn each id on its own; the
optional per-id bias (``id_bias``, zero at the start) still lets it learn what the features miss.
Logits are ``-inf`` where the batch is padding (``valid`` False). The value entries are
seat-relative (entry ``k`` = seat ``(seat + k) % num_players``; see :mod:`maya_envs.nn.inputs`)
on the scale of :func:`maya_envs.bots.search_common.terminal_values` (a finished game's
``rules.returns`` divided by the largest absolute reward); teammates get the same target.

**Residual value head** (``residual=True``; design D2 of the strong-agents study): a second
value head that starts at the game's calibrated ``leaf_values`` estimate ``e`` (seat-relative
like the values, in [-1, 1]; the caller passes it) and learns only a correction ``r``::

    combine(e, r) = (e + tanh r) / (1 + e * tanh r)     # = tanh(atanh(e) + r), with no atanh

the tanh addition formula, so ``r`` is the correction in the pre-tanh space, written without
``atanh`` so that ``e = +-1`` needs no clipping (such an estimate stays where it is: its
gradient in ``r`` is 0). The last layer of ``MLP_residual`` is zero-initialised: an untrained
residual head returns ``e`` exactly, and training moves it only where the value loss on
``combine(e, r)`` says so (:mod:`training.exit.learner`: the head learns target minus estimate
in the pre-tanh space). It reads the board embedding ``h`` detached: its loss trains only
``MLP_residual``, so the policy and the plain value head learn as without it, and a trainer can
compare the two value heads on new games (``exit.leaf_value: auto``). Measured (Maya (2012) 2p,
200 heuristic games, 4 epochs, own-seat MSE on 100 fresh games): 0.854 detached, 0.875 through
the trunk; the hook 0.535 (``benchmarks/leaf_errors.py``).

**Score-margin head** (``margin_head=True``; design D3 of the strong-agents study, KataGo's
score head): an auxiliary head that predicts each seat's final score margin (seat-relative like
the values; the game's ``score_margins`` hook, e.g. the Maya (2012) 2p VP lead over 2, of order
1; see :func:`maya_envs.bots.search_common.terminal_margins`), a two-layer MLP with a linear
output (a margin has no bound). It reads the board embedding ``h`` through the trunk: its point
is that a target with more information per game than the +-1 result shapes the features the
value head reads, so that the value head memorises its few hundred games less. No search or
agent reads it; ``forward`` returns it only when asked (``margins=True``), so every other caller
is unchanged.

Checkpoints (:func:`save_network`, :func:`load_network`) are one ``torch.save`` file (``.pt``)
holding the constructor arguments, the weights and a JSON-able ``meta`` dict (game key, game
options, num_players, board_dim, feature_dim, feature names; see
:meth:`maya_envs.nn.inputs.NetworkInputs.meta`), loaded with ``weights_only=True``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from torch import nn

from maya_envs.core.checks import is_int
from maya_envs.torch_errors import torch_load_reason

FORMAT = "maya_envs.network"
VERSION = 1


class PolicyValueNet(nn.Module):
    """See the module docstring.

    Args:
        board_dim: ``D``, the board vector's length.
        feature_dim: ``F``, the per-action feature count.
        num_actions: the game's action-space size (for the per-id bias).
        num_values: value entries (one per seat: ``num_players``).
        hidden: ``H``, the width of every hidden layer.
        id_bias: add a learnt bias per action id (initialised to 0).
        residual: add the residual value head (module docstring); ``forward`` then takes the
            estimate. Checkpoints written before it existed load without it.
        margin_head: add the score-margin head (module docstring); ``forward(..., margins=True)``
            returns it. Built after every other layer, so that the other layers' initial weights
            under one torch seed are those of the network without it, and in :attr:`config` only
            when True, so that a network without it saves exactly as before (older readers load
            it; older checkpoints load without it).

    Attributes:
        config: the constructor arguments (saved with the weights).
    """

    def __init__(
        self,
        board_dim: int,
        feature_dim: int,
        num_actions: int,
        num_values: int,
        hidden: int = 128,
        id_bias: bool = True,
        residual: bool = False,
        margin_head: bool = False,
    ) -> None:
        super().__init__()
        sizes = {"board_dim": board_dim, "feature_dim": feature_dim, "num_actions": num_actions}
        for name, value in {**sizes, "num_values": num_values, "hidden": hidden}.items():
            if not is_int(value, numpy=False) or value < 1:  # True is no size
                raise ValueError(f"{name}={value!r}; allowed: an int >= 1")
        if not isinstance(residual, bool):
            raise ValueError(f"residual={residual!r}; allowed: True or False")
        if not isinstance(margin_head, bool):
            raise ValueError(f"margin_head={margin_head!r}; allowed: True or False")
        self.config = {
            "board_dim": board_dim,
            "feature_dim": feature_dim,
            "num_actions": num_actions,
            "num_values": num_values,
            "hidden": hidden,
            "id_bias": bool(id_bias),
            "residual": residual,
        }
        if margin_head:
            self.config["margin_head"] = True
        self.board = nn.Sequential(nn.Linear(board_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        # The action MLP's first layer on [h, f(a)] is split so that the board part is
        # computed once per decision, not once per action.
        self.action_board = nn.Linear(hidden, hidden)
        self.action_features = nn.Linear(feature_dim, hidden, bias=False)
        self.action_out = nn.Sequential(nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.bias = nn.Embedding(num_actions, 1) if id_bias else None
        if self.bias is not None:
            nn.init.zeros_(self.bias.weight)
        self.value = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, num_values), nn.Tanh())
        self.residual = (
            nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, num_values)) if residual else None
        )
        if self.residual is not None:  # zero correction: an untrained head returns the estimate
            nn.init.zeros_(self.residual[-1].weight)
            nn.init.zeros_(self.residual[-1].bias)
        self.margin = (
            nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, num_values)) if margin_head else None
        )

    @property
    def has_residual(self) -> bool:
        """Whether the network has the residual value head (module docstring)."""
        return self.residual is not None

    @property
    def has_margin(self) -> bool:
        """Whether the network has the score-margin head (module docstring)."""
        return self.margin is not None

    def forward(
        self,
        board: torch.Tensor,
        actions: torch.Tensor,
        features: torch.Tensor,
        valid: torch.Tensor,
        estimate: torch.Tensor | None = None,
        margins: bool = False,
    ) -> tuple[torch.Tensor, ...]:
        """Score a padded batch (:func:`maya_envs.nn.inputs.collate`).

        Args:
            board: float ``(B, D)``.
            actions: int64 ``(B, A)`` action ids (any id in range where not valid).
            features: float ``(B, A, F)``.
            valid: bool ``(B, A)``.
            estimate: float ``(B, num_values)`` in [-1, 1], seat-relative: the game's
                ``leaf_values`` estimate of each position, for the residual head (only with
                ``residual=True``).
            margins: also return the score-margin head's output (only with ``margin_head=True``).

        Returns:
            ``logits (B, A)`` (``-inf`` where not valid) and ``values (B, num_values)`` in [-1, 1];
            with ``estimate``, then the residual head's ``(B, num_values)`` in [-1, 1]; with
            ``margins``, last the score-margin head's ``(B, num_values)`` (seat-relative, in the
            units of the game's ``score_margins``).

        Raises:
            ValueError: ``estimate`` for a network without the residual head, or of another shape
                than ``(B, num_values)``; ``margins`` for a network without the score-margin head.
        """
        if margins and self.margin is None:
            raise ValueError("margins=True, but this network has no score-margin head (margin_head=False)")
        h = self.board(board)
        x = self.action_board(h).unsqueeze(1) + self.action_features(features)
        logits = self.action_out(x).squeeze(-1)
        if self.bias is not None:
            logits = logits + self.bias(actions).squeeze(-1)
        logits = logits.masked_fill(~valid, float("-inf"))
        out = (logits, self.value(h))
        if estimate is not None:
            out = (*out, self._residual(board, h, estimate))
        return (*out, self.margin(h)) if margins else out

    def _residual(self, board: torch.Tensor, h: torch.Tensor, estimate: torch.Tensor) -> torch.Tensor:
        """The residual head's value of ``estimate`` (``forward``'s checks and docstring)."""
        if self.residual is None:
            raise ValueError("an estimate was given, but this network has no residual value head (residual=False)")
        if tuple(estimate.shape) != (board.shape[0], self.config["num_values"]):
            raise ValueError(
                f"estimate of shape {tuple(estimate.shape)}; expected {(board.shape[0], self.config['num_values'])}"
            )
        # the residual head reads the board embedding without training it: adding the head leaves
        # the policy's and the plain value's training as they were
        return combine(estimate, self.residual(h.detach()))


def combine(estimate: torch.Tensor, correction: torch.Tensor) -> torch.Tensor:
    """The residual head's value ``tanh(atanh(e) + r) = (e + tanh r) / (1 + e tanh r)`` (module
    docstring), elementwise, in [-1, 1]; ``r = 0`` returns ``e`` exactly. ``estimate`` is
    clamped to [-1, 1]; where ``e = -+1`` meets ``tanh r = +-1`` (``|r|`` > ~9 in float32) the
    undefined limit gives 0."""
    e = estimate.clamp(-1.0, 1.0)
    t = torch.tanh(correction)
    return (e + t) / (1.0 + e * t).clamp_min(1e-6)


def save_network(net: PolicyValueNet, path: str | Path, meta: dict[str, Any]) -> Path:
    """Write ``net`` (its config and weights) and ``meta`` (JSON-able) to ``path`` (a ``.pt``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().cpu() for k, v in net.state_dict().items()}
    torch.save(
        {"format": FORMAT, "version": VERSION, "config": dict(net.config), "state_dict": state, "meta": meta}, path
    )
    return path


def load_network(path: str | Path, device: str = "cpu") -> tuple[PolicyValueNet, dict[str, Any]]:
    """Read a :func:`save_network` file; the network comes back in eval mode on ``device``.

    Raises:
        FileNotFoundError: no such file.
        ValueError: the file is not a network checkpoint of this format (the message names it).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"network checkpoint {str(path)!r} does not exist")
    try:
        data = torch.load(path, map_location=device, weights_only=True)
    except Exception as error:  # an SB3 .zip, a pickle, a truncated file ...
        reason = torch_load_reason(error)
        raise ValueError(f"{str(path)!r} is not a maya_envs network checkpoint ({reason})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{str(path)!r} is not a maya_envs network checkpoint (no format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise ValueError(f"{str(path)!r}: network checkpoint version {data.get('version')!r}; this reads {VERSION}")
    net = PolicyValueNet(**data["config"])
    net.load_state_dict(data["state_dict"])
    net.to(device).eval()
    return net, dict(data["meta"])
