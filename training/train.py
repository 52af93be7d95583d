"""Train a MaskablePPO agent from a config, then evaluate it against the bots.

Usage::

    maya-train --config maya2012/2p_quick [--set key=value ...]   # a shipped config by name
    maya-train --config my_config.yaml                              # or a file
    maya-train --list-configs                                       # the shipped names
    python -m training.train --config ...
    maya-train --resume runs/<run>/model.zip [--config ...] [--set total_timesteps=400000]

The run directory ``{output_dir}/{env}__{exp_name}__{seed}__{time}`` receives the resolved
``config.yaml``, TensorBoard logs (``tb/``), checkpoints, self-play ``snapshots/``,
``model.zip``, the learning curve (``learning_curve.json``/``.png`` when ``eval_every`` > 0)
and the evaluation results (``evaluation.json``, ``evaluation.md``). ``--resume`` continues a
checkpoint in a new run directory until ``total_timesteps`` in all (the config defaults to
the ``config.yaml`` of the checkpoint's run).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import gymnasium as gym
import yaml
from stable_baselines3.common.callbacks import BaseCallback

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.core.errors import ConfigError
from maya_envs.games import find_game
from training.config import TrainConfig, load_config
from training.config_names import config_names
from training.evaluate import aec_factory, evaluate_against_bots, write_results
from training.policies import policy_for


def make_vec_env(config: TrainConfig):
    """``config.n_envs`` single-agent envs against the opponent mix, in a monitored vector env."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    shaping = {"reward_shaping": config.reward_shaping} if config.reward_shaping else {}

    def make_one():
        if config.self_play.enabled:
            from training.self_play import make_self_play_env

            sp = config.self_play
            return make_self_play_env(
                config.env_id,
                dict(config.opponents),
                sp.snapshot_weight,
                sp.pool_size,
                learner_seat=config.learner_seat,
                **shaping,
                **config.game_options,
            )
        return gym.make(
            config.env_id,
            opponents=dict(config.opponents),
            learner_seat=config.learner_seat,
            **shaping,
            **config.game_options,
        )

    vec_cls = DummyVecEnv if config.vec_env == "dummy" else SubprocVecEnv
    return VecMonitor(vec_cls([make_one] * config.n_envs))


def run_name(config: TrainConfig) -> str:
    env = config.env_id.split("/")[-1]
    return f"{env}__{config.exp_name}__{config.seed}__{time.strftime('%Y%m%d-%H%M%S')}"


