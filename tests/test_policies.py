"""The action-feature policy: its per-action scores use the observation the distribution is
built from, in every entry point (rollouts, training, predict)."""

from __future__ import annotations

import numpy as np
import pytest
import torch as th

import maya_envs  # noqa: F401
from maya_envs.core.errors import ConfigError
from maya_envs.core.layout import action_feature_block as _block
from maya_envs.games import GAMES
from training.policies import ActionFeaturePolicy, action_feature_block, observation_layout, policy_for


def _default_block(game):
    """The per-action feature block of ``game``'s default observation (``None``: it has none)."""
    return _block(observation_layout(game.gym_id))


#: The first game whose default observation has a per-action feature block, and the games whose
#: default observation has none (they refuse the feature policies).
FEATURED = next(game for game in GAMES.values() if _default_block(game) is not None)
PLAIN = [game for game in GAMES.values() if _default_block(game) is None]
#: FEATURED's options with a random variant (a new start per seed).
OPTIONS = {FEATURED.variant_option: "random"}


@pytest.fixture
def model():
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    env = gym.make(FEATURED.gym_id, **OPTIONS)
    policy, extra = policy_for("action_features", env.unwrapped.aec_env.observer.layout)
    assert policy is ActionFeaturePolicy
    return MaskablePPO(policy, env, policy_kwargs={"net_arch": [16], **extra}, n_steps=64, batch_size=32, seed=0)


def test_scores_follow_the_feature_block_in_predict_and_forward(model):
    policy = model.policy
    start, features, actions = policy.action_feature_block
    with th.no_grad():
        policy.action_net.weight.zero_()
        policy.action_net.bias.zero_()
        policy.action_feature_head.weight.copy_(th.tensor([[0.0, 0.0, 5.0]]))  # VP swing dominates (x gain 10)
        policy.action_feature_head.bias.zero_()
    obs = np.zeros((2, model.observation_space.shape[0]), np.float32)
    obs[0, start + 2 * actions + 7] = 1.0  # sample 0: exchange 7 has the best swing
    obs[1, start + 2 * actions + 30] = 1.0  # sample 1: exchange 30
    predicted, _ = model.predict(obs, deterministic=True)
    assert predicted.tolist() == [7, 30]
    single, _ = model.predict(obs[1], deterministic=True)
    assert int(single) == 30
    taken, _, _ = policy(th.as_tensor(obs), deterministic=True)
    assert taken.tolist() == [7, 30]
    _, log_prob, _ = policy.evaluate_actions(th.as_tensor(obs), th.tensor([7, 30]))
    assert (log_prob > -1e-3).all()


def test_learn_and_predict_run_with_masks(model):
    model.learn(128)
    env = model.get_env()
    obs = env.reset()
    masks = np.stack(env.env_method("action_masks"))
    action, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[0, action[0]]


def test_games_without_a_feature_block_are_refused():
    assert PLAIN, "every game's default observation has a feature block: nothing to refuse"
    for game in PLAIN:
        with pytest.raises(ConfigError, match=r"policy='action_features' needs an observation with a per-action"):
            action_feature_block(observation_layout(game.gym_id))
    with pytest.raises(ConfigError, match=r"policy='cnn'; allowed: \['mlp', 'action_features', 'action_scoring'\]"):
        policy_for("cnn", observation_layout(FEATURED.gym_id))


def test_the_config_gain_reaches_the_policy_and_scales_the_scores():
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    env = gym.make(FEATURED.gym_id, num_players=3)
    size = env.observation_space.shape[0]
    start, _, _ = action_feature_block(env.unwrapped.aec_env.observer.layout)
    scores = {}
    for gain in (10.0, 40.0):
        layout = env.unwrapped.aec_env.observer.layout
        policy, extra = policy_for("action_features", layout, action_feature_gain=gain)
        model = MaskablePPO(policy, env, policy_kwargs={"net_arch": [8], **extra}, n_steps=32, batch_size=32, seed=0)
        assert model.policy.action_feature_gain == gain
        with th.no_grad():
            model.policy.action_net.weight.zero_()
            model.policy.action_net.bias.zero_()
            model.policy.action_feature_head.weight.fill_(1.0)
        obs = np.zeros((1, size), np.float32)
        obs[0, start + 5] = 0.5  # action 5's first feature
        with th.no_grad():
            dist = model.policy.get_distribution(th.as_tensor(obs))
        scores[gain] = float(dist.distribution.logits[0, 5] - dist.distribution.logits[0, 6])
    assert scores[40.0] == pytest.approx(4 * scores[10.0]) and scores[10.0] > 0


def test_action_scoring_policy_scores_each_action_from_its_features_and_learns():
    # The network's action head on PPO's latent: an MLP shared by every action over
    # [latent, gain * f(a)]; it starts as the plain MLP policy (zero output layer).
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    from training.policies import ActionScoringPolicy

    env = gym.make(FEATURED.gym_id, **OPTIONS)
    policy_class, extra = policy_for("action_scoring", env.unwrapped.aec_env.observer.layout)
    assert policy_class is ActionScoringPolicy
    model = MaskablePPO(policy_class, env, policy_kwargs={"net_arch": [16], **extra}, n_steps=64, batch_size=32, seed=0)
    policy = model.policy
    head = {id(p) for p in policy.action_scoring_out.parameters()}
    assert head <= {id(p) for group in policy.optimizer.param_groups for p in group["params"]}
    start, features, actions = policy.action_feature_block
    obs = np.zeros((2, model.observation_space.shape[0]), np.float32)
    obs[0, start + 2 * actions + 7] = 1.0
    obs[1, start + 2 * actions + 30] = 1.0
    with th.no_grad():
        policy.action_net.weight.zero_()
        policy.action_net.bias.zero_()
        policy.action_scoring_latent.weight.zero_()
        policy.action_scoring_latent.bias.zero_()
        policy.action_scoring_features.weight.zero_()
        policy.action_scoring_features.weight[0, 2] = 1.0  # hidden unit 0 = VP swing x gain
        policy.action_scoring_out[1].weight[0, 0] = 5.0
    predicted, _ = model.predict(obs, deterministic=True)
    assert predicted.tolist() == [7, 30]
    model.learn(128)
    with pytest.raises(ConfigError, match=r"policy='action_scoring' needs an observation with a per-action"):
        policy_for("action_scoring", observation_layout(PLAIN[0].gym_id))
