"""maya-web answers only its own page (issue 44 items 3 and 5), tried with what an attacker's
page can make a browser send: a ``text/plain`` POST, another site's ``Origin`` or
``Sec-Fetch-Site``, a DNS-rebinding ``Host``; bodies of 600,000 keys and 7 MiB values; and a
full store or a bad seat, refused before any seat is built. Flask's test client only; a
bounded number of requests per case."""

from __future__ import annotations

import json
import time
import types

import pytest

pytest.importorskip("flask")

from maya_envs.games import DEFAULT_GAME  # noqa: E402
from maya_envs.web.answers import MAX_MESSAGE_CHARS  # noqa: E402
from maya_envs.web.app import create_app  # noqa: E402

SEATS = DEFAULT_GAME.make_rules({}).spec.num_players
BODY = {"game": DEFAULT_GAME.key, "seats": ["human"] + ["random"] * (SEATS - 1), "seed": 1}
AGENTS = {**BODY, "seats": ["random"] * SEATS}
MIB_7 = "x" * (7 * 1024 * 1024)


def make_client(**kwargs):
    app = create_app(**kwargs)
    app.testing = True
    return app.test_client()


def open_items(client) -> int:
    return len(client.application.extensions["maya_store"])


def answer(response, status: int, words: str = "") -> str:
    """The JSON error message of ``response``, checked: ``status``, holds ``words``, its values
    shortened where they are named (the app's last cut, :data:`MAX_MESSAGE_CHARS`, unused)."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:300])
    assert response.mimetype == "application/json"
    message = response.get_json()["error"]
    assert words in message and len(message) <= MAX_MESSAGE_CHARS, message[:400]
    assert "shortened)" not in message, message  # shortened where the value is named, not cut at the end
    return message


# -- a page on another site -------------------------------------------------------------------

CROSS_SITE = {  # what another site's page can make a browser send to /api/games
    "text/plain form": ({"data": json.dumps(BODY), "content_type": "text/plain"}, 415, "application/json"),
    "urlencoded form": ({"data": "game=x", "content_type": "application/x-www-form-urlencoded"}, 415, "Content-Type"),
    "multipart form": ({"data": "--x--", "content_type": "multipart/form-data; boundary=x"}, 415, "Content-Type"),
    "no type": ({"data": json.dumps(BODY)}, 415, "got none"),
    "other origin": ({"json": BODY, "headers": {"Origin": "https://evil.example"}}, 403, "'https://evil.example'"),
    "null origin": ({"json": BODY, "headers": {"Origin": "null"}}, 403, "Origin 'null'"),
    "other port": ({"json": BODY, "headers": {"Origin": "http://localhost:8000"}}, 403, "another site"),
    "cross-site fetch": ({"json": BODY, "headers": {"Sec-Fetch-Site": "cross-site"}}, 403, "'cross-site'"),
    "same-site fetch": ({"json": BODY, "headers": {"Sec-Fetch-Site": "same-site"}}, 403, "'same-site'"),
}


@pytest.mark.parametrize("name", list(CROSS_SITE))
def test_a_request_another_sites_page_can_send_opens_nothing(name):
    kwargs, status, words = CROSS_SITE[name]
    client = make_client()
    answer(client.post("/api/games", **kwargs), status, words)
    assert open_items(client) == 0


def test_a_record_upload_from_another_site_opens_no_replay():
    client = make_client()
    answer(client.post("/api/replays", data=json.dumps({"text": "{}"}), content_type="text/plain"), 415)
    answer(client.post("/api/replays", json={"text": "{}"}, headers={"Origin": "https://evil.example"}), 403)
    assert open_items(client) == 0


def test_another_sites_page_cannot_move_step_or_close_a_game():
    client = make_client()
    game = client.post("/api/games", json=AGENTS).get_json()
    live = client.application.extensions["maya_store"].get(game["id"], "live")
    evil = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    answer(client.post(f"/api/games/{game['id']}/step", headers=evil), 403)
    answer(client.post(f"/api/games/{game['id']}/move", data='{"action": 0}', content_type="text/plain"), 415)
    answer(client.delete(f"/api/games/{game['id']}", headers=evil), 403)
    assert live.history == [] and not live.closed.is_set() and open_items(client) == 1


def test_the_pages_own_requests_pass():
    """What the shipped page's ``fetch`` sends (tests/test_web_browser.py drives it in chromium)."""
    client = make_client()
    own = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    game = client.post("/api/games", json=AGENTS, headers=own)
    assert game.status_code == 200, game.get_json()
    gid = game.get_json()["id"]
    assert client.post(f"/api/games/{gid}/step", headers=own).status_code == 200
    assert client.delete(f"/api/games/{gid}", headers=own).status_code == 200
    assert client.get("/api/info", headers={"Origin": "https://evil.example"}).status_code == 200  # reads no state


