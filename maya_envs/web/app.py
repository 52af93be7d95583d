"""The ``maya-web`` Flask application: a JSON API over :mod:`maya_envs.web.session` and one page.

Routes (JSON in and out; an error is ``{"error": message}`` with status 400 for bad input, 403
for a hidden view, 404 for an unknown or expired id, 413 for an upload over the size limit,
503 when the server holds its maximum of open games):

=====================================  ===========================================================
``GET  /``                             the page (plain HTML, CSS and JS from ``static/``)
``GET  /api/info``                     games, player counts, agent specs, checkpoint names
``POST /api/games``                    new game ``{game, options, seats, seed?}`` -> view
``GET  /api/games/<id>?seat=k|all``    the view of a seat (default: the human to move)
``POST /api/games/<id>/move``          a human move ``{action, seat?}`` -> view
``POST /api/games/<id>/step``          the agent to move plays once -> view
``GET  /api/games/<id>/record``        the game so far as a JSONL record (download)
``POST /api/replays``                  an uploaded record ``{text}`` -> replay view at 0
``GET  /api/replays/<id>?index=i&seat``  position ``i`` of a replay as a seat (or all) saw it
=====================================  ===========================================================

Nothing a page sends names a file: records come as uploaded text, agents from the registry or
the ``--checkpoint`` names given at start (:func:`maya_envs.web.session.resolve_seat`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, jsonify, request, send_from_directory

from maya_envs.games import GAMES
from maya_envs.records import RecordError
from maya_envs.web.session import (
    AGENT_SPECS,
    FullError,
    HiddenViewError,
    LiveGame,
    NotFoundError,
    Replay,
    Store,
)

MAX_UPLOAD_BYTES = 8 * 1024 * 1024


def create_app(checkpoints: Mapping[str, str] | None = None, max_games: int = 16, idle_minutes: float = 30.0) -> Flask:
    """The application. ``checkpoints``: ``name -> path`` of MaskablePPO checkpoints the page may
    seat as ``checkpoint:<name>``; ``max_games`` open games and replays at most; one left unused
    for ``idle_minutes`` is closed."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD_BYTES
    store = Store(max_games, idle_minutes * 60.0)
    checkpoints = dict(checkpoints or {})
    app.extensions["maya_store"] = store
    static = __file__.rsplit("/", 1)[0] + "/static"

    def body() -> dict[str, Any]:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise ValueError("the request body must be a JSON object")
        return data

    @app.errorhandler(ValueError)
    @app.errorhandler(TypeError)
    def bad_input(error):  # ConfigError, IllegalActionError and RecordError are ValueErrors
        return jsonify(error=str(error)), 400

    @app.errorhandler(HiddenViewError)
    def hidden(error):
        return jsonify(error=str(error)), 403

    @app.errorhandler(NotFoundError)
    def not_found(error):
        return jsonify(error=str(error)), 404

    @app.errorhandler(FullError)
    def full(error):
        return jsonify(error=str(error)), 503

    @app.errorhandler(413)
    def too_large(_error):
        return jsonify(error=f"upload too large: at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MiB"), 413

    @app.errorhandler(404)
    def no_route(_error):
        return jsonify(error=f"no such page: {request.path}"), 404

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
            checkpoints=sorted(checkpoints),
        )

    @app.post("/api/games")
    def new_game():
        data = body()
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("options must be an object of game options")
        game = LiveGame(data.get("game"), data.get("seats"), options, data.get("seed"), checkpoints)
        store.add(game)
        return jsonify(game.view())

    @app.get("/api/games/<key>")
    def game_view(key: str):
        game = store.get(key, "live")
        with game.lock:
            return jsonify(game.view(request.args.get("seat")))

    @app.post("/api/games/<key>/move")
    def move(key: str):
        game, data = store.get(key, "live"), body()
        with game.lock:
            game.play(data.get("action"), data.get("seat"))
            return jsonify(game.view(request.args.get("seat")))

    @app.post("/api/games/<key>/step")
    def step(key: str):
        game = store.get(key, "live")
        with game.lock:
            moved = game.advance()
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
        data = body()
        try:
            replay = Replay(data.get("text"))
        except RecordError as error:
            raise ValueError(f"record rejected: {error}") from None
        store.add(replay)
        return jsonify(replay.view(0))

    @app.get("/api/replays/<key>")
    def replay_view(key: str):
        replay = store.get(key, "replay")
        with replay.lock:
            return jsonify(replay.view(request.args.get("index", "0"), request.args.get("seat")))

    return app
