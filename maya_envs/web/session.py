"""Live games and replays behind ``maya-web``, without any web framework (tested directly).

A :class:`LiveGame` is one game's AEC env (``render_mode="svg"``) with a player per seat:
``human`` (moves come from the page) or an agent resolved by :func:`resolve_seat`. A
:class:`Replay` is an uploaded record, validated by replaying it, with every state kept for
stepping back and forth. :class:`Store` keeps a bounded number of both and forgets idle ones.

What a page can get (every response is the requesting seat's view, or refused):

* Views: :meth:`LiveGame.view` draws the board and writes every move text for one viewer seat
  (:func:`maya_envs.notation.describe_action`); while the game is running and a seat is human,
  only a human seat's view is served (a person at the page must not see what their seat may
  not); agent-only games, finished games and replays may be seen from any seat or whole.
* The seed: one the page gives is used and shown as given (as a string, so that JavaScript
  does not round a 30-digit seed). Without one, the game draws a 64-bit seed from
  :mod:`secrets`; where that seed rebuilds draws a seat may not see (hidden information or
  chance in the game's ``GameSpec``: :func:`maya_envs.core.rng.seed_hides_draws`) the view's
  ``seed`` is ``None`` (the page shows the game id) until the game is over.
* The record (:meth:`LiveGame.record`) holds every seat's moves and the seed, so it is refused
  (:class:`HiddenViewError`) while a human plays a hidden-information game or while the seed
  is secret, and given whole once the game is over. A replay shows what its record holds.

What a page cannot do:

* Name a file. Seats come from the bot registry (``random``, ``heuristic``, ``mcts:...``,
  ``ismcts:...``), shipped networks and baselines by name (``policy:<name>``,
  ``az:<name>[...]``, ``pretrained[:<name>]``) or ``checkpoint:<name>`` for a checkpoint given
  on the command line at start; the quarry option ``components`` is a name given at start
  (``maya-web --components NAME=FILE``; the table is recorded inline); an uploaded record's
  config may hold no file name and no env keyword (:func:`page_options`). No error names a
  server path or says whether a file exists.
* Ask for unbounded work. A search seat's numbers are at most :data:`PAGE_LIMITS` (the error
  names the maximum); a move being computed stops when its game is closed or expires (the
  agents play on a copy of the rules that checks the game's ``closed`` flag at every rule call,
  :func:`cancellable`), and the game's lock is not held while an agent thinks, so views of it
  and of every other game are served meanwhile.
"""

from __future__ import annotations

import copy
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from maya_envs.bot_kinds import BOT_KINDS
from maya_envs.captions import move_caption, result_line
from maya_envs.core.errors import IllegalActionError, plain_words, shorten
from maya_envs.core.rng import draw_seed, seed_hides_draws
from maya_envs.games import game_names, game_of_rules
from maya_envs.notation import describe_action
from maya_envs.players import HUMAN
from maya_envs.records import Record, RecordError, iter_replay, make_env, new_header, parse_record
from maya_envs.web.games import action_targets

