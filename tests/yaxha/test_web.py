"""Yaxha in maya-web at the HTTP level: another seat's secret tile pick in a human's move list.
Moved from tests/test_web.py (issue 31 item 2: a test about one game lives in its folder); the
helpers are that file's."""

from __future__ import annotations

from tests.helpers.web import new_game, ok, web_client


def test_a_human_sees_other_seats_hidden_moves_only_by_their_public_part():
    """Yaxha: the random seat's secret tile pick reads "pick tile ?" in the human's move list."""
    client = web_client()
    view = new_game(client, "yaxha", ["random", "human"], num_players=2, seed=5)
    while view["agent_to_move"]:
        view = ok(client.post(f"/api/games/{view['id']}/step"))
    assert view["moves"] and all("?" in text for text in view["moves"][:1]), view["moves"]
