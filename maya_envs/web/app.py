"""The ``maya-web`` Flask application: the routes of a JSON API and one page.

Routes (JSON in and out; every error, for any route or method, is ``{"error": message}`` in
the project's words with status 400 for bad input, 403 for a view or record the page may not
have now, 404 for an unknown route or an unknown, closed or expired id, 405 for a method a
route does not take, 409 while the game's agent is still choosing, 413 for an upload over the
size limit, 415 for a body not sent as JSON, 503 when the server holds its maximum of open
games; :mod:`maya_envs.web.answers`):

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

The package, one concept a module: which requests are answered (the page's own, on its own
host: :mod:`~maya_envs.web.origin`), what a page may see and ask for
(:mod:`~maya_envs.web.policy`: every response is the requesting seat's view; a
hidden-information game's seed and record stay hidden until it ends; nothing a page sends names
a file; search budgets are bounded), the players of the seats (:mod:`~maya_envs.web.seats`),
live games and replays (:mod:`~maya_envs.web.sessions`), the bounded store of both
(:mod:`~maya_envs.web.store`), and request bodies and error answers
(:mod:`~maya_envs.web.answers`). The routes here only connect them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request, send_from_directory

from maya_envs.games import GAMES
from maya_envs.records import RecordError
from maya_envs.web.answers import MAX_UPLOAD_BYTES, add_error_answers, body
from maya_envs.web.origin import RequestPolicy
from maya_envs.web.policy import AGENT_SPECS, PAGE_LIMITS
from maya_envs.web.sessions import LiveGame, Replay
from maya_envs.web.store import Store

STATIC = Path(__file__).parent / "static"
routes = Blueprint("maya_web", __name__)


@dataclass(frozen=True)
class Served:
    """What one app serves: its store and policy, and the names given at start."""

    store: Store
    policy: RequestPolicy
    checkpoints: Mapping[str, str]
    components: Mapping[str, Any]


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
            the loopback ones (:class:`~maya_envs.web.origin.RequestPolicy`); raises
            ``ValueError`` for one that is not a host name.
    """
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD_BYTES
    store = Store(max_games, idle_minutes * 60.0)
    policy = RequestPolicy.serving(allowed_hosts)
    app.extensions["maya_web"] = Served(store, policy, dict(checkpoints or {}), dict(components or {}))
    app.extensions["maya_store"] = store
    app.register_blueprint(routes)
    add_error_answers(app)
    return app


def served() -> Served:
    return current_app.extensions["maya_web"]


@routes.before_app_request
def own_page_only() -> None:
    """Refuse a request for a foreign host or from another site's page (:mod:`maya_envs.web.origin`)."""
    headers = request.headers
    served().policy.check(
        request.method, request.scheme, headers.get("Host") or request.host, request.environ.get("SERVER_PORT"),
        headers.get("Origin"), headers.get("Sec-Fetch-Site"),
    )  # fmt: skip


@routes.get("/")
def index():
    return send_from_directory(STATIC, "index.html")


@routes.get("/static/<path:name>")
def static_file(name: str):
    return send_from_directory(STATIC, name)


@routes.get("/api/info")
def info():
    games = [
        {"name": game.key, "id": game.name, "players": list(game.player_counts), "options": game.example_options}
        for game in GAMES.values()
    ]
    return jsonify(
        games=games,
        agents=list(AGENT_SPECS),
        limits={kind: {name: most for name, most in fields.values()} for kind, fields in PAGE_LIMITS.items()},
        checkpoints=sorted(served().checkpoints),
        components=sorted(served().components),
    )


@routes.post("/api/games")
def new_game():
    data, given = body("game", "options", "seats", "seed"), served()
    fields = (data.get("game"), data.get("seats"), data.get("options"), data.get("seed"))
    game = given.store.open(lambda: LiveGame(*fields, given.checkpoints, given.components))  # the slot first
    with game.lock:
        return jsonify(game.view())


@routes.get("/api/games/<key>")
def game_view(key: str):
    game = served().store.get(key, "live")
    with game.lock:
        return jsonify(game.view(request.args.get("seat")))


@routes.delete("/api/games/<key>")
def close_game(key: str):
    served().store.close(key, "live")
    return jsonify(closed=key)


@routes.post("/api/games/<key>/move")
def move(key: str):
    game, data = served().store.get(key, "live"), body("action", "seat")
    with game.lock:
        game.play(data.get("action"), data.get("seat"))
        return jsonify(game.view(request.args.get("seat")))


@routes.post("/api/games/<key>/step")
def step(key: str):
    game = served().store.get(key, "live")
    moved = game.advance()  # the game's lock is not held while its agent thinks
    with game.lock:
        view = game.view(request.args.get("seat"))
    view["moved"] = moved
    return jsonify(view)


@routes.get("/api/games/<key>/record")
def record(key: str):
    game = served().store.get(key, "live")
    with game.lock:
        text = "\n".join(game.record().lines()) + "\n"
        name = f"{game.rules.spec.name}-seed{game.seed}.jsonl"
    disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
    return Response(text, mimetype="application/x-ndjson", headers=disposition)


@routes.post("/api/replays")
def new_replay():
    data, given = body("text"), served()
    replay = given.store.open(lambda: _replay(data.get("text"), given.components))
    with replay.lock:
        return jsonify(replay.view(0))


@routes.get("/api/replays/<key>")
def replay_view(key: str):
    replay = served().store.get(key, "replay")
    with replay.lock:
        return jsonify(replay.view(request.args.get("index", "0"), request.args.get("seat")))


@routes.delete("/api/replays/<key>")
def close_replay(key: str):
    served().store.close(key, "replay")
    return jsonify(closed=key)


def _replay(text: Any, components: Mapping[str, Any]) -> Replay:
    try:
        return Replay(text, components)
    except RecordError as exc:
        raise ValueError(f"record rejected: {exc}") from None
