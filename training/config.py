"""The training config: a dataclass that a YAML file fills one to one.

Every key of the YAML must be a field below; unknown keys and bad values raise
:class:`~maya_envs.core.errors.ConfigError` naming the key and what is allowed.
``--set key=value`` overrides are parsed as YAML scalars (``--set total_timesteps=200000``,
``--set opponents={random: 1.0}``, ``--set self_play.enabled=true``).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from maya_envs.bot_kinds import BOT_KINDS, BOT_NAMES
from maya_envs.core.checks import is_int, is_number
from maya_envs.core.errors import ConfigError, listed, shorten
from maya_envs.games import DEFAULT_GAME
from maya_envs.plain_yaml import load_yaml
from maya_envs.players import PRETRAINED_SPECS, check_player_spec
from maya_envs.pretrained import is_pretrained_spec
from maya_envs.registration import resolve_env_id
from training.checks import check_bool, check_choice, check_int, check_names, check_number
from training.config_names import path_name, resolve_config, split_override, whole_floats_to_ints
from training.exit.config import ExitConfig


@dataclass
class SelfPlayConfig:
    """The ``self_play`` block: the learner also plays frozen snapshots of itself
    (:mod:`training.self_play`). Every non-learner seat draws its own opponent per episode."""

    enabled: bool = False
    """Turn self-play on (off: the opponents are the ``opponents`` bots only)."""
    snapshot_every: int = 20_000
    """Save a snapshot of the learner every this many timesteps (and one at the start)."""
    pool_size: int = 5
    """Most recent snapshots kept in the pool (older ones leave it)."""
    snapshot_weight: float = 1.0
    """Weight of the snapshots as a group, split evenly among them; the bots keep their
    ``opponents`` weights (``{random: 1}`` and 1.0: half the seats go to snapshots)."""


ALGOS = ("ppo", "exit")
"""``algo`` values: ``"ppo"`` (MaskablePPO, :mod:`training.train`) and ``"exit"`` (expert
iteration, :mod:`training.exit`)."""

@dataclass
class TrainConfig:
    """A training run from a config: MaskablePPO (``algo: ppo``) or expert iteration
    (``algo: exit``, the ``exit`` block), then an evaluation against the bots."""

    algo: str = "ppo"
    """``"ppo"`` (MaskablePPO, the keys below) or ``"exit"`` (expert iteration: the ``exit``
    block; the MaskablePPO-only keys :data:`PPO_ONLY_KEYS` are then refused)."""
    env_id: str = DEFAULT_GAME.gym_id
    """Gymnasium id of the single-agent view (see ``maya_envs.games.GAMES``): versionless
    (``maya_envs/<gym_name>``, as the shipped configs write it, so a version bump edits no config)
    or versioned (``maya_envs/<gym_name>-v<N>``, the current version only). :meth:`validate`
    replaces it by the registered versioned id
    (:func:`maya_envs.registration.resolve_env_id`), so the run's ``config.yaml``, its directory
    name and a published model record the version that was trained."""
    exp_name: str = "maskable_ppo"
    """Experiment name; the run directory is ``{env}__{exp_name}__{seed}__{time}`` (``-2``, ...
    appended for a run started in the same second as another of that name)."""
    seed: int = 1
    """Seeds torch, numpy, the envs and the bots."""
    total_timesteps: int = 200_000
    """Learner decisions to train for."""
    n_envs: int = 8
    """Parallel envs in the vector env."""
    vec_env: str = "dummy"
    """``"dummy"`` (one process) or ``"subproc"`` (one process per env)."""
    opponents: dict[str, float] = field(default_factory=lambda: {"random": 1.0})
    """Opponent mix during training: bot name (``random``, ``heuristic``) or shipped baseline
    (``pretrained``, ``pretrained:<name>``) -> weight; one member plays each episode."""
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
    """``"mlp"``, ``"action_features"`` or ``"action_scoring"`` (see ``training/policies.py``)."""
    action_feature_gain: float = 10.0
    """``policy: action_features`` / ``action_scoring`` only: the per-action feature block is multiplied by this
    before the shared head (see ``training.policies.ActionFeaturePolicy``); a larger gain lets
    the head express a preference in fewer updates."""
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden layer sizes of the policy and value networks."""
    eval_games: int = 400
    """Evaluation games per opponent after training (seats alternated). 0: no evaluation (a
    quick try or a timing run): no game is played, ``evaluation.md`` says so and
    ``evaluation.json`` has no ``results`` and an ``evaluation`` note; ``maya-eval`` can evaluate
    the model later."""
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    """Bots the trained agent is evaluated against."""
    checkpoint_every: int = 0
    """Save a checkpoint every this many timesteps (0: only at the end)."""
    self_play: SelfPlayConfig = field(default_factory=SelfPlayConfig)
    """Self-play with snapshots of the learner (see :class:`SelfPlayConfig`)."""
    eval_every: int = 0
    """Evaluate against ``eval_opponents`` every this many timesteps during training for the
    learning curve (``learning_curve.json``/``.png``; 0: off)."""
    eval_curve_games: int = 40
    """Games per opponent at each learning-curve point (seats rotated)."""
    output_dir: str = "runs"
    """Parent directory of the run directory."""
    device: str = "cpu"
    """Torch device."""
    torch_threads: int = 1
    """Torch intra-op threads (``torch.set_num_threads``). 1 suits these small networks on the
    CPU and keeps parallel runs from oversubscribing the cores; 0 leaves torch's default."""
    progress_bar: bool = True
    exit: ExitConfig = field(default_factory=ExitConfig)
    """Expert-iteration settings (``algo: exit`` only; see :class:`ExitConfig`)."""

    def validate(self) -> None:
        """Raise :class:`ConfigError` on a bad value; a versionless ``env_id`` becomes the
        game's current versioned id."""
        check_choice("algo", self.algo, ALGOS)
        check_names("eval_opponents", self.eval_opponents)
        if not isinstance(self.exit, ExitConfig):
            raise ConfigError(f"exit={shorten(self.exit)}; allowed: a mapping with keys {_field_names(ExitConfig)}")
        if self.algo == "exit":
            self.exit.validate()
            for name in self.eval_opponents:
                if is_pretrained_spec(name):
                    raise ConfigError(
                        f"eval_opponents: {shorten(name)}; algo: exit plays its evaluation in lock step with "
                        "bots only: " + quoted(BOT_NAMES)
                    )
        self.env_id = resolve_env_id(self.env_id)
        positive = ("total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs")
        for name in positive:
            check_int(name, getattr(self, name), minimum=1, maximum=LIMITS[name])
        check_choice("policy", self.policy, ("mlp", "action_features", "action_scoring"))
        check_choice("vec_env", self.vec_env, ("dummy", "subproc"))
        check_choice("learner_seat", self.learner_seat, ("random", "first", "second"))
        if not isinstance(self.opponents, dict) or not self.opponents:
            raise ConfigError(f"opponents={shorten(self.opponents)}; allowed: a non-empty mapping bot name -> weight")
        for name in self.opponents:
            check_opponent(name, training=True, key="opponents")
        for name in self.eval_opponents:
            check_opponent(name, training=name in self.opponents, key="eval_opponents")
        for name, weight in self.opponents.items():
            check_number(f"opponents.{name}", weight)
        if not sum(self.opponents.values()) > 0:
            raise ConfigError(f"opponents={shorten(self.opponents)}; allowed: weights >= 0, not all 0")
        gain = self.action_feature_gain
        if not is_number(gain, numpy=False) or not 0 < gain <= 1000:
            raise ConfigError(f"action_feature_gain={shorten(gain)}; allowed: a number in (0, 1000]")
        for name in ("learning_rate", "gamma", "gae_lambda", "clip_range", "ent_coef"):
            check_number(name, getattr(self, name), -math.inf)
        if not (
            isinstance(self.net_arch, list)
            and self.net_arch
            and len(self.net_arch) <= MAX_NET_DEPTH
            and all(is_int(n, numpy=False) and 0 < n <= MAX_NET_WIDTH for n in self.net_arch)
        ):
            raise ConfigError(
                f"net_arch={shorten(self.net_arch)}; allowed: a non-empty list of positive ints "
                f"(at most {MAX_NET_DEPTH} of them, each at most {MAX_NET_WIDTH})"
            )
        if not isinstance(self.device, str) or self.device.split(":")[0] not in ("cpu", "cuda", "mps", "auto"):
            raise ConfigError(f"device={shorten(self.device)}; allowed: 'cpu', 'cuda', 'cuda:N', 'mps', 'auto'")
        if not isinstance(self.game_options, dict):
            raise ConfigError(f"game_options={shorten(self.game_options)}; allowed: a mapping of game option -> value")
        if not 0 < self.learning_rate < 1:
            raise ConfigError(f"learning_rate={shorten(self.learning_rate)}; allowed: a float in (0, 1)")
        for name in ("gamma", "gae_lambda"):
            if not 0 < getattr(self, name) <= 1:
                raise ConfigError(f"{name}={shorten(getattr(self, name))}; allowed: a number in (0, 1]")
        check_number("reward_shaping", self.reward_shaping)
        for name in ("seed", "eval_games", "checkpoint_every", "eval_every", "torch_threads"):
            check_int(name, getattr(self, name), minimum=0, maximum=LIMITS[name])
        check_int("eval_curve_games", self.eval_curve_games, minimum=1, maximum=LIMITS["eval_curve_games"])
        sp = self.self_play
        if not isinstance(sp, SelfPlayConfig):
            raise ConfigError(f"self_play={shorten(sp)}; allowed: a mapping with keys {_field_names(SelfPlayConfig)}")
        check_bool("self_play.enabled", sp.enabled)
        for name in ("snapshot_every", "pool_size"):
            check_int(f"self_play.{name}", getattr(sp, name), minimum=1, maximum=LIMITS[f"self_play.{name}"])
        check_number("self_play.snapshot_weight", sp.snapshot_weight)

    def to_dict(self) -> dict[str, Any]:
        """The config as YAML writes it (``config.yaml`` of a run): only the keys ``algo``
        reads, so that the file loads back."""
        data = asdict(self)
        if self.algo == "exit":
            return {key: value for key, value in data.items() if key not in PPO_ONLY_KEYS}
        data.pop("exit")
        return data


