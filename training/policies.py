"""Policy networks for MaskablePPO.

``"mlp"``: sb3-contrib's ``MaskableActorCriticPolicy`` (an MLP over the observation).

``"action_features"``: :class:`ActionFeaturePolicy`, the same MLP plus, for games whose
observation holds a block of per-action features (the one-step consequences of each action,
e.g. Maya (2012)'s ladders placed / completion / VP swing per exchange, or Yaxha's colour-point
and margin change per placement with its ``action_features=True`` game option; the block is
the part named ``action_features`` of the game observer's layout), a linear score of those features with
one weight vector shared by every action, added to that action's logit. Sharing the weights
lets one update teach the policy about every action at once, where a plain MLP has to learn a
separate input-to-logit path per action id.

``"action_scoring"``: :class:`ActionScoringPolicy`, the expert-iteration network's action head
(:class:`maya_envs.nn.model.PolicyValueNet`) on PPO's MLP: ``logit(a) = MLP([latent, gain *
f(a)]) + action_net(latent)[a]``, one small MLP shared by every action over the board's latent
code and the action's feature column (non-linear, where ``action_features`` is linear), plus the
per-id output of the plain MLP policy; same feature block, same gain.
"""

from __future__ import annotations

from typing import Any

import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from maya_envs.core.errors import ConfigError, shorten
from maya_envs.core.layout import ACTION_FEATURES, Layout
from maya_envs.core.layout import action_feature_block as layout_feature_block

POLICIES = ("mlp", "action_features", "action_scoring")


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
        scores = self._scores(latent_pi, self._scaled_block(len(logits)))
        actions = scores.shape[1]
        logits = th.cat([logits[:, :actions] + scores, logits[:, actions:]], dim=1)
        return self.action_dist.proba_distribution(action_logits=logits)

    def _scaled_block(self, batch: int) -> th.Tensor:
        """``(batch, actions, features)``: the recorded observations' feature block times the gain."""
        start, features, actions = self.action_feature_block
        if self._observation is None or self._observation.shape[0] != batch:
            raise RuntimeError(f"{type(self).__name__}: no observation recorded for this latent batch")
        block = self._observation[:, start : start + features * actions].reshape(-1, features, actions)
        return self.action_feature_gain * block.transpose(1, 2)

    def _scores(self, latent_pi: th.Tensor, block: th.Tensor) -> th.Tensor:
        """``(batch, actions)``: each action's score added to its logit (a shared linear head)."""
        return self.action_feature_head(block).squeeze(-1)


class ActionScoringPolicy(ActionFeaturePolicy):
    """:class:`ActionFeaturePolicy` with a shared MLP scoring head over ``[latent, gain * f(a)]``
    (module docstring).

    Args:
        action_scoring_hidden: the scoring MLP's width.
        Other arguments as :class:`ActionFeaturePolicy`.
    """

    def __init__(self, *args: Any, action_scoring_hidden: int = 64, **kwargs: Any) -> None:
        self.action_scoring_hidden = int(action_scoring_hidden)
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        del self.action_feature_head  # replaced by the scoring MLP below
        hidden, features = self.action_scoring_hidden, self.action_feature_block[1]
        self.action_scoring_latent = nn.Linear(self.mlp_extractor.latent_dim_pi, hidden)
        self.action_scoring_features = nn.Linear(features, hidden, bias=False)
        self.action_scoring_out = nn.Sequential(nn.ReLU(), nn.Linear(hidden, 1))
        nn.init.zeros_(self.action_scoring_out[1].weight)  # start as the plain MLP policy
        nn.init.zeros_(self.action_scoring_out[1].bias)
        # The optimizer super()._build made does not hold the new head: make it again.
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _scores(self, latent_pi: th.Tensor, block: th.Tensor) -> th.Tensor:
        x = self.action_scoring_latent(latent_pi).unsqueeze(1) + self.action_scoring_features(block)
        return self.action_scoring_out(x).squeeze(-1)


def observation_layout(env_id: str, game_options: dict[str, Any] | None = None) -> Layout:
    """The named observation layout of the Gymnasium env ``env_id`` with ``game_options`` (its
    game observer's :attr:`~maya_envs.core.layout.Observer.layout`)."""
    import gymnasium as gym

    env = gym.make(env_id, **dict(game_options or {}))
    try:
        return env.unwrapped.aec_env.observer.layout
    finally:
        env.close()


def action_feature_block(layout: Layout, policy: str = "action_features") -> tuple[int, int, int]:
    """``(start, features, actions)`` of the ``action_features`` part of ``layout``, read by name.

    Raises:
        ConfigError: the layout has no such part.
    """
    block = layout_feature_block(layout)
    if block is None:
        raise ConfigError(
            f"policy={policy!r} needs an observation with a per-action feature block (a part named "
            f"{ACTION_FEATURES!r}); this observation has the parts {list(layout.names)} (use policy='mlp')"
        )
    return block


def policy_for(name: str, layout: Layout, action_feature_gain: float = 10.0) -> tuple[type, dict[str, Any]]:
    """The policy class and its extra keyword arguments for a config's ``policy`` name over an
    observation of ``layout`` (``action_feature_gain`` is used by ``"action_features"`` only).

    Raises:
        ConfigError: an unknown name, or ``"action_features"`` for an observation without a block.
    """
    if name == "mlp":
        return MaskableActorCriticPolicy, {}
    if name in ("action_features", "action_scoring"):
        block = action_feature_block(layout, name)
        policy = ActionFeaturePolicy if name == "action_features" else ActionScoringPolicy
        return policy, {"action_feature_block": block, "action_feature_gain": float(action_feature_gain)}
    raise ConfigError(f"policy={shorten(name)}; allowed: {list(POLICIES)}")
