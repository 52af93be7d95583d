"""Game records: write a game as JSON lines, load it with validation, replay it exactly.

A record is a JSONL file. The first line is the header::

    {"format": "maya_envs.record/1", "game": "maya2012_v1", "title": "Maya (2012)",
     "version": 1, "num_players": 2, "config": {...every game option...}, "seed": 7,
     "package_version": "0.1.0"}

then one line per action taken in the game, in order::

    {"agent": "player_0", "action": 12, "notation": "swap t0-t3 @L2"}

and, once the game is over, an optional last line with the outcome::

    {"end": {"rewards": {"player_0": 1.0, ...}, "terminated": true, "truncated": false}}

``config`` holds every field of the game's config dataclass (the env's ``rules.config``), so
``<game>_v<N>.env(**config)`` rebuilds the same rules; ``seed`` is the ``reset`` seed, and the
env draws every chance event (setup, shuffles, bag draws) from the generator of that seed, so
``reset(seed)`` followed by the recorded actions rebuilds every state exactly (:func:`replay`).

Writing: wrap any AEC env in :class:`RecordingWrapper` (``record_path=``); the Parallel env
of Yaxha records through its AEC env: ``RulesParallelEnv(RecordingWrapper(YaxhaEnv(...), path))``.
Loading: :func:`load_record` checks the format, game, version and config and replays the
moves, raising :class:`RecordError` with the line number for anything wrong (an unknown game,
another version, an illegal or out-of-turn action, a notation that does not match the id).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pettingzoo.utils.wrappers import BaseWrapper

from maya_envs.aec_base import check_action_id

RECORD_FORMAT = "maya_envs.record/1"
#: Game name (the PettingZoo module name) -> module with ``env(**options)``.
GAME_MODULES = {
    "maya2012_v1": "maya_envs.maya2012_v1",
    "maya_quarry_v1": "maya_envs.maya_quarry_v1",
    "yaxha_v1": "maya_envs.yaxha_v1",
}
#: Short names accepted wherever a game is named (``maya-play --game maya2012``).
GAME_ALIASES = {name.rsplit("_v", 1)[0]: name for name in GAME_MODULES}


class RecordError(ValueError):
    """A record that cannot be loaded or replayed; the message names the line and the problem."""


def _renamed_note(name: str) -> str:
    """`` (renamed 'maya2012_v1': ...)`` for an old name in :data:`maya_envs.RENAMED_ENVS`, else ``""``."""
    from maya_envs import RENAMED_ENVS

    if name not in RENAMED_ENVS:
        return ""
    new, change = RENAMED_ENVS[name]
    return f" (renamed {new!r}: {change})"


def game_name(game: str) -> str:
    """The full game name of ``game`` (``"maya2012"`` or ``"maya2012_v1"``).

    Raises:
        ValueError: an unknown game, or an old name in :data:`maya_envs.RENAMED_ENVS` (the
            message names the new one); the message lists the known ones.
    """
    name = GAME_ALIASES.get(game, game)
    if name not in GAME_MODULES:
        raise ValueError(f"unknown game {game!r}{_renamed_note(name)}; known: {sorted(GAME_ALIASES)}")
    return name


def make_env(game: str, **options: Any):
    """The AEC env of ``game`` (a name as :func:`game_name` accepts) with keyword ``options``."""
    return importlib.import_module(GAME_MODULES[game_name(game)]).env(**options)


def game_config(env) -> dict[str, Any]:
    """Every game option of ``env`` (its rules' config dataclass) as a JSON-able dict."""
    return json.loads(json.dumps(dataclasses.asdict(env.unwrapped.rules.config)))


@dataclass
class Record:
    """One game: the header dict, the moves (``{"agent", "action", "notation"}`` dicts) and the
    outcome (``None`` while the game is running)."""

    header: dict[str, Any]
    moves: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] | None = None

    def lines(self) -> list[str]:
        """The JSONL lines of the record (no trailing newlines)."""
        out = [json.dumps(self.header)] + [json.dumps(move) for move in self.moves]
        if self.end is not None:
            out.append(json.dumps({"end": self.end}))
        return out

    def save(self, path: str | Path) -> None:
        Path(path).write_text("\n".join(self.lines()) + "\n", encoding="utf-8")

    def make_env(self, **env_kwargs: Any):
        """A fresh env with the record's game and config (``env_kwargs``: ``render_mode`` ...)."""
        return make_env(self.header["game"], **self.header["config"], **env_kwargs)