LIMITS = {
    "total_timesteps": 10**12, "n_envs": 1024, "n_steps": 2**16, "batch_size": 2**20, "n_epochs": 1000,
    "eval_games": 10**6, "eval_curve_games": 10**6, "checkpoint_every": 10**12, "eval_every": 10**12,
    "torch_threads": 256, "seed": 2**32 - 1, "self_play.snapshot_every": 10**12, "self_play.pool_size": 1024,
}  # fmt: skip
"""Upper bounds of the :class:`TrainConfig` ints, far above any run of this project (the shipped
configs use ``n_envs`` 8, ``eval_games`` 400): a typo such as ``n_envs: 100000`` (as many
processes with ``vec_env: subproc``, and a rollout buffer ``n_envs * n_steps`` long) is refused
by ``--dry-run`` instead of exhausting the machine. ``seed`` is 32 bits because SB3's
``set_random_seed`` seeds numpy's legacy generator, which takes no more."""
MAX_NET_WIDTH, MAX_NET_DEPTH = 4096, 16
"""Largest layer width and layer count of ``net_arch`` (memory grows with width squared)."""


PPO_ONLY_KEYS = (
    "total_timesteps", "n_envs", "vec_env", "opponents", "learner_seat", "reward_shaping", "n_steps", "gamma",
    "gae_lambda", "clip_range", "ent_coef", "policy", "action_feature_gain", "net_arch", "self_play", "eval_every",
    "eval_curve_games", "checkpoint_every",
)  # fmt: skip
"""The :class:`TrainConfig` keys only MaskablePPO reads; a config with ``algo: exit`` that sets
one is refused (nothing set is silently ignored)."""


