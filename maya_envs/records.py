"""Game records: write a game as JSON lines, load it with validation, replay it exactly.

A record is a JSONL file. The first line is the header::

    {"format": "maya_envs.record/1", "game": "<key>_v<version>", "title": "Maya (2012)",
     "version": 1, "num_players": 2, "config": {...every game option...}, "seed": 7,
     "package_version": "0.1.0"}

then one line per action taken in the game, in order::

    {"agent": "player_0", "action": 12, "notation": "swap t0-t3 @L2"}

and, once the game is over, a last line with the outcome (required then: a record whose replay
ends the game without it is refused; an unfinished game, abandoned or still being played, has
none)::

    {"end": {"rewards": {"player_0": 1.0, ...}, "terminated": true, "truncated": false}}

A game ended by an illegal action (the env's ``illegal_action="terminate"``) names it there:
``"illegal": {"agent": "player_1", "action": 17}`` (the action is no move line: it was not
played). The replay checks the end line whole, always: the rewards, both flags and the
illegal action (out of range, legal, or out of turn is refused).

``config`` holds every field of the game's config dataclass (the env's ``rules.config``), so
``<game>_v<N>.env(**config)`` rebuilds the same rules; ``seed`` is the ``reset`` seed, and the
env draws every chance event (setup, shuffles, bag draws) from the generator of that seed, so
``reset(seed)`` followed by the recorded actions rebuilds every state exactly (:func:`replay`).

Writing: wrap any AEC env in :class:`RecordingWrapper` (``record_path=``); the Parallel env
of Yaxha records through its AEC env: ``RulesParallelEnv(RecordingWrapper(YaxhaEnv(...), path))``.
Loading: a record is untrusted input. :func:`load_record` (files, ``maya-replay``) reads at
most :data:`MAX_RECORD_BYTES` as UTF-8, :func:`parse_record` (the web upload, and every
reader after decoding) checks each line: strict JSON (no NaN, no key twice, at most
:data:`MAX_LINE_CHARS`), exactly the header fields of :data:`HEADER_KEYS` with their types (a
``seed`` in ``0..MAX_SEED``, a ``config`` of the game's own options: an env keyword such as
``render_mode`` is refused, it is an argument of :func:`iter_replay`), exactly the move fields
of :data:`MOVE_KEYS`, an end line of :data:`END_KEYS`, no blank line inside; then
:func:`iter_replay` replays the moves (at most the game's ``max_game_length``). Anything wrong
is one :class:`RecordError` whose message starts with the line (``line 4: ...``) and names the
field; no other exception escapes for any file content.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import secrets
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pettingzoo.utils.wrappers import BaseWrapper

from maya_envs.aec_base import GameAECEnv, check_action_id
from maya_envs.core.checks import is_number
from maya_envs.core.errors import ConfigError, listed, plain_words, shorten
from maya_envs.core.rng import MAX_SEED, check_seed, seed_hides_draws  # noqa: F401 (MAX_SEED: documented here)
from maya_envs.games import GAMES, find_game, renamed_note

RECORD_FORMAT = "maya_envs.record/1"


class RecordError(ValueError):
    """A record that cannot be loaded or replayed; the message names the line (``line N:``,
    ``end line:``), the key where one is at fault, and the problem.

    Attributes:
        line: the 1-based line number at fault, or ``None`` (the record as a whole, the end).
        key: the header, move or end key at fault, or ``None``.
    """

    def __init__(self, message: str, line: int | None = None, key: str | None = None) -> None:
        super().__init__(message)
        self.line, self.key = line, key


def game_name(game: str) -> str:
    """The full game name (the PettingZoo module name) of ``game``: any name
    :func:`maya_envs.games.find_game` accepts (a key such as ``"maya2012"``, a module name ``"<key>_v<version>"``, ...).

    Raises:
        ValueError: an unknown game; the message lists the known ones.
    """
    return find_game(game).name


def make_env(game: str, **options: Any):
    """The AEC env of ``game`` (a name as :func:`game_name` accepts) with keyword ``options``."""
    return find_game(game).make_aec_env(**options)


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
        hold_until_end: keep the record in memory and write it whole when the game ends (or
            at :meth:`flush`, :meth:`close` or the next ``reset`` for an unfinished game) instead
            of appending each action as it is taken. Default (``None``): hold exactly when the
            game has hidden information or chance after the start
            (:func:`maya_envs.core.rng.seed_hides_draws`): such a record's seed rebuilds every
            draw and its moves name every hidden choice (a quarry worker card, a Yaxha pick), so
            a file written as the game runs would show a human seat what it may not see.

    ``reset()`` without a seed draws a fresh one (and passes it on), so that every record names
    the seed it needs; ``reset(seed=s)`` behaves as the env's. Written as played, each action is
    appended to the file as it is taken (a crashed game leaves a valid partial record). An
    illegal action that ends the game (the env's ``illegal_action="terminate"``) is no move:
    the end line names it (``"illegal": {"agent", "action"}``) and the replay ends the game
    with it again, the offender's recorded reward as the penalty.
    ``self.record`` is the current game's :class:`Record`.
    """

    def __init__(self, env, record_path: str | Path, hold_until_end: bool | None = None) -> None:
        super().__init__(env)
        self.record_path = str(record_path)
        if hold_until_end is None:
            hold_until_end = seed_hides_draws(env.unwrapped.rules.spec)
        self.hold_until_end = bool(hold_until_end)
        self.episode = -1
        self.record: Record | None = None
        self.path: Path | None = None
        self._held = False  # a held record not yet written

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.flush()  # an abandoned held game is written before the next one starts
        if seed is None:
            seed = secrets.randbits(31)
        self.env.reset(seed=seed, options=options)
        self.episode += 1
        path = self.record_path.format(episode=self.episode) if "{episode" in self.record_path else self.record_path
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.record = Record(new_header(self.env, seed))
        self._held = self.hold_until_end
        if not self._held:
            self.path.write_text(json.dumps(self.record.header) + "\n", encoding="utf-8")

    def flush(self) -> None:
        """Write a held record now (the game so far); nothing when nothing is held."""
        if self._held and self.record is not None:
            self.record.save(self.path)
        self._held = False

    def close(self) -> None:
        self.flush()
        super().close()

    def step(self, action: Any) -> None:
        env = self.env.unwrapped
        agent = env.agent_selection
        # after the end the env has no agents left: its own step says to reset (not a KeyError here)
        live = agent in env.terminations and not (env.terminations[agent] or env.truncations[agent])
        live = live and action is not None
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
            if not legal:  # the id that ended the game, so that a replay ends it the same way
                self.record.end["illegal"] = {"agent": agent, "action": action}
            self._append({"end": self.record.end})

    def _append(self, line: dict[str, Any]) -> None:
        if self._held:
            if "end" in line:
                self.flush()
            return
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")


