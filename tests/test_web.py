"""maya-web at the HTTP level (Flask's test client, no browser): games of every kind, agents,
per-seat views, refused input that changes nothing, records out and in, limits."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("flask")

from maya_envs.bots import make_bot  # noqa: E402
from maya_envs.games import DEFAULT_GAME, GAMES  # noqa: E402
from maya_envs.records import RecordError, load_record  # noqa: E402
from maya_envs.web.app import create_app  # noqa: E402
from maya_envs.web.seats import resolve_seat  # noqa: E402
from maya_envs.web.sessions import LiveGame, Replay  # noqa: E402
from maya_envs.web.store import Store  # noqa: E402
from tests.conformance import (  # noqa: E402
    ALL_CASES,
    HIDDEN_GAME_CASES,
    case_id,
    first_game,
    hidden_at_fewest,
    resample_hidden,
)
from tests.helpers.web import new_game, ok, web_client  # noqa: E402

DEFAULT_SEATS = DEFAULT_GAME.make_rules({}).spec.num_players
"""The seats of the default game when a request gives no ``num_players``."""
DEFAULT_ACTIONS = DEFAULT_GAME.make_rules({}).spec.num_actions


@pytest.fixture
def client():
    return web_client()


def refused(response, status: int, words: str) -> str:
    assert response.status_code == status, (response.status_code, response.get_json())
    message = response.get_json()["error"]
    assert words in message, message
    return message


def test_the_page_and_info_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and b"maya-web" in page.data and b"/static/app.js" in page.data
    assert client.get("/static/app.js").status_code == 200
    info = ok(client.get("/api/info"))
    assert {g["name"] for g in info["games"]} == set(GAMES)
    assert "human" in info["agents"] and "random" in info["agents"]


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_a_human_plays_a_whole_game_against_random_over_http(client, case):
    """player_0 human (a seeded random choice among the listed legal moves), the rest random;
    every game x player count x variant of the table."""
    game, options = case
    view = new_game(client, game, ["human"] + ["random"] * (options["num_players"] - 1), **options)
    rng = np.random.default_rng(0)
    for _ in range(3000):
        if view["over"]:
            break
        if view["agent_to_move"]:
            view = ok(client.post(f"/api/games/{view['id']}/step"))
            assert view["moved"]
            continue
        assert view["viewer"] == 0 == view["to_move"] and view["legal"]
        move = view["legal"][int(rng.integers(len(view["legal"])))]
        view = ok(client.post(f"/api/games/{view['id']}/move", json={"action": move["action"]}))
    assert view["over"] and view["result"].startswith("result: ") and "ended:" in view["result"]
    assert view["status"] == "game over" and view["legal"] == []
    record = client.get(f"/api/games/{view['id']}/record")
    assert record.status_code == 200 and "attachment" in record.headers["Content-Disposition"]
    lines = record.get_data(as_text=True).splitlines()
    assert len(lines) == len(view["moves"]) + 2 and json.loads(lines[-1])["end"]["rewards"]


def test_agents_only_game_runs_by_steps_and_may_be_watched_from_any_view(client):
    """A game that hides information at its fewest seats: a seat's view is not the spectator's."""
    game = hidden_at_fewest()
    n = game.player_counts[0]
    seats = (["heuristic", "ismcts:8", "mcts:8"] * n)[:n]
    view = new_game(client, game.key, seats, num_players=n)
    assert view["viewer"] is None and view["views"] == [None, *range(n)] and view["legal"] == []
    for _ in range(5):
        view = ok(client.post(f"/api/games/{view['id']}/step"))
    assert len(view["moves"]) == 5
    seat_view = ok(client.get(f"/api/games/{view['id']}?seat=1"))
    assert seat_view["viewer"] == 1 and seat_view["svg"] != view["svg"]


def test_a_human_game_serves_only_human_views_until_the_end(client):
    game = first_game("three seats", lambda g: 3 in g.player_counts)
    view = new_game(client, game.key, ["random", "human", "random"], num_players=3)
    gid = view["id"]
    while view["agent_to_move"]:
        view = ok(client.post(f"/api/games/{gid}/step"))
    assert view["viewer"] == 1 and view["views"] == [1]
    refused(client.get(f"/api/games/{gid}?seat=0"), 403, "only a human seat's view")
    refused(client.get(f"/api/games/{gid}?seat=all"), 403, "only a human seat's view")
    refused(client.get(f"/api/games/{gid}?seat=7"), 400, "allowed: 'all' or a seat 0..2")


def test_illegal_and_malformed_moves_are_refused_and_change_nothing(client):
    view = new_game(client, DEFAULT_GAME.key, ["human", "random"], num_players=2)
    gid = view["id"]
    while view["agent_to_move"]:
        view = ok(client.post(f"/api/games/{gid}/step"))
    legal = {m["action"] for m in view["legal"]}
    illegal = next(a for a in range(DEFAULT_ACTIONS) if a not in legal)
    before = ok(client.get(f"/api/games/{gid}"))
    refused(client.post(f"/api/games/{gid}/move", json={"action": illegal}), 400, "is not legal now")
    refused(client.post(f"/api/games/{gid}/move", json={"action": "swap"}), 400, "must be an action id")
    refused(client.post(f"/api/games/{gid}/move", json={"action": 9999}), 400, "out of range")
    refused(client.post(f"/api/games/{gid}/move", json={"action": True}), 400, "must be an action id")
    refused(client.post(f"/api/games/{gid}/move", data="not json", content_type="application/json"), 400, "JSON object")
    refused(client.post(f"/api/games/{gid}/move", data="not json"), 415, "Content-Type must be application/json")
    refused(client.post(f"/api/games/{gid}/move", json={"action": min(legal), "seat": 1}), 400, "turn")
    assert ok(client.get(f"/api/games/{gid}")) == before
    ok(client.post(f"/api/games/{gid}/move", json={"action": min(legal)}))  # a legal one still plays
    view = ok(client.get(f"/api/games/{gid}"))
    while view["agent_to_move"]:
        view = ok(client.post(f"/api/games/{gid}/step"))
    if not view["over"]:
        refused(client.post(f"/api/games/{gid}/move", json={"action": view["legal"][0]["action"], "seat": 1}), 400, "")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": ["human", "random"]}, "unknown game 'chess'"),
        ({"game": DEFAULT_GAME.key, "seats": ["human"] * (DEFAULT_SEATS - 1)}, f"one spec per seat, {DEFAULT_SEATS}"),
        ({"game": DEFAULT_GAME.key, "seats": ["human", "alphazero"]}, "unknown bot 'alphazero'"),
        ({"game": DEFAULT_GAME.key, "seats": ["human", "README.md"]}, "unknown bot"),
        ({"game": DEFAULT_GAME.key, "seats": ["human", "runs/x/model.zip"]}, "a page cannot name a file"),
        ({"game": DEFAULT_GAME.key, "seats": ["human", "rllib:/tmp/ckpt"]}, "a page cannot name a file"),
        ({"game": DEFAULT_GAME.key, "seats": ["human", "checkpoint:mine"]}, "unknown checkpoint 'mine'"),
        ({"game": DEFAULT_GAME.key, "seats": ["human", "random"], "options": {"colours": 3}}, "colours"),
        ({"game": DEFAULT_GAME.key, "seats": ["human", "random"], "options": {"num_players": 9}}, "num_players"),
        ({"game": DEFAULT_GAME.key, "seats": ["human", "random"], "options": [1]}, "options must be an object"),
        ({"game": DEFAULT_GAME.key, "seats": ["human", "random"], "seed": -1}, "seed -1"),
    ],
)
def test_a_bad_new_game_gets_a_clear_error_and_opens_nothing(client, body, words):
    refused(client.post("/api/games", json=body), 400, words)
    assert len(client.application.extensions["maya_store"]) == 0


def test_unknown_ids_and_routes_are_404(client):
    refused(client.get("/api/games/nope"), 404, "no live 'nope'")
    refused(client.get("/api/replays/nope"), 404, "no replay 'nope'")
    refused(client.get("/etc/passwd"), 404, "no such page")
    refused(client.get("/static/../session.py"), 404, "")


def test_a_record_round_trips_through_upload_and_replay(client, tmp_path):
    """A game with a human seat that hides information at its fewest seats: the record (every
    seat's hidden cards) is refused while it runs, then saved whole at the end, loads for
    maya-replay and replays to the same position."""
    game = hidden_at_fewest()
    n = game.player_counts[0]
    view = new_game(client, game.key, ["random", "human"] + ["random"] * (n - 2), num_players=n, seed=11)
    gid = view["id"]
    rng = np.random.default_rng(1)
    while not view["over"]:
        assert not view["record_open"]
        refused(client.get(f"/api/games/{gid}/record"), 403, "opens when the game is over")
        if view["agent_to_move"]:
            view = ok(client.post(f"/api/games/{gid}/step"))
        else:
            view = ok(
                client.post(
                    f"/api/games/{gid}/move",
                    json={"action": view["legal"][int(rng.integers(len(view["legal"])))]["action"]},
                )
            )
    assert view["record_open"]
    text = client.get(f"/api/games/{gid}/record").get_data(as_text=True)
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    record = load_record(path)  # a valid record for maya-replay too
    n = len(record.moves)
    assert n == len(view["moves"]) and record.end is not None and record.header["seed"] == 11
    replay = ok(client.post("/api/replays", json={"text": text}))
    assert replay["kind"] == "replay" and replay["length"] == n and replay["index"] == 0
    end = ok(client.get(f"/api/replays/{replay['id']}?index={n}&seat=all"))
    assert end["moves"][-1].endswith(record.moves[-1]["notation"]) and len(end["moves"]) == n
    assert end["result"] == view["result"]
    assert len(ok(client.get(f"/api/replays/{replay['id']}?index=7"))["moves"]) == 7
    # the replayed position is the live game's position: the same picture for the same seat
    live = ok(client.get(f"/api/games/{gid}?seat=1"))
    seat = ok(client.get(f"/api/replays/{replay['id']}?index={n}&seat=1"))
    board = live["svg"].splitlines()[1:-1]  # without the root element (the replay adds a caption band)
    assert seat["svg"].splitlines()[1 : len(board) + 1] == board
    refused(client.get(f"/api/replays/{replay['id']}?index={n + 1}"), 400, f"allowed: 0..{n}")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty record"),
        ("not json\n", "not valid JSON"),
        ('{"format": "maya_envs.record/1", "game": "go_v0"}\n', "header field"),
        (None, "text of a JSONL file"),
    ],
)
def test_an_invalid_record_is_refused(client, text, words):
    refused(client.post("/api/replays", json={"text": text}), 400, words)
    assert len(client.application.extensions["maya_store"]) == 0


def test_a_record_with_an_illegal_move_is_refused_with_its_line(client):
    view = new_game(client, DEFAULT_GAME.key, ["random", "random"], num_players=2)
    for _ in range(3):
        ok(client.post(f"/api/games/{view['id']}/step"))
    lines = client.get(f"/api/games/{view['id']}/record").get_data(as_text=True).splitlines()
    move = json.loads(lines[2])
    move["action"] = (move["action"] + 1) % DEFAULT_ACTIONS
    lines[2] = json.dumps(move)
    refused(client.post("/api/replays", json={"text": "\n".join(lines)}), 400, "line 3")


def test_a_server_holds_a_bounded_number_of_games_and_forgets_idle_ones(monkeypatch):
    app = create_app(max_games=2, idle_minutes=1)
    client = app.test_client()
    seats = ["random"] * DEFAULT_SEATS
    first = new_game(client, DEFAULT_GAME.key, seats)
    new_game(client, DEFAULT_GAME.key, seats)
    refused(client.post("/api/games", json={"game": DEFAULT_GAME.key, "seats": seats}), 503, "2 games")
    import maya_envs.web.store as store

    clock = store.time.monotonic() + 61
    monkeypatch.setattr(store.time, "monotonic", lambda: clock)
    new_game(client, DEFAULT_GAME.key, seats)  # the idle ones were closed
    refused(client.get(f"/api/games/{first['id']}"), 404, "expired")


def test_an_upload_over_the_size_limit_is_refused(client):
    big = "x" * (9 * 1024 * 1024)
    refused(client.post("/api/replays", json={"text": big}), 413, "upload too large")


def test_checkpoints_come_only_from_the_command_line(tmp_path):
    env_rules = LiveGame(DEFAULT_GAME.key, ["random"] * DEFAULT_SEATS).rules
    with pytest.raises(ValueError, match="unknown checkpoint 'x'; known: a"):
        resolve_seat("checkpoint:x", env_rules, 0, {"a": str(tmp_path / "a.zip")})
    assert resolve_seat("human", env_rules, 0, {}) is None


@pytest.mark.parametrize("key", list(GAMES))
def test_session_objects_without_http(key):
    n = GAMES[key].player_counts[0]
    game = LiveGame(key, ["random"] * n, {"num_players": n}, seed=2)
    while game.advance():
        pass
    assert game.over and game.record().end is not None
    replay = Replay("\n".join(game.record().lines()))
    assert replay.view(len(game.history))["over"]
    with pytest.raises(RecordError):
        Replay('{"format": 1}')
    with pytest.raises(ValueError, match="positive"):
        Store(0)


def test_the_command_binds_loopback_by_default_and_warns_for_another_host():
    from maya_envs.web.__main__ import LOOPBACK, build_parser

    assert build_parser().parse_args([]).host in LOOPBACK
    code = (
        "import warnings, sys\n"
        "from maya_envs.web import __main__ as m\n"
        "import werkzeug.serving as s\n"
        "class Stop(Exception): pass\n"
        "def fake(host, port, app, threaded): raise Stop(host)\n"
        "s.make_server = fake\n"
        "try:\n    m.main(['--host', '0.0.0.0', '--port', '0'])\n"
        "except Stop as e:\n    print('bound', e)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "bound 0.0.0.0" in result.stdout, result.stderr
    assert "anyone who can reach port 0" in result.stderr


@pytest.mark.parametrize("case", HIDDEN_GAME_CASES, ids=case_id)
def test_a_human_seats_page_does_not_change_when_what_it_may_not_see_is_resampled(case):
    """Board, legal moves and scores of the human seat's view, with the other seats' hidden
    cards, picks and cubes redrawn (the game's :func:`tests.conformance.resample_hidden`; the
    move texts are describe_action's, tested by resampling in tests/test_notation.py); every
    hidden-information case of the whole-game sweep."""
    game, options = case
    resample = resample_hidden(game)
    live = LiveGame(game, ["human"] + ["random"] * (options["num_players"] - 1), options, seed=4)
    rng = np.random.default_rng(4)
    bot = make_bot("random", live.rules, 4)
    changed = 0
    for _ in range(200):
        if live.over:
            break
        if not live.advance():
            mine = live.view(0)
            state = live.env.game_state
            other = resample(state, 0, rng)
            changed += other != state
            live.env.game_state = other
            theirs = live.view(0)
            live.env.game_state = state
            for field in ("svg", "legal", "scores", "status"):
                assert theirs[field] == mine[field], field
            live.play(bot.act(state))
    assert changed > 5


@pytest.mark.parametrize("key", list(GAMES))
def test_the_single_agent_view_renders_svg_too(key):
    import gymnasium as gym

    import maya_envs  # noqa: F401  (registers the ids)

    env = gym.make(GAMES[key].gym_id, render_mode="svg")
    env.reset(seed=0)
    assert env.render().startswith("<svg")
