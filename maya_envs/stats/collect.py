"""Play seeded games of one config and record per-decision facts (:func:`collect`).

A :class:`StatsConfig` names a game of :data:`maya_envs.games.GAMES`, its options and one
agent spec per seat. Game ``i`` is fully fixed by ``(seed, i)``: its rules generator, every
seat's bot generator and the generator of the hidden-information probe are all spawned from
``numpy.random.SeedSequence([seed, i, ...])``, so the games can be played in any order and in
any number of worker processes (:func:`collect` with ``workers > 1``) and give the same
:class:`GameRecord` list.

What a record holds per decision: the acting seat, the number of legal actions, the phase (the
``"phase"`` name of the game's own serializer, ``rules.state_to_dict``) and the kind of the move
played (the first word of the game's notation, ``rules.action_to_string``). So the stats module
names no game and no action id: a fourth game's phases and move kinds appear by themselves.

Hidden information (the first ``hidden_games`` games, games with an imperfect-information spec
and a ``determinize`` hook): at every ``probe_every``-th decision the acting seat's view is resampled
``world_samples`` times by the game's own determinizer; the record keeps how many fields of the
serialized state the determinizer changed in some sample (the hidden items that seat faces,
a lower bound: a field resampled to its true value every time is not seen) and, per decision,
the number of distinct worlds drawn and of coinciding sample pairs (see
:func:`maya_envs.stats.figures.world_estimate`).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from maya_envs.core.checks import is_int, is_number
from maya_envs.games import Game, find_game

#: ``rules.state_to_dict`` field naming the phase (every game's serializer writes it).
PHASE_FIELD = "phase"
#: ``rules.state_to_dict`` field counting rounds, where a game has rounds.
ROUND_FIELD = "round"
#: ``rules.final_info`` field counting turns, the length unit of games without rounds.
TURNS_FIELD = "turns"
#: Seed-sequence tags of the generators one game spawns (besides the seat index of a bot).
_RULES_TAG, _BOT_TAG, _HIDDEN_TAG = 0, 1, 2


@dataclass(frozen=True)
class StatsConfig:
    """What to play.

    Attributes:
        game: a game name :func:`maya_envs.games.find_game` accepts (stored as the entry's key).
        options: game options (``num_players`` and any rules option, e.g. ``setup``).
        lineup: one agent spec per seat (``random``, ``heuristic``, ``mcts:200``, ``pretrained``,
            a ``.zip`` checkpoint: anything :func:`maya_envs.cli.play.load_seat` takes but
            ``human``).
        rotate: game ``i`` shifts the lineup by ``i % num_players`` seats, so every spec plays
            every seat equally often (a multiple of ``num_players`` games balances exactly).
        hidden_games: the first this many games probe hidden information (0: none).
        world_samples: determinizations per probed decision (>= 2).
        probe_every: a probed game probes every this many-th decision (0, k, 2k, ...).
    """

    game: str
    options: Mapping[str, Any]
    lineup: tuple[str, ...]
    rotate: bool = False
    hidden_games: int = 10
    world_samples: int = 32
    probe_every: int = 4

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["options"] = dict(sorted(self.options.items()))
        data["lineup"] = list(self.lineup)
        return data

    def seats(self, index: int) -> tuple[str, ...]:
        """The spec in each seat in game ``index``."""
        n = len(self.lineup)
        shift = index % n if self.rotate else 0
        return tuple(self.lineup[(seat - shift) % n] for seat in range(n))


@dataclass
class GameRecord:
    """The facts of one played game (see the module docstring).

    ``legal[k]``, ``actor[k]``, ``phase[k]``, ``kind[k]``: decision ``k``'s legal-action count,
    seat, phase name and played move kind. ``hidden``: ``[k, fields, distinct, pairs]`` per
    probed decision (empty where not probed). ``returns``: the rules' final rewards;
    ``scores``: the first per-seat number list of ``final_info`` (named ``score_name``), or
    ``None``. ``rounds``: how many values the serializer's ``"round"`` field took at decisions
    (``None`` where it has none; the end state's count past the last round is not a round);
    ``turns``: ``final_info["turns"]`` where present. ``rules_seconds``/``seconds``: time in the rules / the whole game (timing only:
    left out of :meth:`digest`).
    """

    index: int
    seats: tuple[str, ...]
    legal: list[int]
    actor: list[int]
    phase: list[str]
    kind: list[str]
    returns: list[float]
    scores: list[float] | None
    score_name: str | None
    end: str
    truncated: bool
    rounds: int | None
    turns: int | None
    hidden: list[list[int]] = field(default_factory=list)
    rules_steps: int = 0
    rules_seconds: float = 0.0
    seconds: float = 0.0

    @property
    def moves(self) -> int:
        return len(self.legal)

    def facts(self) -> dict[str, Any]:
        """Everything but the timing fields (what reproducibility is about)."""
        data = asdict(self)
        for key in ("rules_seconds", "seconds"):
            data.pop(key)
        data["seats"] = list(self.seats)
        return data

    def digest(self) -> str:
        """SHA-256 (first 16 hex digits) of :meth:`facts` as canonical JSON."""
        text = json.dumps(self.facts(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def game_seed(seed: int, index: int, *tags: int) -> np.random.Generator:
    """The generator of game ``index`` of a run seeded ``seed`` (``tags`` pick which one)."""
    return np.random.default_rng(np.random.SeedSequence([seed, index, *tags]))


def changed_fields(truth: Any, world: Any, prefix: str = "", out: set[str] | None = None) -> set[str]:
    """Paths of the leaves of two JSON-able values that differ (equal subtrees skipped whole;
    a list of another length counts as one changed field)."""
    out = set() if out is None else out
    if truth == world:
        return out
    if isinstance(truth, dict) and isinstance(world, dict):
        for key in truth.keys() | world.keys():
            changed_fields(truth.get(key), world.get(key), f"{prefix}/{key}", out)
    elif isinstance(truth, (list, tuple)) and isinstance(world, (list, tuple)) and len(truth) == len(world):
        for k, (a, b) in enumerate(zip(truth, world)):
            changed_fields(a, b, f"{prefix}/{k}", out)
    else:
        out.add(prefix)
    return out


def probe_hidden(rules: Any, determinize: Callable, state: Any, seat: int, samples: int, rng) -> list[int]:
    """``[fields, distinct, pairs]`` for ``seat`` at ``state`` from ``samples`` determinizations:
    fields of the serialized state some sample changed, distinct worlds drawn, and the number
    of sample pairs that drew the same world."""
    truth = rules.state_to_dict(state)
    changed: set[str] = set()
    counts: dict[str, int] = {}
    for _ in range(samples):
        world = rules.state_to_dict(determinize(rules, state, seat, rng))
        changed_fields(truth, world, out=changed)
        key = json.dumps(world, sort_keys=True)
        counts[key] = counts.get(key, 0) + 1
    pairs = sum(c * (c - 1) // 2 for c in counts.values())
    return [len(changed), len(counts), pairs]


def _score_list(info: Mapping[str, Any], n: int) -> tuple[str | None, list[float] | None]:
    for key, value in info.items():
        if (
            isinstance(value, list)
            and len(value) == n
            and all(is_number(v, numpy=False) for v in value)
        ):
            return key, [float(v) for v in value]
    return None, None


class Table:
    """One worker's game, rules, env view and players for a :class:`StatsConfig`.

    Raises:
        ValueError: an unknown game, a bad game option (``ConfigError``), a lineup whose length
            is not the player count, or an unusable agent spec (checked here, before any game).
    """

    def __init__(self, config: StatsConfig) -> None:
        from maya_envs.cli.play import HUMAN, load_seat

        self.config = config
        self.game: Game = find_game(config.game)
        for name, low in (("hidden_games", 0), ("world_samples", 2), ("probe_every", 1)):
            value = getattr(config, name)
            if not is_int(value, numpy=False) or value < low:
                raise ValueError(f"{name}={value!r}; allowed: an int >= {low}")
        self.env = importlib.import_module(self.game.env_module).raw_env(**dict(config.options))
        self.rules = self.env.rules
        n = self.rules.spec.num_players
        if len(config.lineup) != n:
            raise ValueError(
                f"lineup {','.join(config.lineup)!r} has {len(config.lineup)} specs; "
                f"{self.game.key} with num_players={n} needs {n} (or one spec for every seat)"
            )
        shape = self.env.spec_card.observation_shape
        self.players: dict[str, list[Any]] = {}
        for spec in dict.fromkeys(config.lineup):
            if spec == HUMAN:
                raise ValueError("maya-stats plays bots only; 'human' is not a lineup spec")
            self.players[spec] = [load_seat(spec, self.rules, seed=0, observation_shape=shape) for _ in range(n)]
        hidden = self.rules.spec.information != "perfect" and self.game.hook("determinize") is not None
        self.determinize = self.game.hook("determinize") if hidden else None
        self.env.reset(seed=0)  # the env is only a view for the players: game_state is set per decision

    def play(self, seed: int, index: int) -> GameRecord:
        """Play game ``index`` of a run seeded ``seed`` (see the module docstring)."""
        start = time.perf_counter()
        config, rules, env = self.config, self.rules, self.env
        seats = config.seats(index)
        players = [self.players[spec][seat] for seat, spec in enumerate(seats)]
        for seat, player in enumerate(players):
            player.new_episode(int(game_seed(seed, index, _BOT_TAG, seat).integers(2**63 - 1)))
        rng = game_seed(seed, index, _RULES_TAG)
        probe_rng = game_seed(seed, index, _HIDDEN_TAG)
        probe = self.determinize is not None and index < config.hidden_games
        agents = env.possible_agents
        legal_counts: list[int] = []
        actors: list[int] = []
        phases: list[str] = []
        kinds: list[str] = []
        hidden: list[list[int]] = []
        rounds: set[Any] = set()
        rules_seconds = 0.0
        tick = time.perf_counter()
        state = rules.initial_state(rng)
        over = rules.is_terminal(state) or rules.is_truncated(state)
        rules_seconds += time.perf_counter() - tick
        while not over:
            tick = time.perf_counter()
            seat = rules.current_player(state)
            legal = rules.legal_actions(state)
            rules_seconds += time.perf_counter() - tick
            data = rules.state_to_dict(state)
            phases.append(str(data.get(PHASE_FIELD, "-")))
            if ROUND_FIELD in data:
                rounds.add(data[ROUND_FIELD])
            if probe and len(legal_counts) % config.probe_every == 0:
                hidden.append([len(legal_counts), *probe_hidden(rules, self.determinize, state, seat, config.world_samples, probe_rng)])
            legal_counts.append(len(legal))
            actors.append(seat)
            env.game_state = state
            action = int(players[seat].choose(env, agents[seat]))
            if action not in legal:
                raise ValueError(f"{seats[seat]!r} chose illegal action {action} in game {index} (legal: {legal})")
            kinds.append(rules.action_to_string(action).split(" ", 1)[0])
            tick = time.perf_counter()
            state = rules.apply_action(state, action, rng)
            over = rules.is_terminal(state) or rules.is_truncated(state)
            rules_seconds += time.perf_counter() - tick
        n = rules.spec.num_players
        info = rules.final_info(state)
        score_name, scores = _score_list(info, n)
        turns = info.get(TURNS_FIELD)
        return GameRecord(
            index=index,
            seats=seats,
            legal=legal_counts,
            actor=actors,
            phase=phases,
            kind=kinds,
            returns=[float(r) for r in rules.returns(state)],
            scores=scores,
            score_name=score_name,
            end=str(info.get("end", "-")),
            truncated=bool(rules.is_truncated(state)),
            rounds=len(rounds) if rounds else None,
            turns=int(turns) if isinstance(turns, int) else None,
            hidden=hidden,
            rules_steps=len(legal_counts),
            rules_seconds=rules_seconds,
            seconds=time.perf_counter() - start,
        )


_TABLE: Table | None = None


def _init_worker(config: StatsConfig) -> None:
    global _TABLE
    _TABLE = Table(config)


def _play_chunk(seed: int, indices: list[int]) -> list[GameRecord]:
    return [_TABLE.play(seed, index) for index in indices]


def collect(
    config: StatsConfig,
    games: int,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """Play games ``0 .. games-1`` of ``config`` seeded ``seed``; the records in game order.

    Args:
        games: number of games (> 0).
        workers: processes (1: this process); the records do not depend on it.
        progress: called with the number of newly finished games after each batch.

    Raises:
        ValueError: ``games`` or ``workers`` < 1, or a bad config (see :class:`Table`; raised
            in this process, before any worker starts).
    """
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an int >= 1, got {workers!r}")
    table = Table(config)  # checks the config here, with its error, before any worker starts
    if workers == 1:
        records = []
        for index in range(games):
            records.append(table.play(seed, index))
            if progress is not None:
                progress(1)
        return records
    chunk = max(1, min(25, math.ceil(games / (4 * workers))))
    chunks = [list(range(i, min(i + chunk, games))) for i in range(0, games, chunk)]
    records = []
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(config,)) as pool:
        for batch in pool.map(_play_chunk, [seed] * len(chunks), chunks):
            records.extend(batch)
            if progress is not None:
                progress(len(batch))
    return records
