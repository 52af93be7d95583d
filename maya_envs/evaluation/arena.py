"""Head-to-head matches (:func:`play_match`) and arenas of any mix of agents
(:func:`play_arena`), seats rotated, with ratings (:mod:`maya_envs.evaluation.ratings`).

Agents are anything :func:`maya_envs.wrappers.opponents.make_opponent` accepts (a bot
name, a bot, a model with ``predict``, a callable). Game ``g`` seats the candidate at seat
``g % num_players``, so every seat is played equally often (exactly, when ``games`` is a
multiple of the player count); the other seats are filled by the opponent.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from maya_envs.aec_base import RulesAECEnv
from maya_envs.core.errors import shorten
from maya_envs.core.paths import names_a_file, shown_path
from maya_envs.core.rng import make_rng, spawn_seed
from maya_envs.evaluation.stats import wilson_interval
from maya_envs.players import checkpoint_path, load_model_file, names_checkpoint, player_syntax
from maya_envs.wrappers.opponents import make_opponent


class _WinRate:
    """``win_rate`` and its Wilson 95% interval from ``wins`` and ``games`` ((0, 1) before any game):
    draws count as no win (``win_rate_convention`` ``"wins"``,
    :data:`maya_envs.evaluation.stats.WIN_RATE_CONVENTIONS`)."""

    wins: int
    games: int
    CONVENTION = "wins"

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games) if self.games else (0.0, 1.0)

    def add_game(self, seat: int, result: float, illegal: bool) -> None:
        """Count one game played at ``seat`` with final return ``result``: a win above 0, a loss
        below, else a draw (``illegal``: its own illegal action ended the game)."""
        self.games += 1
        self.games_per_seat[seat] += 1
        self.illegal_actions += illegal
        if result > 0:
            self.wins += 1
        elif result < 0:
            self.losses += 1
        else:
            self.draws += 1

    def rate_fields(self) -> dict[str, Any]:
        """``win_rate``, ``win_rate_ci95`` and ``win_rate_convention`` of a result row."""
        return {
            "win_rate": self.win_rate,
            "win_rate_ci95": list(self.win_rate_ci95),
            "win_rate_convention": self.CONVENTION,
        }


@dataclass
class MatchResult(_WinRate):
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

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), **self.rate_fields()}


def _play_game(env: RulesAECEnv, seated: list[Any]) -> tuple[list[float], set[str]]:
    """Play the reset ``env`` to its end with ``seated[seat]`` choosing for each seat: each
    seat's summed reward and the agents whose illegal action ended the game."""
    by_agent = dict(zip(env.possible_agents, seated, strict=True))
    totals = dict.fromkeys(env.possible_agents, 0.0)
    offenders: set[str] = set()
    for agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            if info.get("offender") == agent:
                offenders.add(agent)
            env.step(None)
            continue
        env.step(by_agent[agent].choose(env, agent))
    return [totals[agent] for agent in env.possible_agents], offenders