def override_keys() -> list[str]:
    """Every key ``--set KEY=VALUE`` accepts: the :class:`TrainConfig` fields, the
    ``self_play.*`` and ``exit.*`` fields and ``game_options.<option>``."""
    keys = []
    for f in fields(TrainConfig):
        if f.name == "self_play":
            keys += [f"self_play.{name}" for name in _field_names(SelfPlayConfig)]
        elif f.name == "exit":
            keys += [f"exit.{name}" for name in _field_names(ExitConfig)]
        elif f.name == "game_options":
            keys += ["game_options.<option>"]
        else:
            keys.append(f.name)
    return keys


def make_single_agent_env(config: TrainConfig):
    """The Gymnasium single-agent env of ``config``: ``config.env_id`` with the opponent mix,
    the learner seat, reward shaping and the game options (one env of the training vector env)."""
    import gymnasium as gym

    import maya_envs  # noqa: F401  (registers the ids)

    shaping = {"reward_shaping": config.reward_shaping} if config.reward_shaping else {}
    return gym.make(
        config.env_id,
        opponents=dict(config.opponents),
        learner_seat=config.learner_seat,
        **shaping,
        **config.game_options,
    )


def check_env(config: TrainConfig) -> None:
    """Build the training env of ``config`` once and close it: the whole config is checked
    (game options against the game, opponents against its size) before anything is written.

    Raises:
        ConfigError: the env rejects the config; the message names the game options.
    """
    try:
        env = make_single_agent_env(config)
    except (TypeError, ValueError) as error:  # ConfigError is a ValueError
        raise ConfigError(f"{config.env_id} with game_options={shorten(config.game_options)}: {error}") from None
    env.close()