def train(config: TrainConfig, resume: str | Path | None = None) -> Path:
    """Train (from scratch, or from the checkpoint ``resume`` up to ``total_timesteps`` in all),
    save ``model.zip`` and the evaluation into a new run directory; return it."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CheckpointCallback
    from stable_baselines3.common.utils import set_random_seed

    set_random_seed(config.seed)
    if config.torch_threads:
        import torch

        torch.set_num_threads(config.torch_threads)
    run_dir = Path(config.output_dir) / run_name(config)
    run_dir.mkdir(parents=True, exist_ok=False)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(config.to_dict(), sort_keys=False))
    print(f"run directory: {run_dir}")

    env = make_vec_env(config)
    policy_class, policy_extra = policy_for(
        config.policy, config.env_id, env.observation_space.shape[0], config.action_feature_gain
    )
    if resume is not None:
        model = MaskablePPO.load(resume, env=env, device=config.device, tensorboard_log=str(run_dir / "tb"))
        print(f"resumed from {resume} at {model.num_timesteps} timesteps")
    else:
        model = _new_model(MaskablePPO, policy_class, policy_extra, env, config, run_dir)
    already = model.num_timesteps
    callbacks = [IllegalActionCounter()]
    if config.checkpoint_every:
        every = max(config.checkpoint_every // config.n_envs, 1)
        callbacks.append(CheckpointCallback(every, str(run_dir / "checkpoints"), name_prefix="model"))
    if config.self_play.enabled:
        from training.self_play import SelfPlayCallback

        callbacks.append(SelfPlayCallback(run_dir / "snapshots", config.self_play.snapshot_every))
    if config.eval_every:
        callbacks.append(LearningCurveCallback(config, run_dir))
    started = time.perf_counter()
    model.learn(
        max(config.total_timesteps - already, 0),
        callback=callbacks,
        progress_bar=config.progress_bar,
        reset_num_timesteps=resume is None,
    )
    train_seconds = time.perf_counter() - started
    model.save(run_dir / "model.zip")
    env.close()
    print(f"trained {model.num_timesteps - already} steps in {train_seconds:.0f} s; evaluating...")

    started = time.perf_counter()
    results = evaluate_against_bots(model, config, name=config.exp_name)
    extra = {
        "train_seconds": train_seconds,
        "eval_seconds": time.perf_counter() - started,
        "total_timesteps": model.num_timesteps,
        "resumed_from": str(resume) if resume is not None else None,
        "illegal_actions_in_rollouts": callbacks[0].illegal,
        "rollout_learner_seats": callbacks[0].seats,
    }
    write_results(results, run_dir, extra)
    return run_dir


def _new_model(MaskablePPO, policy_class, policy_extra, env, config: TrainConfig, run_dir: Path):  # noqa: N803
    return MaskablePPO(
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


class IllegalActionCounter(BaseCallback):
    """Counts, over the rollouts, the learner's illegal actions (an env ``info`` naming the
    learner as ``offender``) and the episodes started in each learner seat."""

    def __init__(self) -> None:
        super().__init__()
        self.illegal = 0
        self.seats: dict[str, int] = {}

    def _on_step(self) -> bool:
        for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
            if info.get("offender") is not None and info.get("offender") == info.get("learner"):
                self.illegal += 1
            if done:
                learner = str(info.get("learner"))
                self.seats[learner] = self.seats.get(learner, 0) + 1
        return True


class LearningCurveCallback(BaseCallback):
    """Every ``config.eval_every`` steps (and at the end), play ``config.eval_curve_games``
    games against each bot of ``config.eval_opponents`` (seats rotated; the model's
    ``predict`` gets each position's mask) and rewrite ``learning_curve.json`` and ``.png``."""

    def __init__(self, config: TrainConfig, run_dir: Path) -> None:
        super().__init__()
        self.config = config
        self.run_dir = Path(run_dir)
        self.points: list[dict] = []
        self.next_at = 0

    def _evaluate(self) -> None:
        from training.plots import plot_learning_curve

        config = self.config
        for result in evaluate_against_bots(self.model, config, name=config.exp_name, games=config.eval_curve_games):
            self.points.append({"timesteps": self.num_timesteps, **result.to_dict()})
        players = aec_factory(config)().rules.spec.num_players
        (self.run_dir / "learning_curve.json").write_text(json.dumps(self.points, indent=2))
        title = f"{config.env_id.split('/')[-1]} {players}p {config.exp_name}"
        teams = find_game(config.env_id).teams(players)
        fair = 1 / len(teams) if teams else 1 / players
        plot_learning_curve(self.points, self.run_dir / "learning_curve.png", title, fair_share=fair)
        self.next_at = self.num_timesteps + config.eval_every

    def _on_training_start(self) -> None:
        self.next_at = self.num_timesteps + self.config.eval_every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_at:
            self._evaluate()
        return True

    def _on_training_end(self) -> None:
        if not self.points or self.points[-1]["timesteps"] != self.num_timesteps:
            self._evaluate()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="maya-train", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--config", type=Path, help="YAML config file or shipped config name (see --list-configs, training/config.py)"
    )
    parser.add_argument("--list-configs", action="store_true", help="print the shipped config names and exit")
    parser.add_argument("--resume", type=Path, help="continue from this MaskablePPO checkpoint .zip")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key")
    args = parser.parse_args(argv)
    if args.list_configs:
        print("\n".join(name for name in config_names() if not name.startswith("rllib/")))
        return 0
    config_path = args.config
    if args.resume is not None:
        if not args.resume.is_file():
            parser.error(f"--resume {str(args.resume)!r}: checkpoint file does not exist")
        for folder in (args.resume.parent, args.resume.parent.parent):
            if config_path is None and (folder / "config.yaml").is_file():
                config_path = folder / "config.yaml"
    if config_path is None:
        parser.error("--config is required (or --resume with a config.yaml in the checkpoint's run)")
    try:
        config = load_config(config_path, args.set)
    except ConfigError as error:
        parser.error(str(error))
    if args.resume is not None:
        from stable_baselines3.common.save_util import load_from_zip_file

        done = load_from_zip_file(args.resume, device="cpu")[0]["num_timesteps"]
        if config.total_timesteps <= done:
            parser.error(
                f"total_timesteps={config.total_timesteps} counts all steps, the checkpoint's included, and "
                f"{str(args.resume)!r} already has {done}: nothing to train; set a larger total_timesteps"
            )
    train(config, resume=args.resume)
    return 0


if __name__ == "__main__":
    sys.exit(main())
