"""The policy of an RLlib checkpoint as data: a plain torch network rebuilt from JSON and weights.

:mod:`training.rllib_export` writes, beside each checkpoint of :mod:`training.rllib_train`, an
export of every RLModule the policy mapping uses: ``maya_export/<module id>.pt`` (the policy's
state dict, tensors only, read with ``torch.load(weights_only=True)``) and, in the checkpoint's
``maya_rllib.json`` under ``"export"``, the plain description :class:`MaskedPolicyNet` is rebuilt
from. Reading an export imports neither Ray nor anything pickled: a Ray checkpoint restores its
RLModules by unpickling their constructor arguments and state, which is why ``rllib:<path>``
reads only the export.

The network is the inference path of :class:`training.rllib_module.MaskedPPOTorchRLModule`:
the actor encoder (``hiddens`` linear layers, each followed by ``activation``), the linear
logits head, the optional per-action feature head, and ``log(mask)`` clamped to
:data:`FLOAT_MIN` added to the logits. The value function is not exported (playing needs none).
"""

from __future__ import annotations

import json
import math
import pickle
import re
from pathlib import Path
from typing import Any

import torch
from torch import nn

from maya_envs.core.checks import is_int, is_number
from maya_envs.core.errors import shorten
from maya_envs.sb3_zip import UnreadableModel
from maya_envs.torch_errors import torch_load_reason
from training.rllib_agent import METADATA_FILE

FORMAT = "maya_envs.rllib_export/1"
EXPORT_DIR = "maya_export"
"""The folder of the weight files in the checkpoint directory: ``<module id>.pt``."""
EXPORT_COMMAND = "python -m training.rllib_export CHECKPOINT_DIR"
"""Writes the export of a checkpoint made before it existed (unpickles it: only your own)."""
FLOAT_MIN = -3.4e38
"""The floor of ``log(mask)`` (RLlib's ``FLOAT_MIN``, so masked logits equal the module's)."""
ACTIVATIONS = {"tanh": nn.Tanh, "relu": nn.ReLU}
MODULE_ID = re.compile(r"[A-Za-z0-9_]{1,64}")
"""A module id, also the weight file's stem: no separator, no dot, so never a path."""
MAX_LAYERS = 16
MAX_LAYER = 8192
MAX_METADATA_BYTES = 2**20
MAX_WEIGHT_BYTES = 256 * 2**20