# -- DNS rebinding: a request naming another host ---------------------------------------------

FOREIGN_HOSTS = ["evil.example", "evil.example:80", "localhost:8000", "127.0.0.1.evil.example", "localhost.",
                 "user@localhost", "localhost/x", "[::2]", ""]  # fmt: skip


@pytest.mark.parametrize("host", FOREIGN_HOSTS)
def test_a_request_naming_a_foreign_host_is_refused_on_every_route(host):
    client = make_client()
    for method, url in (("get", "/"), ("get", "/api/info"), ("post", "/api/games"), ("get", "/api/games/x")):
        extra = {"json": AGENTS} if method == "post" else {}
        answer(getattr(client, method)(url, headers={"Host": host}, **extra), 400, "is not served here")
    assert open_items(client) == 0


@pytest.mark.parametrize(
    ("allowed", "host", "served"),
    [((), "localhost", True), ((), "127.0.0.1:80", True), ((), "[::1]", True), ((), "LocalHost", True),
     (("lan.example",), "lan.example", True), (("lan.example",), "lan.example:8080", False),
     (("proxy.example:443",), "proxy.example:443", True), (("proxy.example:443",), "proxy.example", False)],
)  # fmt: skip
def test_the_loopback_names_and_the_names_given_at_start_are_served(allowed, host, served):
    response = make_client(allowed_hosts=allowed).get("/api/info", headers={"Host": host})
    assert response.status_code == (200 if served else 400), response.get_json()


@pytest.mark.parametrize("entry", ["evil.example/x", "a@b", "host:port", "", "x:99999"])
def test_a_bad_allowed_host_is_refused_at_start(entry):
    with pytest.raises(ValueError, match="allowed: NAME or NAME:PORT"):
        create_app(allowed_hosts=[entry])


# -- huge bodies and keys ----------------------------------------------------------------------

HUGE = {  # name: (route, body, words)
    "600,000 keys": ("/api/games", {f"k{i}": 1 for i in range(600_000)}, "599,997 more"),
    "7 MiB game name": ("/api/games", {**BODY, "game": MIB_7}, "(7,340,032 chars)"),
    "600,000 options": ("/api/games", {**BODY, "options": {f"k{i}": 1 for i in range(600_000)}}, "600,000"),
    "600,000 seats": ("/api/games", {**BODY, "seats": ["random"] * 600_000}, "(600,000 items)"),
    "7 MiB seat": ("/api/games", {**BODY, "seats": [MIB_7, *BODY["seats"][1:]]}, "(7,340,032 chars)"),
    "7 MiB seed": ("/api/games", {**BODY, "seed": "9" * 7_000_000}, "(7,000,000 chars)"),
    "7 MiB record": ("/api/replays", {"text": MIB_7}, "record rejected"),
}


@pytest.mark.parametrize("name", list(HUGE))
def test_a_huge_body_gets_a_one_line_answer(name):
    route, body, words = HUGE[name]
    client = make_client()
    answer(client.post(route, data=json.dumps(body), content_type="application/json"), 400, words)
    assert open_items(client) == 0


