"""Yaxha in maya-web, tried as a player would: the issue's case of a bot's secret tile pick.
Moved from tests/test_web_security.py (issue 31 item 2: a test about one game lives in its
folder); the helpers are that file's."""

from __future__ import annotations

from tests.helpers.web import ok, refused, web_client


def test_the_issues_yaxha_case_one_step_then_the_record():
    """Yaxha 2p ``heuristic, human``: after the bot's secret pick the record is refused (it
    said ``pick tile 0``) and the human's move list shows the pick as ``?``."""
    client = web_client()
    body = {"game": "yaxha", "options": {"num_players": 2}, "seats": ["heuristic", "human"]}
    view = ok(client.post("/api/games", json=body))
    view = ok(client.post(f"/api/games/{view['id']}/step"))
    assert view["moves"] and "pick tile ?" in view["moves"][0], view["moves"]
    message = refused(client.get(f"/api/games/{view['id']}/record"), 403)
    assert "pick tile" not in message