def record_env(
    game: str, record_path: str | Path, *, hold_until_end: bool | None = None, **options: Any
) -> RecordingWrapper:
    """``make_env(game, **options)`` wrapped in a :class:`RecordingWrapper` writing ``record_path``
    (``hold_until_end``: as the wrapper's)."""
    return RecordingWrapper(make_env(game, **options), record_path, hold_until_end)


# -- loading and replay ------------------------------------------------------------------------

MAX_RECORD_BYTES = 16 * 2**20
"""Largest record read (16 MiB: a 5-player quarry game is about 100 KiB); more is refused
before it is parsed, so a huge upload or file costs bounded work."""
MAX_LINE_CHARS = 64 * 2**10
"""Longest line parsed (64 KiB: a header with a whole quarry component table is about 3 KiB)."""
HEADER_KEYS = {
    "format": str, "game": str, "title": str, "version": int, "num_players": int, "config": dict,
    "seed": int, "package_version": str,
}  # fmt: skip
"""The header's keys (every one required, no other allowed) and their JSON types."""
MOVE_KEYS = {"agent": str, "action": int, "notation": str}
"""A move line's keys (every one required, no other allowed) and their JSON types."""
END_KEYS = {"rewards": dict, "terminated": bool, "truncated": bool, "illegal": dict}
"""The end line's keys and types: all but ``illegal`` (the illegal action that ended the game)
required."""
ILLEGAL_KEYS = {"agent": str, "action": int}
"""The keys of an end line's ``illegal`` object (both required, no other) and their types."""
ENV_KEYWORDS = tuple(
    name for name in inspect.signature(GameAECEnv.__init__).parameters if name not in ("self", "game_options")
)
"""Keywords of every game's env that are not game options (``render_mode``, ...): a record's
config never holds them (:func:`iter_replay` takes them as arguments)."""


