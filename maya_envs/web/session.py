"""Live games and replays behind ``maya-web``, without any web framework (tested directly).

A :class:`LiveGame` is one game's AEC env (``render_mode="svg"``) with a player per seat:
``human`` (moves come from the page) or an agent resolved by :func:`resolve_seat`. A
:class:`Replay` is an uploaded record, validated by replaying it, with every state kept for
stepping back and forth. :class:`Store` keeps a bounded number of both and forgets idle ones.

Hidden information: :meth:`LiveGame.view` draws the board and writes every move text for one
viewer seat (:func:`maya_envs.notation.describe_action`); while the game is running and a seat
is human, only a human seat's view is served (a person at the page must not see what their
seat may not); agent-only games, finished games and replays may be seen from any seat or whole.

Safety: agents come only from the bot registry (``random``, ``heuristic``, ``mcts:...``,
``ismcts:...``), the shipped baselines (``pretrained[:name]``) or ``checkpoint:<name>`` for a
checkpoint path given on the command line at start; a page can never name a file.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Mapping
from typing import Any

from maya_envs.captions import move_caption, result_line
from maya_envs.core.errors import IllegalActionError
from maya_envs.games import game_of_rules
from maya_envs.notation import describe_action
from maya_envs.records import Record, RecordError, iter_replay, make_env, new_header, parse_record
from maya_envs.web.games import action_targets

HUMAN = "human"
CHECKPOINT_PREFIX = "checkpoint:"
AGENT_SPECS = (
    HUMAN,
    "random",
    "heuristic",
    "mcts:200",
    "ismcts:200",
    "pretrained",
    "pretrained:<name>",
    "checkpoint:<name given with --checkpoint>",
)
MAX_PLAYERS_SEEN = 5
MAX_RECORD_MOVES = 20_000


class NotFoundError(LookupError):
    """No live game or replay with that id (never made, or expired)."""


class FullError(RuntimeError):
    """The store holds its maximum number of live games and replays."""


class HiddenViewError(PermissionError):
    """A view the page may not have now (another seat's, while a human plays)."""


def resolve_seat(spec: Any, rules, seed: int, checkpoints: Mapping[str, str]):
    """The player of one seat: ``None`` for ``human``, else an opponent with ``choose(env, agent)``.

    ``checkpoint:<name>`` loads the checkpoint path registered under ``name`` at start
    (``maya-web --checkpoint name=path``); anything that names a file or an RLlib checkpoint
    is refused, so a page cannot make the server read a path.

    Raises:
        ValueError: not a string, a path, an unknown bot or baseline or checkpoint name (the
            message lists what is allowed).
    """
    from maya_envs.cli.play import load_seat  # the parser maya-play and maya-arena share
    from maya_envs.pretrained import is_pretrained_spec
    from maya_envs.wrappers.opponents import make_opponent

    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"seat {spec!r}: allowed: {', '.join(AGENT_SPECS)}")
    spec = spec.strip()
    if spec == HUMAN:
        return None
    if spec.startswith(CHECKPOINT_PREFIX):
        name = spec[len(CHECKPOINT_PREFIX) :]
        if name not in checkpoints:
            known = ", ".join(sorted(checkpoints)) or "none were given at start (maya-web --checkpoint NAME=PATH)"
            raise ValueError(f"unknown checkpoint {name!r}; known: {known}")
        return load_seat(checkpoints[name], rules, seed)
    if spec.startswith("rllib:") or any(sign in spec for sign in ("/", "\\", "..", "~")) or spec.endswith(".zip"):
        raise ValueError(
            f"seat {spec!r}: a page cannot name a file; agents come from the registry "
            f"({', '.join(AGENT_SPECS[1:6])}) or from checkpoints given at start (checkpoint:<name>)"
        )
    if is_pretrained_spec(spec):
        return load_seat(spec, rules, seed)
    return make_opponent(spec, rules, seed)


