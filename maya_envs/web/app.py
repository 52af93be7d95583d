"""The ``maya-web`` Flask application: a JSON API over :mod:`maya_envs.web.session` and one page.

Routes (JSON in and out; every error, for any route or method, is ``{"error": message}`` in
the project's words with status 400 for bad input, 403 for a view or record the page may not
have now, 404 for an unknown route or an unknown, closed or expired id, 405 for a method a
route does not take, 409 while the game's agent is still choosing, 413 for an upload over the
size limit, 503 when the server holds its maximum of open games):

======================================  ==========================================================
``GET  /``                              the page (plain HTML, CSS and JS from ``static/``)
``GET  /api/info``                      games, player counts, agent specs, page limits, the
                                        checkpoint and component table names given at start
``POST /api/games``                     new game ``{game, options?, seats, seed?}`` -> view
``GET  /api/games/<id>?seat=k|all``     the view of a seat (default: the human to move)
``POST /api/games/<id>/move``           a human move ``{action, seat?}`` -> view
``POST /api/games/<id>/step``           the agent to move plays once -> view
``GET  /api/games/<id>/record``         the game as a JSONL record (download): refused while
                                        it holds what a human seat may not see (403)
``DELETE /api/games/<id>``              close the game (an agent's search for it stops)
``POST /api/replays``                   an uploaded record ``{text}`` -> replay view at 0
``GET  /api/replays/<id>?index=i&seat``  position ``i`` of a replay as a seat (or all) saw it
``DELETE /api/replays/<id>``            close the replay
======================================  ==========================================================

What a page can and cannot get is :mod:`maya_envs.web.session`'s docstring: every response is
the requesting seat's view; a hidden-information game's seed and record stay hidden until it
ends; nothing a page sends names a file (records come as uploaded text, agents and component
tables from the registry or the names given at start); search budgets are bounded. A request
body is a JSON object of the route's fields only, nested at most :data:`MAX_NESTING` deep.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from flask import Flask, Response, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound, RequestEntityTooLarge

from maya_envs.core.errors import MAX_SHOWN_CHARS, listed, plain_words, shorten
from maya_envs.games import GAMES
from maya_envs.records import RecordError
from maya_envs.web.policy import CrossSiteError, ForeignHostError, MediaTypeError, RequestPolicy, check_json
from maya_envs.web.session import (
    AGENT_SPECS,
    MAX_NESTING,
    PAGE_LIMITS,
    BusyError,
    FullError,
    HiddenViewError,
    LiveGame,
    NotFoundError,
    Replay,
    Store,
    nesting,
)

MAX_UPLOAD_BYTES = 8 * 1024 * 1024
MAX_MESSAGE_CHARS = 600
"""The longest error message a page gets: every message shortens what it echoes
(:func:`~maya_envs.core.errors.shorten`); one still longer is cut here, saying so."""


def bounded(message: str) -> str:
    """``message``, or its start with the length it had when over :data:`MAX_MESSAGE_CHARS`."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    return f"{message[: MAX_MESSAGE_CHARS - 40]}... (message of {len(message):,} chars shortened)"


def where() -> str:
    """The request's path for a message (shortened when long: a path holds what a page sent)."""
    path = request.path
    return path if len(path) <= MAX_SHOWN_CHARS else shorten(path)