def _json_line(number: int, text: Any) -> Any:
    """Line ``number`` parsed as strict JSON: no NaN or Infinity, no key twice, bounded size."""
    if not isinstance(text, str):
        raise RecordError(f"line {number}: must be text, got {type(text).__name__}", line=number)
    if len(text) > MAX_LINE_CHARS:
        raise RecordError(f"line {number}: {len(text)} characters; at most {MAX_LINE_CHARS}", line=number)

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs):
            twice = sorted({k for k, _ in pairs if [p[0] for p in pairs].count(k) > 1})
            raise ValueError(f"key(s) {twice} given twice")
        return out

    try:
        return json.loads(text, parse_constant=constant, object_pairs_hook=unique)
    except json.JSONDecodeError as error:
        raise RecordError(f"line {number}: not valid JSON ({error.msg})", line=number) from None
    except RecursionError:
        raise RecordError(f"line {number}: not valid JSON (it nests too deep to read)", line=number) from None
    except ValueError as error:  # the hooks above; an int too long to convert
        raise RecordError(f"line {number}: not valid JSON ({error})", line=number) from None


TYPE_NAMES = {str: "a string", int: "an int", dict: "a JSON object", bool: "true or false"}


def _typed(value: Any, kind: type) -> bool:
    """``value`` is of JSON type ``kind`` (a bool is no int)."""
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def _check_keys(number: int, what: str, row: dict[str, Any], kinds: dict[str, type], optional=()) -> None:
    """``row`` has every key of ``kinds`` but ``optional``, no other, each of its type."""
    unknown = sorted(set(row) - set(kinds))
    if unknown:
        raise RecordError(
            f"line {number}: unknown {what} field(s) {listed(unknown)}; allowed: {list(kinds)}",
            line=number,
            key=unknown[0],
        )
    for key, kind in kinds.items():
        if key not in row and key in optional:
            continue
        if key not in row:
            raise RecordError(f"line {number}: {what} field {key!r} missing", line=number, key=key)
        if not _typed(row[key], kind):
            raise RecordError(
                f"line {number}: {what} field {key!r} must be {TYPE_NAMES[kind]}, got {row[key]!r}",
                line=number,
                key=key,
            )


