"""The network as a search evaluator and as bots (torch).

* :class:`NetworkEvaluator`: the guided search's evaluator hook
  (:mod:`maya_envs.bots.guided`): priors over each state's legal actions and a value per seat,
  from ONE forward pass per call.
* :class:`LeafValueEvaluator` (from :mod:`maya_envs.bots.guided`, numpy only): an evaluator
  whose values are the network's, the game's ``leaf_values`` estimate, their mix, or the
  network's residual head on the estimate (:meth:`NetworkEvaluator.residual_values`).
* :class:`NetworkBot`: the raw network with no search (the ``policy:`` bot): the legal action of
  highest prior (or one sampled from the prior).
* :func:`make_network_bot`: the bot specs ``policy:<model>`` and
  ``az:<model>[:SIMULATIONS][:KEY=VALUE...]`` (:data:`maya_envs.bots.guided.AZ_SYNTAX`), with
  ``<model>`` a ``.pt`` checkpoint (:func:`maya_envs.nn.model.save_network`) or the name of a
  shipped network (a ``"kind": "network"`` entry of ``maya_envs/pretrained/registry.json``).
  :func:`maya_envs.bots.make_bot` and so every place that takes a bot name (``gym.make(...,
  opponents=...)``, ``maya-arena``, ``maya-play``, training configs) builds them through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

import numpy as np
import torch

from maya_envs.bots.guided import LEAVES, AZBot, LeafValueEvaluator
from maya_envs.bots.search_common import game_hook, seat_to_act
from maya_envs.core.protocol import Rules
from maya_envs.core.rng import make_rng
from maya_envs.games import find_game
from maya_envs.nn.frozen import FrozenNet, softmax
from maya_envs.nn.inputs import NetworkInputs, collate, to_absolute_rows, to_seat_relative
from maya_envs.nn.model import PolicyValueNet, load_network
from maya_envs.nn.specs import model_path, parse_network_spec
from maya_envs.pretrained import network_names, pretrained_info

__all__ = ["LeafValueEvaluator", "NetworkBot", "NetworkEvaluator", "load_model", "make_network_bot", "recorded_leaf"]


class NetworkEvaluator:
    """``evaluator(states, seats) -> (priors, values)`` from a :class:`PolicyValueNet`.

    Args:
        net: the network (used without gradients, in whatever train/eval mode it is in).
        inputs: the :class:`~maya_envs.nn.inputs.NetworkInputs` of the game's rules.
        device: the torch device of ``net``.
        frozen: compute with a numpy copy of the weights taken now
            (:class:`~maya_envs.nn.frozen.FrozenNet`: the same outputs to float32 rounding, about
            3x faster a position in a search's batches of one); for a network that no longer
            learns (one read for play). Needs ``device`` "cpu".

    Attributes:
        calls: forward passes so far; ``positions``: states evaluated so far.
        has_residual: the network has the residual value head
            (:class:`~maya_envs.nn.model.PolicyValueNet`, ``residual=True``): then
            :meth:`residual_values` serves the search's ``leaf="residual"``.

    Raises:
        ValueError: the network does not fit the inputs (board or feature size, action count, or
            value entries other than one per seat), or has a residual head for a game without
            a ``leaf_values`` hook.
    """

    def __init__(
        self, net: PolicyValueNet, inputs: NetworkInputs, device: str | torch.device = "cpu", frozen: bool = False
    ) -> None:
        expected = {
            "board_dim": inputs.board_dim,
            "feature_dim": inputs.feature_dim,
            "num_actions": inputs.num_actions,
            "num_values": inputs.num_players,
        }
        got = {key: net.config[key] for key in expected}
        if got != expected:
            raise ValueError(f"the network was built for {got}, but this game's inputs are {expected}")
        self.net, self.inputs, self.device = net, inputs, torch.device(device)
        if frozen and self.device.type != "cpu":
            raise ValueError(f"frozen=True computes on the CPU; device={str(self.device)!r}")
        self.frozen = FrozenNet(net) if frozen else None
        self.calls = 0
        self.positions = 0
        self.has_residual = bool(getattr(net, "has_residual", False))
        self.hook = game_hook(inputs.rules, "leaf_values") if self.has_residual else None
        if self.has_residual and self.hook is None:
            raise ValueError(f"a residual value head needs the game's leaf_values hook; {inputs.game} has none")

    def __call__(self, states: Sequence[Any], seats: Sequence[int]) -> tuple[list[np.ndarray], np.ndarray]:
        """Priors (``float32``, over each state's ``rules.legal_actions`` in that order) and
        values (``float32 (B, num_players)``, absolute seat order, in [-1, 1]) for each
        ``(state, seat)``, ``seat`` being the seat to move there.

        Raises:
            ValueError: an empty batch, or a finished state.
        """
        return self._evaluate(states, seats, residual=False)

    def residual_values(self, states: Sequence[Any], seats: Sequence[int]) -> tuple[list[np.ndarray], np.ndarray]:
        """As :meth:`__call__`, with the residual head's values: the game's ``leaf_values``
        estimate of each state plus the learned correction (:func:`maya_envs.nn.model.combine`;
        an untrained head returns the estimate). One forward pass.

        Raises:
            ValueError: the network has no residual head, an empty batch, or a finished state.
        """
        if not self.has_residual:
            raise ValueError("residual_values: the network has no residual value head (PolicyValueNet(residual=True))")
        return self._evaluate(states, seats, residual=True)

    def _evaluate(self, states, seats, residual: bool) -> tuple[list[np.ndarray], np.ndarray]:
        items = [self.inputs.encode(state, seat) for state, seat in zip(states, seats, strict=True)]
        board, actions, features, valid = collate(items)
        arrays = [board, actions, features, valid]
        if residual:  # the estimate, seat-relative like the network's values
            rules = self.inputs.rules
            arrays.append(
                np.stack([to_seat_relative(self.hook(rules, s), seat) for s, seat in zip(states, seats, strict=True)])
                .astype(np.float32)
            )
        self.calls += 1
        self.positions += len(items)
        if self.frozen is not None:
            logits, *outputs = self.frozen(*arrays)
            probs, values = softmax(logits), outputs[-1]
        else:
            probs, values = self._forward(arrays)
        priors = [probs[i, : len(ids)].astype(np.float32) for i, (_, ids, _) in enumerate(items)]
        return priors, to_absolute_rows(values, seats).astype(np.float32)

    def _forward(self, arrays: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Torch's forward pass: softmax priors ``(B, A)`` and the last value output ``(B, n)``."""
        # PolicyValueNet has no dropout or normalisation layer: train/eval mode does not change
        # its output, so the mode is left as the caller (a trainer) has it.
        with torch.inference_mode():
            tensors = [torch.from_numpy(x).to(self.device) for x in arrays]
            logits, *outputs = self.net(*tensors)
            probs = torch.softmax(logits, dim=-1).cpu().numpy()
            values = outputs[-1].float().cpu().numpy()
        return probs, values


class NetworkBot:
    """The raw network as a bot (``policy:<model>``): no search.

    Args:
        rules: the game's rules.
        net: a :class:`PolicyValueNet` fitting ``rules`` (see :class:`NetworkEvaluator`).
        seed: an int, ``None`` or a generator (used when ``deterministic`` is False).
        deterministic: play the legal action of highest prior (ties: the lowest id); else
            sample one from the prior.
        inputs: the game's inputs (default ``NetworkInputs(rules)``).
        frozen: play a numpy copy of the weights taken now (:class:`NetworkEvaluator`).
    """

    def __init__(
        self,
        rules: Rules,
        net: PolicyValueNet,
        seed: int | np.random.Generator | None = None,
        deterministic: bool = True,
        inputs: NetworkInputs | None = None,
        frozen: bool = False,
    ) -> None:
        self.rules = rules
        self.evaluator = NetworkEvaluator(net, inputs or NetworkInputs(rules), frozen=frozen)
        self.deterministic = bool(deterministic)
        self.rng = make_rng(seed)

    def act(self, state: Any) -> int:
        """The chosen legal action of the seat to move.

        Raises:
            ValueError: the game is over.
        """
        seat = seat_to_act(self.rules, state, "NetworkBot")
        legal = self.rules.legal_actions(state)
        prior = self.evaluator([state], [seat])[0][0].astype(np.float64)
        if self.deterministic:
            return int(legal[int(np.argmax(prior))])
        return int(legal[int(self.rng.choice(len(legal), p=prior / prior.sum()))])


@lru_cache(maxsize=16)
def _load_cached(path: str, mtime: float) -> tuple[PolicyValueNet, dict[str, Any]]:
    return load_network(path)


def load_model(model: str, rules: Rules) -> PolicyValueNet:
    """The network ``<model>`` names (:func:`maya_envs.nn.specs.model_path`), checked against ``rules``; a file is
    read once per modification time (seats of one arena share the object: read-only use).

    Raises:
        ValueError: no such model, or a network of another game, player count, action space,
            board size or feature set (the message names both sides). Game options other than
            the network's are allowed where all of these fit.
    """
    path = model_path(model)
    net, meta = _load_cached(str(path.resolve()), path.stat().st_mtime)
    inputs = NetworkInputs(rules)
    try:
        game = find_game(meta.get("game")).key
    except ValueError:
        game = meta.get("game")
    mine = {
        "game": inputs.game,
        "num_players": inputs.num_players,
        "num_actions": inputs.num_actions,
        "board_dim": inputs.board_dim,
        "feature_names": list(inputs.feature_names),
    }
    theirs = {**{key: meta.get(key) for key in mine}, "game": game}
    if theirs != mine:
        diff = {key: (theirs[key], mine[key]) for key in mine if theirs[key] != mine[key]}
        raise ValueError(f"network {model!r} does not fit this game: (network, game) differ in {diff}")
    return net


def recorded_leaf(model: str) -> str:
    """The leaf value (:data:`maya_envs.bots.guided.LEAVES`) network ``<model>`` was trained
    and measured with: a shipped network's registry entry (``leaf_value``), else the file's
    ``meta["leaf_value"]`` (written by the trainer, :mod:`training.exit.loop`), else ``"net"``
    (networks saved before the choice existed).

    Raises:
        ValueError: no such model, or a recorded value that is not a known leaf.
    """
    leaf = pretrained_info(model).leaf_value if model in network_names() else None
    if leaf is None:
        path = model_path(model)
        leaf = _load_cached(str(path.resolve()), path.stat().st_mtime)[1].get("leaf_value")
    leaf = leaf or "net"
    if leaf not in LEAVES:
        raise ValueError(f"network {model!r} records leaf_value={leaf!r}; allowed: {', '.join(LEAVES)}")
    return leaf


def make_network_bot(name: str, rules: Rules, seed: int | np.random.Generator | None = None) -> Any:
    """The bot of a ``policy:<model>`` or ``az:<model>[:SIMULATIONS][:KEY=VALUE...]`` spec; an
    ``az:`` spec without ``leaf=`` searches with the leaf the network records
    (:func:`recorded_leaf`).

    Raises:
        ValueError: a malformed spec, an unknown model, or a network that does not fit ``rules``.
    """
    kind, model, config = parse_network_spec(name)
    net = load_model(model, rules)
    if kind == "policy":
        return NetworkBot(rules, net, seed, frozen=True)
    if config.leaf is None:
        config = replace(config, leaf=recorded_leaf(model))
    return AZBot(rules, NetworkEvaluator(net, NetworkInputs(rules), frozen=True), config, seed)