def create_app(
    checkpoints: Mapping[str, str] | None = None,
    max_games: int = 16,
    idle_minutes: float = 30.0,
    components: Mapping[str, Any] | None = None,
    allowed_hosts: Iterable[str] = (),
) -> Flask:
    """The application.

    Args:
        checkpoints: ``name -> path`` of MaskablePPO checkpoints the page may seat as
            ``checkpoint:<name>``.
        max_games: open games and replays at most; one left unused for ``idle_minutes`` is
            closed.
        components: ``name -> quarry component table`` (the JSON object, read at start) the
            page may give as the option ``components=<name>``.
        allowed_hosts: names (``NAME`` or ``NAME:PORT``) a request's ``Host`` may give besides
            the loopback ones (:class:`~maya_envs.web.policy.RequestPolicy`); raises
            ``ValueError`` for one that is not a host name.
    """
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD_BYTES
    store = Store(max_games, idle_minutes * 60.0)
    policy = RequestPolicy.serving(allowed_hosts)
    checkpoints = dict(checkpoints or {})
    components = dict(components or {})
    app.extensions["maya_store"] = store
    static = __file__.rsplit("/", 1)[0] + "/static"

    def body(*fields: str) -> dict[str, Any]:
        """The request's JSON object, holding only ``fields``."""
        check_json(request.mimetype, request.method, where())
        raw = request.get_data(cache=True)
        try:
            data = json.loads(raw) if raw.strip() else None
        except RecursionError:
            raise ValueError(f"the request body nests deeper than {MAX_NESTING} levels") from None
        except ValueError:  # not JSON, not UTF-8, or an integer too long to read
            raise ValueError(
                "the request body must be a JSON object; it is not valid JSON (UTF-8, numbers of at most 4300 digits)"
            ) from None
        if not isinstance(data, dict):
            raise ValueError("the request body must be a JSON object")
        if nesting(data) > MAX_NESTING:
            raise ValueError(f"the request body nests deeper than {MAX_NESTING} levels")
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise ValueError(f"unknown field(s) {listed(unknown)} for {where()}; allowed: {', '.join(fields)}")
        return data

    def error(message: str, status: int):
        return jsonify(error=bounded(message)), status

    # ConfigError, IllegalActionError and RecordError are ValueErrors: their messages are the project's
    statuses = {
        ValueError: 400, ForeignHostError: 400, HiddenViewError: 403, CrossSiteError: 403,
        NotFoundError: 404, BusyError: 409, MediaTypeError: 415, FullError: 503,
    }  # fmt: skip
    for kind, status in statuses.items():
        app.register_error_handler(kind, lambda exc, status=status: error(str(exc), status))

    @app.errorhandler(TypeError)
    def bad_type(exc):
        return error(plain_words(exc), 400)

    @app.errorhandler(RecursionError)
    def too_deep(_exc):
        return error(f"the request nests too deep to read (at most {MAX_NESTING} levels)", 400)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if isinstance(exc, RequestEntityTooLarge):
            return error(f"upload too large: at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MiB", 413)
        if isinstance(exc, NotFound):
            return error(f"no such page: {where()}", 404)
        if isinstance(exc, MethodNotAllowed):
            allowed = ", ".join(sorted(set(exc.valid_methods or ()) - {"HEAD", "OPTIONS"}))
            return error(f"{request.method} is not allowed on {where()}; allowed: {allowed}", 405)
        return error(f"{exc.name.lower()}: {request.method} {where()}", exc.code or 400)

    @app.errorhandler(Exception)
    def internal(exc):  # a fault of the server: logged, the page gets no Python text
        app.logger.exception("maya-web: %s %s failed", request.method, request.path)
        return error(f"the server failed on {request.method} {where()}; the fault is logged", 500)

    @app.before_request
    def own_page_only():
        headers = request.headers
        policy.check(
            request.method, request.scheme, headers.get("Host") or request.host, request.environ.get("SERVER_PORT"),
            headers.get("Origin"), headers.get("Sec-Fetch-Site"),
        )  # fmt: skip

    @app.get("/")
    def index():
        return send_from_directory(static, "index.html")

    @app.get("/static/<path:name>")
    def static_file(name: str):
        return send_from_directory(static, name)

    @app.get("/api/info")
    def info():
        return jsonify(
            games=[
                {
                    "name": game.key,
                    "id": game.name,
                    "players": list(game.player_counts),
                    "options": game.example_options,
                }
                for game in GAMES.values()
            ],
            agents=list(AGENT_SPECS),
            limits={kind: {name: most for name, most in fields.values()} for kind, fields in PAGE_LIMITS.items()},
            checkpoints=sorted(checkpoints),
            components=sorted(components),
        )

    @app.post("/api/games")
    def new_game():
        data = body("game", "options", "seats", "seed")
        fields = (data.get("game"), data.get("seats"), data.get("options"), data.get("seed"))
        game = store.open(lambda: LiveGame(*fields, checkpoints, components))  # the slot first, then the seats
        with game.lock:
            return jsonify(game.view())

    @app.get("/api/games/<key>")
    def game_view(key: str):
        game = store.get(key, "live")
        with game.lock:
            return jsonify(game.view(request.args.get("seat")))

    @app.delete("/api/games/<key>")
    def close_game(key: str):
        store.close(key, "live")
        return jsonify(closed=key)

    @app.post("/api/games/<key>/move")
    def move(key: str):
        game, data = store.get(key, "live"), body("action", "seat")
        with game.lock:
            game.play(data.get("action"), data.get("seat"))
            return jsonify(game.view(request.args.get("seat")))

    @app.post("/api/games/<key>/step")
    def step(key: str):
        game = store.get(key, "live")
        moved = game.advance()  # the game's lock is not held while its agent thinks
        with game.lock:
            view = game.view(request.args.get("seat"))
        view["moved"] = moved
        return jsonify(view)

    @app.get("/api/games/<key>/record")
    def record(key: str):
        game = store.get(key, "live")
        with game.lock:
            text = "\n".join(game.record().lines()) + "\n"
            name = f"{game.rules.spec.name}-seed{game.seed}.jsonl"
        return Response(
            text, mimetype="application/x-ndjson", headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    @app.post("/api/replays")
    def new_replay():
        data = body("text")
        replay = store.open(lambda: _replay(data.get("text"), components))
        with replay.lock:
            return jsonify(replay.view(0))

    @app.get("/api/replays/<key>")
    def replay_view(key: str):
        replay = store.get(key, "replay")
        with replay.lock:
            return jsonify(replay.view(request.args.get("index", "0"), request.args.get("seat")))

    @app.delete("/api/replays/<key>")
    def close_replay(key: str):
        store.close(key, "replay")
        return jsonify(closed=key)

    return app


def _replay(text: Any, components: Mapping[str, Any]) -> Replay:
    try:
        return Replay(text, components)
    except RecordError as exc:
        raise ValueError(f"record rejected: {exc}") from None
