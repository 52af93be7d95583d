"""Maya (2012), two players: the batched engine (:mod:`maya_envs.maya2012.batched`) as a
Gymnasium ``VectorEnv``, one learner seat against uniformly random opponents.

The env module of the batched engine: the engine itself stays pure (numpy only), gymnasium is
imported here.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from maya_envs.core.errors import ConfigError, ResetNeededError
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.batched import OBS_SIZE, BatchedMaya2012
from maya_envs.maya2012.rules import END_REASONS, OVER, idle_seats


class Maya2012VectorEnv(VectorEnv):
    """Gymnasium ``VectorEnv``: one learner seat in each of N batched games, the other seat
    played by a uniformly random legal opponent (inside ``step``).

    * Observation: ``(N, 610) float32``, the learner's view; the mask is
      :meth:`action_masks` (``(N, 75) int8``, 1 = legal: the dtype of every mask in
      maya-envs, which ``gymnasium.spaces.Discrete.sample(mask=...)`` and sb3-contrib's
      ``MaskablePPO`` both accept) and ``info["action_mask"]``.
    * Action: ``MultiDiscrete([75] * N)``; an illegal action raises ``IllegalActionError``.
    * Reward: the learner's (win/loss or score difference as configured), paid on the step
      whose move, the learner's or the opponent's, ends the game; ``info["end"]`` (rows
      marked by ``info["_end"]``) names the end (:data:`~maya_envs.maya2012.rules.END_REASONS`).
    * Auto-reset (``AutoresetMode.SAME_STEP``): a finished game's row holds the next game's
      first observation; ``info["final_obs"]`` (rows marked by ``info["_final_obs"]``) the
      finished one's.
    * Episodes: every row returned by ``reset`` and ``step`` is a game in which the learner is
      to move. A game that ends before the learner's first move (a board with no legal first
      exchange, or the opponent's moves reaching the end) is not an episode: the row plays on
      into a new game from the engine's generator (seat redrawn when ``"random"``).
      A configuration in which the learner can never move (``learner_seat=1`` with
      ``setup="random"`` and ``max_turns=1``) is refused at construction; ``"random"`` then
      always gives seat 0.
    * Seats: ``learner_seat`` 0 (White), 1 (Black) or ``"random"`` (drawn per game).

    Args:
        num_envs: number of games.
        learner_seat: 0, 1 or ``"random"``.
        seed: the engine's seed (boards, seats and the opponent's moves).
        **options: ``board_reuse`` and game options, as :class:`BatchedMaya2012`.

    Raises:
        ValueError: a bad ``learner_seat``.
        ConfigError: a bad option, or a learner seat that never moves.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, learner_seat: int | str = "random", seed: int | None = None, **options: Any):
        if learner_seat not in (0, 1, "random"):
            raise ValueError(f"learner_seat={learner_seat!r}; allowed: 0, 1, 'random'")
        self.engine = BatchedMaya2012(num_envs, seed=seed, **options)
        self._idle = idle_seats(self.engine.config)
        if learner_seat in self._idle:
            raise ConfigError(
                f"learner_seat={learner_seat} never moves with these options (setup='random', max_turns=1: "
                "White's first exchange ends every game); allowed: 0 or 'random'"
            )
        self.num_envs = num_envs
        self.learner_seat = learner_seat
        self.single_observation_space = spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(A.NUM_ACTIONS)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)
        self.seats = np.zeros(num_envs, np.int8)
        self.render_mode = None
        self._started = False

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if seed is not None:
            self.single_action_space.seed(seed)
        self.engine.reset(seed)
        self._started = True
        self._draw_seats(np.arange(self.num_envs))
        self._play_opponents()
        self._play_on()
        return self.engine.observe(self.seats), {"action_mask": self.action_masks()}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        self._check_started("step")
        engine = self.engine
        result = engine.step(actions, autoreset=False)
        rewards = result.rewards[engine._rows, self.seats].copy()
        terminated, truncated = result.terminated.copy(), result.truncated.copy()
        end = result.end.copy()
        rewards += self._play_opponents(terminated, truncated, end)
        done = terminated | truncated
        info: dict[str, Any] = {}
        if done.any():
            rows = np.flatnonzero(done)
            final = np.zeros((self.num_envs, OBS_SIZE), np.float32)
            final[rows] = engine.observe(self.seats[rows], rows)
            info["final_obs"], info["_final_obs"] = final, done
            info["end"] = np.array([END_REASONS[code] if code >= 0 else "" for code in end], object)
            info["_end"] = done
            engine.reset_done()
            self._draw_seats(rows)
            self._play_opponents()
            self._play_on()
        info["action_mask"] = self.action_masks()
        return engine.observe(self.seats), rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """``(N, 75) int8``: the learner's legal actions in each game (1 = legal).

        Raises:
            ResetNeededError: before the first :meth:`reset`.
        """
        self._check_started("action_masks")
        return self.engine.mask.copy()

    def _check_started(self, call: str) -> None:
        if not self._started:
            raise ResetNeededError(f"{call}() before reset(): call reset() first")

    def _draw_seats(self, rows: np.ndarray) -> None:
        if self.learner_seat == "random" and self._idle:
            self.seats[rows] = 1 - self._idle[0]  # the one seat that moves
        elif self.learner_seat == "random":
            self.seats[rows] = self.engine._rng.integers(2, size=rows.size)
        else:
            self.seats[rows] = self.learner_seat

    def _play_on(self) -> None:
        """New games in the rows whose game ended before the learner's move, until the
        learner is to move in every row (see the class docstring)."""
        engine = self.engine
        while True:
            rows = engine.reset_done()
            if not rows.size:
                return
            self._draw_seats(rows)
            self._play_opponents()

    def _play_opponents(
        self, terminated: np.ndarray | None = None, truncated: np.ndarray | None = None, end: np.ndarray | None = None
    ) -> np.ndarray:
        """Random opponent moves in the live games where the learner is not to move, until
        it is; returns the learner's rewards of games they ended (filling the flags)."""
        engine = self.engine
        gained = np.zeros(self.num_envs, np.float32)
        while True:
            waiting = (engine.phase < OVER) & (engine.to_move != self.seats)
            if not waiting.any():
                return gained
            rows = np.flatnonzero(waiting)
            result = engine.step_rows(rows, engine.sample_legal()[rows])
            gained[rows] += result.rewards[np.arange(rows.size), self.seats[rows]]
            if terminated is not None:
                terminated[rows] |= result.terminated
                truncated[rows] |= result.truncated
                end[rows[result.done]] = result.end[result.done]
