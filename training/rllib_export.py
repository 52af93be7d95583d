"""Write the weights-only export of an RLlib checkpoint (``python -m training.rllib_export DIR``).

:func:`export_checkpoint` restores each RLModule of a checkpoint of :mod:`training.rllib_train`
with Ray (which unpickles the module's constructor arguments and state: run it only on a
checkpoint you made yourself), copies the weights that play (the actor encoder, the logits and
the action-feature heads) into a :class:`training.rllib_policy.MaskedPolicyNet`, checks that the
copy gives the module's logits on random observations, and writes ``maya_export/<module id>.pt``
plus the ``"export"`` entry of ``maya_rllib.json``: what ``rllib:<path>`` reads. The trainer calls
it after every checkpoint it saves; the command is for checkpoints saved before it existed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from maya_envs.cli import description
from training.rllib_agent import METADATA_FILE, find_checkpoint
from training.rllib_policy import (
    ACTIVATIONS,
    FORMAT,
    MaskedPolicyNet,
    check_spec,
    read_metadata,
    save_net,
    weight_file,
)

RAY_NAMES = {"encoder.actor_encoder.net.mlp.": "actor.", "pi.net.mlp.0.": "logits.", "action_feature_head.": ""}
"""Prefixes of an RLModule's state dict that play -> their names in :class:`MaskedPolicyNet`
(``""``: the same name)."""
NOT_PLAYING = ("encoder.critic_encoder.", "vf.", "pi.log_std_clip_param_const")
"""What is left out: the critic, and the head's log-std clip (a constant of Gaussian actions)."""
CHECK_ROWS = 64
"""Random observations on which the copy must give the module's logits."""


def module_spec(module: Any) -> dict[str, Any]:
    """The JSON description (:func:`training.rllib_policy.check_spec`) of a
    :class:`training.rllib_module.MaskedPPOTorchRLModule`.

    Raises:
        ValueError: a model config the plain network does not rebuild (e.g. a layer norm, or
            hidden layers in the logits head).
    """
    config = dict(module.model_config or {})
    unsupported = {key: config[key] for key in ("head_fcnet_hiddens", "fcnet_use_layernorm") if config.get(key)}
    if unsupported or config.get("fcnet_activation", "tanh") not in ACTIVATIONS:
        raise ValueError(f"model config {config} is not exported (allowed: fcnet_activation in {sorted(ACTIVATIONS)})")
    block = config.get("action_feature_block")
    spec = {
        "observation_size": int(module.observation_space["observation"].shape[0]),
        "num_actions": int(module.action_space.n),
        "hiddens": [int(size) for size in config["fcnet_hiddens"]],
        "activation": config.get("fcnet_activation", "tanh"),
        "action_feature_block": [int(x) for x in block] if block is not None else None,
        "action_feature_gain": float(config.get("action_feature_gain", 10.0)),
    }
    return check_spec(spec, "module")


def plain_state(ray_state: dict[str, Any]) -> dict[str, Any]:
    """The entries of an RLModule's state dict that play, under :class:`MaskedPolicyNet`'s names.

    Raises:
        ValueError: an entry that is neither playing (:data:`RAY_NAMES`) nor :data:`NOT_PLAYING`.
    """
    state = {}
    for key, value in ray_state.items():
        prefix = next((p for p in RAY_NAMES if key.startswith(p)), None)
        if prefix is None:
            if not key.startswith(NOT_PLAYING):
                raise ValueError(f"the RLModule's weight {key!r} has no place in the exported network")
            continue
        state[(RAY_NAMES[prefix] or prefix) + key[len(prefix) :]] = value
    return state


def export_module(module: Any) -> MaskedPolicyNet:
    """The plain network of ``module``, checked to give its logits on :data:`CHECK_ROWS` random
    observations (legal masks at random, one legal action at least per row).

    Raises:
        ValueError: the weights do not fit, or the logits differ (an RLlib whose module differs).
    """
    import torch

    net = MaskedPolicyNet(module_spec(module))
    net.load_state_dict(plain_state(module.state_dict()), strict=True)
    net.eval()
    generator = torch.Generator().manual_seed(0)
    observation = torch.randn(CHECK_ROWS, net.spec["observation_size"], generator=generator)
    mask = torch.rand(CHECK_ROWS, net.spec["num_actions"], generator=generator) < 0.5
    mask[:, 0] = True
    batch = {"obs": {"observation": observation, "action_mask": mask.to(torch.int8)}}
    with torch.no_grad():
        expected = module.forward_inference(batch)["action_dist_inputs"]
        got = net(observation, mask.to(torch.int8))
    if not torch.allclose(got[mask], expected[mask], atol=1e-5, rtol=1e-5):
        gap = float((got - expected)[mask].abs().max())
        raise ValueError(f"the exported network's logits differ from the RLModule's by up to {gap:.3g}")
    return net


def export_checkpoint(checkpoint: str | Path) -> Path:
    """Write the export of the checkpoint directory ``checkpoint`` (see the module docstring);
    return the directory. Unpickles the checkpoint through Ray: only a checkpoint you made.

    Raises:
        FileNotFoundError: no checkpoint of :mod:`training.rllib_train` at ``checkpoint`` (itself or
            its ``checkpoint/`` folder: a run directory will do).
        ValueError: a module that is not exported (see :func:`module_spec`).
        ImportError: Ray RLlib is not installed.
    """
    checkpoint = find_checkpoint(checkpoint)
    try:
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ImportError as error:
        raise ImportError(f"exporting needs Ray RLlib ({error}): pip install 'maya-envs[rllib]'") from error
    metadata = read_metadata(checkpoint)
    root = checkpoint / "learner_group" / "learner" / "rl_module"
    specs = {}
    for module_id in sorted(set(metadata["modules"].values())):
        weight_file(checkpoint, module_id)  # a plain name, before Ray reads anything
        net = export_module(RLModule.from_checkpoint(str((root / module_id).resolve())))
        save_net(checkpoint, module_id, net)
        specs[module_id] = net.spec
    metadata["export"] = {"format": FORMAT, "modules": specs}
    (checkpoint / METADATA_FILE).write_text(json.dumps(metadata, indent=2))
    return checkpoint


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.rllib_export", description=description(__doc__))
    parser.add_argument("checkpoint", type=Path, help="a checkpoint directory of training.rllib_train (your own)")
    args = parser.parse_args(argv)
    try:
        print(f"exported: {export_checkpoint(args.checkpoint)}")
    except (ValueError, OSError, ImportError) as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
