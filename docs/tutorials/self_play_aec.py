"""Self-play over the PettingZoo AEC API: one policy plays every seat of Maya (2012), 3 players.

Each agent's observation is its own seat's view (hidden task cards stay hidden); the same network
chooses for every agent, and after each game every decision is reinforced with its own seat's
final reward (REINFORCE with a per-game mean baseline). The loop is the standard
`agent_iter()` / `last()` / `step()` one; a finished agent steps `None`.

    python docs/tutorials/self_play_aec.py            # 300 games
    MAYA_TUTORIAL_TINY=1 python docs/tutorials/self_play_aec.py   # 2 short games (the test)
"""

import os

import numpy as np
import torch
from torch import nn

from maya_envs import maya2012_v1

TINY = os.environ.get("MAYA_TUTORIAL_TINY") == "1"
GAMES, MAX_TURNS = (2, 20) if TINY else (300, 300)
torch.manual_seed(0)

env = maya2012_v1.env(num_players=3, max_turns=MAX_TURNS)
env.reset(seed=0)
first = env.agents[0]
policy = nn.Sequential(
    nn.Linear(env.observation_space(first)["observation"].shape[0], 128),
    nn.ReLU(),
    nn.Linear(128, env.action_space(first).n),
)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)

for game in range(GAMES):
    env.reset(seed=game)
    log_probs = {agent: [] for agent in env.agents}
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = reward  # the seat's reward, paid on the step that ended the game
            env.step(None)
            continue
        logits = policy(torch.as_tensor(obs["observation"]))
        legal = torch.as_tensor(obs["action_mask"], dtype=torch.bool)
        dist = torch.distributions.Categorical(logits=logits.masked_fill(~legal, -torch.inf))
        action = dist.sample()
        log_probs[agent].append(dist.log_prob(action))
        env.step(int(action))
    baseline = np.mean(list(final.values()))
    loss = -sum((final[a] - baseline) * torch.stack(lp).sum() for a, lp in log_probs.items() if lp)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if game % max(1, GAMES // 10) == 0 or game == GAMES - 1:
        print(f"game {game}: rewards {final}, end: {info.get('end')}")