def check_header(header: Any, config_check: Callable[[Any], Any] | None = None) -> Any:
    """Validate a record header (:data:`HEADER_KEYS`); returns the rules its game and config
    make (the config is a mapping of the game's options only: an env keyword such as
    ``render_mode`` is refused like any unknown option).

    Args:
        header: the parsed first line.
        config_check: run on the config before the rules are made (maya-web's: a page's
            options, so that a record names no file); returns the config to use, which
            replaces ``header["config"]``; a ``ValueError`` it raises becomes a RecordError.

    Raises:
        RecordError: naming line 1 and the key: not an object, a missing, unknown or mistyped
            key, another format, an unknown game, a seed outside ``0..MAX_SEED``, or a config
            the game rejects.
    """
    if not isinstance(header, dict):
        raise RecordError("line 1: the header must be a JSON object", line=1)
    _check_keys(1, "header", header, HEADER_KEYS)
    if header["format"] != RECORD_FORMAT:
        raise RecordError(f"line 1: format {header['format']!r} is not {RECORD_FORMAT!r}", line=1, key="format")
    known = sorted(game.name for game in GAMES.values())
    if header["game"] not in known:
        note = renamed_note(header["game"])
        raise RecordError(f"line 1: unknown game {header['game']!r}{note}; known: {known}", line=1, key="game")
    try:
        check_seed(header["seed"], "header field 'seed'")
    except ConfigError as error:
        raise RecordError(f"line 1: {error}", line=1, key="seed") from None
    config = header["config"]
    env_keys = sorted(set(config) & set(ENV_KEYWORDS))
    if env_keys:
        raise RecordError(
            f"line 1: config field {env_keys[0]!r} is an env keyword, not a game option; a record's config holds "
            "the game's options only",
            line=1,
            key="config",
        )
    if config_check is not None:
        try:
            config = header["config"] = config_check(config)
        except ValueError as error:
            raise RecordError(f"line 1: {error}", line=1, key="config") from None
    try:
        return find_game(header["game"]).make_rules(config)
    except (TypeError, ValueError, OSError) as error:  # ConfigError: an unknown option or a bad value
        words = plain_words(error) if isinstance(error, TypeError) else error
        raise RecordError(f"line 1: config rejected by {header['game']}: {words}", line=1, key="config") from None


def _check_end(number: int, end: Any) -> dict[str, Any]:
    if not isinstance(end, dict):
        raise RecordError(f"line {number}: the end line is {{\"end\": {{...}}}}", line=number, key="end")
    _check_keys(number, "end", end, END_KEYS, optional=("illegal",))
    rewards = end["rewards"]
    if not all(is_number(r, numpy=False) for r in rewards.values()):
        raise RecordError(f"line {number}: end field 'rewards' must map agents to numbers", line=number, key="rewards")
    if "illegal" in end:
        _check_keys(number, "illegal", end["illegal"], ILLEGAL_KEYS)
        if end["illegal"]["agent"] not in rewards:
            raise RecordError(
                f"line {number}: the illegal action's agent {shorten(end['illegal']['agent'])} has no reward; "
                f"rewards name {listed(sorted(rewards))}",
                line=number,
                key="illegal",
            )
    return end


def parse_record(lines: list[str], config_check: Callable[[Any], Any] | None = None) -> Record:
    """A :class:`Record` from JSONL ``lines``, checking every line (no replay); ``config_check``
    as in :func:`check_header`.

    Raises:
        RecordError: naming the line (and the key): more than :data:`MAX_RECORD_BYTES` of text
            or a line over :data:`MAX_LINE_CHARS`; not JSON (or NaN, Infinity, a key given
            twice); a header :func:`check_header` refuses; a move line without exactly
            ``agent`` (str), ``action`` (int) and ``notation`` (str); an end line other than
            ``{"end": {"rewards", "terminated", "truncated"[, "illegal"]}}`` (``illegal``: exactly
            ``{"agent", "action"}``, an agent the rewards name), or a line after it.
    """
    if isinstance(lines, (str, bytes)) or not isinstance(lines, (list, tuple)):
        raise RecordError(f"a record is a list of lines, got {type(lines).__name__}")
    if sum(len(text) + 1 for text in lines if isinstance(text, str)) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is larger than {MAX_RECORD_BYTES} bytes")
    lines = list(lines)
    while lines and isinstance(lines[-1], str) and not lines[-1].strip():
        lines.pop()  # blank lines at the end
    if not lines:
        raise RecordError("empty record: no header line")
    for number, text in enumerate(lines, start=1):
        if isinstance(text, str) and not text.strip():
            raise RecordError(f"line {number}: a blank line inside the record (line N is move N - 1)", line=number)
    rows = [(number, _json_line(number, text)) for number, text in enumerate(lines, start=1)]
    header = rows[0][1]
    check_header(header, config_check)
    record = Record(header)
    for number, row in rows[1:]:
        if record.end is not None:
            raise RecordError(f"line {number}: nothing may follow the end line", line=number)
        if isinstance(row, dict) and "end" in row:
            if set(row) != {"end"}:
                raise RecordError(f"line {number}: the end line holds only 'end'", line=number, key="end")
            record.end = _check_end(number, row["end"])
            continue
        if not isinstance(row, dict):
            raise RecordError(f"line {number}: a move needs 'agent' (str), 'action' (int) and 'notation' (str)",
                              line=number)  # fmt: skip
        _check_keys(number, "move", row, MOVE_KEYS)
        record.moves.append(row)
    return record


