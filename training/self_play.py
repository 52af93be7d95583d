"""Self-play: the learner against frozen snapshots of itself and the bots.

* :class:`SnapshotPool` is one opponent seat's pool: bots with the config's ``opponents``
  weights plus the most recent ``pool_size`` snapshots, which share ``snapshot_weight``
  evenly; one member is drawn per episode (before the first snapshot: bots only).
* :func:`make_self_play_env` builds a single-agent env whose every non-learner seat has its
  own pool, passed in as its ``opponents`` (so in 3-5 player games every other seat is drawn
  independently); :class:`SelfPlayWrapper` exposes ``add_snapshot(path)`` for
  ``VecEnv.env_method``.
* :class:`SelfPlayCallback` saves a snapshot at the start and every ``snapshot_every``
  learner steps into ``<run>/snapshots/`` and adds it to the pools of every env.

The learner's seat is drawn per episode (``learner_seat: random``) and its reward is its own
seat's (its team's in 4-player Maya (2012)): that is the single-agent view's reward.
Snapshots are loaded as ``MaskablePPO`` models on the CPU, once per process, and play
deterministically with their own masks (:mod:`maya_envs.wrappers.opponents`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from maya_envs.games import find_game
from maya_envs.wrappers.opponents import OpponentPolicy, OpponentPool

_MODELS: dict[str, Any] = {}  # snapshot path -> loaded model, shared by the pools of a process


def load_snapshot(path: str) -> Any:
    """The ``MaskablePPO`` saved at ``path`` (CPU), loaded once per process, without unpickling
    (:func:`maya_envs.sb3_zip.load_maskable_ppo`)."""
    if path not in _MODELS:
        from maya_envs.sb3_zip import load_maskable_ppo

        _MODELS[path] = load_maskable_ppo(path, device="cpu")
    return _MODELS[path]


class SnapshotPool(OpponentPool):
    """Bots (``{spec: weight}``) plus up to ``pool_size`` snapshots sharing ``snapshot_weight``.

    Raises:
        ValueError: as :class:`OpponentPool` for the bots; ``pool_size < 1`` or a negative
            ``snapshot_weight``.
    """

    def __init__(
        self,
        bots: dict[Any, float],
        rules,
        snapshot_weight: float = 1.0,
        pool_size: int = 5,
        observation_shape: tuple[int, ...] | None = None,
    ) -> None:
        super().__init__(bots, rules, observation_shape)
        self.observation_shape = observation_shape
        if pool_size < 1 or snapshot_weight < 0:
            raise ValueError(f"need pool_size >= 1 and snapshot_weight >= 0, got {pool_size}, {snapshot_weight}")
        self.rules = rules
        self.bot_weights = np.asarray(list(bots.values()), dtype=np.float64)
        self.snapshot_weight = float(snapshot_weight)
        self.pool_size = int(pool_size)
        self.snapshots: list[tuple[str, OpponentPolicy]] = []
        self.current_name = "bot"

    def add_snapshot(self, path: str) -> None:
        """Add the snapshot at ``path``; the oldest leaves when the pool is full."""
        self.snapshots.append(
            (path, OpponentPolicy(load_snapshot(path), self.rules, observation_shape=self.observation_shape))
        )
        del self.snapshots[: -self.pool_size]

    def weights(self) -> np.ndarray:
        """Probabilities of ``members + snapshots`` (in that order) for the next episode."""
        if not self.snapshots:
            return self.bot_weights / self.bot_weights.sum()
        share = np.full(len(self.snapshots), self.snapshot_weight / len(self.snapshots))
        values = np.concatenate([self.bot_weights, share])
        return values / values.sum()

    def new_episode(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        index = int(rng.choice(len(self.members) + len(self.snapshots), p=self.weights()))
        if index < len(self.members):
            self.current, self.current_name = self.members[index], "bot"
        else:
            path, self.current = self.snapshots[index - len(self.members)]
            self.current_name = Path(path).stem
        self.current.new_episode(seed)


def make_self_play_env(
    env_id: str,
    bots: dict[Any, float],
    snapshot_weight: float = 1.0,
    pool_size: int = 5,
    learner_seat: int | str = "random",
    reward_shaping: float = 0.0,
    **game_options: Any,
) -> SelfPlayWrapper:
    """``gym.make(env_id, opponents=pools, ...)`` wrapped in a :class:`SelfPlayWrapper`: one
    :class:`SnapshotPool` per non-learner seat, built once for the game's rules at
    ``game_options`` and handed to the env as its opponents.

    Raises:
        ValueError: an unknown game or a bad pool setting; ConfigError: a bad game option.
    """
    rules = find_game(env_id).make_rules(game_options)
    pools = [SnapshotPool(bots, rules, snapshot_weight, pool_size) for _ in range(rules.spec.num_players - 1)]
    shaping = {"reward_shaping": reward_shaping} if reward_shaping else {}
    env = gym.make(env_id, opponents=pools, learner_seat=learner_seat, **shaping, **game_options)
    return SelfPlayWrapper(env)


class SelfPlayWrapper(gym.Wrapper):
    """Self-play over a :class:`~maya_envs.wrappers.SingleAgentEnv` whose opponents are one
    :class:`SnapshotPool` per non-learner seat (build it with :func:`make_self_play_env`).

    Raises:
        ValueError: an opponent of ``env`` that is not a :class:`SnapshotPool`.
    """

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self.pools = list(env.unwrapped.opponents)
        if not all(isinstance(pool, SnapshotPool) for pool in self.pools):
            raise ValueError(
                "SelfPlayWrapper needs an env whose opponents are SnapshotPools, one per other seat "
                "(use make_self_play_env)"
            )

    def add_snapshot(self, path: str) -> int:
        for pool in self.pools:
            pool.add_snapshot(str(path))
        return len(self.pools[0].snapshots)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


class SelfPlayCallback(BaseCallback):
    """Save a snapshot at the start and every ``every`` steps; add it to every env's pools."""

    def __init__(self, snapshot_dir: Path, every: int) -> None:
        super().__init__()
        self.snapshot_dir = Path(snapshot_dir)
        self.every = int(every)
        self.next_at = 0
        self.saved: list[Path] = []

    def _snapshot(self) -> None:
        self.snapshot_dir.mkdir(parents=True, exist_ok=True)
        path = self.snapshot_dir / f"snapshot_{self.num_timesteps}.zip"
        self.model.save(path)
        self.training_env.env_method("add_snapshot", str(path))
        self.saved.append(path)
        self.next_at = self.num_timesteps + self.every

    def _on_training_start(self) -> None:
        self._snapshot()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_at:
            self._snapshot()
        return True