def test_a_message_still_too_long_is_cut_saying_so(monkeypatch):
    """The last line of defence, for a message whose value was not shortened at its source."""
    import maya_envs.web.sessions as sessions

    monkeypatch.setattr(sessions, "page_seed", lambda value: (_ for _ in ()).throw(ValueError("y" * 10_000)))
    response = make_client().post("/api/games", json=BODY)
    message = response.get_json()["error"]
    assert response.status_code == 400 and len(message) <= MAX_MESSAGE_CHARS
    assert message.endswith("(message of 10,000 chars shortened)"), message[-80:]


# -- caps and checks before any seat is built ------------------------------------------------


@pytest.fixture
def builds(monkeypatch) -> list:
    """Every seat built (a network seat costs about a CPU second): the specs, in order."""
    import maya_envs.wrappers.opponents as opponents

    built, make = [], opponents.make_opponent
    monkeypatch.setattr(opponents, "make_opponent", lambda spec, *a, **k: built.append(spec) or make(spec, *a, **k))
    return built


def test_a_full_store_refuses_before_any_seat_is_built(builds):
    client = make_client(max_games=1)
    assert client.post("/api/games", json=BODY).status_code == 200
    before = len(builds)
    answer(client.post("/api/games", json=AGENTS), 503, "the most this server keeps")
    answer(client.post("/api/replays", json={"text": "{}"}), 503)
    assert len(builds) == before


@pytest.mark.parametrize("bad", ["mcts:999999", "nobody", "pretrained:nothing", "checkpoint:nothing", "../x.zip"])
def test_a_bad_last_seat_is_refused_before_the_others_are_built(builds, bad):
    client = make_client()
    answer(client.post("/api/games", json={**AGENTS, "seats": ["random"] * (SEATS - 1) + [bad]}), 400)
    assert builds == [] and open_items(client) == 0


def test_a_game_being_built_holds_its_place_in_the_store():
    from maya_envs.web.store import FullError, Store

    store, inner = Store(max_items=1), []

    def make():
        with pytest.raises(FullError):
            store.open(lambda: inner.append("built"))
        return types.SimpleNamespace(id="a", kind="live", last_used=time.monotonic(), close=lambda: None)

    store.open(make)
    assert inner == [] and len(store) == 1


def test_allow_host_names_are_served_and_a_bad_one_is_refused_at_start(monkeypatch, capsys):
    """``maya-web --allow-host NAME``: that name is served besides the loopback ones, no other."""
    import werkzeug.serving

    import maya_envs.players
    from maya_envs.web.__main__ import main

    apps = []

    class Stop(Exception):
        pass

    def serve_nothing(host, port, app, threaded):
        apps.append(app)
        raise Stop  # before anything is bound

    monkeypatch.setattr(werkzeug.serving, "make_server", serve_nothing)
    monkeypatch.setattr(maya_envs.players, "one_torch_thread", lambda: None)
    with pytest.raises(Stop):
        main(["--allow-host", "gamebox.lan", "--port", "0"])
    client = apps[0].test_client()
    assert client.get("/api/info", headers={"Host": "gamebox.lan"}).status_code == 200
    answer(client.get("/api/info", headers={"Host": "other.lan"}), 400, "is not served here")
    with pytest.raises(SystemExit) as exited:
        main(["--allow-host", "gamebox.lan/x"])
    assert exited.value.code == 2 and "--allow-host" in capsys.readouterr().err


@pytest.mark.parametrize(("option", "value"), [("--host", "a b"), ("--host", "x:80"), ("--host", "x/y"),
                                               ("--allow-host", "a b"), ("--allow-host", "é.example")])  # fmt: skip
def test_a_host_that_is_no_host_name_is_refused_at_start(option, value, capsys):
    from maya_envs.web.__main__ import build_parser

    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args([option, value])
    assert exited.value.code == 2 and option in capsys.readouterr().err


def test_an_ipv6_host_binds_without_brackets():
    from maya_envs.web.__main__ import build_parser

    assert build_parser().parse_args(["--host", "[::1]"]).host == "::1"
