"""A CleanRL-style masked PPO loop in plain torch: Maya (2012), two players, against the heuristic.

One file, no RL library: a rollout of the single-agent Gymnasium view, invalid actions masked out
of the policy's logits (their probability is exactly 0), generalized advantage estimation, and
the clipped PPO update. The mask comes from `env.unwrapped.action_masks()` (int8, 1 = legal).

    python docs/tutorials/cleanrl_masked_ppo.py            # 100,000 steps
    MAYA_TUTORIAL_TINY=1 python docs/tutorials/cleanrl_masked_ppo.py   # 2 updates of 64 steps (the test)
"""

import os

import gymnasium as gym
import numpy as np
import torch
from torch import nn

import maya_envs  # noqa: F401  (registers the Gymnasium ids)

TINY = os.environ.get("MAYA_TUTORIAL_TINY") == "1"
TOTAL_STEPS, ROLLOUT = (128, 64) if TINY else (100_000, 1024)
GAMMA, LAMBDA, CLIP, EPOCHS, MINIBATCH, LR = 0.99, 0.95, 0.2, 4, 64, 3e-4
torch.manual_seed(0)

env = gym.make("maya_envs/Maya2012-v1", opponents="heuristic", learner_seat="random")
obs_size, n_actions = env.observation_space.shape[0], env.action_space.n


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_size, 128), nn.Tanh(), nn.Linear(128, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_size, 128), nn.Tanh(), nn.Linear(128, 1))

    def policy(self, obs, mask):
        """The masked distribution: an illegal id's logit is -inf, so it is never sampled."""
        logits = self.actor(obs).masked_fill(~mask, -torch.inf)
        return torch.distributions.Categorical(logits=logits)


agent = Agent()
optimizer = torch.optim.Adam(agent.parameters(), lr=LR)
obs, _ = env.reset(seed=0)
episode_returns = []
for update in range(TOTAL_STEPS // ROLLOUT):
    batch = {k: [] for k in ("obs", "mask", "action", "logp", "value", "reward", "done")}
    for _ in range(ROLLOUT):
        o = torch.as_tensor(obs, dtype=torch.float32)
        m = torch.as_tensor(env.unwrapped.action_masks(), dtype=torch.bool)
        with torch.no_grad():
            dist, value = agent.policy(o, m), agent.critic(o).squeeze(-1)
            action = dist.sample()
        obs, reward, terminated, truncated, _ = env.step(int(action))
        step = (o, m, action, dist.log_prob(action), value, reward, terminated or truncated)
        for key, item in zip(batch, step, strict=True):
            batch[key].append(item)
        if terminated or truncated:
            episode_returns.append(reward)
            obs, _ = env.reset()
    # generalized advantage estimation, backwards over the rollout
    with torch.no_grad():
        next_value = agent.critic(torch.as_tensor(obs, dtype=torch.float32)).squeeze(-1)
    values = torch.stack(batch["value"])
    rewards = torch.tensor(batch["reward"], dtype=torch.float32)
    dones = torch.tensor(batch["done"], dtype=torch.float32)
    advantages, last = torch.zeros(ROLLOUT), torch.tensor(0.0)
    for t in reversed(range(ROLLOUT)):
        following = next_value if t == ROLLOUT - 1 else values[t + 1]
        delta = rewards[t] + GAMMA * following * (1 - dones[t]) - values[t]
        last = delta + GAMMA * LAMBDA * (1 - dones[t]) * last
        advantages[t] = last
    targets = advantages + values
    b_obs, b_mask = torch.stack(batch["obs"]), torch.stack(batch["mask"])
    b_action, b_logp = torch.stack(batch["action"]), torch.stack(batch["logp"])
    for _ in range(EPOCHS):
        for idx in torch.randperm(ROLLOUT).split(MINIBATCH):
            dist = agent.policy(b_obs[idx], b_mask[idx])
            ratio = (dist.log_prob(b_action[idx]) - b_logp[idx]).exp()
            adv = (advantages[idx] - advantages[idx].mean()) / (advantages[idx].std() + 1e-8)
            policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - CLIP, 1 + CLIP) * adv).mean()
            value_loss = (agent.critic(b_obs[idx]).squeeze(-1) - targets[idx]).pow(2).mean()
            loss = policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
    recent = episode_returns[-50:]
    print(f"update {update + 1}: {len(episode_returns)} games, mean return of the last {len(recent)}: "
          f"{np.mean(recent) if recent else float('nan'):.2f}")
