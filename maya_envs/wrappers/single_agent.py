"""Single-agent Gymnasium view of any of our AEC envs: one learner seat, the other seats
played by opponents inside ``step``.

* Observation: the learner's ``"observation"`` array (``Box``, float32); the mask is
  returned by :meth:`SingleAgentEnv.action_masks` (what sb3-contrib's ``MaskablePPO``
  calls) and in ``info["action_mask"]``, both ``int8`` (1 = legal), the one mask dtype of
  every surface, which ``env.action_space.sample(mask=env.unwrapped.action_masks())`` and
  sb3-contrib accept. Once the game is over (the step that returns ``terminated`` or
  ``truncated``, and until ``reset``) the mask marks every id, as Pgx does at a terminal
  state: no masked sampler meets an empty mask, and under ``gym.make_vec``'s default
  ``NEXT_STEP`` autoreset the next step only resets the game, its action ignored. A live
  state's mask, the ids and the observations are not changed by this.
* Episodes: ``reset()`` always returns a game in which the learner is to move. A game that
  ends before the learner's first decision (an opponent's move or illegal id ends it, the
  turn cap, a board with no first move) is not an episode: the env plays on into a new game
  seeded with the next seed from the env's generator (and draws the seat again when
  ``"random"``), up to :data:`MAX_GAMES_WITHOUT_LEARNER` games in a row, then raises
  ``RuntimeError``. A learner seat that can never decide under the game's options
  (``rules.idle_seats()``, e.g. Maya (2012) seat 3 with ``max_turns=3``) is refused at
  construction with ``ConfigError``; ``"random"`` draws among the other seats.
* Info: ``{}`` while the game runs, the game's final info (``rules.final_info``) once it is
  over, plus ``"action_mask"`` and ``"learner"`` (the learner's agent name). Each key has one
  type in every game, as ``gym.make_vec`` needs (it types a key's array by the first value
  it sees): a final-info seat that may be ``None`` (``rules.final_info_seat_keys``, e.g. Maya
  (2012)'s ``winner`` after a draw or truncation, ``declared_by`` when nobody declared,
  ``centre_bonus`` when nobody has it) is :data:`NO_SEAT` (``-1``) here; the AEC env's infos
  keep ``None``.
* Use before ``reset()``: ``step``, ``action_masks`` and ``render`` raise
  :class:`~maya_envs.core.errors.ResetNeededError`.
* Reward: always the learner's own (its team's where the game has teams), summed over
  everything that happened since its last decision, so a game ended by an opponent's move
  still pays the learner on that same step.
* Seats: ``learner_seat`` is a seat index, ``"first"`` (0), ``"second"`` (1) or ``"random"``
  (drawn every episode from the env's generator).
* Seeding: ``reset(seed=s)`` reseeds the game and every bot opponent; ``reset()`` continues.

:func:`make_single_agent_env` is the one ``gym.make`` factory of every game (the Gymnasium
ids are registered from :mod:`maya_envs.games` with ``game=`` filled in).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from maya_envs.aec_base import RulesAECEnv
from maya_envs.core.checks import is_int, is_number
from maya_envs.core.errors import ConfigError, ResetNeededError, shorten
from maya_envs.core.rng import check_seed, spawn_seed
from maya_envs.games import find_game
from maya_envs.wrappers.opponents import make_opponent
from maya_envs.wrappers.shaping import load_potential

SEAT_NAMES = {"first": 0, "second": 1}
NO_SEAT = -1
"""A final-info seat that nobody holds (``None`` in the AEC env's infos): an int, so that every
game gives the key one type under ``gym.make_vec``."""
MAX_GAMES_WITHOUT_LEARNER = 1000


class SingleAgentEnv(gym.Env):
    """Gymnasium env for one learner against opponents.

    Args:
        aec_env: the multi-agent env (any :class:`~maya_envs.aec_base.RulesAECEnv`).
        opponents: one opponent spec for every other seat, or a sequence with one spec per
            other seat in seat order (see :mod:`maya_envs.wrappers.opponents`).
        learner_seat: seat index, ``"first"``, ``"second"`` or ``"random"``.
        reward_fn: optional ``reward_fn(aec_env, learner_agent) -> float`` replacing the
            learner's own reward (used for team rewards).
        shaping_potential: optional ``phi(state, seat) -> float`` for potential-based reward
            shaping (:mod:`maya_envs.wrappers.shaping`); ``None`` (default) disables it.
        shaping_scale, shaping_gamma: the shaping coefficient and discount.

    Raises:
        ValueError: a bad ``learner_seat`` or opponent spec, or a wrong number of opponents.
        ConfigError: a ``learner_seat`` that never decides under the game's options.
    """

    def __init__(
        self,
        aec_env: RulesAECEnv,
        opponents: Any = "random",
        learner_seat: int | str = "random",
        reward_fn: Callable[[RulesAECEnv, str], float] | None = None,
        shaping_potential: Callable[[Any, int], float] | None = None,
        shaping_scale: float = 1.0,
        shaping_gamma: float = 0.99,
    ) -> None:
        self.aec_env = aec_env
        self.rules = aec_env.rules
        n = self.rules.spec.num_players
        shape = aec_env.spec_card.observation_shape
        self._seat_choice = _parse_seat(learner_seat, n)
        idle = self.rules.idle_seats()
        if self._seat_choice in idle or len(idle) == n:
            raise ConfigError(
                f"learner_seat={shorten(learner_seat)} never decides with these game options (seats without a "
                f"decision: {list(idle)}); allowed: one of {[s for s in range(n) if s not in idle]} or 'random'"
            )
        self._seats = [s for s in range(n) if s not in idle]
        if _is_spec_list(opponents):
            specs = list(opponents)
            if len(specs) != n - 1:
                raise ValueError(f"expected {n - 1} opponent specs for {n} players, got {len(specs)}: {shorten(specs)}")
            self.opponents = [make_opponent(spec, self.rules, observation_shape=shape) for spec in specs]
        else:  # one spec for every other seat, each seat with its own generator
            self.opponents = [make_opponent(opponents, self.rules, observation_shape=shape) for _ in range(n - 1)]
        agent0 = aec_env.possible_agents[0]
        self.observation_space = aec_env.observation_space(agent0)["observation"]
        self.action_space = aec_env.action_space(agent0)
        self.render_mode = aec_env.render_mode
        self.metadata = {"render_modes": list(aec_env.metadata["render_modes"]), "render_fps": 1}
        self._reward_fn = reward_fn
        self._potential = shaping_potential
        self._shaping_scale = float(shaping_scale)
        self._shaping_gamma = float(shaping_gamma)
        self._last_potential = 0.0
        self.learner = agent0
        self._opponent_of: dict[str, Any] = {}
        self._started = False

    # -- gymnasium API ----------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=None if seed is None else check_seed(seed))  # the bound every seed shares
        rng = self.np_random
        env = self.aec_env
        for _ in range(MAX_GAMES_WITHOUT_LEARNER):  # play on until the learner decides
            env.reset(seed=spawn_seed(rng))
            for opponent in self.opponents:
                opponent.new_episode(spawn_seed(rng))
            seat = self._seats[int(rng.integers(len(self._seats)))] if self._seat_choice is None else self._seat_choice
            self.learner = env.possible_agents[seat]
            others = [agent for agent in env.possible_agents if agent != self.learner]
            self._opponent_of = dict(zip(others, self.opponents, strict=True))
            env.render_observer = seat
            self._play_opponents()
            if not self._over():
                break
        else:
            raise RuntimeError(
                f"{MAX_GAMES_WITHOUT_LEARNER} games in a row ended before {self.learner} could decide "
                "(an opponent that always plays illegal ids?)"
            )
        self._started = True
        self._last_potential = self._potential_now()
        return self._observation_and_info()

    def step(self, action: Any):
        """Gymnasium ``step`` for the learner, then the opponents until the learner is to
        move again or the game ends.

        Raises:
            ResetNeededError: before the first :meth:`reset`, or after the episode ended.
        """
        self._check_started("step")
        env = self.aec_env
        if self._over():
            raise ResetNeededError("step() after the episode ended: call reset() to start a new game")
        env.step(action)
        self._play_opponents()
        terminated = env.terminations[self.learner]
        truncated = env.truncations[self.learner]
        reward = self._reward_fn(env, self.learner) if self._reward_fn else env._cumulative_rewards[self.learner]
        if self._potential is not None:
            potential = 0.0 if terminated or truncated else self._potential_now()
            reward += self._shaping_scale * (self._shaping_gamma * potential - self._last_potential)
            self._last_potential = potential
        observation, info = self._observation_and_info()
        return observation, float(reward), bool(terminated), bool(truncated), info

    def action_masks(self) -> np.ndarray:
        """``int8`` array ``(num_actions,)``: the learner's legal actions now (1 = legal);
        every id once the game is over.

        Raises:
            ResetNeededError: before the first :meth:`reset`.
        """
        self._check_started("action_masks")
        if self._over():  # every id: nothing is played with it (see the module docstring)
            return np.ones(self.action_space.n, np.int8)
        return self.aec_env.action_mask(self.learner)

    def render(self):
        """The learner's view, as the AEC env's ``render``.

        Raises:
            ResetNeededError: before the first :meth:`reset` (with a ``render_mode``).
        """
        if self.render_mode is not None:
            self._check_started("render")
        return self.aec_env.render()

    def close(self) -> None:
        self.aec_env.close()

    # -- internals --------------------------------------------------------------------------

    def _check_started(self, call: str) -> None:
        if not self._started:
            raise ResetNeededError(f"{call}() before reset(): call reset() first")

    def _potential_now(self) -> float:
        if self._potential is None:
            return 0.0
        return float(self._potential(self.aec_env.game_state, self.aec_env.seat_of(self.learner)))

    def _over(self) -> bool:
        env = self.aec_env
        return env.terminations[self.learner] or env.truncations[self.learner]

    def _play_opponents(self) -> None:
        env = self.aec_env
        while not self._over() and env.agent_selection != self.learner:
            agent = env.agent_selection
            env.step(self._opponent_of[agent].choose(env, agent))

    def _observation_and_info(self) -> tuple[np.ndarray, dict[str, Any]]:
        observed = self.aec_env.observe(self.learner)  # encoded once per reset/step
        info = copy.deepcopy(self.aec_env.infos[self.learner])
        for key in self.rules.final_info_seat_keys:
            if key in info and info[key] is None:
                info[key] = NO_SEAT
        info["action_mask"] = np.ones_like(observed["action_mask"]) if self._over() else observed["action_mask"]
        info["learner"] = self.learner
        return observed["observation"], info


def make_single_agent_env(
    game: str,
    opponents: Any = None,
    learner_seat: int | str = "random",
    render_mode: str | None = None,
    illegal_action: str = "terminate",
    opponent: Any = None,
    reward_shaping: float = 0.0,
    **game_options: Any,
) -> SingleAgentEnv:
    """Every game's ``gym.make`` factory: ``game`` (a name :func:`maya_envs.games.find_game`
    accepts; the registration fills it in) for one learner, the other ``num_players - 1``
    seats played by opponents.

    Args:
        opponents: one spec for every other seat (``"random"``, the default, ``"heuristic"``,
            a bot, a model with ``predict``, a callable, a pool; see
            :mod:`maya_envs.wrappers.opponents`), or a list with one spec per other seat in
            seat order. ``opponent`` is an alias.
        learner_seat: a seat ``0 .. n-1``, ``"first"`` (0), ``"second"`` (1) or ``"random"``
            (drawn per episode from the env's generator).
        render_mode, illegal_action: as the game's AEC env; ``render()`` shows the learner's view.
        reward_shaping: coefficient of potential-based shaping with the game's
            ``shaping_potential`` hook (:mod:`maya_envs.wrappers.shaping`); 0 (default) disables it.
        **game_options: the fields of the game's config dataclass (``num_players``, ...).

    The reward is the learner's own, which in a team game is its team's result.

    Raises:
        ValueError: an unknown game, both ``opponents`` and ``opponent`` given, a bad
            seat or opponent spec.
        ConfigError: a bad game option, a negative, infinite or NaN ``reward_shaping``, or shaping asked for a
            game without a potential.
    """
    entry = find_game(game)
    if opponent is not None and opponents is not None:
        raise ValueError("pass either opponents= or its alias opponent=, not both")
    spec = opponents if opponents is not None else opponent if opponent is not None else "random"
    if not is_number(reward_shaping, numpy=False) or not 0 <= reward_shaping < math.inf:
        raise ConfigError(
            f"reward_shaping={shorten(reward_shaping)}; allowed: a finite number >= 0 (0 disables shaping)"
        )
    potential = load_potential(entry.key) if reward_shaping else None
    aec = entry.hook("env")(render_mode=render_mode, illegal_action=illegal_action, **game_options)
    return SingleAgentEnv(
        aec, opponents=spec, learner_seat=learner_seat, shaping_potential=potential, shaping_scale=reward_shaping
    )


def _parse_seat(choice: int | str, num_players: int) -> int | None:
    if choice == "random":
        return None
    seat = SEAT_NAMES.get(choice, choice) if isinstance(choice, str) else choice
    if not is_int(seat) or not 0 <= seat < num_players:
        raise ConfigError(
            f"learner_seat={shorten(choice)} is not allowed; allowed: 0..{num_players - 1}, 'first', 'second' or "
            "'random'"
        )
    return int(seat)


def _is_spec_list(opponents: Any) -> bool:
    return isinstance(opponents, Sequence) and not isinstance(opponents, str)