class MaskedPolicyNet(nn.Module):
    """Masked action logits of one exported RLModule.

    ``forward(observation, mask)``: ``observation`` float32 ``(batch, observation_size)``,
    ``mask`` ``(batch, num_actions)`` of 0/1; returns float32 ``(batch, num_actions)`` logits,
    :data:`FLOAT_MIN`-like where the mask is 0. ``action_feature_block = (start, features,
    actions)`` adds ``head(gain * block)`` to the first ``actions`` logits, as the RLlib module.
    """

    def __init__(self, spec: dict[str, Any]) -> None:
        super().__init__()
        self.spec = dict(spec)
        sizes = [spec["observation_size"], *spec["hiddens"]]
        layers: list[nn.Module] = []
        for size_in, size_out in zip(sizes, sizes[1:], strict=False):
            layers += [nn.Linear(size_in, size_out), ACTIVATIONS[spec["activation"]]()]
        self.actor = nn.Sequential(*layers)
        self.logits = nn.Linear(sizes[-1], spec["num_actions"])
        block = spec["action_feature_block"]
        self.action_feature_block = tuple(block) if block is not None else None
        self.action_feature_gain = float(spec["action_feature_gain"])
        if block is not None:
            self.action_feature_head = nn.Linear(block[1], 1)

    def forward(self, observation: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return masked_logits(self, self.logits(self.actor(observation)), observation, mask)


def masked_logits(heads: nn.Module, logits: torch.Tensor, observation: torch.Tensor, mask: torch.Tensor):
    """``logits`` plus the feature head's scores where ``heads.action_feature_block`` is set, plus
    ``log(mask)`` clamped to :data:`FLOAT_MIN`: the one computation of the RLlib module
    (:class:`training.rllib_module.MaskedPPOTorchRLModule`) and its export alike.

    ``heads`` has ``action_feature_block`` (``None`` or ``(start, features, actions)``) and, where
    set, ``action_feature_head`` and ``action_feature_gain``; tensors are ``(batch, ...)``.
    """
    if heads.action_feature_block is not None:
        start, features, actions = heads.action_feature_block
        block = observation[:, start : start + features * actions].reshape(-1, features, actions)
        scores = heads.action_feature_head(heads.action_feature_gain * block.transpose(1, 2)).squeeze(-1)
        logits = torch.cat([logits[:, :actions] + scores, logits[:, actions:]], dim=1)
    return logits + torch.clamp(torch.log(mask.to(logits.dtype)), min=FLOAT_MIN)


def refusal(path: Path, why: str) -> UnreadableModel:
    """The error for a checkpoint that is not read: what is wrong, and the export command. The
    path is shown whole (the command must be copyable): it names a folder that exists, so the
    system's path limit bounds it."""
    return UnreadableModel(
        f"RLlib checkpoint {str(path)!r} is not read: {why}. maya-envs reads only the weights-only "
        f"export that training.rllib_train writes beside a checkpoint, never Ray's pickles; for a checkpoint "
        f"you made yourself, write the export once with: {EXPORT_COMMAND.replace('CHECKPOINT_DIR', str(path))}"
    )


def check_spec(spec: Any, where: str) -> dict[str, Any]:
    """``spec`` (one module's JSON description) if every field is in range.

    Raises:
        ValueError: naming ``where``, the field and what is allowed.
    """
    keys = {"observation_size", "num_actions", "hiddens", "activation", "action_feature_block", "action_feature_gain"}
    if not isinstance(spec, dict) or set(spec) != keys:
        raise ValueError(f"{where}: expected an object with keys {sorted(keys)}, got {shorten(spec)}")
    for key in ("observation_size", "num_actions"):
        if not is_int(spec[key], numpy=False) or not 0 < spec[key] <= 2**20:
            raise ValueError(f"{where}.{key}={shorten(spec[key])}; allowed: an int in [1, {2**20}]")
    hiddens = spec["hiddens"]
    if (
        not isinstance(hiddens, list)
        or not 0 < len(hiddens) <= MAX_LAYERS
        or not all(is_int(size, numpy=False) and 0 < size <= MAX_LAYER for size in hiddens)
    ):
        raise ValueError(f"{where}.hiddens={shorten(hiddens)}; allowed: 1 to {MAX_LAYERS} ints in [1, {MAX_LAYER}]")
    if spec["activation"] not in ACTIVATIONS:
        raise ValueError(f"{where}.activation={shorten(spec['activation'])}; allowed: {sorted(ACTIVATIONS)}")
    gain = spec["action_feature_gain"]
    if not is_number(gain, numpy=False) or not math.isfinite(gain) or not 0 < gain <= 1000:
        raise ValueError(f"{where}.action_feature_gain={shorten(gain)}; allowed: a number in (0, 1000]")
    _check_block(spec["action_feature_block"], spec["observation_size"], spec["num_actions"], where)
    return spec


def _check_block(block: Any, size: int, num_actions: int, where: str) -> None:
    if block is None:
        return
    fits = (
        isinstance(block, list)
        and len(block) == 3
        and all(is_int(x, numpy=False) for x in block)
        and block[0] >= 0
        and block[1] > 0
        and 0 < block[2] <= num_actions
        and block[0] + block[1] * block[2] <= size
    )
    if not fits:
        raise ValueError(
            f"{where}.action_feature_block={shorten(block)}; allowed: null or [start, features, actions] "
            f"inside an observation of {size} values and {num_actions} actions"
        )


def weight_file(checkpoint: Path, module_id: str) -> Path:
    """``<checkpoint>/maya_export/<module_id>.pt``.

    Raises:
        ValueError: ``module_id`` is not a plain name (:data:`MODULE_ID`).
    """
    if not isinstance(module_id, str) or not MODULE_ID.fullmatch(module_id):
        raise ValueError(f"module id {shorten(module_id)}; allowed: 1 to 64 letters, digits or '_'")
    return checkpoint / EXPORT_DIR / f"{module_id}.pt"


def save_net(checkpoint: Path, module_id: str, net: MaskedPolicyNet) -> Path:
    """Write ``net``'s state dict (CPU tensors only) to :func:`weight_file`; return the path."""
    path = weight_file(checkpoint, module_id)
    path.parent.mkdir(exist_ok=True)
    torch.save({key: value.detach().cpu().contiguous() for key, value in net.state_dict().items()}, path)
    return path


def load_net(checkpoint: Path, module_id: str, spec: dict[str, Any]) -> MaskedPolicyNet:
    """The network of ``spec`` (checked by :func:`check_spec`) with the weights of
    :func:`weight_file`, read with ``weights_only=True``, in eval mode.

    Raises:
        UnreadableModel: a missing or oversized file, one holding anything but a dict of tensors
            (e.g. a pickled object), or tensors whose names or shapes do not fit ``spec``.
    """
    path = weight_file(checkpoint, module_id)
    if not path.is_file():
        raise refusal(checkpoint, f"its export has no weight file {path.name!r} for module {module_id!r}")
    if path.stat().st_size > MAX_WEIGHT_BYTES:
        raise refusal(checkpoint, f"{path.name!r} is over {MAX_WEIGHT_BYTES} bytes")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, EOFError) as error:
        raise refusal(checkpoint, f"{path.name!r} holds more than tensors ({torch_load_reason(error)})") from None
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise refusal(checkpoint, f"{path.name!r} is not a dict of tensors")
    net = MaskedPolicyNet(spec)
    try:
        net.load_state_dict(state, strict=True)
    except RuntimeError as error:
        raise refusal(checkpoint, f"{path.name!r} does not fit its description ({shorten(str(error), 300)})") from None
    return net.eval()


