"""Masked PPO self-play in torch on a batch of JAX games, writing no JAX.

`JaxVectorEnv` steps a whole batch of games in one compiled call and hands back numpy arrays
(or torch tensors): the observation and mask of the seat to move, and every seat's reward.
One policy plays every seat. Each row interleaves the seats' turns, so the rollout links each
seat's transitions into its own chain (a seat's next transition in the same game), credits
each reward to the seat's last transition, and runs GAE along the chains. At the end the
greedy policy plays one game in every row against uniformly random seats, on seat 0 in even
rows and seat 1 in odd ones, and the win rate comes with its Wilson interval.

    python docs/tutorials/jax_selfplay_ppo.py                         # 300 updates of 64 x 32 steps
    MAYA_TUTORIAL_TINY=1 python docs/tutorials/jax_selfplay_ppo.py    # 2 updates of 4 x 8 (the test)
"""

import os

import numpy as np
import torch
from torch import nn

from maya_envs.evaluation.stats import wilson_interval
from maya_envs.jax.vector import JaxVectorEnv

TINY = os.environ.get("MAYA_TUTORIAL_TINY") == "1"
GAMES, STEPS, UPDATES, EVAL_ROUNDS = (4, 8, 2, 1) if TINY else (64, 32, 300, 4)
GAMMA, LAMBDA, CLIP, EPOCHS, MINIBATCHES, LR = 1.0, 0.95, 0.2, 4, 4, 3e-4
torch.manual_seed(0)
# A network this small gains nothing from more threads, and torch's threads spin against
# JAX's: on 2 busy cores an update took 3-7 CPU s with 2 threads, 0.25 s with one.
torch.set_num_threads(1)

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


def greedy_vs_random(seed):
    """One game in every row: the greedy policy on seat ``row % n_seats``, uniform random legal
    moves on the others. Returns the policy's rewards ``(GAMES,)`` and its seats ``(GAMES,)``.
    Only each row's first game counts: counting every game that ends within a fixed number of
    steps would favour short games, and a weak greedy policy's games run to ``max_turns``."""
    batch, policy_seat = env.reset(seed=seed), torch.arange(GAMES) % n_seats
    result = torch.full((GAMES,), torch.nan)
    while result.isnan().any():  # a game ends within max_turns (300) exchanges
        with torch.no_grad():
            greedy = agent.policy(batch.observation, batch.action_mask).probs.argmax(-1)
        uniform = torch.multinomial(batch.action_mask.float(), 1).squeeze(-1)
        batch = env.step(torch.where(batch.current_player == policy_seat, greedy, uniform))
        first = (batch.terminated | batch.truncated) & result.isnan()
        result[first] = batch.rewards[first].gather(1, policy_seat[first, None]).squeeze(1)
    return result, policy_seat


rounds = [greedy_vs_random(seed=1 + r) for r in range(EVAL_ROUNDS)]
rewards, seats = torch.cat([r for r, _ in rounds]), torch.cat([s for _, s in rounds])
wins, draws = int((rewards > 0).sum()), int((rewards == 0).sum())
games = rewards.numel()
low, high = wilson_interval(wins, games)
by_seat = ", ".join(
    f"seat {k} {int((rewards[seats == k] > 0).sum())}/{int((seats == k).sum())}" for k in range(n_seats)
)
print(f"greedy policy vs random: {wins} wins, {draws} draws, {games - wins - draws} losses in {games} games "
      f"({by_seat}); win rate {wins / games:.1%}, 95% Wilson [{low:.1%}, {high:.1%}]")  # fmt: skip