def read_record(data: bytes) -> Record:
    """:func:`parse_record` of the bytes of a record file (UTF-8).

    Raises:
        RecordError: more than :data:`MAX_RECORD_BYTES`, bytes that are not UTF-8 (the line
            is named), or what :func:`parse_record` refuses.
    """
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is larger than {MAX_RECORD_BYTES} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise RecordError(
            f"line {line}: not UTF-8 text (byte {data[error.start]:#04x} at offset {error.start})", line=line
        ) from None
    return parse_record(text.splitlines())


def iter_replay(record: Record, **env_kwargs: Any) -> Iterator[Any]:
    """Rebuild the game: yield the env after ``reset(seed)`` and after each recorded move.

    ``env_kwargs`` go to the env (``render_mode=``, ``render_observer=``); the record's config
    holds game options only (:func:`check_header`). The same env object is yielded every time
    (read ``env.game_state`` before advancing).

    Raises:
        RecordError: a header :func:`check_header` refuses, another version or player count,
            more moves than the game's ``max_game_length``, a move that is out of turn,
            illegal, or whose notation does not match its id (the line number is named), or
            no end line although the replay ends the game (a finished game's end line was
            removed), or an end line that the replay does not reach, whose rewards or ``terminated`` /
            ``truncated`` flags differ from the replay's, or whose illegal action is out of
            turn, out of range or legal.
    """
    header = record.header
    rules = check_header(header)
    spec = rules.spec
    if header["version"] != spec.version:
        raise RecordError(
            f"line 1: {header['game']} version {header['version']} recorded, this is version {spec.version}",
            line=1,
            key="version",
        )
    if header["num_players"] != spec.num_players:
        raise RecordError(
            f"line 1: num_players {header['num_players']} does not match the config ({spec.num_players})",
            line=1,
            key="num_players",
        )
    if len(record.moves) > spec.max_game_length:
        number = spec.max_game_length + 2
        raise RecordError(
            f"line {number}: move {number - 1} of {len(record.moves)}; a game of {header['game']} with this "
            f"config lasts at most {spec.max_game_length} moves",
            line=number,
        )
    last = len(record.moves) + 2
    ends_illegally = record.end is not None and "illegal" in _check_end(last, record.end)
    env = record.make_env(**env_kwargs)
    env.reset(seed=header["seed"])
    raw = env.unwrapped
    if not record.moves and ends_illegally:
        _end_by_illegal_action(env, record.end, last)
    yield env
    for number, move in enumerate(record.moves, start=2):
        _check_move(raw, move, number)
        env.step(move["action"])
        if number == last - 1 and ends_illegally:  # the final position is the ended game
            _end_by_illegal_action(env, record.end, last)
        yield env
    if record.end is not None:
        _check_end_reached(raw, record.end, last)
    elif _over(raw):  # the outcome is checked only on an end line: without one it would go unchecked
        raise RecordError(
            f"line {last}: the replayed game is over and the record has no end line; a finished game's record "
            'ends with {"end": {...}} (only an unfinished game has none)',
            line=last,
            key="end",
        )


def _over(raw) -> bool:
    return bool(raw.agents) and all(raw.terminations[a] or raw.truncations[a] for a in raw.agents)


