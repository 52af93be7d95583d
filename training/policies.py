"""Policy networks for MaskablePPO.

``"mlp"``: sb3-contrib's ``MaskableActorCriticPolicy`` (an MLP over the observation).

``"action_features"``: :class:`ActionFeaturePolicy`, the same MLP plus, for games whose
observation holds a block of per-action features (the one-step consequences of each action,
e.g. Maya (2012)'s ladders placed / completion / VP swing per exchange, or Yaxha's colour-point
and margin change per placement with its ``action_features=True`` game option; each game
declares its block in the game table, :mod:`maya_envs.games`), a linear score of those features with
one weight vector shared by every action, added to that action's logit. Sharing the weights
lets one update teach the policy about every action at once, where a plain MLP has to learn a
separate input-to-logit path per action id.
"""

from __future__ import annotations

from typing import Any

import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from maya_envs.core.errors import ConfigError
from maya_envs.games import find_game

POLICIES = ("mlp", "action_features")


class ActionFeaturePolicy(MaskableActorCriticPolicy):
    """MLP policy with a shared linear head over a per-action feature block.

    Args:
        action_feature_block: ``(start, features, actions)``: the observation slice
            ``[start, start + features * actions)`` holds ``features`` rows of ``actions``
            values, row ``f`` column ``a`` being feature ``f`` of action id ``a``.
        action_feature_gain: the block is multiplied by this before the head. Adam moves a
            weight by about the learning rate per step whatever its gradient, and the
            features differ by fractions of 1 between good and bad actions (one victory
            point is 1/6 in Maya (2012)), so without a gain the head needs thousands of
            updates to express a clear preference; measured: +0.015 per 4,096 steps.
        Other arguments as ``MaskableActorCriticPolicy``.
    """

    def __init__(
        self, *args: Any, action_feature_block: tuple[int, int, int], action_feature_gain: float = 10.0, **kwargs: Any
    ) -> None:
        self.action_feature_block = tuple(int(x) for x in action_feature_block)
        self.action_feature_gain = float(action_feature_gain)
        self._observation: th.Tensor | None = None
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule) -> None:
        # Created before the optimizer, which super()._build makes from self.parameters().
        self.action_feature_head = nn.Linear(self.action_feature_block[1], 1)
        nn.init.zeros_(self.action_feature_head.weight)  # start as the plain MLP policy
        nn.init.zeros_(self.action_feature_head.bias)
        super()._build(lr_schedule)

    # The three entry points that build an action distribution record the observation it
    # is built from; _get_action_dist_from_latent only receives the latent code.
    def forward(self, obs: th.Tensor, *args: Any, **kwargs: Any):
        self._observation = obs
        return super().forward(obs, *args, **kwargs)

    def evaluate_actions(self, obs: th.Tensor, *args: Any, **kwargs: Any):
        self._observation = obs
        return super().evaluate_actions(obs, *args, **kwargs)

    def get_distribution(self, obs: th.Tensor, *args: Any, **kwargs: Any):
        self._observation = obs
        return super().get_distribution(obs, *args, **kwargs)

    def _get_action_dist_from_latent(self, latent_pi: th.Tensor):
        logits = self.action_net(latent_pi)
        start, features, actions = self.action_feature_block
        if self._observation is None or self._observation.shape[0] != logits.shape[0]:
            raise RuntimeError("ActionFeaturePolicy: no observation recorded for this latent batch")
        block = self._observation[:, start : start + features * actions].reshape(-1, features, actions)
        scores = self.action_feature_head(self.action_feature_gain * block.transpose(1, 2)).squeeze(-1)
        logits = th.cat([logits[:, :actions] + scores, logits[:, actions:]], dim=1)
        return self.action_dist.proba_distribution(action_logits=logits)


def action_feature_block(env_id: str, observation_size: int) -> tuple[int, int, int]:
    """The per-action feature block of ``env_id``'s observation, as the game's
    ``action_features`` hook declares it (:mod:`maya_envs.games`).

    Raises:
        ConfigError: the game's observation has no such block.
    """
    block = find_game(env_id).action_feature_block(observation_size)
    if block is None:
        raise ConfigError(
            f"policy='action_features' needs an observation with a per-action feature block; {env_id!r} with "
            f"observation size {observation_size} has none (use policy='mlp')"
        )
    return block


def policy_for(
    name: str, env_id: str, observation_size: int, action_feature_gain: float = 10.0
) -> tuple[type, dict[str, Any]]:
    """The policy class and its extra keyword arguments for a config's ``policy`` name
    (``action_feature_gain`` is used by ``"action_features"`` only).

    Raises:
        ConfigError: an unknown name, or ``"action_features"`` for an observation without a block.
    """
    if name == "mlp":
        return MaskableActorCriticPolicy, {}
    if name == "action_features":
        block = action_feature_block(env_id, observation_size)
        return ActionFeaturePolicy, {"action_feature_block": block, "action_feature_gain": float(action_feature_gain)}
    raise ConfigError(f"policy={name!r}; allowed: {list(POLICIES)}")
