"""PPO RLModule (RLlib's new API stack) that applies the env's ``action_mask`` to the logits.

The observation is our dict ``{"observation": Box float32, "action_mask": Box int8}``. The
module builds RLlib's default PPO encoder and heads on the ``"observation"`` Box alone, and
adds ``log(mask)`` (clamped to ``FLOAT_MIN``) to the action logits in every forward pass
(inference, exploration, training), so masked actions get probability 0 when sampled and
contribute nothing to the PPO loss. The value function sees the observation only.

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
from ray.rllib.utils.torch_utils import FLOAT_MIN

OBS_KEY = "observation"
MASK_KEY = "action_mask"


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
        self.observation_space = self.observation_space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[dict[str, Any], torch.Tensor]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict) or MASK_KEY not in obs:
            raise ValueError(f"expected observations with keys {OBS_KEY!r} and {MASK_KEY!r}, got {type(obs).__name__}")
        inner = dict(batch)
        inner[Columns.OBS] = obs[OBS_KEY]
        return inner, obs[MASK_KEY]

    @staticmethod
    def _mask(outs: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
        logits = outs[Columns.ACTION_DIST_INPUTS]
        penalty = torch.clamp(torch.log(mask.to(logits.dtype)), min=FLOAT_MIN)
        outs[Columns.ACTION_DIST_INPUTS] = logits + penalty
        return outs

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None):
        if embeddings is None and isinstance(batch[Columns.OBS], dict):
            batch, _ = self._split(batch)
        return super().compute_values(batch, embeddings)