def _check_move(raw, move: dict[str, Any], number: int) -> None:
    """Move line ``number`` may be played in the env ``raw`` now: in turn, legal, as named."""
    if not raw.agents or _over(raw):
        raise RecordError(f"line {number}: a move after the end of the game", line=number)
    action, agent = move["action"], move["agent"]
    if agent != raw.agent_selection:
        raise RecordError(
            f"line {number}: {shorten(agent)} moves out of turn; {raw.agent_selection} is to act",
            line=number,
            key="agent",
        )
    legal = raw.rules.legal_actions(raw.game_state)
    if action not in legal:
        raise RecordError(
            f"line {number}: illegal action {action} ({shorten(move['notation'])}) for {agent}; legal ids: {legal}",
            line=number,
            key="action",
        )
    notation = raw.rules.action_to_string(action)
    if notation != move["notation"]:
        raise RecordError(
            f"line {number}: action {action} is {notation!r} here, the record says {shorten(move['notation'])}",
            line=number,
            key="notation",
        )


def _end_by_illegal_action(env, end: dict[str, Any], number: int) -> None:
    """End the game in ``env`` with the end line's illegal action, as the recording env did;
    refused unless the game runs, the agent is to act and the id is in range and illegal."""
    raw, agent, action = env.unwrapped, end["illegal"]["agent"], end["illegal"]["action"]
    if not raw.agents or _over(raw):
        raise RecordError(f"line {number}: an illegal action after the end of the game", line=number, key="illegal")
    if agent != raw.agent_selection:
        raise RecordError(
            f"line {number}: the illegal action's agent {shorten(agent)} is out of turn; "
            f"{raw.agent_selection} is to act",
            line=number,
            key="illegal",
        )
    num_actions = raw.rules.spec.num_actions
    if not 0 <= action < num_actions:
        raise RecordError(
            f"line {number}: illegal action {shorten(action)} is no action id; allowed: 0..{num_actions - 1}",
            line=number,
            key="illegal",
        )
    if action in raw.rules.legal_actions(raw.game_state):
        raise RecordError(
            f"line {number}: the end line's illegal action {action} ({raw.rules.action_to_string(action)}) is legal "
            "here; a legal action is a move line",
            line=number,
            key="illegal",
        )
    # the penalty is the recording env's (an env setting, not a game option): the offender's reward
    raw.illegal_action, raw.illegal_reward = "terminate", float(end["rewards"][agent])
    with warnings.catch_warnings():  # the env warns of the penalty; a replay only shows it
        warnings.simplefilter("ignore")
        env.step(action)


def _check_end_reached(raw, end: dict[str, Any], number: int) -> None:
    """The replayed game in ``raw`` is over with the end line's rewards and flags."""
    if not _over(raw):
        raise RecordError(
            f"line {number}: the end line says the game is over, the replayed game is still running", line=number
        )
    rewards = {a: float(raw.rewards[a]) for a in raw.agents}
    if end["rewards"] != rewards:
        raise RecordError(
            f"line {number}: end rewards {shorten(end['rewards'])} recorded, the replay gives {rewards}",
            line=number,
            key="rewards",
        )
    for flag, values in (("terminated", raw.terminations), ("truncated", raw.truncations)):
        replayed = bool(any(values.values()))
        if end[flag] != replayed:
            raise RecordError(
                f"line {number}: end {flag}={str(end[flag]).lower()} recorded, the replay gives "
                f"{flag}={str(replayed).lower()}",
                line=number,
                key=flag,
            )


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
    At most :data:`MAX_RECORD_BYTES` are read.

    Raises:
        RecordError: see :func:`read_record` and :func:`iter_replay`.
        OSError: the file cannot be read.
    """
    with Path(path).open("rb") as f:
        record = read_record(f.read(MAX_RECORD_BYTES + 1))
    if check:
        for _env in iter_replay(record):
            pass
    return record
