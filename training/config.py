"""The training config: a dataclass that a YAML file fills one to one.

Every key of the YAML must be a field below; unknown keys and bad values raise
:class:`~maya_envs.core.errors.ConfigError` naming the key and what is allowed.
``--set key=value`` overrides are parsed as YAML scalars (``--set total_timesteps=2e5``,
``--set opponents={random: 1.0}``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from maya_envs.core.errors import ConfigError
from maya_envs.registration import ENV_IDS


@dataclass
class TrainConfig:
    """MaskablePPO against a mix of opponents, then an evaluation against the bots."""

    env_id: str = "maya_envs/Maya2012-v0"
    """Gymnasium id of the single-agent view (see ``maya_envs.registration.ENV_IDS``)."""
    exp_name: str = "maskable_ppo"
    """Experiment name; the run directory is ``{env}__{exp_name}__{seed}__{time}``."""
    seed: int = 1
    """Seeds torch, numpy, the envs and the bots."""
    total_timesteps: int = 200_000
    """Learner decisions to train for."""
    n_envs: int = 8
    """Parallel envs in the vector env."""
    vec_env: str = "dummy"
    """``"dummy"`` (one process) or ``"subproc"`` (one process per env)."""
    opponents: dict[str, float] = field(default_factory=lambda: {"random": 1.0})
    """Opponent mix during training: bot name -> weight; one member plays each episode."""
    learner_seat: str = "random"
    """``"random"``, ``"first"`` or ``"second"``."""
    game_options: dict[str, Any] = field(default_factory=dict)
    """Keyword options of the game (e.g. ``{setup: random}``)."""
    reward_shaping: float = 0.0
    """Coefficient of potential-based reward shaping during training (0: off; see
    ``maya_envs.wrappers.shaping``). Evaluation always uses the game's own result."""
    learning_rate: float = 3e-4
    n_steps: int = 256
    """Rollout length per env."""
    batch_size: int = 256
    n_epochs: int = 10
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    policy: str = "mlp"
    """``"mlp"`` or ``"action_features"`` (see ``training/policies.py``)."""
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden layer sizes of the policy and value networks."""
    eval_games: int = 400
    """Evaluation games per opponent after training (seats alternated)."""
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    """Bots the trained agent is evaluated against."""
    checkpoint_every: int = 0
    """Save a checkpoint every this many timesteps (0: only at the end)."""
    output_dir: str = "runs"
    """Parent directory of the run directory."""
    device: str = "cpu"
    """Torch device."""
    progress_bar: bool = True

    def validate(self) -> None:
        """Raise :class:`ConfigError` on a bad value."""
        if self.env_id not in ENV_IDS:
            raise ConfigError(f"env_id={self.env_id!r}; allowed: {sorted(ENV_IDS)}")
        positive = ("total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs", "eval_games")
        for name in positive:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ConfigError(f"{name}={value!r}; allowed: a positive int")
        if self.policy not in ("mlp", "action_features"):
            raise ConfigError(f"policy={self.policy!r}; allowed: 'mlp', 'action_features'")
        if self.vec_env not in ("dummy", "subproc"):
            raise ConfigError(f"vec_env={self.vec_env!r}; allowed: 'dummy', 'subproc'")
        if self.learner_seat not in ("random", "first", "second"):
            raise ConfigError(f"learner_seat={self.learner_seat!r}; allowed: 'random', 'first', 'second'")
        if not isinstance(self.opponents, dict) or not self.opponents:
            raise ConfigError(f"opponents={self.opponents!r}; allowed: a non-empty mapping bot name -> weight")
        for name in list(self.opponents) + list(self.eval_opponents):
            if name not in ("random", "heuristic"):
                raise ConfigError(f"opponent {name!r}; allowed: 'random', 'heuristic'")
        if not 0 < self.learning_rate < 1:
            raise ConfigError(f"learning_rate={self.learning_rate!r}; allowed: a float in (0, 1)")
        if not 0 < self.gamma <= 1 or not 0 < self.gae_lambda <= 1:
            raise ConfigError("gamma and gae_lambda must be in (0, 1]")
        if not isinstance(self.reward_shaping, (int, float)) or self.reward_shaping < 0:
            raise ConfigError(f"reward_shaping={self.reward_shaping!r}; allowed: a number >= 0")
        if self.checkpoint_every < 0:
            raise ConfigError(f"checkpoint_every={self.checkpoint_every!r}; allowed: an int >= 0")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def load_config(path: str | Path | None, overrides: list[str] = ()) -> TrainConfig:
    """Read a YAML config and apply ``key=value`` overrides.

    Raises:
        ConfigError: a missing file, a non-mapping YAML, an unknown key or a bad value.
    """
    data: dict[str, Any] = {}
    if path is not None:
        path = Path(path)
        if not path.is_file():
            raise ConfigError(f"config file {str(path)!r} does not exist")
        loaded = yaml.safe_load(path.read_text())
        if not isinstance(loaded, dict):
            raise ConfigError(f"config {str(path)!r} must be a YAML mapping, got {type(loaded).__name__}")
        data.update(loaded)
    for item in overrides:
        key, sep, raw = item.partition("=")
        if not sep:
            raise ConfigError(f"override {item!r} must look like key=value")
        data[key.strip()] = yaml.safe_load(raw)
    known = {f.name: f for f in fields(TrainConfig)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(f"unknown config key(s) {unknown}; known keys: {sorted(known)}")
    for key in ("total_timesteps", "eval_games", "checkpoint_every"):
        if isinstance(data.get(key), float) and data[key].is_integer():
            data[key] = int(data[key])  # allow 2e5 in YAML
    config = TrainConfig(**data)
    config.validate()
    return config