def _field_names(cls) -> list[str]:
    return sorted(f.name for f in fields(cls))


def _block_keys(name: str, cls: type, block: Any) -> dict[str, Any]:
    """The config block ``name`` (a mapping of ``cls``'s fields) as a new dict.

    Raises:
        ConfigError: not a mapping, or an unknown key (the message lists the known ones).
    """
    if not isinstance(block, dict):
        raise ConfigError(f"{name}={shorten(block)}; allowed: a mapping with keys {_field_names(cls)}")
    unknown = sorted(set(block) - set(_field_names(cls)), key=repr)
    if unknown:
        raise ConfigError(f"unknown {name} key(s) {listed(unknown)}; known keys: {_field_names(cls)}")
    return dict(block)


def _self_play(block: Any) -> SelfPlayConfig:
    if isinstance(block, SelfPlayConfig):
        return block
    block = _block_keys("self_play", SelfPlayConfig, block)
    if isinstance(block.get("snapshot_every"), float) and block["snapshot_every"].is_integer():
        block["snapshot_every"] = int(block["snapshot_every"])
    return SelfPlayConfig(**block)


def _exit_block(block: Any) -> ExitConfig:
    if isinstance(block, ExitConfig):
        return block
    return ExitConfig(**_block_keys("exit", ExitConfig, block))


def _yaml(text: str, where: str) -> Any:
    return load_yaml(text, where)  # plain data; no anchors or aliases (an alias bomb)


def quoted(names) -> str:
    """``'a', 'b'``: names as a config error lists them."""
    return ", ".join(repr(name) for name in names)


