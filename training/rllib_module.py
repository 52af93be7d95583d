"""PPO RLModule (RLlib's new API stack) that applies the env's ``action_mask`` to the logits.

The observation is our dict ``{"observation": Box float32, "action_mask": Box int8}``. The
module builds RLlib's default PPO encoder and heads on the ``"observation"`` Box alone, and
adds ``log(mask)`` (clamped to RLlib's ``FLOAT_MIN``; :func:`training.rllib_policy.masked_logits`)
to the action logits in every forward pass (inference, exploration, training), so masked actions
get probability 0 when sampled and contribute nothing to the PPO loss. The value function sees the observation only.

Optionally (``model_config["action_feature_block"] = [start, features, actions]``), the logits of
the first ``actions`` action ids also get a linear score of a per-action feature block of the
observation, with one weight vector shared by every action (as ``training.policies``'
``ActionFeaturePolicy`` for SB3: the slice ``[start, start + features * actions)`` holds
``features`` rows of ``actions`` values), scaled by ``model_config["action_feature_gain"]``
(default 10). The head starts at zero, i.e. as the plain MLP policy.

Unlike RLlib's example module (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``),
this one never mutates the caller's batch and reads the mask in ``_forward_train`` from the
observations themselves, not from a key left behind by an earlier ``compute_values`` call.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from torch import nn

from training.rllib_policy import masked_logits

OBS_KEY = "observation"
MASK_KEY = "action_mask"
FEATURE_BLOCK_KEY = "action_feature_block"
FEATURE_GAIN_KEY = "action_feature_gain"


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """Default PPO torch module over ``obs["observation"]`` with ``obs["action_mask"]`` applied.

    Raises:
        ValueError: an observation space that is not a Dict with the two keys above.
    """

    def __init__(self, *args: Any, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space.spaces) != {OBS_KEY, MASK_KEY}:
            raise ValueError(
                f"MaskedPPOTorchRLModule needs a Dict observation space with keys {OBS_KEY!r} and {MASK_KEY!r}, "
                f"got {observation_space!r}"
            )
        self.observation_space_with_mask = observation_space
        super().__init__(*args, observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self) -> None:
        super().setup()  # encoder and heads are built on the "observation" Box
        config = self.model_config if isinstance(self.model_config, dict) else {}
        block = config.get(FEATURE_BLOCK_KEY)
        self.action_feature_block: tuple[int, int, int] | None = None
        if block is not None:
            start, features, actions = (int(x) for x in block)
            size, num_actions = self.observation_space.shape[0], self.action_space.n
            if start < 0 or features <= 0 or start + features * actions > size or not 0 < actions <= num_actions:
                raise ValueError(
                    f"{FEATURE_BLOCK_KEY}={list(block)} does not fit an observation of size {size} "
                    f"and {num_actions} actions"
                )
            self.action_feature_block = (start, features, actions)
            self.action_feature_gain = float(config.get(FEATURE_GAIN_KEY, 10.0))
            self.action_feature_head = nn.Linear(features, 1)
            nn.init.zeros_(self.action_feature_head.weight)  # start as the plain MLP policy
            nn.init.zeros_(self.action_feature_head.bias)
        self.observation_space = self.observation_space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[dict[str, Any], torch.Tensor]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict) or MASK_KEY not in obs:
            raise ValueError(f"expected observations with keys {OBS_KEY!r} and {MASK_KEY!r}, got {type(obs).__name__}")
        inner = dict(batch)
        inner[Columns.OBS] = obs[OBS_KEY]
        return inner, obs[MASK_KEY]

    def _mask(self, outs: dict[str, Any], observation: torch.Tensor, mask: torch.Tensor) -> dict[str, Any]:
        # the same function as the weights-only export's network, so both give the same logits
        outs[Columns.ACTION_DIST_INPUTS] = masked_logits(self, outs[Columns.ACTION_DIST_INPUTS], observation, mask)
        return outs

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), inner[Columns.OBS], mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), inner[Columns.OBS], mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None):
        if embeddings is None and isinstance(batch[Columns.OBS], dict):
            batch, _ = self._split(batch)
        return super().compute_values(batch, embeddings)
