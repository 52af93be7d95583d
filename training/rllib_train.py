"""Multi-agent self-play PPO on Ray RLlib (new API stack) with action masking, for every game.

Usage::

    python -m training.rllib_train --config rllib/maya2012_2p [--set key=value ...]   # a shipped name or a file
    python -m training.rllib_train --config ... --address auto      # an existing Ray cluster
    RAY_ADDRESS=ray://head:10001 python -m training.rllib_train --config ...

Without ``--address`` (and without ``RAY_ADDRESS``) a local Ray is started on this machine.
The run directory ``{output_dir}/{game}_{n}p__{exp_name}__{seed}__{time}`` (``-2``, ``-3``, ...
after it for runs started in the same second) receives the
resolved ``config.yaml``, one JSON line per training iteration (``metrics.jsonl``), the
checkpoint (``checkpoint/``, loadable by the arena as the agent spec ``rllib:<path>``) and
the evaluation against the bots (``evaluation.json``). Needs ``pip install "maya-envs[rllib]"``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from maya_envs.cli import description
from maya_envs.core.checks import is_int
from maya_envs.core.errors import ConfigError, shorten
from maya_envs.core.layout import action_feature_block as layout_feature_block
from maya_envs.games import DEFAULT_GAME, GAMES, find_game, make_aec_env
from maya_envs.plain_yaml import load_yaml
from training.checks import check_number
from training.config_names import resolve_config, split_override, whole_floats_to_ints
from training.rllib_agent import METADATA_FILE
from training.run_dirs import new_run_dir

GAME_NAMES = tuple(GAMES)
"""Game names in the RLlib configs: the keys of :data:`maya_envs.games.GAMES`."""
POLICY_MAPPINGS = ("shared", "per_seat")
POLICIES = ("mlp", "action_features")


@dataclass
class RLlibConfig:
    """Self-play PPO on RLlib: every seat is played by a learning policy, then an evaluation."""

    game: str = DEFAULT_GAME.key
    """A key of the game table (:data:`GAME_NAMES`)."""
    game_options: dict[str, Any] = field(default_factory=dict)
    """Keyword options of the game's AEC env (e.g. ``{num_players: 3}``)."""
    exp_name: str = "rllib_ppo"
    """Experiment name; part of the run directory's name."""
    seed: int = 1
    """Seeds RLlib (torch, numpy, the env runners' envs) and the evaluation."""
    policy_mapping: str = "shared"
    """``shared``: one policy plays every seat (self-play); ``per_seat``: one policy per seat."""
    iterations: int = 20
    """Training iterations (each samples ``train_batch_size`` env steps, then updates)."""
    train_batch_size: int = 4000
    """Env steps (all agents' decisions) sampled per iteration."""
    minibatch_size: int = 500
    num_epochs: int = 5
    lr: float = 3e-4
    gamma: float = 0.99
    lambda_: float = 0.95
    clip_param: float = 0.2
    entropy_coeff: float = 0.01
    fcnet_hiddens: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden layer sizes of the policy and value networks (separate encoders)."""
    policy: str = "mlp"
    """``mlp``: the masked MLP; ``action_features``: plus a linear score of the observation's
    per-action feature block, one weight vector shared by every action (as the SB3 policy of the
    same name; for the games that declare such a block, see :func:`action_feature_block`)."""
    action_feature_gain: float = 10.0
    """Scale of the feature block before the shared head (``policy: action_features``)."""
    num_env_runners: int = 1
    """Remote sampling actors (0: sample in the driver process)."""
    num_envs_per_env_runner: int = 1
    """Envs stepped in turn by each env runner."""
    num_learners: int = 0
    """Remote learner actors (0: learn in the driver process)."""
    num_gpus_per_learner: float = 0
    """GPUs per learner (0: CPU)."""
    checkpoint_every: int = 0
    """Save ``checkpoint/`` every this many iterations as well as at the end (0: only at the end)."""
    eval_games: int = 200
    """Arena games per opponent after training (seats rotated; the greedy masked policy)."""
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    """Bots the trained policy is evaluated against."""
    output_dir: str = "runs"
    """Parent directory of the run directory."""

    def validate(self) -> None:
        """Raise :class:`ConfigError` on a bad value."""
        if self.game not in GAME_NAMES:
            raise ConfigError(f"game={self.game!r}; allowed: {list(GAME_NAMES)}")
        if self.policy_mapping not in POLICY_MAPPINGS:
            raise ConfigError(f"policy_mapping={self.policy_mapping!r}; allowed: {list(POLICY_MAPPINGS)}")
        if self.policy not in POLICIES:
            raise ConfigError(f"policy={self.policy!r}; allowed: {list(POLICIES)}")
        if self.policy == "action_features":
            action_feature_block(self.game, self.game_options)  # raises where the game has none
        for name in ("iterations", "train_batch_size", "minibatch_size", "num_epochs", "num_envs_per_env_runner"):
            value = getattr(self, name)
            if not is_int(value, numpy=False) or value <= 0:
                raise ConfigError(f"{name}={value!r}; allowed: a positive int")
        for name in ("seed", "num_env_runners", "num_learners", "checkpoint_every", "eval_games"):
            value = getattr(self, name)
            if not is_int(value, numpy=False) or value < 0:
                raise ConfigError(f"{name}={value!r}; allowed: an int >= 0")
        if self.minibatch_size > self.train_batch_size:
            raise ConfigError(f"minibatch_size={self.minibatch_size} exceeds train_batch_size={self.train_batch_size}")
        for name in ("lr", "gamma", "lambda_", "clip_param", "entropy_coeff", "action_feature_gain"):
            check_number(name, getattr(self, name), -math.inf)  # infinity and NaN are refused
        check_number("num_gpus_per_learner", self.num_gpus_per_learner)
        if not 0 < self.lr < 1:
            raise ConfigError(f"lr={self.lr!r}; allowed: a number in (0, 1)")
        for name in ("gamma", "lambda_"):
            if not 0 < getattr(self, name) <= 1:
                raise ConfigError(f"{name}={getattr(self, name)!r}; allowed: a number in (0, 1]")
        if not 0 < self.action_feature_gain <= 1000:
            raise ConfigError(f"action_feature_gain={self.action_feature_gain!r}; allowed: a number in (0, 1000]")
        for name in self.eval_opponents:
            if name not in ("random", "heuristic"):
                raise ConfigError(f"eval opponent {name!r}; allowed: 'random', 'heuristic'")


def load_rllib_config(path: str | Path | None, overrides: list[str] = ()) -> RLlibConfig:
    """Read a YAML config (keys = :class:`RLlibConfig` fields) and apply ``key=value`` overrides.

    Raises:
        ConfigError: a missing file, a non-mapping YAML, an unknown key or a bad value.
    """
    data: dict[str, Any] = {}
    if path is not None:
        path = resolve_config(path)  # a file, or a shipped name such as rllib/maya2012_2p
        loaded = load_yaml(path.read_text(), f"config {str(path)!r}")
        if not isinstance(loaded, dict):
            raise ConfigError(f"config {str(path)!r} must be a YAML mapping")
        data.update(loaded)
    for item in overrides:
        key, raw = split_override(item)
        data[key] = load_yaml(raw, f"override {shorten(item)}")
    known = sorted(f.name for f in fields(RLlibConfig))
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(f"unknown RLlib config key(s) {unknown}; known keys: {known}")
    whole_floats_to_ints(data, ("train_batch_size", "minibatch_size"))  # allow 4e3 in YAML
    config = RLlibConfig(**data)
    config.validate()
    return config


def module_ids(mapping: str, agents: list[str]) -> dict[str, str]:
    """Agent -> RLModule id: ``shared`` for every agent, or ``seat_<i>`` for ``player_<i>``."""
    if mapping == "shared":
        return dict.fromkeys(agents, "shared")
    return {agent: f"seat_{agent.rsplit('_', 1)[-1]}" for agent in agents}


def action_feature_block(game: str, game_options: dict[str, Any]) -> tuple[int, int, int]:
    """``(start, features, actions)`` of the per-action feature block in ``game``'s observation:
    the part named ``action_features`` of its observer's layout.

    Raises:
        ConfigError: the game, with these options, declares no such block.
    """
    layout = make_aec_env(game, game_options).observer.layout
    block = layout_feature_block(layout)
    if block is None:
        raise ConfigError(
            f"policy='action_features' needs a per-action feature block in the observation; {game} with options "
            f"{game_options} has none (observation parts {list(layout.names)}; use policy='mlp')"
        )
    return block


def build_algorithm_config(config: RLlibConfig):
    """The RLlib ``PPOConfig`` of ``config`` (new API stack, masked module, policy mapping)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    from training.rllib_env import MayaMultiAgentEnv
    from training.rllib_module import FEATURE_BLOCK_KEY, FEATURE_GAIN_KEY, MaskedPPOTorchRLModule

    register_env("maya_envs_rllib", MayaMultiAgentEnv)
    agents = list(make_aec_env(config.game, config.game_options).possible_agents)
    mapping = module_ids(config.policy_mapping, agents)
    model = {"fcnet_hiddens": list(config.fcnet_hiddens), "fcnet_activation": "tanh", "vf_share_layers": False}
    if config.policy == "action_features":
        model[FEATURE_BLOCK_KEY] = list(action_feature_block(config.game, config.game_options))
        model[FEATURE_GAIN_KEY] = config.action_feature_gain
    module_class = MaskedPPOTorchRLModule
    specs = {mid: RLModuleSpec(module_class=module_class, model_config=model) for mid in set(mapping.values())}
    return (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        .environment(
            "maya_envs_rllib",
            env_config={"game": config.game, "game_options": dict(config.game_options)},
            disable_env_checking=True,  # its random (unmasked) probe action trips our illegal-action warning
        )
        .env_runners(
            num_env_runners=config.num_env_runners,
            num_envs_per_env_runner=config.num_envs_per_env_runner,
            num_cpus_per_env_runner=1,
        )
        .learners(num_learners=config.num_learners, num_gpus_per_learner=config.num_gpus_per_learner)
        .multi_agent(
            policies=set(mapping.values()),
            policy_mapping_fn=lambda agent_id, episode, **kwargs: mapping[agent_id],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(
            train_batch_size_per_learner=config.train_batch_size,
            minibatch_size=config.minibatch_size,
            num_epochs=config.num_epochs,
            lr=config.lr,
            gamma=config.gamma,
            lambda_=config.lambda_,
            clip_param=config.clip_param,
            entropy_coeff=config.entropy_coeff,
        )
        .callbacks(on_episode_end=_log_illegal_actions)
        .debugging(seed=config.seed)
    )


def _log_illegal_actions(*, episode, metrics_logger=None, **kwargs) -> None:
    """Sum of illegal actions over the sampled episodes (``env_runners/illegal_actions``)."""
    infos = episode.get_infos(-1)
    count = sum(int(info.get("illegal_actions", 0)) for info in infos.values() if isinstance(info, dict))
    if metrics_logger is not None:
        metrics_logger.log_value("illegal_actions", count, reduce="sum")


def summarize(result: dict[str, Any], iteration: int, seconds: float) -> dict[str, Any]:
    """The numbers kept per iteration in ``metrics.jsonl`` (missing keys are ``None``).

    ``steps_per_s`` is this iteration's env steps over its whole wall time (sampling and
    learning). RLlib's timers are exponential moving averages over iterations (coefficient
    0.01, so they stay near the first iteration's value); ``sample_seconds_ema`` is one of
    them, kept as reported, not a per-iteration time.
    """
    runners = result.get("env_runners", {})
    steps = runners.get("num_env_steps_sampled")
    return {
        "iteration": iteration,
        "seconds": round(seconds, 3),
        "env_steps_sampled": steps,
        "env_steps_sampled_lifetime": runners.get("num_env_steps_sampled_lifetime"),
        "steps_per_s": (steps / seconds) if steps and seconds else None,
        "sample_seconds_ema": result.get("timers", {}).get("env_runner_sampling_timer"),
        "episodes": runners.get("num_episodes"),
        "episode_len_mean": runners.get("episode_len_mean"),
        "illegal_actions": runners.get("illegal_actions", 0),
    }


def run_name(config: RLlibConfig) -> str:
    """``{game}_{n}p__{exp_name}__{seed}``; :func:`training.run_dirs.new_run_dir` adds the time."""
    players = find_game(config.game).make_rules(config.game_options).spec.num_players
    return f"{config.game}_{players}p__{config.exp_name}__{config.seed}"


def save_checkpoint(algo, config: RLlibConfig, path: Path) -> Path:
    """``algo.save_to_path(path)``, :data:`METADATA_FILE`, and the weights-only export that the
    arena's ``rllib:`` specs read (:func:`training.rllib_export.export_checkpoint`)."""
    from training.rllib_export import export_checkpoint

    algo.save_to_path(str(path.resolve()))
    agents = list(make_aec_env(config.game, config.game_options).possible_agents)
    metadata = {
        "game": config.game,
        "game_options": dict(config.game_options),
        "policy_mapping": config.policy_mapping,
        "modules": module_ids(config.policy_mapping, agents),
    }
    (path / METADATA_FILE).write_text(json.dumps(metadata, indent=2))
    return export_checkpoint(path)  # this process's own checkpoint, so reading it through Ray is safe


def train(config: RLlibConfig, address: str | None = None, num_cpus: int | None = None) -> Path:
    """Train, checkpoint and evaluate in a new run directory; return it.

    Where Ray is already initialised in this process (e.g. by a test fixture), that Ray is used
    and left running. Otherwise ``address`` is passed to ``ray.init`` (``None``: ``RAY_ADDRESS``
    if set, else a new local Ray with ``num_cpus`` CPUs), which is shut down at the end.
    """
    import ray

    run_dir = new_run_dir(config.output_dir, run_name(config))
    (run_dir / "config.yaml").write_text(yaml.safe_dump(asdict(config), sort_keys=False))
    print(f"run directory: {run_dir}")
    own_ray = not ray.is_initialized()
    if own_ray:
        ray.init(address=address, num_cpus=num_cpus if address is None else None, include_dashboard=False)
    try:
        algo = build_algorithm_config(config).build_algo()
        started = time.perf_counter()
        with (run_dir / "metrics.jsonl").open("w") as log:
            for iteration in range(1, config.iterations + 1):
                t0 = time.perf_counter()
                row = summarize(algo.train(), iteration, time.perf_counter() - t0)
                log.write(json.dumps(row, default=float) + "\n")
                log.flush()
                print(json.dumps(row, default=float))
                if config.checkpoint_every and iteration % config.checkpoint_every == 0:
                    save_checkpoint(algo, config, run_dir / "checkpoint")
        train_seconds = time.perf_counter() - started
        checkpoint = save_checkpoint(algo, config, run_dir / "checkpoint")
        algo.stop()
    finally:
        if own_ray:
            ray.shutdown()
    print(f"trained {config.iterations} iterations in {train_seconds:.0f} s; checkpoint: {checkpoint}")
    evaluation = evaluate_checkpoint(checkpoint, config)
    evaluation["train_seconds"] = train_seconds
    (run_dir / "evaluation.json").write_text(json.dumps(evaluation, indent=2))
    return run_dir


def evaluate_checkpoint(checkpoint: Path, config: RLlibConfig) -> dict[str, Any]:
    """Arena matches of ``rllib:<checkpoint>`` against each bot of ``config.eval_opponents``."""
    from maya_envs.evaluation.arena import play_match

    results: dict[str, Any] = {}
    for opponent in config.eval_opponents if config.eval_games else []:
        result = play_match(
            lambda: make_aec_env(config.game, config.game_options),
            f"rllib:{checkpoint}",
            opponent,
            games=config.eval_games,
            seed=config.seed,
            candidate_name=config.exp_name,
        )
        results[opponent] = result.to_dict()
        low, high = result.win_rate_ci95
        print(f"vs {opponent}: win rate {result.win_rate:.3f} [{low:.3f}, {high:.3f}] over {result.games} games")
    return {"matches": results}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rllib_train", description=description(__doc__))
    parser.add_argument("--config", type=Path, required=True, help="YAML config (fields of RLlibConfig)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key")
    parser.add_argument("--address", default=None, help="Ray cluster address ('auto'); default: RAY_ADDRESS or local")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs of a local Ray (default: all)")
    args = parser.parse_args(argv)
    config = load_rllib_config(args.config, args.set)
    train(config, address=args.address, num_cpus=args.num_cpus)
    return 0


if __name__ == "__main__":
    sys.exit(main())
