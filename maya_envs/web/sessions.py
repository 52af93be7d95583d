"""Live games and replays behind ``maya-web``, without any web framework (tested directly).

A :class:`LiveGame` is one game's AEC env (``render_mode="svg"``) with a player per seat:
``human`` (moves come from the page) or an agent (:mod:`maya_envs.web.seats`), every seat
checked first (:func:`maya_envs.web.policy.check_seat`). A :class:`Replay` is an uploaded
record, validated by replaying it, with every state kept for stepping back and forth. Both are
kept by :class:`maya_envs.web.store.Store`. What a page may see of them, and ask of them, is
:mod:`maya_envs.web.policy`: :meth:`LiveGame.view` draws the board and writes every move text
for one viewer seat (:func:`maya_envs.notation.describe_action`), and the record is refused
while it holds what a human seat may not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from maya_envs.captions import move_caption, result_line
from maya_envs.core.checks import is_int
from maya_envs.core.errors import IllegalActionError, plain_words, shorten
from maya_envs.core.rng import draw_seed, offset_seed, seed_hides_draws
from maya_envs.games import game_names, game_of_rules
from maya_envs.notation import describe_action
from maya_envs.players import HUMAN
from maya_envs.records import Record, RecordError, iter_replay, make_env, new_header, parse_record
from maya_envs.web.games import action_targets
from maya_envs.web.policy import (
    MAX_NESTING,
    MAX_RECORD_MOVES,
    HiddenViewError,
    check_seat,
    check_viewer,
    nesting,
    page_options,
    page_seed,
    small_int,
)
from maya_envs.web.seats import MoveCancelled, build_seat, cancellable
from maya_envs.web.store import Item, NotFoundError


class BusyError(RuntimeError):
    """An agent of this game is still choosing its move."""


class LiveGame(Item):
    """One game being played (see the module docstring).

    Args:
        game: a game name or short name (a key such as ``maya2012``, a module name ``<key>_v<version>`` ...).
        seats: one spec per seat, in seat order (:data:`~maya_envs.web.policy.AGENT_SPECS`).
        options: game options (``num_players``, ``variant`` ...), as ``env(**options)`` takes,
            checked by :func:`~maya_envs.web.policy.page_options`.
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
            build_seat(spec, agent_rules, offset_seed(self.seed, 1 + s), checkpoints or {}, shape)
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
        if seat is not None and check_viewer(seat, len(self.seats)) != mover:
            raise ValueError(f"it is player_{mover}'s turn, not player_{seat}'s")
        if not is_int(action, numpy=False):
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
        viewer = check_viewer(seat, n)
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


class Replay(Item):
    """An uploaded record, validated by replaying it (see the module docstring).

    Args:
        text: the record's JSONL text.
        components: ``name -> quarry component table`` given at start (a record's config may
            name one, or hold its table inline, never a file).

    Raises:
        RecordError: anything :func:`maya_envs.records.parse_record` / ``iter_replay`` reject,
            a line nested too deep, a config :func:`~maya_envs.web.policy.page_options`
            refuses, a bad seed, or more than :data:`~maya_envs.web.policy.MAX_RECORD_MOVES`
            moves.
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
        viewer = check_viewer(seat, rules.spec.num_players)
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