def new_header(env, seed: int) -> dict[str, Any]:
    """The header of a record of ``env`` reset with ``seed``."""
    from maya_envs import __version__

    spec = env.unwrapped.rules.spec
    return {
        "format": RECORD_FORMAT,
        "game": spec.name,
        "title": spec.title,
        "version": spec.version,
        "num_players": spec.num_players,
        "config": game_config(env),
        "seed": int(seed),
        "package_version": __version__,
    }


class RecordingWrapper(BaseWrapper):
    """AEC wrapper that writes every game to a JSONL record (see the module docstring).

    Args:
        env: a game's AEC env.
        record_path: the file written; it is rewritten at every ``reset``, so one game per
            file. A path holding ``{episode}`` (e.g. ``"runs/game_{episode:04d}.jsonl"``) gets
            the episode number (0, 1, ...) instead, one file per game.

    ``reset()`` without a seed draws a fresh one (and passes it on), so that every record names
    the seed it needs; ``reset(seed=s)`` behaves as the env's. Each action is appended to the
    file as it is taken (a crashed game leaves a valid partial record); an illegal action is
    not written, the end line then carries the env's ``info``. ``self.record`` is the current
    game's :class:`Record`.
    """

    def __init__(self, env, record_path: str | Path) -> None:
        super().__init__(env)
        self.record_path = str(record_path)
        self.episode = -1
        self.record: Record | None = None
        self.path: Path | None = None

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = secrets.randbits(31)
        self.env.reset(seed=seed, options=options)
        self.episode += 1
        path = self.record_path.format(episode=self.episode) if "{episode" in self.record_path else self.record_path
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.record = Record(new_header(self.env, seed))
        self.path.write_text(json.dumps(self.record.header) + "\n", encoding="utf-8")

    def step(self, action: Any) -> None:
        env = self.env.unwrapped
        agent = env.agent_selection
        live = not (env.terminations[agent] or env.truncations[agent]) and action is not None
        try:
            action = check_action_id(action, env.rules.spec.num_actions) if live else action
        except ValueError:
            live = False  # the env raises the error itself
        legal = live and action in env.rules.legal_actions(env.game_state)
        self.env.step(action)
        if self.record is None or not live:
            return
        if legal:
            move = {"agent": agent, "action": action, "notation": env.rules.action_to_string(action)}
            self.record.moves.append(move)
            self._append(move)
        if (
            env.agents
            and all(env.terminations[a] or env.truncations[a] for a in env.agents)
            and self.record.end is None
        ):
            self.record.end = {
                "rewards": {a: float(env.rewards[a]) for a in env.agents},
                "terminated": bool(any(env.terminations.values())),
                "truncated": bool(any(env.truncations.values())),
            }
            if not legal:
                self.record.end["info"] = {k: str(v) for k, v in env.infos[agent].items()}
            self._append({"end": self.record.end})

    def _append(self, line: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")


def record_env(game: str, record_path: str | Path, **options: Any) -> RecordingWrapper:
    """``make_env(game, **options)`` wrapped in a :class:`RecordingWrapper` writing ``record_path``."""
    return RecordingWrapper(make_env(game, **options), record_path)


# -- loading and replay ------------------------------------------------------------------------

HEADER_KEYS = {"format": str, "game": str, "version": int, "num_players": int, "config": dict, "seed": int}


def parse_record(lines: list[str]) -> Record:
    """A :class:`Record` from JSONL ``lines``, checking the structure only (no replay).

    Raises:
        RecordError: not JSON, a missing or mistyped header field, another format, an unknown
            game, another version, or a move line without ``agent``/``action``/``notation``.
    """
    rows = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            rows.append((number, json.loads(text)))
        except json.JSONDecodeError as error:
            raise RecordError(f"line {number}: not valid JSON ({error.msg})") from None
    if not rows:
        raise RecordError("empty record: no header line")
    _, header = rows[0]
    if not isinstance(header, dict):
        raise RecordError("line 1: the header must be a JSON object")
    for key, kind in HEADER_KEYS.items():
        if not isinstance(header.get(key), kind) or isinstance(header.get(key), bool):
            raise RecordError(f"line 1: header field {key!r} missing or not a {kind.__name__}")
    if header["format"] != RECORD_FORMAT:
        raise RecordError(f"line 1: format {header['format']!r} is not {RECORD_FORMAT!r}")
    if header["game"] not in GAME_MODULES:
        note = _renamed_note(header["game"])
        raise RecordError(f"line 1: unknown game {header['game']!r}{note}; known: {sorted(GAME_MODULES)}")
    record = Record(header)
    for number, row in rows[1:]:
        if record.end is not None:
            raise RecordError(f"line {number}: nothing may follow the end line")
        if isinstance(row, dict) and set(row) == {"end"} and isinstance(row["end"], dict):
            record.end = row["end"]
            continue
        ok = isinstance(row, dict) and isinstance(row.get("agent"), str) and isinstance(row.get("notation"), str)
        if not ok or not isinstance(row.get("action"), int) or isinstance(row.get("action"), bool):
            raise RecordError(f"line {number}: a move needs 'agent' (str), 'action' (int) and 'notation' (str)")
        record.moves.append(row)
    return record


def iter_replay(record: Record, **env_kwargs: Any) -> Iterator[Any]:
    """Rebuild the game: yield the env after ``reset(seed)`` and after each recorded move.

    ``env_kwargs`` go to the env (``render_mode=``, ``render_observer=``). The same env object
    is yielded every time (read ``env.game_state`` before advancing).

    Raises:
        RecordError: another version, a config the game rejects, a move that is out of turn,
            illegal, or whose notation does not match its id (the line number is named), or an
            end line that the replay does not reach or whose rewards differ.
    """
    header = record.header
    try:
        env = record.make_env(**env_kwargs)
    except (TypeError, ValueError) as error:
        raise RecordError(f"line 1: config rejected by {header['game']}: {error}") from None
    spec = env.unwrapped.rules.spec
    if header["version"] != spec.version:
        raise RecordError(
            f"line 1: {header['game']} version {header['version']} recorded, this is version {spec.version}"
        )
    if header["num_players"] != spec.num_players:
        raise RecordError(f"line 1: num_players {header['num_players']} does not match the config ({spec.num_players})")
    env.reset(seed=header["seed"])
    yield env
    raw = env.unwrapped
    for number, move in enumerate(record.moves, start=2):
        if not raw.agents or all(raw.terminations[a] or raw.truncations[a] for a in raw.agents):
            raise RecordError(f"line {number}: a move after the end of the game")
        action, agent = move["action"], move["agent"]
        if agent != raw.agent_selection:
            raise RecordError(f"line {number}: {agent} moves out of turn; {raw.agent_selection} is to act")
        legal = raw.rules.legal_actions(raw.game_state)
        if action not in legal:
            raise RecordError(
                f"line {number}: illegal action {action} ({move['notation']}) for {agent}; legal ids: {legal}"
            )
        notation = raw.rules.action_to_string(action)
        if notation != move["notation"]:
            raise RecordError(
                f"line {number}: action {action} is {notation!r} here, the record says {move['notation']!r}"
            )
        env.step(action)
        yield env
    if record.end is not None:
        over = bool(raw.agents) and all(raw.terminations[a] or raw.truncations[a] for a in raw.agents)
        if not over:
            raise RecordError("end line: the record says the game is over, the replayed game is still running")
        rewards = {a: float(raw.rewards[a]) for a in raw.agents}
        if "info" not in record.end and record.end.get("rewards") != rewards:
            raise RecordError(f"end line: rewards {record.end.get('rewards')} recorded, the replay gives {rewards}")


def replay(record: Record | str | Path) -> list[Any]:
    """The states of the game, the initial one first: ``len(moves) + 1`` rules states.

    ``record``: a :class:`Record` or a path to load (:func:`load_record`).

    Raises:
        RecordError: see :func:`parse_record` and :func:`iter_replay`.
    """
    if not isinstance(record, Record):
        record = load_record(record, check=False)
    return [env.game_state for env in iter_replay(record)]


def load_record(path: str | Path, check: bool = True) -> Record:
    """Load a record file; with ``check`` (default) also replay it to validate every move.

    Raises:
        RecordError: see :func:`parse_record` and :func:`iter_replay`.
        OSError: the file cannot be read.
    """
    record = parse_record(Path(path).read_text(encoding="utf-8").splitlines())
    if check:
        for _env in iter_replay(record):
            pass
    return record
