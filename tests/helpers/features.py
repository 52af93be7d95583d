"""The check of a game's per-action feature block."""

from __future__ import annotations

from training.policies import action_feature_block, observation_layout


def check_feature_block(env_id: str, options: dict, block: tuple[int, int, int]) -> None:
    """The env's observation ends in the feature block ``(start, features, actions)`` (the
    per-game tests pin each game's blocks with this)."""
    import gymnasium as gym

    env = gym.make(env_id, **options)
    assert action_feature_block(observation_layout(env_id, options)) == block
    start, features, actions = block
    assert start + features * actions == env.observation_space.shape[0]
    assert actions <= env.action_space.n