def read_metadata(checkpoint: Path) -> dict[str, Any]:
    """The JSON object of ``<checkpoint>/maya_rllib.json`` (at most :data:`MAX_METADATA_BYTES`).

    Raises:
        UnreadableModel: oversized, not JSON, or not an object.
    """
    path = checkpoint / METADATA_FILE
    if path.stat().st_size > MAX_METADATA_BYTES:
        raise refusal(checkpoint, f"{METADATA_FILE} is over {MAX_METADATA_BYTES} bytes")
    try:
        metadata = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise refusal(checkpoint, f"{METADATA_FILE} is not JSON ({error})") from None
    if not isinstance(metadata, dict):
        raise refusal(checkpoint, f"{METADATA_FILE} is not a JSON object")
    return metadata


def read_export(checkpoint: Path) -> tuple[dict[str, Any], dict[str, MaskedPolicyNet]]:
    """The metadata of ``checkpoint`` and its exported networks by module id; no Ray, no pickle.

    Raises:
        UnreadableModel: no export (a Ray checkpoint alone: the message gives
            :data:`EXPORT_COMMAND`), or an export that is malformed (the message says what).
    """
    metadata = read_metadata(checkpoint)
    export = metadata.get("export")
    if export is None:
        raise refusal(checkpoint, f"it has no weights-only export ({METADATA_FILE} has no 'export' entry)")
    if not isinstance(export, dict) or export.get("format") != FORMAT or not isinstance(export.get("modules"), dict):
        raise refusal(checkpoint, f"its export is not of format {FORMAT} (found {shorten(export)})")
    mapping = metadata.get("modules")
    if not isinstance(mapping, dict) or not mapping or set(mapping.values()) != set(export["modules"]):
        raise refusal(checkpoint, f"its agent-to-module mapping {shorten(mapping)} does not name the exported modules")
    nets = {}
    for module_id, spec in export["modules"].items():
        try:
            weight_file(checkpoint, module_id)
            check_spec(spec, f"export.modules[{module_id!r}]")
        except ValueError as error:
            raise refusal(checkpoint, str(error)) from None
        nets[module_id] = load_net(checkpoint, module_id, spec)
    return metadata, nets
