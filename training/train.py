"""Train an agent from a config (MaskablePPO, or expert iteration with ``algo: exit``), then
evaluate it against the bots.

Usage::

    maya-train --config maya2012/2p_quick [--set key=value ...]   # a shipped config by name
    maya-train --config my_config.yaml                              # or a file
    maya-train --list-configs                                       # the shipped names
    python -m training.train --config ...
    maya-train --resume runs/<run>/model.zip [--config ...] [--set total_timesteps=400000]
    maya-train --config maya2012/2p_exit                            # expert iteration
    maya-train --resume runs/<run>/checkpoint.pt [--set exit.iterations=20]

The run directory ``{output_dir}/{env}__{exp_name}__{seed}__{time}`` receives the resolved
``config.yaml``, TensorBoard logs (``tb/``), checkpoints, self-play ``snapshots/``,
``model.zip``, the learning curve (``learning_curve.json``/``.png`` when ``eval_every`` > 0)
and the evaluation results (``evaluation.json``, ``evaluation.md``). ``--resume`` continues a
checkpoint in a new run directory until ``total_timesteps`` in all (the config defaults to
the ``config.yaml`` of the checkpoint's run).

``algo: exit`` (:mod:`training.exit`) writes ``model.pt`` (a policy-value network, playable as
``policy:<path>`` and ``az:<path>``), ``checkpoint.pt``, ``networks/``, ``history.json`` and
the same ``tb/``, learning curve and evaluation files; ``--resume runs/<run>/checkpoint.pt``
continues up to ``exit.iterations`` in all.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from maya_envs.cli import description
from maya_envs.cli.args import output_folder
from maya_envs.core.errors import ConfigError
from training.config import TrainConfig, check_env, load_config, make_single_agent_env, override_keys
from training.config_names import config_names
from training.progress import is_terminal
from training.run_dirs import new_run_dir, run_name

# Heavy imports (gymnasium envs, stable-baselines3, torch) happen inside the functions that
# train, so that ``--help`` and ``--list-configs`` answer at once.


def make_vec_env(config: TrainConfig):
    """``config.n_envs`` single-agent envs against the opponent mix, in a monitored vector env."""
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from training.vec_env import ResetCheckedSubprocVecEnv

    def make_one():
        if config.self_play.enabled:  # the pools are the env's opponents (built once)
            from training.self_play import make_self_play_env

            sp = config.self_play
            shaping = {"reward_shaping": config.reward_shaping} if config.reward_shaping else {}
            return make_self_play_env(
                config.env_id,
                dict(config.opponents),
                sp.snapshot_weight,
                sp.pool_size,
                learner_seat=config.learner_seat,
                **shaping,
                **config.game_options,
            )
        return make_single_agent_env(config)

    vec_cls = DummyVecEnv if config.vec_env == "dummy" else ResetCheckedSubprocVecEnv
    return VecMonitor(vec_cls([make_one] * config.n_envs))


def rollout_steps(config: TrainConfig, steps: int) -> int:
    """``steps`` rounded up to whole rollouts of ``n_envs * n_steps`` learner decisions: PPO
    always collects whole rollouts, so this is what training really takes."""
    rollout = config.n_envs * config.n_steps
    return rollout * math.ceil(steps / rollout) if steps > 0 else 0


def train(config: TrainConfig, resume: str | Path | None = None) -> Path:
    """Train (from scratch, or from the checkpoint ``resume`` up to ``total_timesteps`` in all,
    rounded up to whole rollouts), save ``model.zip`` and the evaluation into a new run
    directory; return it.

    Raises:
        ConfigError: the env cannot be built from the config (checked before the run directory
            is created, so a mistake leaves nothing behind).
    """
    check_env(config)
    import yaml
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CheckpointCallback
    from stable_baselines3.common.utils import set_random_seed

    from training.callbacks import IllegalActionCounter, LearningCurveCallback, ProgressLines
    from training.evaluate import evaluate_against_bots, evaluating, write_results
    from training.policies import observation_layout, policy_for

    set_random_seed(config.seed)
    if config.torch_threads:
        import torch

        torch.set_num_threads(config.torch_threads)
    run_dir = new_run_dir(config.output_dir, run_name(config))
    (run_dir / "config.yaml").write_text(yaml.safe_dump(config.to_dict(), sort_keys=False))
    print(f"run directory: {run_dir}")

    env = make_vec_env(config)
    layout = observation_layout(config.env_id, config.game_options)
    policy_class, policy_extra = policy_for(config.policy, layout, config.action_feature_gain)
    if resume is not None:
        from maya_envs.sb3_zip import load_maskable_ppo

        model = load_maskable_ppo(resume, env=env, device=config.device, tensorboard_log=str(run_dir / "tb"))
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
    steps = rollout_steps(config, config.total_timesteps - already)
    if already + steps != config.total_timesteps:
        print(
            f"training {steps:,} steps: total_timesteps={config.total_timesteps:,} rounded up to whole rollouts "
            f"of n_envs x n_steps = {config.n_envs * config.n_steps:,} (ends at {already + steps:,})"
        )
    started = time.perf_counter()
    # SB3's bar on a terminal; in a log (CI, `> log`) a line per 10 % or per minute instead
    bar = config.progress_bar and is_terminal()
    if config.progress_bar and not bar:
        callbacks.append(ProgressLines(steps))
    model.learn(
        steps,
        callback=callbacks,
        progress_bar=bar,
        reset_num_timesteps=resume is None,
    )
    train_seconds = time.perf_counter() - started
    model.save(run_dir / "model.zip")
    env.close()
    print(f"trained {model.num_timesteps - already} steps in {train_seconds:.0f} s; " + evaluating(config))

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


def build_parser() -> argparse.ArgumentParser:
    """The ``maya-train`` argument parser; ``--help`` lists the keys ``--set`` accepts."""
    parser = argparse.ArgumentParser(
        prog="maya-train",
        description=description(__doc__),
        epilog="keys for --set KEY=VALUE (values are YAML; defaults in training/config.py): "
        + ", ".join(override_keys()),
    )
    parser.add_argument(
        "--config", type=Path, help="YAML config file or shipped config name (see --list-configs, training/config.py)"
    )
    parser.add_argument("--list-configs", action="store_true", help="print the shipped config names and exit")
    parser.add_argument(
        "--resume", type=Path, help="continue from this MaskablePPO checkpoint .zip (algo: exit: a checkpoint.pt)"
    )
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key")
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="check the config (every key, the game options, the opponents: the env is built once), print what "
        "would be trained and exit without writing anything",
    )
    return parser


def list_configs() -> str:
    """The shipped config names, as ``--list-configs`` prints them: the maya-train ones, then
    the RLlib ones with their command (the same names an unknown ``--config`` lists)."""
    names = config_names()
    ppo = [name for name in names if not name.startswith("rllib/")]
    rllib = [name for name in names if name.startswith("rllib/")]
    lines = [*ppo, "", "RLlib configs (python -m training.rllib_train --config NAME, rllib extra):", *rllib]
    return "\n".join(lines)


def dry_run_summary(config: TrainConfig, resume: Path | None) -> str:
    """What ``--dry-run`` prints for a checked config: the algorithm, env, budget and run directory
    pattern (nothing is trained or written)."""
    budget = (
        f"{config.exit.iterations} expert-iteration iterations"
        if config.algo == "exit"
        else f"{config.total_timesteps:,} env steps"
    )
    start = f", resuming {resume}" if resume is not None else ""
    return (
        f"config ok: {config.algo} on {config.env_id} {dict(config.game_options)}, {budget}{start}; "
        f"a run would write {Path(config.output_dir) / run_name(config)}/"
    )


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.list_configs:
        print(list_configs())
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
        check_env(config)
    except ConfigError as error:
        parser.error(str(error))
    try:  # before any training: an output_dir that can never hold the run folder
        output_folder(config.output_dir, "output_dir")
    except ValueError as error:
        parser.error(str(error))
    if args.dry_run:
        print(dry_run_summary(config, args.resume))
        return 0
    if config.algo == "exit":
        from training.exit.loop import train_exit

        try:
            train_exit(config, resume=args.resume)
        except ValueError as error:  # ConfigError, or a --resume file that is no exit checkpoint
            parser.error(str(error))
        return 0
    if args.resume is not None:
        from maya_envs.sb3_zip import num_timesteps

        try:
            done = num_timesteps(args.resume)  # read as data: nothing in the file runs
        except ValueError as error:
            parser.error(str(error))
        if config.total_timesteps <= done:
            parser.error(
                f"total_timesteps={config.total_timesteps} counts all steps, the checkpoint's included, and "
                f"{str(args.resume)!r} already has {done}: nothing to train; set a larger total_timesteps"
            )
    train(config, resume=args.resume)
    return 0


if __name__ == "__main__":
    sys.exit(main())