def check_opponent(name: Any, training: bool, key: str = "") -> None:
    """Refuse an opponent spec a PPO run cannot play: a bot kind of the table
    (:data:`maya_envs.bot_kinds.BOT_KINDS`; as a ``training`` opponent only the kinds fast
    enough for it, :attr:`~maya_envs.bot_kinds.BotKind.training_opponent`) or a shipped agent,
    parsed and its model or shipped name looked up (no torch needed).

    Raises:
        ConfigError: the message names the config ``key`` (when given), the opponent and what
            is allowed.
    """
    where = f"{key}: " if key else ""
    kind = BOT_KINDS.get(name.split(":", 1)[0]) if isinstance(name, str) else None
    if not (is_pretrained_spec(name) or (kind is not None and (kind.training_opponent or not training))):
        fast = [k.syntax for k in BOT_KINDS.values() if k.training_opponent]
        slow = [k.syntax for k in BOT_KINDS.values() if not k.training_opponent]
        raise ConfigError(
            f"{where}opponent {shorten(name)}; allowed: {quoted(fast + list(PRETRAINED_SPECS))}"
            + ("" if training else f", {quoted(slow)} (evaluation only)")
        )
    try:
        check_player_spec(name)
    except ValueError as error:
        raise ConfigError(f"{where}opponent {shorten(name)}: {error}") from None


def load_config(path: str | Path | None, overrides: list[str] = ()) -> TrainConfig:
    """Read a YAML config (a file, or a shipped config's name such as ``maya2012/2p_quick``:
    :func:`training.config_names.resolve_config`) and apply ``key=value`` overrides.

    Raises:
        ConfigError: neither a file nor a shipped name, a non-mapping YAML, an unknown key or a
            bad value.
    """
    data: dict[str, Any] = {}
    if path is not None:
        path = resolve_config(path)
        loaded = _yaml(path.read_text(), f"config {str(path)!r}")
        if not isinstance(loaded, dict):
            raise ConfigError(f"config {str(path)!r} must be a YAML mapping, got {type(loaded).__name__}")
        data.update(loaded)
    for item in overrides:
        key, raw = split_override(item)
        block_name, dot, entry = key.partition(".")
        if dot and block_name in ("self_play", "game_options", "exit"):  # --set self_play.enabled=true
            block = data.get(block_name)
            value = _yaml(raw, f"override {shorten(item)}")
            data[block_name] = {**(block if isinstance(block, dict) else {}), entry: value}
            continue
        data[key] = _yaml(raw, f"override {shorten(item)}")
    known = {f.name: f for f in fields(TrainConfig)}
    unknown = sorted(set(data) - set(known), key=repr)  # YAML keys may be of mixed types
    if "game" in unknown and "env_id" not in data:  # the RLlib configs name a game, not an env id
        raise ConfigError(
            f"config {str(path)!r} is an RLlib config (it names a game, not an env_id); run it with "
            f"`python -m training.rllib_train --config {path_name(path)}` (rllib extra, training/RLLIB.md)"
        )
    if unknown:
        raise ConfigError(f"unknown config key(s) {listed(unknown)}; known keys: {sorted(known)}")
    whole_floats_to_ints(data, ("total_timesteps", "eval_games", "checkpoint_every", "eval_every"))
    if "self_play" in data:
        data["self_play"] = _self_play(data["self_play"])
    algo = data.get("algo", TrainConfig.algo)
    check_choice("algo", algo, ALGOS)
    if algo == "exit":
        refused = sorted(set(data) & set(PPO_ONLY_KEYS))
        if refused:
            raise ConfigError(
                f"key(s) {refused} belong to MaskablePPO (algo: ppo); algo: exit does not use them; "
                f"its settings are the exit block: {_field_names(ExitConfig)}"
            )
    elif "exit" in data:
        raise ConfigError(f"the exit block needs algo: exit (algo is {shorten(algo)})")
    if "exit" in data:
        data["exit"] = _exit_block(data["exit"])
    config = TrainConfig(**data)
    config.validate()
    return config
