"""MaskablePPO ``.zip`` files read as data: nothing in them is unpickled.

Stable-Baselines3 saves a model as a zip of a JSON ``data`` entry and torch weight files. Some
JSON values are objects pickled with cloudpickle (marked ``":serialized:"``: the policy class,
the spaces, the schedules, buffers), and ``MaskablePPO.load`` unpickles every one of them, so a
crafted file runs its own code on load (DLR-RM/stable-baselines3#2281). :func:`load_maskable_ppo`
never decodes a ``":serialized:"`` value. It rebuilds the model from readable fields only:

* the policy class from its readable module and class name, one of :data:`POLICIES` (the
  project's policies, :mod:`training.policies`), with the JSON ``policy_kwargs``;
* the observation space (a ``Box``: shape and dtype; its bounds from ``env`` where one is given,
  else unbounded: a policy never reads them) and the action space (a ``Discrete``: ``n``, ``start``);
* ``clip_range`` from its readable ``ConstantSchedule(val=...)``; the learning-rate schedule from
  the plain ``learning_rate``;
* the hyperparameters and counters in :data:`PLAIN_KEYS` as they are (JSON numbers and lists);
* the weights from ``policy.pth`` and ``policy.optimizer.pth`` with ``torch.load(weights_only=True)``.

Sizes are bounded before anything is allocated (:data:`MAX_BUFFER_VALUES`, :data:`MAX_LAYER`,
:data:`MAX_WEIGHT_BYTES`, :data:`MAX_DATA_BYTES`). Runtime state SB3 saves but a loaded model
resets (:data:`SKIPPED`: the last observation, the episode buffers) is not read. Anything else
it cannot rebuild (another policy class, pickled ``policy_kwargs``, a pickled value under an
unknown key, an unknown zip member) is refused with a :class:`ValueError` naming the file and
the conversion command :data:`CONVERT` (``python -m maya_envs.sb3_zip OLD.zip NEW.zip``, which
loads the old file with SB3 itself, so only for a file you trust, and writes one this module
reads, or says why it cannot).
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any

from maya_envs.core.checks import is_int, is_number
from maya_envs.torch_errors import torch_load_reason

CONVERT = "python -m maya_envs.sb3_zip OLD.zip NEW.zip"
"""Rewrites a MaskablePPO zip this module refuses (it unpickles the old file: a file you trust)."""
POLICIES = {
    ("sb3_contrib.common.maskable.policies", "MaskableActorCriticPolicy"): "sb3_contrib.common.maskable.policies",
    ("training.policies", "ActionFeaturePolicy"): "training.policies",
    ("training.policies", "ActionScoringPolicy"): "training.policies",
}
"""The policy classes a zip may name: ``(module, class) -> module to import it from``."""
ROLLOUT_BUFFER = "sb3_contrib.common.maskable.buffers"
"""The only rollout buffer module accepted (MaskablePPO's own default, rebuilt as ``None``)."""
PLAIN_KEYS = (
    "verbose", "num_timesteps", "_total_timesteps", "_num_timesteps_at_start", "seed", "start_time",
    "learning_rate", "tensorboard_log", "_episode_num", "use_sde", "sde_sample_freq",
    "_current_progress_remaining", "_stats_window_size", "_n_updates", "n_steps", "gamma", "gae_lambda",
    "ent_coef", "vf_coef", "max_grad_norm", "rollout_buffer_kwargs", "batch_size", "n_epochs",
    "clip_range_vf", "normalize_advantage", "target_kl", "n_envs", "action_noise",
)  # fmt: skip
"""``data`` keys copied onto the model as they are; each must be plain JSON."""
REBUILT = ("policy_class", "policy_kwargs", "observation_space", "action_space", "clip_range", "lr_schedule",
           "rollout_buffer_class")  # fmt: skip
"""``data`` keys rebuilt from their readable fields (module docstring)."""
SKIPPED = ("_last_obs", "_last_episode_starts", "_last_original_obs", "ep_info_buffer", "ep_success_buffer")
"""Runtime state a loaded model resets; never read."""
MEMBERS = {"data", "policy.pth", "policy.optimizer.pth", "pytorch_variables.pth", "_stable_baselines3_version",
           "system_info.txt"}  # fmt: skip
"""The zip members a MaskablePPO file holds; any other is refused."""
MAX_DATA_BYTES = 16 * 2**20
"""The ``data`` JSON read at most (a real one is a few hundred KiB)."""
MAX_WEIGHT_BYTES = 256 * 2**20
"""A weight file read at most, uncompressed (the shipped ones are under 5 MB)."""
MAX_BUFFER_VALUES = 2**27
"""``n_steps * n_envs * observation size`` at most: the rollout buffer a rebuilt model allocates
(512 MiB of float32; the project's configs use under 2**24)."""
MAX_LAYER = 8192
"""The widest layer a ``net_arch`` may ask for (the project's use 512 at most)."""
_CONSTANT = re.compile(r"ConstantSchedule\(val=([-+0-9.eE]+)\)")
_CLASS_NAME = re.compile(r"<function (\w+)\.__init__ at ")


class UnreadableModel(ValueError):
    """A model file this module will not rebuild without unpickling; the message says why and
    how to convert it (a step that trusts the file: for the one who named it on a command line).

    Attributes:
        reason: the message without the conversion command, what a web page is told.
    """

    reason: str = ""


def _refuse(path: Path, why: str) -> UnreadableModel:
    reason = f"{str(path)!r} is not read: {why}. maya-envs reads model files as data and never unpickles them"
    error = UnreadableModel(f"{reason}; if you trust this file, convert it once: {CONVERT}")
    error.reason = reason
    return error


def read_data(path: str | Path) -> dict[str, Any]:
    """The ``data`` JSON of the MaskablePPO zip ``path``, its pickled values left encoded.

    Raises:
        UnreadableModel: not a zip, a member other than :data:`MEMBERS`, no or oversized ``data``.
        FileNotFoundError: no such file.
    """
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if names - MEMBERS or "data" not in names:
                extra = sorted(names - MEMBERS)[:5]
                raise _refuse(path, f"members {extra} besides a MaskablePPO model's" if extra else "no 'data' entry")
            if archive.getinfo("data").file_size > MAX_DATA_BYTES:
                raise _refuse(path, f"its 'data' entry is over {MAX_DATA_BYTES} bytes")
            data = json.loads(archive.read("data"))
    except (zipfile.BadZipFile, json.JSONDecodeError, UnicodeDecodeError) as error:
        raise _refuse(path, f"not a MaskablePPO zip ({error})") from None
    if not isinstance(data, dict):
        raise _refuse(path, "its 'data' entry is not a JSON object")
    return data


def num_timesteps(path: str | Path) -> int:
    """The steps the model at ``path`` was trained for (``maya-train --resume``'s budget check,
    which so refuses a file :func:`load_maskable_ppo` would refuse before anything else runs).

    Raises:
        UnreadableModel: as :func:`rebuilt_fields`, or no plain ``num_timesteps``.
    """
    value = rebuilt_fields(path).get("num_timesteps")
    if not is_int(value, numpy=False):
        raise _refuse(Path(path), f"num_timesteps={value!r} is not an int")
    return value


def _pickled(value: Any) -> bool:
    return isinstance(value, dict) and ":serialized:" in value


def _policy_class(path: Path, value: Any) -> Any:
    module = value.get("__module__") if isinstance(value, dict) else None
    names = {m.group(1) for v in (value or {}).values() if isinstance(v, str) for m in [_CLASS_NAME.match(v)] if m}
    for (allowed_module, name), source in POLICIES.items():
        if module == allowed_module and names == {name}:
            return getattr(importlib.import_module(source), name)
    allowed = [f"{m}.{n}" for m, n in POLICIES]
    raise _refuse(path, f"its policy class ({module}.{'/'.join(sorted(names)) or '?'}) is none of {allowed}")


def _space(path: Path, value: Any, kind: str) -> dict[str, Any]:
    """The readable fields of a pickled space, checked to be a ``kind`` (``Box``/``Discrete``)."""
    if not isinstance(value, dict) or f"spaces.{kind.lower()}.{kind}'" not in str(value.get(":type:")):
        raise _refuse(path, f"its space {value.get(':type:') if isinstance(value, dict) else value!r} is not a {kind}")
    return value


def _observation_space(path: Path, value: Any, env: Any) -> Any:
    import numpy as np
    from gymnasium.spaces import Box

    fields = _space(path, value, "Box")
    try:
        shape, dtype = tuple(int(size) for size in fields["_shape"]), np.dtype(fields["dtype"])
    except (KeyError, TypeError, ValueError):
        raise _refuse(path, "its observation space has no readable shape and dtype") from None
    space = getattr(env, "observation_space", None)
    if space is not None:
        if (tuple(space.shape or ()), space.dtype) != (shape, dtype):
            raise ValueError(f"{str(path)!r}: observations {shape} {dtype}; the env gives {space.shape} {space.dtype}")
        return space
    return Box(-np.inf, np.inf, shape, dtype)


def _action_space(path: Path, value: Any) -> Any:
    from gymnasium.spaces import Discrete

    fields = _space(path, value, "Discrete")
    try:
        return Discrete(int(fields["n"]), start=int(fields.get("start", "0")))
    except (KeyError, TypeError, ValueError):
        raise _refuse(path, "its action space has no readable n") from None


def _constant(path: Path, value: Any, key: str) -> float:
    if is_number(value, numpy=False):
        return float(value)
    match = _CONSTANT.fullmatch(str(value.get("value_schedule", ""))) if isinstance(value, dict) else None
    if match is None:
        raise _refuse(path, f"its {key} is not a readable constant")
    return float(match.group(1))


def _positive_int(value: Any) -> bool:
    return is_int(value, numpy=False) and value > 0


def _check_sizes(path: Path, fields: dict[str, Any], kwargs: dict[str, Any], observation: Any) -> None:
    """Refuse sizes that would make rebuilding the model unbounded work (module constants)."""
    shape = observation.get("_shape") if isinstance(observation, dict) else None
    sizes = [fields.get("n_steps"), fields.get("n_envs", 1), *(shape if isinstance(shape, list) else [None])]
    if not all(_positive_int(size) for size in sizes):
        raise _refuse(path, f"n_steps, n_envs and the observation shape are not positive ints: {sizes[:8]}")
    values = 1
    for size in sizes:
        values *= size
    if values > MAX_BUFFER_VALUES:
        raise _refuse(path, f"n_steps x n_envs x observation size is {values}; at most {MAX_BUFFER_VALUES}")
    arch = kwargs.get("net_arch", [])
    widths = list(arch.values()) if isinstance(arch, dict) else [arch]
    layers = [size for group in widths for size in (group if isinstance(group, list) else [group])]
    if not all(_positive_int(size) and size <= MAX_LAYER for size in layers):
        raise _refuse(path, f"its net_arch {str(arch)[:80]} is not a list of ints from 1 to {MAX_LAYER}")
    # the other policy arguments index the observation (the action-feature block): no int past it
    numbers = [n for key, v in kwargs.items() if key != "net_arch" for n in (v if isinstance(v, list) else [v])]
    if any(isinstance(n, int) and not 0 <= n <= values // (sizes[0] * sizes[1]) for n in numbers):
        raise _refuse(path, f"its policy_kwargs {str(kwargs)[:80]} hold ints past the observation")


def rebuilt_fields(path: str | Path, env: Any = None) -> dict[str, Any]:
    """The attributes of the MaskablePPO model at ``path``, rebuilt from readable fields only
    (module docstring); ``env``: the env it will run on (its spaces must match).

    Raises:
        UnreadableModel: a value it cannot rebuild (the message names it and :data:`CONVERT`).
        ValueError: observations of another shape or dtype than ``env``'s.
    """
    path = Path(path)
    data = read_data(path)
    unknown = sorted(key for key, value in data.items() if key not in (*PLAIN_KEYS, *REBUILT, *SKIPPED))
    if unknown:
        raise _refuse(path, f"unknown entries {unknown[:5]}")
    pickled = sorted(key for key in PLAIN_KEYS if _pickled(data.get(key)))
    if pickled or _pickled(data.get("policy_kwargs")):
        raise _refuse(path, f"pickled values for {pickled or ['policy_kwargs']}")
    fields = {key: data[key] for key in PLAIN_KEYS if key in data}
    if not isinstance(fields.get("learning_rate"), (int, float)):
        raise _refuse(path, "its learning_rate is not a number")
    buffer = data.get("rollout_buffer_class")
    if buffer is not None and (not isinstance(buffer, dict) or buffer.get("__module__") != ROLLOUT_BUFFER):
        raise _refuse(path, f"its rollout buffer is not {ROLLOUT_BUFFER}'s")
    kwargs = dict(data.get("policy_kwargs") or {})
    kwargs.pop("device", None)
    _check_sizes(path, fields, kwargs, data.get("observation_space"))
    return {
        **fields,
        "policy_class": _policy_class(path, data.get("policy_class")),
        "policy_kwargs": kwargs,
        "observation_space": _observation_space(path, data.get("observation_space"), env),
        "action_space": _action_space(path, data.get("action_space")),
        "clip_range": _constant(path, data.get("clip_range"), "clip_range"),
        "rollout_buffer_class": None,
        "_last_obs": None,
    }


def read_weights(path: str | Path, device: str = "cpu") -> dict[str, Any]:
    """``{"policy": state_dict, "policy.optimizer": state_dict}`` of the zip ``path``, read
    with ``torch.load(weights_only=True)``; ``pytorch_variables.pth`` must be empty (PPO has none).

    Raises:
        UnreadableModel: a weight file carrying pickled objects, or missing ``policy.pth``.
    """
    import torch

    path = Path(path)
    out = {}
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        for member in ("policy.pth", "policy.optimizer.pth", "pytorch_variables.pth"):
            if member not in names:
                if member == "policy.pth":
                    raise _refuse(path, "it has no policy.pth")
                continue
            if archive.getinfo(member).file_size > MAX_WEIGHT_BYTES:
                raise _refuse(path, f"{member} is over {MAX_WEIGHT_BYTES} bytes")
            try:
                loaded = torch.load(io.BytesIO(archive.read(member)), map_location=device, weights_only=True)
            except Exception as error:  # torch raises UnpicklingError, RuntimeError, ... for a crafted file
                raise _refuse(path, f"{member} holds more than tensors ({torch_load_reason(error)})") from None
            if member == "pytorch_variables.pth":
                if loaded:
                    raise _refuse(path, "pytorch_variables.pth is not empty (MaskablePPO has none)")
                continue
            out[member.removesuffix(".pth")] = loaded
    return out


def load_maskable_ppo(path: str | Path, env: Any = None, device: str = "cpu", **kwargs: Any) -> Any:
    """The MaskablePPO model at ``path``, rebuilt without unpickling (module docstring): to
    predict with (``env=None``) or to train on ``env`` (``maya-train --resume``). ``kwargs``
    replace saved attributes (``tensorboard_log=...``), as ``MaskablePPO.load``'s do.

    Raises:
        FileNotFoundError: no such file.
        UnreadableModel: anything it cannot rebuild safely (the message gives :data:`CONVERT`).
        ValueError: the env's observations do not fit the model's.
        ImportError: ``sb3-contrib`` missing (the ``train`` extra).
    """
    from sb3_contrib import MaskablePPO

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"model file {str(path)!r} does not exist")
    fields = rebuilt_fields(path, env)
    weights = read_weights(path, device)
    model = MaskablePPO(fields["policy_class"], env=env, device=device, _init_setup_model=False)
    if env is not None:
        fields["n_envs"] = model.n_envs  # the env's, as SB3's own load sets it
    model.__dict__.update(fields)
    model.__dict__.update(kwargs)
    model._setup_model()
    try:
        model.set_parameters(weights, exact_match="policy.optimizer" in weights, device=device)
    except (RuntimeError, ValueError, KeyError) as error:
        raise _refuse(path, f"its weights do not fit its policy ({str(error).splitlines()[0][:200]})") from None
    return model


def convert(old: str | Path, new: str | Path) -> Path:
    """Load ``old`` with SB3's own ``MaskablePPO.load`` (this unpickles it: only a file you
    trust), write it to ``new`` and check that :func:`load_maskable_ppo` reads it.

    Raises:
        UnreadableModel: the rewritten file still holds something this module does not rebuild
            (another policy class, pickled ``policy_kwargs``): it cannot be played as data.
    """
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(old, device="cpu")  # the user vouches for this file
    clip = model.clip_range
    if callable(clip) and not hasattr(clip, "value_schedule"):  # a closure of an older SB3
        model.clip_range = float(clip(1.0))
    model.save(new)
    load_maskable_ppo(new)
    return Path(new)


def conversion_main(prog: str, description: str, convert: Any, argv: list[str] | None = None) -> int:
    """The command line ``prog OLD NEW`` that runs ``convert(OLD, NEW)`` (this module's and
    :mod:`training.exit.checkpoint`'s): prints the file written, or exits 2 with the error."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    args = parser.parse_args(argv)
    try:
        print(f"written: {convert(args.old, args.new)}")
    except (ValueError, OSError) as error:
        parser.error(str(error))
    return 0


def main(argv: list[str] | None = None) -> int:
    return conversion_main(
        "python -m maya_envs.sb3_zip",
        "Rewrite a MaskablePPO zip so that maya-envs can read it without unpickling. This loads OLD with "
        "Stable-Baselines3 itself, which runs any code pickled inside it: only for a file you trust.",
        convert,
        argv,
    )


if __name__ == "__main__":
    sys.exit(main())