def play_match(
    env_fn: Callable[[], RulesAECEnv],
    candidate: Any,
    opponent: Any,
    games: int,
    seed: int = 0,
    candidate_name: str = "candidate",
    opponent_name: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> MatchResult:
    """Play ``games`` games of ``candidate`` against ``opponent`` with seats rotated.

    Args:
        env_fn: builds a fresh AEC env (``illegal_action="terminate"`` recommended: an
            illegal move by the candidate then counts as a loss and in ``illegal_actions``).
        candidate, opponent: agent specs (see the module docstring).
        games: number of games (> 0).
        seed: seeds the games and the bots.
        progress: called with the number of games played after each game (a progress bar).

    Raises:
        ValueError: ``games <= 0`` or an unusable agent spec.
    """
    if games <= 0:
        raise ValueError(f"games must be > 0, got {games}")
    env = env_fn()
    rules = env.rules
    n = rules.spec.num_players
    rng = make_rng(seed)
    shape = env.spec_card.observation_shape
    cand = make_opponent(candidate, rules, observation_shape=shape)
    opponents = [make_opponent(opponent, rules, observation_shape=shape) for _ in range(n - 1)]
    result = MatchResult(candidate_name, opponent_name or str(opponent), games_per_seat=[0] * n)
    for game in range(games):
        seat = game % n
        env.reset(seed=spawn_seed(rng))
        players = list(opponents)
        players.insert(seat, cand)
        for player in players:
            player.new_episode(spawn_seed(rng))
        returns, offenders = _play_game(env, players)
        result.add_game(seat, returns[seat], env.possible_agents[seat] in offenders)
        if progress is not None:
            progress(game + 1)
    return result


# -- the arena: any mix of agents, seats rotated, ratings ---------------------------------------

DESIGNS = ("latin", "permutations")


def seating_plan(num_agents: int, num_players: int, design: str = "latin") -> list[tuple[int, ...]]:
    """One balanced block of seat assignments: ``plan[i][seat]`` is an agent index.

    Tables: with at least as many agents as seats, every combination of ``num_players``
    agents; with fewer, one table where the agents repeat in order (2 agents, 4 seats:
    ``A B A B``, so in the 4-player Maya (2012) team game each agent partners itself).
    Each table is then seated by ``design``:

    * ``"latin"``: the ``num_players`` cyclic rotations of the table (a cyclic Latin square):
      every agent of the table sits in every seat exactly as often, and the block stays small
      (``num_players`` games per table).
    * ``"permutations"``: every distinct ordering of the table (``n!`` for distinct agents):
      also balances who sits after (and, in team games, with) whom.

    Over one block every agent plays every seat equally often; a run of ``games`` is exactly
    balanced when ``games`` is a multiple of ``len(plan)``.

    Raises:
        ValueError: fewer than 1 agent, fewer than 2 players or an unknown design.
    """
    if num_agents < 1 or num_players < 2:
        raise ValueError(f"need >= 1 agent and >= 2 players, got {num_agents} agents, {num_players} players")
    if design not in DESIGNS:
        raise ValueError(f"design={shorten(design)}; allowed: {', '.join(DESIGNS)}")
    if num_agents >= num_players:
        tables = list(itertools.combinations(range(num_agents), num_players))
    else:
        tables = [tuple(i % num_agents for i in range(num_players))]
    plan: list[tuple[int, ...]] = []
    for table in tables:
        if design == "latin":
            plan.extend(tuple(table[(s + r) % num_players] for s in range(num_players)) for r in range(num_players))
        else:
            plan.extend(sorted(set(itertools.permutations(table))))
    return plan


@dataclass
class AgentStats(_WinRate):
    """One agent's results over an arena; every seat it filled counts as one game.

    A win is a positive final return, a loss a negative one, a draw zero; the score is the
    mean final return (the game's ``reward_scheme``).
    """

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score_sum: float = 0.0
    illegal_actions: int = 0
    games_per_seat: list[int] = field(default_factory=list)

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), **self.rate_fields(), "mean_score": self.mean_score}

    def add_game(self, seat: int, result: float, illegal: bool) -> None:
        """Count one game at ``seat`` with final return ``result``, its score included."""
        self.score_sum += result
        super().add_game(seat, result, illegal)


