"""Head-to-head matches between a candidate and an opponent, seats rotated.

Agents are anything :func:`maya_envs.wrappers.opponents.make_opponent` accepts (a bot
name, a bot, a model with ``predict``, a callable). Game ``g`` seats the candidate at seat
``g % num_players``, so every seat is played equally often (exactly, when ``games`` is a
multiple of the player count); the other seats are filled by the opponent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from maya_envs.aec_base import RulesAECEnv
from maya_envs.core.rng import make_rng, spawn_seed
from maya_envs.evaluation.stats import wilson_interval
from maya_envs.wrappers.opponents import make_opponent


@dataclass
class MatchResult:
    """Outcome counts of a candidate over a match, from the candidate's seat.

    A win is a positive final reward, a loss a negative one, a draw zero.
    """

    candidate: str
    opponent: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    illegal_actions: int = 0
    games_per_seat: list[int] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["win_rate"] = self.win_rate
        data["win_rate_ci95"] = list(self.win_rate_ci95)
        return data


def play_match(
    env_fn: Callable[[], RulesAECEnv],
    candidate: Any,
    opponent: Any,
    games: int,
    seed: int = 0,
    candidate_name: str = "candidate",
    opponent_name: str | None = None,
) -> MatchResult:
    """Play ``games`` games of ``candidate`` against ``opponent`` with seats rotated.

    Args:
        env_fn: builds a fresh AEC env (``illegal_action="terminate"`` recommended: an
            illegal move by the candidate then counts as a loss and in ``illegal_actions``).
        candidate, opponent: agent specs (see the module docstring).
        games: number of games (> 0).
        seed: seeds the games and the bots.

    Raises:
        ValueError: ``games <= 0`` or an unusable agent spec.
    """
    if games <= 0:
        raise ValueError(f"games must be > 0, got {games}")
    env = env_fn()
    rules = env.rules
    n = rules.spec.num_players
    rng = make_rng(seed)
    cand = make_opponent(candidate, rules)
    opponents = [make_opponent(opponent, rules) for _ in range(n - 1)]
    result = MatchResult(candidate_name, opponent_name or str(opponent), games_per_seat=[0] * n)
    for game in range(games):
        seat = game % n
        env.reset(seed=spawn_seed(rng))
        players = list(opponents)
        players.insert(seat, cand)
        for player in players:
            player.new_episode(spawn_seed(rng))
        by_agent = dict(zip(env.possible_agents, players, strict=True))
        me = env.possible_agents[seat]
        total = 0.0
        for agent in env.agent_iter():
            _, reward, terminated, truncated, info = env.last()
            if agent == me:
                total += reward
            if terminated or truncated:
                if agent == me and info.get("offender") == me:
                    result.illegal_actions += 1
                env.step(None)
                continue
            env.step(by_agent[agent].choose(env, agent))
        result.games += 1
        result.games_per_seat[seat] += 1
        if total > 0:
            result.wins += 1
        elif total < 0:
            result.losses += 1
        else:
            result.draws += 1
    return result