CHECKPOINT_PREFIX = "checkpoint:"
SHIPPED_NETWORK = "<shipped network>"
PAGE_LIMITS: dict[str, dict[str, tuple[str, float]]] = {
    "mcts": {
        "simulations": ("simulations", 2000),
        "time_limit": ("time", 30.0),
        "depth": ("depth", 1000),
        "exploration": ("c", 100.0),
    },
    "az": {
        "simulations": ("simulations", 800),
        "max_considered": ("m", 64),
        "gumbel_scale": ("noise", 10.0),
        "c_puct": ("c", 100.0),
        "time_limit": ("time", 30.0),
        "memo": ("memo", 100000),
    },
}
"""The most a seat from a page may ask of a search: ``{budget group: {config field: (name in the
spec, maximum)}}`` (a row's :attr:`maya_envs.bot_kinds.BotKind.budget`) for ``mcts``/``ismcts``
(:class:`maya_envs.bots.mcts.MCTSConfig`) and ``az``
(:class:`maya_envs.bots.guided.GuidedConfig`). Measured on this project's games (early moves,
one CPU): ``mcts:200`` takes 0.13-0.29 s a move, ``mcts:200:heuristic`` 0.8-6 s, so a move at
the limits takes about a minute at most."""
PAGE_BOTS = tuple(kind.name for kind in BOT_KINDS.values() if kind.budget is None or kind.budget in PAGE_LIMITS)
"""The bot kinds a page may seat: every row of :data:`maya_envs.bot_kinds.BOT_KINDS` with
nothing to limit or with its limits in :data:`PAGE_LIMITS`."""
PAGE_KINDS = (*PAGE_BOTS, "pretrained", "checkpoint")
"""The seat kinds (the part before the first ``:``) a page may ask for, besides ``human``."""
AGENT_SPECS = (
    HUMAN,
    *(
        row.example if row.model is None else row.syntax.replace("<model>", SHIPPED_NETWORK)
        for row in map(BOT_KINDS.get, PAGE_BOTS)
    ),
    "pretrained",
    "pretrained:<name>",
    "checkpoint:<name given with --checkpoint>",
)
"""What a page may seat, in words (the page's suggestions and the errors), from the table: a
kind's example, or its syntax where it names a network (a shipped one)."""
ENV_KEYWORDS = ("render_mode", "illegal_action", "render_observer")
"""Keywords of a game's ``env()`` that are not game options: the server sets them."""
MAX_SEED_DIGITS = 40
MAX_NESTING = 32
"""Deepest nesting of objects and lists in a request body or a record's header
(a component table needs 7)."""
MAX_SPEC_CHARS = 200
MAX_OPTIONS = 32
"""The most game options a page or a record may give (every game has fewer): more is refused
before any is read."""
MAX_PLAYERS_SEEN = 5
MAX_RECORD_MOVES = 20_000
_FILE_SIGNS = ("/", "\\", "..", "~")
_FILE_ENDINGS = (".zip", ".pt", ".json", ".pkl", ".jsonl")


class NotFoundError(LookupError):
    """No live game or replay with that id (never made, closed, or expired)."""


class FullError(RuntimeError):
    """The store holds its maximum number of live games and replays."""


class HiddenViewError(PermissionError):
    """A view the page may not have now (another seat's, or the record, while a human plays)."""


class BusyError(RuntimeError):
    """An agent of this game is still choosing its move."""


class MoveCancelled(Exception):
    """Raised inside an agent's search when its game was closed (:func:`cancellable`)."""


def small_int(value: Any, digits: int = 9) -> int | None:
    """``value`` as an int if it is one (not a bool) or a string of at most ``digits`` decimal
    digits (an optional ``-``), else ``None``. Nothing is rounded or truncated."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(rf"-?[0-9]{{1,{digits}}}", value.strip()):
        return int(value)
    return None


def nesting(value: Any) -> int:
    """How deep objects and lists nest in ``value`` (``0`` for a scalar), counted without
    recursion and stopping past :data:`MAX_NESTING`."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_NESTING:
                break
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def page_seed(value: Any) -> int | None:
    """A seed as a page (or a record) gives it: ``None``, an int or a string of digits, at most
    :data:`MAX_SEED_DIGITS` digits (kept exact: no float on the way).

    Raises:
        ValueError: anything else (the message names the value and what is allowed).
    """
    if value is None:
        return None
    seed = small_int(value, MAX_SEED_DIGITS)
    if seed is None or not 0 <= seed < 10**MAX_SEED_DIGITS:
        raise ValueError(
            f"seed {shorten(value)}; allowed: a non-negative integer of at most {MAX_SEED_DIGITS} digits "
            "(a number or a string of digits)"
        )
    return seed


