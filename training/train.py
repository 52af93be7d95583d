"""Train a MaskablePPO agent from a config, then evaluate it against the bots.

Usage::

    maya-train --config configs/maya2012_maskable_ppo.yaml [--set key=value ...]
    python -m training.train --config ...

The run directory ``{output_dir}/{env}__{exp_name}__{seed}__{time}`` receives the resolved
``config.yaml``, TensorBoard logs (``tb/``), checkpoints, ``model.zip`` and the evaluation
results (``evaluation.json``, ``evaluation.md``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import gymnasium as gym
import yaml

import maya_envs  # noqa: F401  (registers the ids)
from training.config import TrainConfig, load_config
from training.evaluate import evaluate_against_bots, write_results
from training.policies import policy_for


def make_vec_env(config: TrainConfig):
    """``config.n_envs`` single-agent envs against the opponent mix, in a monitored vector env."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    shaping = {"reward_shaping": config.reward_shaping} if config.reward_shaping else {}

    def make_one():
        return gym.make(
            config.env_id,
            opponent=dict(config.opponents),
            learner_seat=config.learner_seat,
            **shaping,
            **config.game_options,
        )

    vec_cls = DummyVecEnv if config.vec_env == "dummy" else SubprocVecEnv
    return VecMonitor(vec_cls([make_one] * config.n_envs))


def run_name(config: TrainConfig) -> str:
    env = config.env_id.split("/")[-1]
    return f"{env}__{config.exp_name}__{config.seed}__{time.strftime('%Y%m%d-%H%M%S')}"


def train(config: TrainConfig) -> Path:
    """Train, save ``model.zip`` and the evaluation into a new run directory; return it."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CheckpointCallback
    from stable_baselines3.common.utils import set_random_seed

    set_random_seed(config.seed)
    run_dir = Path(config.output_dir) / run_name(config)
    run_dir.mkdir(parents=True, exist_ok=False)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(config.to_dict(), sort_keys=False))
    print(f"run directory: {run_dir}")

    env = make_vec_env(config)
    policy_class, policy_extra = policy_for(config.policy, config.env_id, env.observation_space.shape[0])
    model = MaskablePPO(
        policy_class,
        env,
        learning_rate=config.learning_rate,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        gamma=config.gamma,
        gae_lambda=config.gae_lambda,
        clip_range=config.clip_range,
        ent_coef=config.ent_coef,
        policy_kwargs={"net_arch": list(config.net_arch), **policy_extra},
        tensorboard_log=str(run_dir / "tb"),
        seed=config.seed,
        device=config.device,
        verbose=0,
    )
    callbacks = []
    if config.checkpoint_every:
        every = max(config.checkpoint_every // config.n_envs, 1)
        callbacks.append(CheckpointCallback(every, str(run_dir / "checkpoints"), name_prefix="model"))
    started = time.perf_counter()
    model.learn(config.total_timesteps, callback=callbacks or None, progress_bar=config.progress_bar)
    train_seconds = time.perf_counter() - started
    model.save(run_dir / "model.zip")
    env.close()
    print(f"trained {config.total_timesteps} steps in {train_seconds:.0f} s; evaluating...")

    started = time.perf_counter()
    results = evaluate_against_bots(model, config, name=config.exp_name)
    extra = {
        "train_seconds": train_seconds,
        "eval_seconds": time.perf_counter() - started,
        "total_timesteps": config.total_timesteps,
    }
    write_results(results, run_dir, extra)
    return run_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="maya-train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", type=Path, required=True, help="YAML config (see training/config.py)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key")
    args = parser.parse_args(argv)
    config = load_config(args.config, args.set)
    train(config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
