"""Masked PPO self-play in torch on a batch of JAX games, writing no JAX.

`JaxVectorEnv` steps a whole batch of games in one compiled call and hands back numpy arrays
(or torch tensors): the observation and mask of the seat to move, and every seat's reward.
One policy plays every seat. Each row interleaves the seats' turns, so the rollout links each
seat's transitions into its own chain (a seat's next transition in the same game), credits
each reward to the seat's last transition, and runs GAE along the chains. At the end the
policy plays seat 0 against a uniformly random seat 1.

    python docs/tutorials/jax_selfplay_ppo.py                         # 40 updates of 64 x 32 steps
    MAYA_TUTORIAL_TINY=1 python docs/tutorials/jax_selfplay_ppo.py    # 2 updates of 4 x 8 (the test)
"""

import os

import numpy as np
import torch
from torch import nn

from maya_envs.jax.vector import JaxVectorEnv

TINY = os.environ.get("MAYA_TUTORIAL_TINY") == "1"
GAMES, STEPS, UPDATES, EVAL_STEPS = (4, 8, 2, 16) if TINY else (64, 32, 40, 400)
GAMMA, LAMBDA, CLIP, EPOCHS, MINIBATCHES, LR = 1.0, 0.95, 0.2, 4, 4, 3e-4
torch.manual_seed(0)
rng = np.random.default_rng(0)

env = JaxVectorEnv("maya2012", GAMES, output="torch", num_players=2)
n_seats, n_actions, obs_size = env.num_players, env.num_actions, env.observation_shape[0]


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_size, 128), nn.Tanh(), nn.Linear(128, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_size, 128), nn.Tanh(), nn.Linear(128, 1))

    def policy(self, obs, mask):
        """The masked distribution: an illegal id's logit is -inf, so it is never sampled."""
        return torch.distributions.Categorical(logits=self.actor(obs).masked_fill(~mask, -torch.inf))


def link_chains(seats, rewards, ended):
    """Per transition (t, row): its reward, whether its seat's game ended after it, and the time of
    the same seat's next transition in that row (-1: none yet). Inputs are (T, B) seats, (T, B,
    seats) rewards and (T, B) game ends, as the env returned them."""
    steps, rows = seats.shape
    reward, done, following = np.zeros((steps, rows)), np.zeros((steps, rows), bool), np.full((steps, rows), -1)
    last = np.full((rows, n_seats), -1)  # each seat's latest transition in the row's current game
    every = np.arange(rows)
    for t in range(steps):
        mover = seats[t]
        seen = last[every, mover] >= 0
        following[last[every[seen], mover[seen]], every[seen]] = t
        last[every, mover] = t
        for seat in range(n_seats):  # a reward goes to the seat's own last move, whoever just moved
            has = last[:, seat] >= 0
            reward[last[has, seat], every[has]] += rewards[t, has, seat]
            over = has & ended[t]
            done[last[over, seat], every[over]] = True
        last[ended[t]] = -1
    return reward, done, following


def advantages_along_chains(values, reward, done, following):
    """GAE where a transition's successor is its seat's next one; a chain cut by the end of the
    rollout bootstraps from its own value."""
    adv = np.zeros_like(values)
    for t in reversed(range(values.shape[0])):
        linked = following[t] >= 0
        nxt = np.where(linked, following[t], t)
        next_value = np.where(done[t], 0.0, values[nxt, np.arange(values.shape[1])])
        next_adv = np.where(done[t] | ~linked, 0.0, adv[nxt, np.arange(values.shape[1])])
        adv[t] = reward[t] + GAMMA * next_value - values[t] + GAMMA * LAMBDA * next_adv
    return adv


agent = Agent()
optimizer = torch.optim.Adam(agent.parameters(), lr=LR)
batch = env.reset(seed=0)
for update in range(UPDATES):
    record = {k: [] for k in ("obs", "mask", "action", "logp", "value", "seat", "rewards", "ended")}
    for _ in range(STEPS):
        with torch.no_grad():
            dist = agent.policy(batch.observation, batch.action_mask)
            action, value = dist.sample(), agent.critic(batch.observation).squeeze(-1)
        record["obs"].append(batch.observation)
        record["mask"].append(batch.action_mask)
        record["seat"].append(batch.current_player.numpy())
        batch = env.step(action)
        record["action"].append(action)
        record["logp"].append(dist.log_prob(action))
        record["value"].append(value.numpy())
        record["rewards"].append(batch.rewards.numpy())
        record["ended"].append((batch.terminated | batch.truncated).numpy())
    values = np.stack(record["value"])
    reward, done, following = link_chains(np.stack(record["seat"]), np.stack(record["rewards"]),
                                          np.stack(record["ended"]))  # fmt: skip
    adv = advantages_along_chains(values, reward, done, following)
    flat = {k: torch.stack(record[k]).flatten(0, 1) for k in ("obs", "mask", "action", "logp")}
    b_adv, b_target = torch.tensor(adv.ravel(), dtype=torch.float32), torch.tensor((adv + values).ravel(),
                                                                                     dtype=torch.float32)  # fmt: skip
    for _ in range(EPOCHS):
        for idx in torch.randperm(b_adv.numel()).chunk(MINIBATCHES):
            dist = agent.policy(flat["obs"][idx], flat["mask"][idx])
            ratio = (dist.log_prob(flat["action"][idx]) - flat["logp"][idx]).exp()
            a = (b_adv[idx] - b_adv[idx].mean()) / (b_adv[idx].std() + 1e-8)
            policy_loss = -torch.min(ratio * a, ratio.clamp(1 - CLIP, 1 + CLIP) * a).mean()
            value_loss = (agent.critic(flat["obs"][idx]).squeeze(-1) - b_target[idx]).pow(2).mean()
            loss = policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
    print(f"update {update + 1}: {int(done.sum()) // n_seats} games ended, value loss {value_loss.item():.3f}")

# The policy as seat 0 against a uniformly random seat 1, in fresh games.
batch, results = env.reset(seed=1), []
for _ in range(EVAL_STEPS):
    with torch.no_grad():
        greedy = agent.policy(batch.observation, batch.action_mask).probs.argmax(-1)
    uniform = torch.multinomial(batch.action_mask.float(), 1).squeeze(-1)
    batch = env.step(torch.where(batch.current_player == 0, greedy, uniform))
    results += batch.rewards[batch.terminated, 0].tolist()
wins = sum(r > 0 for r in results)
print(f"against random: {wins} wins in {len(results)} finished games (seat 0's mean reward "
      f"{np.mean(results) if results else float('nan'):.2f})")
