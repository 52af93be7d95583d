"""What a page (and the terminal of ``maya-play``) can get from the server, tried as a player
and as an attacker would, through Flask's test client: only the requesting seat's view (no
other seat's hidden moves in a record, no seed that rebuilds the hidden deal while the game
runs), no file named from a page, bounded and cancellable agent moves, and a JSON 4xx in the
project's words for every bad request."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import sys
import threading
import time

import numpy as np
import pytest

pytest.importorskip("flask")

from maya_envs.cli.play import build_parser, play  # noqa: E402
from maya_envs.core.rng import seed_hides_draws  # noqa: E402
from maya_envs.games import DEFAULT_GAME, GAMES, find_game  # noqa: E402
from maya_envs.records import make_env, replay  # noqa: E402
from maya_envs.web import policy, sessions  # noqa: E402
from maya_envs.web.app import create_app  # noqa: E402
from tests.conformance import (  # noqa: E402
    FIRST_HIDDEN_CASES,
    case_id,
    first_game,
    hidden_at_fewest,
    resample_hidden,
    shipped_network,
    shipped_ppo_baseline,
)
from tests.helpers.web import ok, refused  # noqa: E402

HUMAN_GAMES = [  # (game, seats): each game at its fewest seats hiding something, the human first or second
    (key, ["human"] + ["random"] * (options["num_players"] - 1) if human == 0 else
     ["heuristic", "human"] + ["random"] * (options["num_players"] - 2))
    for key, options in FIRST_HIDDEN_CASES
    for human in (0, 1)
]  # fmt: skip
HUMAN_GAME_IDS = [f"{case_id(case)}-human{human}" for case in FIRST_HIDDEN_CASES for human in (0, 1)]
DEFAULT_SEATS = DEFAULT_GAME.make_rules({}).spec.num_players
"""The seats of the default game when a request gives no ``num_players``."""
COMPONENTS = first_game(
    "a component-table option", lambda g: "components" in {f.name for f in dataclasses.fields(g.make_rules({}).config)}
)
"""The game whose option ``components`` names a component table (a file, if a page could name one)."""
COMPONENT_SEATS = COMPONENTS.make_rules({}).spec.num_players


def _first_case(wanted: str, hides: bool) -> tuple[str, int]:
    """``(key, num_players)``, the first in table order whose seed rebuilds hidden draws (``hides``)
    or does not."""
    for game in GAMES.values():
        for n in game.player_counts:
            if seed_hides_draws(game.make_rules({"num_players": n}).spec) == hides:
                return game.key, n
    raise LookupError(f"no game of maya_envs.games.GAMES has {wanted}")


SECRET_SEED = _first_case("a seed that rebuilds hidden draws", True)
OPEN_SEED = _first_case("a seed that rebuilds no hidden draw", False)


@pytest.fixture
def client():
    app = create_app(max_games=1000)
    app.testing = True
    return app.test_client()


def the_game(client, view: dict) -> sessions.LiveGame:
    return client.application.extensions["maya_store"].get(view["id"], "live")


# -- the record and the seed of a live game ---------------------------------------------------


@pytest.mark.parametrize(("game", "seats"), HUMAN_GAMES, ids=HUMAN_GAME_IDS)
def test_a_human_gets_only_their_seats_view_through_a_whole_game(client, game, seats):
    """Every response the page gets while the game runs (views, steps, moves, the refused
    record and other seats' views) holds neither the seed nor another seat's hidden moves; the
    view is the same for any redraw of what the human may not see; at the end the record is
    whole, names the seed the game used, and replays to the same result."""
    n, human = len(seats), seats.index("human")
    view = ok(client.post("/api/games", json={"game": game, "options": {"num_players": n}, "seats": seats}))
    live = the_game(client, view)
    secret = str(live.seed)
    assert live.seed_secret and seed_hides_draws(live.rules.spec) and live.seed >= 0
    rng, resample, changed = np.random.default_rng(0), resample_hidden(game), 0

    def served(response):  # no response while the game runs shows the seed, anywhere
        data = response.get_json()
        if not (data or {}).get("over"):
            assert secret not in response.get_data(as_text=True) and secret not in str(response.headers)
        return response

    for _ in range(live.rules.spec.max_game_length + 1):
        if view["over"]:
            break
        assert view["seed"] is None and not view["record_open"] and view["viewer"] == human
        refused(served(client.get(f"/api/games/{view['id']}/record")), 403, "opens when the game is over")
        for other in [s for s in range(n) if s != human] + ["all"]:
            refused(served(client.get(f"/api/games/{view['id']}?seat={other}")), 403, "only a human seat's view")
        if view["agent_to_move"]:
            view = ok(served(client.post(f"/api/games/{view['id']}/step")))
            continue
        state = live.env.game_state
        other = resample(state, human, rng)
        changed += other != state
        live.env.game_state = other
        theirs = ok(served(client.get(f"/api/games/{view['id']}")))
        live.env.game_state = state
        assert theirs == ok(served(client.get(f"/api/games/{view['id']}"))), "the view shows a redrawn hidden part"
        move = view["legal"][int(rng.integers(len(view["legal"])))]
        view = ok(served(client.post(f"/api/games/{view['id']}/move", json={"action": move["action"]})))
    assert view["over"] and changed > 3
    assert view["seed"] == secret and view["record_open"]  # revealed with the record at the end
    text = ok_text(client.get(f"/api/games/{view['id']}/record"))
    header, *moves, end = (json.loads(line) for line in text.splitlines())
    assert header["seed"] == live.seed and len(moves) == len(view["moves"]) and "end" in end
    from maya_envs.records import parse_record

    states = replay(parse_record(text.splitlines()))
    assert states[-1] == live.env.game_state


def ok_text(response) -> str:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return response.get_data(as_text=True)


@pytest.mark.parametrize(("game", "n"), [(g.key, n) for g in GAMES.values() for n in g.player_counts])
def test_the_seed_is_hidden_exactly_where_the_game_table_says_it_rebuilds_hidden_draws(client, game, n):
    seats = ["human"] + ["random"] * (n - 1)
    view = ok(client.post("/api/games", json={"game": game, "options": {"num_players": n}, "seats": seats}))
    spec = make_env(game, num_players=n).rules.spec
    hidden = spec.information != "perfect" or spec.chance
    assert (view["seed"] is None) == hidden, (spec.information, spec.chance, view["seed"])
    assert view["record_open"] == (not hidden)
    given = ok(client.post("/api/games", json={"game": game, "options": {"num_players": n}, "seats": seats, "seed": 9}))
    assert given["seed"] == "9"  # a seed the page chose is its own: shown as given


def test_an_agents_only_game_with_a_drawn_seed_hides_it_and_its_record_until_the_end(client):
    game = hidden_at_fewest()
    n = game.player_counts[0]
    body = {"game": game.key, "options": {"num_players": n}, "seats": ["random"] * n}
    view = ok(client.post("/api/games", json=body))
    assert view["views"] == [None, *range(n)] and view["seed"] is None and not view["record_open"]
    refused(client.get(f"/api/games/{view['id']}/record"), 403)
    while not view["over"]:
        view = ok(client.post(f"/api/games/{view['id']}/step"))
    assert view["seed"] == str(the_game(client, view).seed)
    ok_text(client.get(f"/api/games/{view['id']}/record"))


@pytest.mark.parametrize("seed", [123456789012345678901234567890, "123456789012345678901234567890", "0", 7])
def test_a_seed_is_kept_and_shown_exactly_as_given(client, seed):
    """In the first game whose seed rebuilds hidden draws (so the seed decides the deal)."""
    key, n = SECRET_SEED
    body = {"game": key, "options": {"num_players": n}, "seats": ["human"] + ["random"] * (n - 1), "seed": seed}
    view = ok(client.post("/api/games", json=body))
    assert view["seed"] == str(seed)  # a string: JavaScript rounds a 30-digit number
    live = the_game(client, view)
    assert live.seed == int(seed) and live.header["seed"] == int(seed)
    reference = make_env(key, num_players=n)
    reference.reset(seed=int(seed))
    assert reference.game_state == live.env.game_state


@pytest.mark.parametrize("seed", [-1, 1.5, "1e5", "12a", "١٢", "9" * 41, True, [1]])
def test_a_bad_seed_is_refused_by_name(client, seed):
    body = {"game": DEFAULT_GAME.key, "seats": ["human"] + ["random"] * (DEFAULT_SEATS - 1), "seed": seed}
    refused(client.post("/api/games", json=body), 400, "seed")


def test_the_page_sends_the_seed_as_text_and_shows_the_game_id_while_it_is_secret():
    from pathlib import Path

    script = (Path(sessions.__file__).parent / "static" / "app.js").read_text()
    assert "Number(seed)" not in script and "body.seed = seed" in script
    assert "view.seed === null ? `game ${view.id}`" in script


def test_maya_play_prints_a_secret_seed_only_when_the_game_ends(tmp_path):
    """A hidden-information game without ``--seed``: nothing printed before the end holds the
    seed (the record written has it); the end screen does. With ``--seed`` it is printed first."""
    path = tmp_path / "game.jsonl"
    (key, n), (open_key, open_n) = SECRET_SEED, OPEN_SEED
    seats = ",".join(["human"] + ["random"] * (n - 1))
    args = build_parser().parse_args(["--game", key, "--players", str(n), "--seats", seats, "--record", str(path)])
    out = io.StringIO()
    assert play(args, stdin=io.StringIO("1\n" * 3 + "q\n"), out=out) == 0
    seed = str(json.loads(path.read_text().splitlines()[0])["seed"])
    before, sep, after = out.getvalue().partition("game abandoned")
    assert sep and seed not in before and "seed drawn in secret" in before and f"(seed {seed})" in after

    out = io.StringIO()
    seats = ",".join(["random"] * open_n)
    args = build_parser().parse_args(
        ["--game", open_key, "--players", str(open_n), "--seats", seats, "--record", str(path)]
    )
    play(args, stdin=io.StringIO(""), out=out)
    seed = str(json.loads(path.read_text().splitlines()[0])["seed"])
    assert f"seed {seed}:" in out.getvalue().splitlines()[0]  # no hidden information

    out = io.StringIO()
    seats = ",".join(["random"] * n)
    args = build_parser().parse_args(
        ["--game", key, "--players", str(n), "--seats", seats, "--seed", "5", "--record", str(path)]
    )
    play(args, stdin=io.StringIO(""), out=out)
    text = out.getvalue()
    assert "seed 5:" in text.splitlines()[0] and "seed 5; record saved" in text


# -- the file system --------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A valid component table, a checkpoint-looking file and a JSON file in the server's working
    directory, and a log of every file the process opens below it while a request runs."""
    from importlib import resources

    table = json.loads((resources.files(COMPONENTS.package) / "data" / "components.json").read_text())
    (tmp_path / "table.json").write_text(json.dumps(table))
    (tmp_path / "model.pt").write_bytes(b"not a network")
    (tmp_path / "model.zip").write_bytes(b"not a checkpoint")
    (tmp_path / f"{BASELINE}.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    opened: list[str] = []
    _WATCH["dir"], _WATCH["log"] = str(tmp_path), opened
    yield tmp_path, table, opened
    _WATCH["dir"] = None


_WATCH: dict = {"dir": None, "log": None}


def _audit(event: str, args) -> None:
    watched = _WATCH["dir"]
    if watched and event in ("open", "os.listdir", "os.scandir") and args and isinstance(args[0], (str, bytes)):
        path = args[0].decode() if isinstance(args[0], bytes) else args[0]
        if path.startswith(watched) or not path.startswith("/"):
            _WATCH["log"].append(path)


sys.addaudithook(_audit)


BASELINE, _ = shipped_ppo_baseline(lambda info: find_game(info.game) is DEFAULT_GAME)
"""A shipped baseline's name, written as a file in the server's working directory."""


def _file_requests(where):
    """Requests naming each file ``where`` (a path spelling) through every option, seat and record."""
    tabled = {"game": COMPONENTS.key, "seats": ["human"] + ["random"] * (COMPONENT_SEATS - 1)}
    table, model, zipped = (f"{where}{name}" for name in ("table.json", "model.pt", "model.zip"))
    yield "components", {**tabled, "options": {"components": table}}
    others = ["random"] * (DEFAULT_SEATS - 2)
    for seat in (f"policy:{model}", f"az:{model}:8", zipped, f"pretrained:{table}", f"rllib:{where}",
                 f"policy:{where}{BASELINE}", f"checkpoint:{zipped}"):
        yield f"seat {seat}", {"game": DEFAULT_GAME.key, "seats": ["human", seat, *others]}


def _uncounted(message: str) -> str:
    """``message`` with each shortened value (``'/tmp/py...one.json' (83 chars)``, cut where its
    length puts the cut) as ``<value>``."""
    return re.sub(r"'[^']*\.\.\.[^']*' \([0-9,]+ chars\)", "<value>", message)


@pytest.mark.parametrize("where", ["", "./", "ABS/"], ids=["relative", "dotted", "absolute"])
def test_no_option_seat_or_record_from_a_page_reaches_a_file(client, files, where):
    tmp_path, _table, opened = files
    where = f"{tmp_path}/" if where == "ABS/" else where
    for label, body in _file_requests(where):
        message = refused(client.post("/api/games", json=body), 400)
        assert "exist" not in message and "not found" not in message, label
        if not where.startswith("/"):  # the server's working directory is not shown
            assert str(tmp_path) not in message, label
        # the same words for a file that does not exist: nothing says which files are there
        missing = json.loads(json.dumps(body).replace("table.json", "none.json").replace("model.", "none."))
        answer = refused(client.post("/api/games", json=missing), 400)
        expected = message.replace("table.json", "none.json").replace("model.", "none.")
        assert _uncounted(answer) == _uncounted(expected), label  # a shortened value's length differs by name
    record = _component_game_record(client)
    header = json.loads(record[0])
    header["config"]["components"] = f"{where}table.json"
    message = refused(client.post("/api/replays", json={"text": "\n".join([json.dumps(header), *record[1:]])}), 400)
    assert "components" in message and str(tmp_path) not in message.replace(f"{where}table.json", "")  # only as sent
    assert opened == [], opened
    assert len(client.application.extensions["maya_store"]) == 1  # only the game the record came from


def _component_game_record(client) -> list[str]:
    """The record lines of 5 random moves of :data:`COMPONENTS`, seed 2."""
    body = {"game": COMPONENTS.key, "seats": ["random"] * COMPONENT_SEATS, "seed": 2}
    view = ok(client.post("/api/games", json=body))
    for _ in range(5):
        ok(client.post(f"/api/games/{view['id']}/step"))
    return client.get(f"/api/games/{view['id']}/record").get_data(as_text=True).splitlines()


def test_a_component_table_is_named_as_given_at_start_and_recorded_inline(files):
    tmp_path, table, opened = files
    from maya_envs.web.__main__ import build_parser as web_parser

    name, loaded = web_parser().parse_args(["--components", f"mine={tmp_path / 'table.json'}"]).components[0]
    assert name == "mine" and loaded == table
    opened.clear()
    client = create_app(components={"mine": loaded}).test_client()
    body = {"game": COMPONENTS.key, "seats": ["random"] * COMPONENT_SEATS, "options": {"components": "mine"}, "seed": 1}
    view = ok(client.post("/api/games", json=body))
    refused(client.post("/api/games", json={**body, "options": {"components": "yours"}}), 400, "known: mine")
    while not view["over"]:
        view = ok(client.post(f"/api/games/{view['id']}/step"))
    text = ok_text(client.get(f"/api/games/{view['id']}/record"))
    assert json.loads(text.splitlines()[0])["config"]["components"] == table
    assert ok(client.post("/api/replays", json={"text": text}))["length"] == len(view["moves"])
    assert opened == []


def test_a_checkpoint_error_names_the_checkpoint_not_its_path(files):
    pytest.importorskip("sb3_contrib")  # without it the error is the train extra's, naming no path either
    tmp_path, _table, _opened = files
    client = create_app(checkpoints={"mine": str(tmp_path / "model.zip")}).test_client()
    seats = ["human", "checkpoint:mine"] + ["random"] * (DEFAULT_SEATS - 2)
    message = refused(client.post("/api/games", json={"game": DEFAULT_GAME.key, "seats": seats}), 400)
    assert "checkpoint:mine" in message and str(tmp_path) not in message and "model.zip" not in message


def test_an_uploaded_record_may_hold_no_env_keyword_in_its_config(client):
    record = _component_game_record(client)
    header = json.loads(record[0])
    header["config"]["render_mode"] = "human"
    text = "\n".join([json.dumps(header), *record[1:]])
    refused(client.post("/api/replays", json={"text": text}), 400, "render_mode")


# -- bounded and cancellable agent moves ------------------------------------------------------


NETWORK, _ = shipped_network(lambda info: find_game(info.game) is DEFAULT_GAME and info.num_players == DEFAULT_SEATS)
"""A shipped network of the default game at its default seats (the ``az:`` budgets' model)."""


def _spec(kind: str, field: str, written: str, value) -> str:
    if kind == "az":
        base = f"az:{NETWORK}"
        return f"{base}:{value}" if field == "simulations" else f"{base}:8:{written}={value}"
    return f"{kind}:{value}" if field == "simulations" else f"{kind}:10:{written}={value}"


LIMIT_CASES = [
    (kind, field, written, most)
    for table, kinds in (("mcts", ("mcts", "ismcts")), ("az", ("az",)))
    for kind in kinds
    for field, (written, most) in policy.PAGE_LIMITS[table].items()
]


@pytest.mark.parametrize(("kind", "field", "written", "most"), LIMIT_CASES)
def test_a_search_budget_from_a_page_is_bounded_and_the_error_names_the_maximum(client, kind, field, written, most):
    over = int(most) + 1 if isinstance(most, int) else most * 1.5
    spec = _spec(kind, field, written, over)
    seats = ["human", spec] + ["random"] * (DEFAULT_SEATS - 2)
    message = refused(client.post("/api/games", json={"game": DEFAULT_GAME.key, "seats": seats}), 400, written)
    assert f"{most:g}" in message
    policy.check_budget(_spec(kind, field, written, most))  # the maximum itself is allowed


def test_a_search_at_the_maximum_is_seated(client):
    others = ["random"] * (DEFAULT_SEATS - 2)
    ok(client.post("/api/games", json={"game": DEFAULT_GAME.key, "seats": ["human", "mcts:2000", *others]}))
    seats = ["human", "ismcts:10:time=30:depth=1000", *others]
    ok(client.post("/api/games", json={"game": DEFAULT_GAME.key, "seats": seats}))


@pytest.fixture
def endless(monkeypatch):
    """Page limits so high that an ``mcts:1000000000`` move would run for hours."""
    limits = {**policy.PAGE_LIMITS, "mcts": {**policy.PAGE_LIMITS["mcts"], "simulations": ("simulations", 10**9)}}
    monkeypatch.setattr(policy, "PAGE_LIMITS", limits)


def _start_thinking(client):
    """The default game, seed 1, with an endless search in the seat that moves first (Maya
    (2012) 2p: player_1, Black, places the Monolith first, among many places) and humans in the
    others; ``(view, game, worker, answers)`` once the search runs in ``worker``."""
    first = sessions.LiveGame(DEFAULT_GAME.key, ["random"] * DEFAULT_SEATS, seed=1).to_move
    seats = ["mcts:1000000000" if seat == first else "human" for seat in range(DEFAULT_SEATS)]
    view = ok(client.post("/api/games", json={"game": DEFAULT_GAME.key, "seats": seats, "seed": 1}))
    game = the_game(client, view)
    answers: list = []
    step = client.application.test_client().post
    worker = threading.Thread(target=lambda: answers.append(step(f"/api/games/{view['id']}/step")), daemon=True)
    worker.start()
    deadline = time.monotonic() + 60
    while not game.thinking and time.monotonic() < deadline:
        time.sleep(0.01)
    assert game.thinking
    return view, game, worker, answers


def _answer_within(function, seconds: float = 30):
    """``function()`` run in a thread; its answer, or ``None`` if it blocked ``seconds``."""
    out: list = []
    thread = threading.Thread(target=lambda: out.append(function()), daemon=True)
    thread.start()
    thread.join(seconds)
    return out[0] if out else None


@pytest.mark.parametrize("how", ["deleted", "expired"])
def test_a_move_being_computed_stops_when_its_game_is_closed_and_views_are_served_meanwhile(
    client, endless, monkeypatch, how
):
    view, game, worker, answers = _start_thinking(client)
    other = ok(client.post("/api/games", json={"game": DEFAULT_GAME.key, "seats": ["human"] * DEFAULT_SEATS}))
    fresh = client.application.test_client
    mine = _answer_within(lambda: fresh().get(f"/api/games/{view['id']}"))
    assert mine is not None and mine.status_code == 200 and mine.get_json()["thinking"], "the game's view blocked"
    theirs = _answer_within(lambda: fresh().get(f"/api/games/{other['id']}"))
    assert theirs is not None and theirs.status_code == 200, "another game's view blocked"
    refused(fresh().post(f"/api/games/{view['id']}/step"), 409, "still choosing")
    if how == "deleted":
        assert ok(fresh().delete(f"/api/games/{view['id']}")) == {"closed": view["id"]}
    else:
        store = client.application.extensions["maya_store"]
        later = time.monotonic() + store.idle_seconds + 1
        monkeypatch.setattr(time, "monotonic", lambda: later)  # the store's clock
        refused(fresh().get(f"/api/games/{view['id']}"), 404, "expired")
    worker.join(30)
    assert not worker.is_alive(), "the search went on after its game was closed"
    refused(answers[0], 404, f"was closed while player_{view['to_move']} chose its move")
    assert game.closed.is_set() and game.history == []


# -- every bad request is a JSON 4xx in the project's words ----------------------------------

DEEP = "[" * 5000 + "]" * 5000
GAME = json.dumps(DEFAULT_GAME.key)
SEATS = json.dumps(["human"] + ["random"] * (DEFAULT_SEATS - 1))
LISTED_SEAT = json.dumps(["human", ["random"]] + ["random"] * (DEFAULT_SEATS - 2))
OPTIONS_40_DEEP = "{\"a\": " * 40 + "1" + "}" * 41


@pytest.mark.parametrize(
    ("method", "url", "data", "status", "words"),
    [
        ("post", "/api/games", DEEP, 400, "nests deeper than 32"),
        ("post", "/api/games", '{"game": ' + DEEP + "}", 400, "nests deeper than 32"),
        ("post", "/api/games", f'{{"game": {GAME}, "options": {OPTIONS_40_DEEP}', 400, "nests deeper"),
        ("post", "/api/replays", DEEP, 400, "nests deeper than 32"),
        ("post", "/api/replays", json.dumps({"text": DEEP}), 400, "nests too deep"),
        ("post", "/api/games", b"\xff\xfe{", 400, "not valid JSON"),
        ("post", "/api/games", '{"seed": ' + "9" * 5000 + "}", 400, "not valid JSON"),
        ("post", "/api/games", "[1, 2]", 400, "must be a JSON object"),
        ("post", "/api/games", f'{{"game": {GAME}, "seats": {SEATS}, "colour": 1}}', 400, "unknown field"),
        ("post", "/api/games", f'{{"game": [{GAME}]}}', 400, f"game [{DEFAULT_GAME.key!r}]"),
        ("post", "/api/games", '{"game": {"a": 1}, "seats": []}', 400, "game {'a': 1}"),
        ("post", "/api/games", f'{{"game": {GAME}, "seats": {SEATS}, "options": {{"render_mode": "human"}}}}',
         400, "'render_mode']: the server sets"),
        ("post", "/api/games", f'{{"game": {GAME}, "seats": {LISTED_SEAT}}}', 400, "seat ['random']"),
        ("get", "/api/games", None, 405, "GET is not allowed on /api/games; allowed: POST"),
        ("get", "/api/replays", None, 405, "allowed: POST"),
        ("get", "/api/games/abc/move", None, 405, "allowed: POST"),
        ("get", "/api/games/abc/step", None, 405, "allowed: POST"),
        ("put", "/api/info", None, 405, "allowed: GET"),
        ("delete", "/api/info", None, 405, "allowed: GET"),
        ("get", "/api/nothing", None, 404, "no such page: /api/nothing"),
        ("get", "/nothing/at/all", None, 404, "no such page"),
        ("delete", "/api/games/nope", None, 404, "no live 'nope'"),
        ("get", "/api/replays/nope?index=1", None, 404, "no replay 'nope'"),
    ],
)
def test_a_bad_request_gets_a_json_4xx_in_the_projects_words(client, method, url, data, status, words):
    kwargs = {} if data is None else {"data": data, "content_type": "application/json"}
    refused(getattr(client, method)(url, **kwargs), status, words)
    assert len(client.application.extensions["maya_store"]) == 0


def test_a_record_without_a_title_is_not_a_server_error(client):
    """records.py refuses a header without its ``title`` (a RecordError naming it): a JSON 400."""
    game, n = DEFAULT_GAME, DEFAULT_SEATS
    header = {"format": "maya_envs.record/1", "game": game.name, "version": game.version, "num_players": n,
              "config": dataclasses.asdict(make_env(game.key, num_players=n).rules.config), "seed": 1}
    refused(client.post("/api/replays", json={"text": json.dumps(header)}), 400, "title")


RECORD_MUTATIONS = [
    ("seed", -1), ("seed", "x"), ("seed", 10**45), ("config", []), ("config", {"num_players": [2]}),
    ("config", {"components": "/etc/passwd"}), ("config", {"illegal_action": "raise"}), ("game", [DEFAULT_GAME.name]),
    ("num_players", "2"), ("version", 99), ("format", None), ("config", json.loads('{"a": ' * 40 + "1" + "}" * 40)),
]


@pytest.mark.parametrize(("key", "value"), RECORD_MUTATIONS)
def test_a_mutated_record_header_is_refused_with_a_json_400(client, key, value):
    body = {"game": DEFAULT_GAME.key, "seats": ["random"] * DEFAULT_SEATS, "seed": 3}
    view = ok(client.post("/api/games", json=body))
    for _ in range(4):
        ok(client.post(f"/api/games/{view['id']}/step"))
    lines = ok_text(client.get(f"/api/games/{view['id']}/record")).splitlines()
    header = json.loads(lines[0])
    header[key] = value
    refused(client.post("/api/replays", json={"text": "\n".join([json.dumps(header), *lines[1:]])}), 400, "record rejected")


def test_a_records_component_table_with_a_list_for_a_name_is_refused_in_the_projects_words(client, files):
    """The table's own check names the field (it was Python's 'unhashable type' TypeError)."""
    _tmp_path, table, _opened = files
    table["pyramid_sets"]["3"] = [["a list, not a pyramid name"]]
    header = json.loads(_component_game_record(client)[0])
    header["config"]["components"] = table
    answer = client.post("/api/replays", json={"text": json.dumps(header)})
    refused(answer, 400, "components.pyramid_sets['3'][0]: must be a pyramid name (a string)")


ODD_VALUES = [[], {}, [[1]], {"a": [1]}, None, 1.5, -1, 10**30, "x", True, "", float("nan")]


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_option_with_an_odd_value_is_a_json_answer_never_a_server_error(client, game):
    """Every field of every game's config (from the game table) with values of every JSON type."""
    entry = GAMES[game]
    fields = [f.name for f in dataclasses.fields(entry.make_rules({}).config)]
    seats = ["random"] * entry.player_counts[0]
    answers = 0
    for field in fields:
        for value in ODD_VALUES:
            options = {field: value}
            if field != "num_players":
                options["num_players"] = entry.player_counts[0]
            response = client.post("/api/games", data=json.dumps({"game": game, "seats": seats, "options": options}),
                                   content_type="application/json")
            assert response.status_code in (200, 400), (field, value, response.status_code, response.get_data()[:200])
            if response.status_code == 400:
                refused(response, 400)
            else:
                client.delete(f"/api/games/{response.get_json()['id']}")
            answers += 1
    assert answers == len(fields) * len(ODD_VALUES)
