"""Web app test helpers (skip the importing module without Flask): a fresh test client, a
response that must be 200, a refused one (a JSON error in the project's words), a new game."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("flask")

from maya_envs.web.app import create_app  # noqa: E402


def web_client():
    """A test client of a fresh ``maya-web`` app (``testing`` on); the ``client`` fixture, and
    what a game's own web tests (``tests/<key>/test_web*.py``) open."""
    app = create_app()
    app.testing = True
    return app.test_client()


def new_game(client, game: str, seats: list[str], seed: int = 3, **options) -> dict:
    return ok(client.post("/api/games", json={"game": game, "options": options, "seats": seats, "seed": seed}))


PYTHON_WORDS = re.compile(
    r"unhashable|multiple values for keyword|Traceback|has no attribute|NoneType|not subscriptable|"
    r"object is not|positional argument|<!doctype|Errno|invalid literal",
    re.IGNORECASE,
)


def ok(response) -> dict:
    assert response.status_code == 200, (response.status_code, response.get_data(as_text=True)[:300])
    return response.get_json()


def refused(response, status: int, words: str = "") -> str:
    """The response is a JSON error with ``status`` whose message holds ``words`` and no Python."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:300])
    assert response.mimetype == "application/json", response.get_data(as_text=True)[:200]
    message = response.get_json()["error"]
    assert words in message, message
    assert not PYTHON_WORDS.search(message), message
    return message