@dataclass
class ArenaResult:
    """Per-agent statistics and ratings of an arena run."""

    num_players: int
    games: int
    design: str
    block_size: int
    agents: list[AgentStats]
    openskill: dict[str, dict[str, float]]
    elo: dict[str, float] | None = None
    head_to_head: dict[str, dict[str, list[int]]] | None = None
    """2p only: ``head_to_head[a][b] = [wins, draws, losses]`` of ``a`` against ``b``."""

    @property
    def fair_share(self) -> float:
        """The win rate of an agent no better than the table: all seat-wins over all
        seat-games (``1/n`` with one winner per game, ``1/2`` in the 4-player Maya (2012)
        team game, a little more where ties share the win)."""
        games = sum(a.games for a in self.agents)
        return sum(a.wins for a in self.agents) / games if games else 0.0

    @property
    def balanced(self) -> bool:
        """Every agent played every seat equally often."""
        return all(len(set(a.games_per_seat)) == 1 for a in self.agents)

    def to_dict(self) -> dict[str, Any]:
        return {
            "num_players": self.num_players,
            "games": self.games,
            "design": self.design,
            "block_size": self.block_size,
            "balanced": self.balanced,
            "fair_share": self.fair_share,
            "agents": [a.to_dict() for a in self.agents],
            "openskill": self.openskill,
            "elo": self.elo,
            "head_to_head": self.head_to_head,
        }

    def markdown(self) -> str:
        """The per-agent table (sorted by OpenSkill ordinal), plus Elo and head-to-head in 2p."""
        has_elo = self.elo is not None
        head = (
            "| agent | seat-games | wins | draws | losses | win rate | 95% CI (Wilson) | mean score "
            "| OpenSkill mu ± sigma |"
        )
        lines = [
            head + (" Elo |" if has_elo else ""),
            "|---|" + "---:|" * 5 + "---|---:|---:|" + ("---:|" if has_elo else ""),
        ]
        order = sorted(self.agents, key=lambda a: -self.openskill[a.name]["ordinal"])
        for a in order:
            low, high = a.win_rate_ci95
            rating = self.openskill[a.name]
            row = (
                f"| {a.name} | {a.games} | {a.wins} | {a.draws} | {a.losses} | {a.win_rate:.1%} | "
                f"[{low:.1%}, {high:.1%}] | {a.mean_score:+.3f} | {rating['mu']:.2f} ± {rating['sigma']:.2f} |"
            )
            lines.append(row + (f" {self.elo[a.name]:.0f} |" if has_elo else ""))
        lines.append("")
        lines.append(
            f"{self.games} games, {self.num_players} players, seats by the {shorten(self.design)} design "
            f"(block of {self.block_size}; {'balanced' if self.balanced else 'NOT balanced: games not a multiple'}); "
            f"fair share (all seat-wins / seat-games) {self.fair_share:.1%}; illegal actions: "
            + ", ".join(f"{a.name} {a.illegal_actions}" for a in self.agents)
        )
        lines.append(
            "seat-games: the seats an agent filled (an agent seated twice at one table counts twice). "
            "Read the win rates with their intervals and OpenSkill (all games, every seat, independent of "
            "the order the games were played in)"
            + ("; Elo (2p) depends on that order and is shown for familiarity: where the two disagree, "
               "OpenSkill is the one to read." if has_elo else ".")
        )  # fmt: skip
        if self.head_to_head:
            names = [a.name for a in order]
            lines += ["", "| W-D-L (row vs column) | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
            for a in names:
                cells = ["-" if a == b else "-".join(map(str, self.head_to_head[a][b])) for b in names]
                lines.append(f"| {a} | " + " | ".join(cells) + " |")
        return "\n".join(lines)


FINAL_MODELS = ("model.zip", "model.pt")
"""The file a training run ends with (MaskablePPO, expert iteration): named by the run alone."""


def checkpoint_name(path: str | Path) -> str:
    """The one name a checkpoint goes by in every table: ``maya-train``'s evaluation,
    ``maya-eval``, ``maya-arena`` (unlabelled) and ``maya-web --checkpoint PATH``.

    It is the run's ``exp_name``, read from the ``config.yaml`` beside the file or one folder up
    (``checkpoints/``, ``snapshots/``), as ``maya-train`` writes it: ``maskable_ppo_quick`` for
    ``runs/<run>/model.zip``, ``maskable_ppo_quick/model_20000_steps`` for a file other than the
    run's final :data:`FINAL_MODELS`. A file with no readable config beside it:
    ``<folder>/<stem>`` (``x/model``), or ``<stem>``.
    """
    path = Path(path)
    for folder in (path.parent, path.parent.parent):
        if (folder / "config.yaml").is_file():
            exp_name = _exp_name(folder / "config.yaml")
            if exp_name:
                return exp_name if path.name in FINAL_MODELS and folder == path.parent else f"{exp_name}/{path.stem}"
            break
    return f"{path.parent.name}/{path.stem}" if path.parent.name else path.stem


def _exp_name(config: Path) -> str | None:
    """A run config's ``exp_name``, or ``None`` (unreadable, not plain YAML, no such key)."""
    from maya_envs.core.errors import ConfigError
    from maya_envs.plain_yaml import load_yaml

    try:
        loaded = load_yaml(config.read_text(encoding="utf-8"), str(config))
    except (OSError, UnicodeDecodeError, ConfigError):
        return None
    name = loaded.get("exp_name") if isinstance(loaded, dict) else None
    return name if isinstance(name, str) and name else None


def resolve_agent(spec: str) -> tuple[str, Any]:
    """Turn a command-line agent spec into ``(name, agent)``.

    Specs: the bot specs (:data:`maya_envs.bot_kinds.BOT_KINDS`), an explicit model file
    (:func:`maya_envs.players.names_checkpoint`: ``checkpoint:PATH``, a path with a separator,
    a ``.zip`` MaskablePPO checkpoint loaded on the CPU without unpickling, a ``.pt`` network
    played as ``policy:PATH``; needs the ``train`` extra; a bare word is never a file),
    ``rllib:<path>``, each optionally prefixed by a label ``name=`` (``ppo=runs/x/model.zip``);
    an unlabelled checkpoint is named by :func:`checkpoint_name`.
    Bot names are checked when the arena builds them for the game.

    Raises:
        ValueError: an empty spec or a model file that does not exist.
    """
    name, sep, rest = spec.partition("=")
    if sep and name and all(ch.isalnum() or ch in "_-." for ch in name):
        spec = rest
    else:
        name = spec
    if not spec:
        raise ValueError(f"an empty agent spec; allowed: {player_syntax()}, a checkpoint .zip, rllib:<path>")
    if names_checkpoint(spec):
        path = checkpoint_path(spec)
        if not names_a_file(path):
            raise ValueError(f"agent {shown_path(spec)}: checkpoint file does not exist")
        if name == spec:
            name = checkpoint_name(path)
        return name, load_model_file(spec)
    return name, spec


def _rate_pair(elo: Any, h2h: dict[str, dict[str, list[int]]], seat_names: list[str], returns: list[float]) -> None:
    """A two-seat game's Elo update and head-to-head count (win, draw, loss of the row's agent)."""
    a, b = seat_names
    score_a = 1.0 if returns[0] > returns[1] else 0.0 if returns[0] < returns[1] else 0.5
    elo.update(a, b, score_a)
    if a != b:
        outcome = 0 if score_a == 1.0 else 2 if score_a == 0.0 else 1
        h2h[a][b][outcome] += 1
        h2h[b][a][2 - outcome] += 1


def play_arena(
    env_fn: Callable[[], RulesAECEnv],
    agents: dict[str, Any],
    games: int,
    seed: int = 0,
    design: str = "latin",
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play ``games`` games among ``agents`` (``{name: spec}``, specs as for :func:`play_match`)
    with seats from :func:`seating_plan`, and rate them.

    Raises:
        ValueError: ``games <= 0``, no agents, a bad design or an unusable agent spec (checked
            before the first game).
    """
    if games <= 0:
        raise ValueError(f"games must be > 0, got {games}")
    if not agents:
        raise ValueError("the arena needs at least one agent")
    from maya_envs.evaluation.ratings import EloTable, OpenSkillTable

    env = env_fn()
    rules = env.rules
    n = rules.spec.num_players
    names = list(agents)
    plan = seating_plan(len(names), n, design)
    # one resolved player per (agent, seat): bots keep their own generators
    shape = env.spec_card.observation_shape
    players = [[make_opponent(agents[name], rules, observation_shape=shape) for _ in range(n)] for name in names]
    stats = [AgentStats(name, games_per_seat=[0] * n) for name in names]
    openskill = OpenSkillTable(names)
    elo = EloTable(names) if n == 2 else None
    h2h = {a: {b: [0, 0, 0] for b in names} for a in names} if n == 2 else None
    rng = make_rng(seed)
    for game in range(games):
        table = plan[game % len(plan)]
        env.reset(seed=spawn_seed(rng))
        seated = [players[idx][seat] for seat, idx in enumerate(table)]
        for player in seated:
            player.new_episode(spawn_seed(rng))
        returns, offenders = _play_game(env, seated)
        for seat, (agent, idx) in enumerate(zip(env.possible_agents, table, strict=True)):
            stats[idx].add_game(seat, returns[seat], agent in offenders)
        seat_names = [names[idx] for idx in table]
        openskill.update(seat_names, returns)
        if elo is not None:
            _rate_pair(elo, h2h, seat_names, returns)
        if progress is not None:
            progress(game + 1)
    return ArenaResult(
        num_players=n,
        games=games,
        design=design,
        block_size=len(plan),
        agents=stats,
        openskill=openskill.to_dict(),
        elo=elo.to_dict() if elo else None,
        head_to_head=h2h,
    )
