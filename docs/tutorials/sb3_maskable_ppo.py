"""sb3-contrib's MaskablePPO against the shipped `pretrained` agent of Yaxha, two players.

The Gymnasium id is the single-agent view: the learner's seat against opponents in the loop.
`opponents="pretrained"` is the config's strongest cheap shipped agent (the `train` extra).
The env's `action_masks()` is what MaskablePPO reads.

    python docs/tutorials/sb3_maskable_ppo.py            # 50,000 steps, then 100 games
    MAYA_TUTORIAL_TINY=1 python docs/tutorials/sb3_maskable_ppo.py   # 256 steps, 2 games (the test)
"""

import os

import gymnasium as gym
import numpy as np
from sb3_contrib import MaskablePPO

import maya_envs  # noqa: F401  (registers the Gymnasium ids)

TINY = os.environ.get("MAYA_TUTORIAL_TINY") == "1"
STEPS, GAMES = (256, 2) if TINY else (50_000, 100)

env = gym.make("maya_envs/Yaxha-v1", num_players=2, opponents="pretrained", learner_seat="random")
model = MaskablePPO("MlpPolicy", env, n_steps=128 if TINY else 2048, batch_size=64, seed=0, verbose=0)
model.learn(total_timesteps=STEPS)

wins = 0
for game in range(GAMES):
    obs, info = env.reset(seed=1000 + game)
    done = False
    while not done:
        action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
        obs, reward, terminated, truncated, info = env.step(int(action))
        done = terminated or truncated
    wins += reward > 0
print(f"won {wins} of {GAMES} games against pretrained ({100 * wins / GAMES:.0f}%)")
print("mask dtype:", np.asarray(env.unwrapped.action_masks()).dtype)
