"""How ``maya-web`` reads a request's body and answers an error: a JSON object of a route's
fields only, and ``{"error": message}`` in the project's words for every failure, for any route
or method (no Python text, no HTML page, no message longer than :data:`MAX_MESSAGE_CHARS`).

Statuses: 400 bad input (a ``ValueError``: ``ConfigError``, ``IllegalActionError`` and
``RecordError`` are ones) or a foreign ``Host``; 403 a view or record the page may not have now,
or a request from another site; 404 an unknown route or id; 405 a method a route does not
take; 409 an agent still choosing; 413 an upload over :data:`MAX_UPLOAD_BYTES`; 415 a body not
sent as JSON; 503 a full store; 500 a fault of the server (logged).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound, RequestEntityTooLarge

from maya_envs.core.errors import MAX_SHOWN_CHARS, listed, plain_words, shorten
from maya_envs.web.origin import CrossSiteError, ForeignHostError, MediaTypeError, check_json
from maya_envs.web.policy import MAX_NESTING, HiddenViewError, nesting
from maya_envs.web.sessions import BusyError
from maya_envs.web.store import FullError, NotFoundError

MAX_UPLOAD_BYTES = 8 * 1024 * 1024
MAX_MESSAGE_CHARS = 600
"""The longest error message a page gets: every message shortens what it echoes
(:func:`~maya_envs.core.errors.shorten`); one still longer is cut here, saying so."""
STATUSES: dict[type[Exception], int] = {
    ValueError: 400, ForeignHostError: 400, HiddenViewError: 403, CrossSiteError: 403,
    NotFoundError: 404, BusyError: 409, MediaTypeError: 415, FullError: 503,
}  # fmt: skip
"""The status of each error kind whose message is the project's own."""


def bounded(message: str) -> str:
    """``message``, or its start with the length it had when over :data:`MAX_MESSAGE_CHARS`."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    return f"{message[: MAX_MESSAGE_CHARS - 40]}... (message of {len(message):,} chars shortened)"


def where() -> str:
    """The request's path for a message (shortened when long: a path holds what a page sent)."""
    path = request.path
    return path if len(path) <= MAX_SHOWN_CHARS else shorten(path)


def body(*fields: str) -> dict[str, Any]:
    """The request's JSON object, holding only ``fields``.

    Raises:
        MediaTypeError: not sent as ``application/json``.
        ValueError: not a JSON object, nested deeper than :data:`MAX_NESTING`, or a field not
            in ``fields`` (counted past three, not listed).
    """
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
    """The JSON answer ``{"error": message}`` (:func:`bounded`) with ``status``."""
    return jsonify(error=bounded(message)), status


def add_error_answers(app: Flask) -> None:
    """Answer every error of ``app`` as :func:`error` does (the module docstring's statuses)."""
    for kind, status in STATUSES.items():
        app.register_error_handler(kind, lambda exc, status=status: error(str(exc), status))
    app.register_error_handler(TypeError, lambda exc: error(plain_words(exc), 400))
    app.register_error_handler(
        RecursionError, lambda _exc: error(f"the request nests too deep to read (at most {MAX_NESTING} levels)", 400)
    )
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _internal)


def _http_error(exc: HTTPException):
    if isinstance(exc, RequestEntityTooLarge):
        return error(f"upload too large: at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MiB", 413)
    if isinstance(exc, NotFound):
        return error(f"no such page: {where()}", 404)
    if isinstance(exc, MethodNotAllowed):
        allowed = ", ".join(sorted(set(exc.valid_methods or ()) - {"HEAD", "OPTIONS"}))
        return error(f"{request.method} is not allowed on {where()}; allowed: {allowed}", 405)
    return error(f"{exc.name.lower()}: {request.method} {where()}", exc.code or 400)


def _internal(_exc: Exception):  # a fault of the server: logged, the page gets no Python text
    current_app.logger.exception("maya-web: %s %s failed", request.method, request.path)
    return error(f"the server failed on {request.method} {where()}; the fault is logged", 500)
