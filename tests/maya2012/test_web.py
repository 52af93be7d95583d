"""Maya (2012) in maya-web at the HTTP level: the shipped baseline takes a seat and plays the
opening placements. Moved from tests/test_web.py (issue 31 item 2: a test about one game lives
in its folder); the helpers are that file's."""

from __future__ import annotations

import pytest

from tests.helpers.web import new_game, ok, web_client


def test_a_pretrained_baseline_takes_a_seat():
    pytest.importorskip("sb3_contrib")
    client = web_client()
    view = new_game(client, "maya2012", ["human", "pretrained"], num_players=2, seed=1)
    assert view["seats"] == ["human", "pretrained"]
    while view["agent_to_move"]:  # Black (player_1) places the Monolith and the Raven first
        view = ok(client.post(f"/api/games/{view['id']}/step"))
    assert view["to_move"] == 0 and len(view["moves"]) == 2