class _Item:
    """What the store keeps: an id and the last time it was used."""

    def __init__(self) -> None:
        self.id = secrets.token_urlsafe(12)
        self.lock = threading.Lock()
        self.touch()

    def touch(self) -> None:
        self.last_used = time.monotonic()


def _check_viewer(seat: Any, n: int) -> int | None:
    if seat is None or seat == "" or seat == "all":
        return None
    try:
        value = int(seat)
    except (TypeError, ValueError):
        value = -1
    if not 0 <= value < n or isinstance(seat, bool):
        raise ValueError(f"view {seat!r}; allowed: 'all' or a seat 0..{n - 1}")
    return value


class LiveGame(_Item):
    """One game being played (see the module docstring).

    Args:
        game: a game name or short name (``maya2012``, ``yaxha_v1`` ...).
        seats: one spec per seat, in seat order (:data:`AGENT_SPECS`).
        options: game options (``num_players``, ``variant`` ...), as ``env(**options)`` takes.
        seed: the reset seed (recorded); ``None`` draws one.
        checkpoints: ``name -> path`` given on the command line.

    Raises:
        ValueError: an unknown game, a bad option (``ConfigError``), the wrong number of
            seats or a bad seat spec.
    """

    kind = "live"

    def __init__(
        self,
        game: str,
        seats: list[Any],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        checkpoints: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__()
        if options is not None and not isinstance(options, Mapping):
            raise ValueError(f"options must be an object of game options, got {options!r}")
        if seed is None:
            seed = secrets.randbits(31)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed {seed!r}; allowed: a non-negative int")
        env = make_env(game, render_mode="svg", illegal_action="raise", **dict(options or {}))
        n = env.rules.spec.num_players
        if not isinstance(seats, list) or len(seats) != n:
            raise ValueError(f"seats {seats!r}: give one spec per seat, {n} for this game")
        self.players = [resolve_seat(spec, env.rules, seed + 1 + s, checkpoints or {}) for s, spec in enumerate(seats)]
        self.seats = [str(spec).strip() for spec in seats]
        env.reset(seed=seed)
        self.env, self.seed = env, seed
        self.header = new_header(env, seed)
        self.history: list[tuple[Any, int, int]] = []  # (state before, action, actor)

    @property
    def rules(self):
        return self.env.rules

    @property
    def over(self) -> bool:
        env = self.env
        return bool(env.agents) and all(env.terminations[a] or env.truncations[a] for a in env.agents)

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.rules.current_player(self.env.game_state)

    @property
    def humans(self) -> list[int]:
        return [seat for seat, spec in enumerate(self.seats) if spec == HUMAN]

    def _apply(self, action: int) -> None:
        seat = self.to_move
        before = self.env.game_state
        self.env.step(action)
        self.history.append((before, action, seat))

    def play(self, action: Any, seat: Any = None) -> None:
        """A human seat's move ``action`` (an id); nothing changes if it is refused.

        Raises:
            ValueError: the game is over, an agent is to move, ``seat`` is given and not the
                seat to move, ``action`` is not an int, or it is illegal (the message names the
                move and says how many are legal); ``IllegalActionError`` is a ``ValueError``.
        """
        mover = self.to_move
        if mover is None:
            raise ValueError("the game is over")
        if self.players[mover] is not None:
            raise ValueError(f"player_{mover} ({self.seats[mover]}) is an agent; use step or play to let it move")
        if seat is not None and _check_viewer(seat, len(self.seats)) != mover:
            raise ValueError(f"it is player_{mover}'s turn, not player_{seat}'s")
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(f"a move must be an action id (int), got {action!r}")
        legal = self.rules.legal_actions(self.env.game_state)
        if action not in legal:
            name = self.rules.action_to_string(action) if 0 <= action < self.rules.spec.num_actions else "out of range"
            raise IllegalActionError(f"action {action} ({name}) is not legal now; {len(legal)} legal moves are listed")
        self._apply(action)

    def advance(self) -> bool:
        """Let the agent to move play one move; ``False`` when a human is to move or it is over."""
        mover = self.to_move
        if mover is None or self.players[mover] is None:
            return False
        self._apply(int(self.players[mover].choose(self.env, f"player_{mover}")))
        return True

    def record(self) -> Record:
        """The game so far as a :class:`~maya_envs.records.Record` (``maya_envs.records``)."""
        moves = [
            {"agent": f"player_{actor}", "action": int(action), "notation": self.rules.action_to_string(action)}
            for _before, action, actor in self.history
        ]
        end = None
        if self.over:
            env = self.env
            end = {
                "rewards": {a: float(env.rewards[a]) for a in env.agents},
                "terminated": bool(any(env.terminations.values())),
                "truncated": bool(any(env.truncations.values())),
            }
        return Record(dict(self.header), moves, end)

    def _viewer(self, seat: Any) -> int | None:
        n = len(self.seats)
        humans = self.humans
        if seat is None or seat == "":
            if self.over or not humans:
                return None
            mover = self.to_move
            return mover if mover in humans else humans[0]
        viewer = _check_viewer(seat, n)
        if humans and not self.over and viewer not in humans:
            raise HiddenViewError(
                "while a human plays, the page shows only a human seat's view "
                f"({', '.join(f'player_{s}' for s in humans)}); every view opens when the game is over"
            )
        return viewer

    def view(self, seat: Any = None) -> dict[str, Any]:
        """Everything the page shows, as ``seat`` (default: the human to move) may see it.

        Raises:
            ValueError: a bad seat; HiddenViewError: a view the page may not have now.
        """
        viewer = self._viewer(seat)
        env, rules = self.env, self.rules
        env.render_observer = viewer
        mover = self.to_move
        moves = [
            move_caption(rules, before, action, None if self.over else viewer, i)
            for i, (before, action, _actor) in enumerate(self.history, start=1)
        ]
        legal = []
        if mover is not None and self.players[mover] is None and viewer == mover:
            state = env.game_state
            legal = [
                {
                    "action": a,
                    "text": describe_action(rules, state, a, mover, mover),  # the move list's words
                    "targets": list(action_targets(rules, state, a)),
                }
                for a in rules.legal_actions(state)
            ]
        result = None
        if self.over:
            rewards = {a: float(env.rewards[a]) for a in env.agents}
            result = result_line(rules, env.game_state, rewards, env.infos[env.agents[0]])
        if mover is None:
            status = "game over"
        else:
            who = "you" if self.players[mover] is None and viewer == mover else self.seats[mover]
            status = f"player_{mover} ({who}) to move"
        return {
            "id": self.id,
            "kind": self.kind,
            "title": rules.spec.title,
            "game": rules.spec.name,
            "seed": self.seed,
            "seats": self.seats,
            "humans": self.humans,
            "viewer": viewer,
            "views": self._allowed_views(),
            "svg": str(env.picture().svg()),
            "to_move": mover,
            "agent_to_move": mover is not None and self.players[mover] is not None,
            "status": status,
            "legal": legal,
            "moves": moves,
            "scores": public_scores(rules, env.game_state) if not self.over else "",
            "over": self.over,
            "result": result,
        }

    def _allowed_views(self) -> list[int | None]:
        if self.humans and not self.over:
            return list(self.humans)
        return [None, *range(len(self.seats))]


def public_scores(rules, state) -> str:
    """Scores everyone may see during a game: the quarry game's gold, Maya (2012) 2-player
    victory points (all public); ``""`` where a score depends on hidden cards or cubes."""
    return game_of_rules(rules).public_scores(rules, state)


class Replay(_Item):
    """An uploaded record, validated by replaying it (see the module docstring).

    Raises:
        RecordError: anything :func:`maya_envs.records.parse_record` / ``iter_replay`` reject,
            or more than :data:`MAX_RECORD_MOVES` moves.
    """

    kind = "replay"

    def __init__(self, text: Any) -> None:
        super().__init__()
        if not isinstance(text, str):
            raise RecordError("the record must be the text of a JSONL file")
        record = parse_record(text.splitlines())
        if len(record.moves) > MAX_RECORD_MOVES:
            raise RecordError(f"{len(record.moves)} moves; at most {MAX_RECORD_MOVES} are replayed here")
        self.record = record
        self.states = []
        env = None
        for env in iter_replay(record, render_mode="svg"):
            self.states.append(env.game_state)
        self.env = env
        self.over = bool(env.agents) and all(env.terminations[a] or env.truncations[a] for a in env.agents)
        self.rewards = {a: float(env.rewards[a]) for a in env.agents}
        self.info = dict(env.infos[env.agents[0]]) if env.agents else {}
        self._texts: dict[int | None, list[str]] = {}

    def move_texts(self, viewer: int | None) -> list[str]:
        """Every move's caption as ``viewer`` saw it (computed once per viewer)."""
        if viewer not in self._texts:
            rules, moves, n_moves = self.env.rules, self.record.moves, len(self.record.moves)
            self._texts[viewer] = [
                move_caption(rules, self.states[i - 1], moves[i - 1]["action"], viewer, i, n_moves)
                for i in range(1, n_moves + 1)
            ]
        return self._texts[viewer]

    def view(self, index: Any = 0, seat: Any = None) -> dict[str, Any]:
        """Position ``index`` (0 = start .. number of moves) as ``seat`` (or everything) saw it;
        ``moves`` holds the captions of the moves up to it.

        Raises:
            ValueError: a bad index or seat.
        """
        n_moves = len(self.record.moves)
        if isinstance(index, str) and index.strip().lstrip("-").isdigit():
            index = int(index)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= n_moves:
            raise ValueError(f"position {index!r}; allowed: 0..{n_moves}")
        env, rules = self.env, self.env.rules
        viewer = _check_viewer(seat, rules.spec.num_players)
        texts = self.move_texts(viewer)
        caption = [texts[index - 1] if index else f"{self.record.header['title']}, seed {self.record.header['seed']}"]
        result = None
        if index == n_moves and self.over:
            result = result_line(rules, self.states[index], self.rewards, self.info)
            caption.append(result)
        env.game_state, env.render_observer = self.states[index], viewer
        return {
            "id": self.id,
            "kind": self.kind,
            "title": rules.spec.title,
            "game": rules.spec.name,
            "seed": self.record.header["seed"],
            "index": index,
            "length": n_moves,
            "viewer": viewer,
            "views": [None, *range(rules.spec.num_players)],
            "svg": str(env.picture(caption=caption).svg()),
            "moves": texts[:index],
            "over": self.over and index == n_moves,
            "result": result,
        }


class Store:
    """At most ``max_items`` live games and replays; one unused for ``idle_seconds`` is forgotten."""

    def __init__(self, max_items: int = 16, idle_seconds: float = 1800.0) -> None:
        if max_items < 1 or idle_seconds <= 0:
            raise ValueError(f"max_items {max_items} and idle_seconds {idle_seconds} must be positive")
        self.max_items, self.idle_seconds = max_items, idle_seconds
        self._items: dict[str, _Item] = {}
        self._lock = threading.Lock()

    def _expire(self) -> None:
        now = time.monotonic()
        for key in [k for k, item in self._items.items() if now - item.last_used > self.idle_seconds]:
            del self._items[key]

    def add(self, item: _Item) -> _Item:
        """Keep ``item``. Raises FullError when ``max_items`` are live."""
        with self._lock:
            self._expire()
            if len(self._items) >= self.max_items:
                raise FullError(
                    f"{self.max_items} games and replays are open, the most this server keeps; "
                    f"one left unused for {self.idle_seconds / 60:g} minutes is closed"
                )
            self._items[item.id] = item
        return item

    def get(self, key: str, kind: str) -> Any:
        """The live game or replay ``key``. Raises NotFoundError (unknown, expired, other kind)."""
        with self._lock:
            self._expire()
            item = self._items.get(key)
            if item is None or item.kind != kind:
                raise NotFoundError(
                    f"no {kind} {key!r} here (it may have expired after {self.idle_seconds / 60:g} min)"
                )
            item.touch()
            return item

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._items)