def page_options(options: Any, components: Mapping[str, Any], where: str = "options") -> dict[str, Any]:
    """The game options a page (or an uploaded record's ``config``) gives, checked: an object,
    without env keywords (:data:`ENV_KEYWORDS`), with the quarry option ``components`` as a
    name given at start, replaced by that table (or, in a record, a table held inline).

    Args:
        options: the options sent (``None``: none).
        components: ``name -> component table`` given at start (``maya-web --components``).
        where: ``"options"`` for a page's new game, ``"config"`` for a record (there an
            inline table is what a record written by maya-web holds).

    Raises:
        ValueError: not an object, more than :data:`MAX_OPTIONS` options, an env keyword, a
            ``components`` value that is not a known name (nor, in a record, a table); the
            message names the option.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError(f"{where} must be an object of game options, got {shorten(options)}")
    if len(options) > MAX_OPTIONS:
        raise ValueError(f"{where}: {len(options):,} game options; at most {MAX_OPTIONS} (a game has fewer)")
    out = dict(options)
    keywords = sorted(set(out) & set(ENV_KEYWORDS))
    if keywords:
        raise ValueError(f"{where} {keywords}: the server sets these env keywords itself; give only game options")
    table = out.get("components")
    if table is not None:
        if isinstance(table, str) and table in components:
            out["components"] = copy.deepcopy(dict(components[table]))
        elif not (where == "config" and isinstance(table, Mapping)):
            known = ", ".join(sorted(components)) or "none were given at start (maya-web --components NAME=FILE)"
            raise ValueError(
                f"{where} components={shorten(table)}: a page names no file; give the name of a component "
                f"table given at start; known: {known}"
            )
    return out


def check_budget(spec: str) -> None:
    """Refuse a search seat asking for more than :data:`PAGE_LIMITS` (``mcts``, ``ismcts``,
    ``az``; other specs pass).

    Raises:
        ValueError: a malformed search spec (the parser's message) or a number over its maximum
            (the message names it and the maximum).
    """
    kind = spec.split(":", 1)[0]
    row = BOT_KINDS.get(kind)
    if row is None or row.budget is None:
        return
    _, config = row.read(spec)
    limits = PAGE_LIMITS[row.budget]
    for field, (written, most) in limits.items():
        value = getattr(config, field)
        if value is not None and value > most:
            raise ValueError(f"seat {shorten(spec)}: {written} {value:g} is over the page limit for {kind}, {most:g}")


def _names_a_file(spec: str) -> bool:
    kind = spec.split(":", 1)[0]
    return kind == "rllib" or any(sign in spec for sign in _FILE_SIGNS) or spec.lower().endswith(_FILE_ENDINGS)


def _hide_path(text: str, path: str, name: str) -> str:
    """``text`` with every spelling of the server path ``path`` replaced by ``name``."""
    forms = {str(path), str(Path(path).absolute()), str(Path(path).resolve())}
    for form in sorted(forms, key=len, reverse=True):
        text = text.replace(form, name)
    return text


def check_seat(spec: Any, checkpoints: Mapping[str, str]) -> str:
    """A seat spec from a page, checked without building anything (no network, no file read):
    the spec stripped.

    Allowed (:data:`PAGE_KINDS`): ``human``, ``random``, ``heuristic``,
    ``mcts...``/``ismcts...``/``az...`` within :data:`PAGE_LIMITS`, ``policy:<name>``/``az:<name>``
    with a shipped network's name, ``pretrained[:<name>]`` with a shipped baseline's name, and
    ``checkpoint:<name>`` for a checkpoint registered under ``name`` at start (``maya-web
    --checkpoint name=path``). Anything that names a file is refused before any file is looked
    at, and no message shows a registered path.

    Raises:
        ValueError: not a string, a path, an unknown bot or baseline or checkpoint name, a
            budget over its maximum (the message lists what is allowed).
    """
    from maya_envs.players import check_player_spec
    from maya_envs.pretrained import network_names

    if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC_CHARS:
        raise ValueError(f"seat {shorten(spec)}; allowed: {', '.join(AGENT_SPECS)}")
    spec = spec.strip()
    if spec == HUMAN:
        return spec
    if spec.startswith(CHECKPOINT_PREFIX):
        name = spec[len(CHECKPOINT_PREFIX) :]
        if name not in checkpoints:
            known = ", ".join(sorted(checkpoints)) or "none were given at start (maya-web --checkpoint NAME=PATH)"
            raise ValueError(f"unknown checkpoint {shorten(name)}; known: {known}")
        return spec
    if _names_a_file(spec):
        raise ValueError(
            f"seat {shorten(spec)}: a page cannot name a file; agents come from the registry "
            f"({', '.join(AGENT_SPECS[1:-1])}) or from checkpoints given at start (checkpoint:<name>)"
        )
    kind = spec.split(":", 1)[0]
    if kind not in PAGE_KINDS:
        raise ValueError(f"unknown bot {shorten(spec)}; a page may seat: {', '.join(AGENT_SPECS)}")
    row = BOT_KINDS.get(kind)
    if row is not None and row.model is not None:
        model = row.read(spec)[0]
        if model not in network_names():
            raise ValueError(
                f"seat {shorten(spec)}: a page cannot name a file; a network seat takes a shipped network: "
                f"{', '.join(network_names())}"
            )
    check_budget(spec)
    try:
        check_player_spec(spec)
    except ValueError as error:
        raise ValueError(f"seat {shorten(spec)}: {error}") from None
    return spec


def build_seat(
    spec: str,
    rules,
    seed: int,
    checkpoints: Mapping[str, str],
    observation_shape: tuple[int, ...] | None = None,
):
    """The player of a seat :func:`check_seat` passed: ``None`` for ``human``, else an opponent
    with ``choose(env, agent)`` (a network seat costs about a CPU second to build).

    Raises:
        ValueError: the agent does not fit the game, or its extra is missing (no message shows
            a registered checkpoint's path).
    """
    from maya_envs.wrappers.opponents import make_opponent

    if spec == HUMAN:
        return None
    if spec.startswith(CHECKPOINT_PREFIX):
        path = checkpoints[spec[len(CHECKPOINT_PREFIX) :]]
        try:
            return make_opponent(path, rules, seed, observation_shape, files=True)
        except (ValueError, ImportError) as error:
            raise ValueError(_hide_path(str(error), path, spec)) from None
    try:
        return make_opponent(spec, rules, seed, observation_shape)
    except ImportError as error:  # a network or baseline seat without the train extra
        raise ValueError(f"seat {shorten(spec)}: {error}") from None


def resolve_seat(spec: Any, rules, seed: int, checkpoints: Mapping[str, str], observation_shape=None):
    """:func:`build_seat` of :func:`check_seat`: one seat's player (``None`` for ``human``).

    Raises:
        ValueError: as :func:`check_seat` and :func:`build_seat`.
    """
    return build_seat(check_seat(spec, checkpoints), rules, seed, checkpoints, observation_shape)


def cancellable(rules, closed: threading.Event):
    """A copy of ``rules`` whose ``apply_action`` and ``legal_actions`` raise
    :class:`MoveCancelled` once ``closed`` is set: an agent built on it stops searching within
    one rule call of its game being closed. The copy shares the rules' read-only tables and is
    of the same class (the game table finds its game)."""
    checked = copy.copy(rules)

    def guard(method):
        def call(*args: Any, **kwargs: Any) -> Any:
            if closed.is_set():
                raise MoveCancelled("the game was closed")
            return method(*args, **kwargs)

        return call

    checked.apply_action = guard(rules.apply_action)
    checked.legal_actions = guard(rules.legal_actions)
    return checked


class _Item:
    """What the store keeps: an id, a lock, the last time it was used and a ``closed`` flag."""

    def __init__(self) -> None:
        self.id = secrets.token_urlsafe(12)
        self.lock = threading.Lock()
        self.closed = threading.Event()
        self.touch()

    def touch(self) -> None:
        self.last_used = time.monotonic()

    def close(self) -> None:
        """Forget it: a move being computed for it stops (:func:`cancellable`)."""
        self.closed.set()


def _check_viewer(seat: Any, n: int) -> int | None:
    if seat is None or seat == "" or seat == "all":
        return None
    value = small_int(seat)
    if value is None or not 0 <= value < n:
        raise ValueError(f"view {shorten(seat)}; allowed: 'all' or a seat 0..{n - 1}")
    return value


class LiveGame(_Item):
    """One game being played (see the module docstring).

    Args:
        game: a game name or short name (a key such as ``maya2012``, a module name ``<key>_v<version>`` ...).
        seats: one spec per seat, in seat order (:data:`AGENT_SPECS`).
        options: game options (``num_players``, ``variant`` ...), as ``env(**options)`` takes,
            checked by :func:`page_options`.
        seed: the reset seed (recorded; an int or a string of digits); ``None`` draws a secret
            one (:func:`maya_envs.core.rng.draw_seed`).
        checkpoints: ``name -> path`` given on the command line.
        components: ``name -> quarry component table`` given on the command line.

    Attributes:
        seed_secret: the seed was drawn here and rebuilds what a seat may not see: the views
            hide it and the record is refused until the game is over.

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
        seed: int | str | None = None,
        checkpoints: Mapping[str, str] | None = None,
        components: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(game, str):
            raise ValueError(f"game {shorten(game)}; allowed: one of {game_names()}")
        options = page_options(options, components or {})
        given = page_seed(seed)
        try:
            env = make_env(game, render_mode="svg", illegal_action="raise", **options)
        except TypeError as error:  # a list or object where the game's check wants a name
            raise ValueError(f"options: {plain_words(error)}") from None
        n = env.rules.spec.num_players
        if not isinstance(seats, list) or len(seats) != n:
            raise ValueError(f"seats {shorten(seats)}: give one spec per seat, {n} for this game")
        self.seed = draw_seed() if given is None else given
        self.seed_secret = given is None and seed_hides_draws(env.rules.spec)
        self.seats = [check_seat(spec, checkpoints or {}) for spec in seats]  # all checked before one is built
        agent_rules = cancellable(env.rules, self.closed)
        shape = env.spec_card.observation_shape
        self.players = [
            build_seat(spec, agent_rules, self.seed + 1 + s, checkpoints or {}, shape)
            for s, spec in enumerate(self.seats)
        ]
        env.reset(seed=self.seed)
        self.env = env
        self.header = new_header(env, self.seed)
        self.history: list[tuple[Any, int, int]] = []  # (state before, action, actor)
        self.thinking = False

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

    @property
    def record_open(self) -> bool:
        """Whether :meth:`record` may be given now: the game is over, or the record holds
        nothing a human seat may not see (no secret seed; no human, or no hidden information)."""
        hidden_moves = bool(self.humans) and self.rules.spec.information != "perfect"
        return self.over or not (self.seed_secret or hidden_moves)

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
            raise ValueError(f"a move must be an action id (int), got {shorten(action)}")
        legal = self.rules.legal_actions(self.env.game_state)
        if action not in legal:
            name = self.rules.action_to_string(action) if 0 <= action < self.rules.spec.num_actions else "out of range"
            raise IllegalActionError(f"action {action} ({name}) is not legal now; {len(legal)} legal moves are listed")
        self._apply(action)

    def advance(self) -> bool:
        """Let the agent to move play one move; ``False`` when a human is to move or it is over.

        Takes :attr:`lock` itself, and not while the agent thinks: views are served meanwhile.

        Raises:
            BusyError: this game's agent is already choosing (another step is running).
            NotFoundError: the game was closed while its agent chose (the search stopped).
        """
        with self.lock:
            mover = self.to_move
            if mover is None or self.players[mover] is None:
                return False
            if self.thinking:
                raise BusyError(f"player_{mover} ({self.seats[mover]}) is still choosing its move")
            self.thinking, state = True, self.env.game_state
        try:
            action = int(self.players[mover].choose(self.env, f"player_{mover}"))
        except MoveCancelled:
            raise NotFoundError(f"live game {self.id!r} was closed while player_{mover} chose its move") from None
        finally:
            self.thinking = False
        with self.lock:
            if self.closed.is_set():
                raise NotFoundError(f"live game {self.id!r} was closed while player_{mover} chose its move")
            if self.env.game_state is not state:  # nothing else moves while an agent is to move
                raise BusyError("the position changed while the agent chose; step again")
            self._apply(action)
        return True

    def record(self) -> Record:
        """The game so far as a :class:`~maya_envs.records.Record` (``maya_envs.records``).

        Raises:
            HiddenViewError: not now (:attr:`record_open`): it holds other seats' hidden moves
                or the secret seed; it opens when the game is over.
        """
        if not self.record_open:
            raise HiddenViewError(
                "the record of a running game opens when the game is over: it holds every seat's hidden "
                "moves and the seed of the hidden draws"
            )
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

        ``seed`` is a string, or ``None`` while it is secret; ``record_open`` says whether
        :meth:`record` may be fetched; ``thinking`` that an agent is choosing now.

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
            "seed": None if self.seed_secret and not self.over else str(self.seed),
            "seats": self.seats,
            "humans": self.humans,
            "viewer": viewer,
            "views": self._allowed_views(),
            "svg": str(env.picture().svg()),
            "to_move": mover,
            "agent_to_move": mover is not None and self.players[mover] is not None,
            "thinking": self.thinking,
            "status": status,
            "legal": legal,
            "moves": moves,
            "scores": public_scores(rules, env.game_state) if not self.over else "",
            "over": self.over,
            "result": result,
            "record_open": self.record_open,
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

    Args:
        text: the record's JSONL text.
        components: ``name -> quarry component table`` given at start (a record's config may
            name one, or hold its table inline, never a file).

    Raises:
        RecordError: anything :func:`maya_envs.records.parse_record` / ``iter_replay`` reject,
            a line nested too deep, a config :func:`page_options` refuses, a bad seed, or more
            than :data:`MAX_RECORD_MOVES` moves.
    """

    kind = "replay"

    def __init__(self, text: Any, components: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        if not isinstance(text, str):
            raise RecordError("the record must be the text of a JSONL file")
        # a page's record names no file: its config is a page's options before any rules are made
        page_config = lambda config: page_options(config, components or {}, "config")  # noqa: E731
        record = parse_record(text.splitlines(), config_check=page_config)
        if nesting(record.header) > MAX_NESTING:
            raise RecordError(f"line 1: the header nests deeper than {MAX_NESTING} levels")
        if len(record.moves) > MAX_RECORD_MOVES:
            raise RecordError(f"{len(record.moves)} moves; at most {MAX_RECORD_MOVES} are replayed here")
        try:
            record.header["seed"] = page_seed(record.header.get("seed"))
        except ValueError as error:
            raise RecordError(f"line 1: {error}") from None
        try:
            record.make_env()  # the config's own check, before the replay, in the project's words
        except (TypeError, ValueError) as error:
            words = plain_words(error) if isinstance(error, TypeError) else str(error)
            raise RecordError(f"line 1: config rejected by {record.header['game']}: {words}") from None
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
        ``moves`` holds the captions of the moves up to it; ``seed`` is the record's, as a string.

        Raises:
            ValueError: a bad index or seat.
        """
        n_moves = len(self.record.moves)
        position = small_int(index)
        if position is None or not 0 <= position <= n_moves:
            raise ValueError(f"position {shorten(index)}; allowed: 0..{n_moves}")
        index = position
        env, rules = self.env, self.env.rules
        viewer = _check_viewer(seat, rules.spec.num_players)
        texts = self.move_texts(viewer)
        seed = str(self.record.header["seed"])
        caption = [texts[index - 1] if index else f"{rules.spec.title}, seed {seed}"]
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
            "seed": seed,
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
    """At most ``max_items`` live games and replays; one unused for ``idle_seconds`` is closed
    and forgotten (:meth:`_Item.close`: a move it is computing stops)."""

    def __init__(self, max_items: int = 16, idle_seconds: float = 1800.0) -> None:
        if max_items < 1 or idle_seconds <= 0:
            raise ValueError(f"max_items {max_items} and idle_seconds {idle_seconds} must be positive")
        self.max_items, self.idle_seconds = max_items, idle_seconds
        self._items: dict[str, _Item] = {}
        self._building = 0
        self._lock = threading.Lock()

    def _expire(self) -> None:
        now = time.monotonic()
        for key in [k for k, item in self._items.items() if now - item.last_used > self.idle_seconds]:
            self._items.pop(key).close()

    def open(self, make: Callable[[], _Item]) -> _Item:
        """Keep the item ``make()`` builds, taking its slot first: a full store refuses before
        anything is built (a game's network seats cost about a CPU second each), and items
        being built count against ``max_items``.

        Raises:
            FullError: ``max_items`` are live or being built; whatever ``make`` raises (the slot
                is given back).
        """
        with self._lock:
            self._expire()
            if len(self._items) + self._building >= self.max_items:
                raise FullError(
                    f"{self.max_items} games and replays are open, the most this server keeps; "
                    f"one left unused for {self.idle_seconds / 60:g} minutes is closed"
                )
            self._building += 1
        try:
            item = make()
        finally:
            with self._lock:
                self._building -= 1
        with self._lock:
            self._items[item.id] = item
        return item

    def add(self, item: _Item) -> _Item:
        """Keep ``item`` (built already). Raises FullError when ``max_items`` are live."""
        return self.open(lambda: item)

    def get(self, key: str, kind: str) -> Any:
        """The live game or replay ``key``. Raises NotFoundError (unknown, expired, other kind)."""
        with self._lock:
            self._expire()
            item = self._items.get(key)
            if item is None or item.kind != kind:
                raise NotFoundError(
                    f"no {kind} {shorten(key)} here (it may have expired after {self.idle_seconds / 60:g} min)"
                )
            item.touch()
            return item

    def close(self, key: str, kind: str) -> None:
        """Close and forget the live game or replay ``key``. Raises NotFoundError."""
        item = self.get(key, kind)
        with self._lock:
            self._items.pop(item.id, None)
        item.close()

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._items)
