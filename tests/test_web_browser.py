"""maya-web in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``)
driven by Selenium against a live server on 127.0.0.1.

A whole game of each game is played by clicking the board (player_0 human, the others random),
clicks that are not a legal move are refused, a saved record round-trips through upload and
replay, and a screenshot of each game is taken part-way (``web_<game>.png``, into a temporary
folder; ``python scripts/example_pictures.py --web`` runs these tests with ``MAYA_SCREENSHOTS=docs/images``
to write the README's pictures). Without a browser or Selenium these tests skip and say what is missing;
with ``MAYA_REQUIRE_BROWSER=1`` (set by ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from pathlib import Path

import numpy as np
import pytest

from tests.browser_support import headless_chromium, require_browser

SCREENSHOTS = os.environ.get("MAYA_SCREENSHOTS")  # a folder for the screenshots (default: a temporary one)


require_browser((("flask", "web"), ("selenium", "browser")), "browser tests")

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from maya_envs.games import DEFAULT_GAME, GAMES  # noqa: E402
from maya_envs.records import load_record  # noqa: E402
from maya_envs.web.app import create_app  # noqa: E402
from tests.conformance import hidden_at_fewest  # noqa: E402

pytestmark = pytest.mark.xdist_group("browser")  # one browser and server per worker process


@pytest.fixture(scope="module")
def server():
    httpd = make_server("127.0.0.1", 0, create_app(), threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory) -> Path:
    return Path(SCREENSHOTS) if SCREENSHOTS else tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = headless_chromium(tmp_path_factory.mktemp("chromium"), "1280,1100")
    driver.set_script_timeout(30)
    yield driver
    driver.quit()


def view(driver) -> dict:
    return driver.execute_script("return window.mayaState.view")


def progress(driver) -> dict | None:
    """The few fields of the page's view that the waits poll (without the SVG: cheaper)."""
    return driver.execute_script(
        "const v = window.mayaState.view; return v && {n: v.moves.length, over: v.over, kind: v.kind, "
        "legal: v.legal ? v.legal.length : 0, index: v.index, viewer: v.viewer, id: v.id, "
        "selection: window.mayaState.selection}"
    )


def error_text(driver) -> str:
    box = driver.find_element(By.ID, "error")
    return "" if not box.is_displayed() else box.text


def wait(driver, condition, seconds: float = 30):
    return WebDriverWait(driver, seconds, poll_frequency=0.02).until(lambda d: condition(d))


def start(driver, url: str, game: str, players: int, options: str = "", seed: int | str = 1) -> None:
    driver.get(url)
    wait(driver, lambda d: d.execute_script("return window.mayaState.info !== null"))
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    Select(driver.find_element(By.ID, "players")).select_by_visible_text(str(players))
    driver.find_element(By.ID, "options").send_keys(options)
    driver.find_element(By.ID, "seed").send_keys(str(seed))
    assert driver.find_element(By.ID, "seat-0").get_attribute("value") == "human"
    driver.find_element(By.ID, "start").click()
    wait(driver, lambda d: progress(d) is not None)
    Select(driver.find_element(By.ID, "speed")).select_by_value("20")


def human_turn_or_over(driver) -> dict:
    wait(driver, lambda d: progress(d)["over"] or progress(d)["legal"] > 0)
    return view(driver)


def click_key(driver, key: str) -> None:
    element = driver.find_element(By.CSS_SELECTOR, f'#board [data-key="{key}"]')
    ActionChains(driver).move_to_element(element).click().perform()


def play_move_by_clicks(driver, move: dict) -> None:
    """Click the board elements of ``move`` (its targets) until it is played; the move list
    when it has no board element or the clicks leave several moves."""
    count = len(view(driver)["moves"])
    for key in move["targets"]:
        click_key(driver, key)

        def answered(d, key=key):
            now = progress(d)
            return now["n"] > count or key in now["selection"] or error_text(d)

        wait(driver, answered)
        assert not error_text(driver), error_text(driver)
        if progress(driver)["n"] > count:
            return
    box = "#selection" if move["targets"] else "#legal"
    driver.find_element(By.CSS_SELECTOR, f'{box} button[data-action="{move["action"]}"]').click()
    wait(driver, lambda d: progress(d)["n"] > count)


def an_illegal_click_is_refused(driver) -> bool:
    """Click a board element that no legal move concerns: an error, nothing played."""
    current = view(driver)
    targets = sorted({key for move in current["legal"] for key in move["targets"]})
    # an element whose centre shows no key of a legal move (nothing under it either)
    idle = driver.execute_script(
        """
        const targets = new Set(arguments[0]);
        for (const e of document.querySelectorAll('#board [data-key]')) {
          const r = e.getBoundingClientRect();
          const keys = document.elementsFromPoint(r.x + r.width / 2, r.y + r.height / 2)
            .filter(x => x.dataset && x.dataset.key).map(x => x.dataset.key);
          if (keys.length && keys[0] === e.dataset.key && keys.every(k => !targets.has(k))) return e.dataset.key;
        }
        return null;""",
        targets,
    )
    if idle is None:
        return False
    click_key(driver, idle)
    wait(driver, lambda d: error_text(d))
    assert "not a legal move" in error_text(driver)
    after = view(driver)
    assert after["moves"] == current["moves"] and after["svg"] == current["svg"]
    return True


def _short(game) -> str:
    """A game with a turn limit plays 24 turns (a whole game by clicking stays short)."""
    config = game.make_rules({"num_players": game.player_counts[0]}).config
    return "max_turns=24" if "max_turns" in {f.name for f in dataclasses.fields(config)} else ""


#: Every game at its smallest player count.
CASES = [(key, game.player_counts[0], _short(game)) for key, game in GAMES.items()]
#: A game with face-down cards at its fewest seats, and a game other than the default one.
HIDDEN, OTHER = hidden_at_fewest(), next(game for game in GAMES.values() if game is not DEFAULT_GAME)


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_a_whole_game_played_by_clicking_the_board(server, browser, screenshots, game, players, options):
    start(browser, server, game, players, options)
    rng = np.random.default_rng(7)
    refusals = human_moves = 0
    shot = screenshots / f"web_{game}.png"
    for _ in range(1000):
        current = human_turn_or_over(browser)
        if current["over"]:
            break
        assert current["viewer"] == 0 and current["to_move"] == 0
        lit = browser.execute_script("return document.querySelectorAll('#board .legal').length")
        assert lit > 0 or all(not m["targets"] for m in current["legal"]), "legal moves are highlighted"
        if refusals < 2 and human_moves % 5 == 1:
            refusals += an_illegal_click_is_refused(browser)
        move = current["legal"][int(rng.integers(len(current["legal"])))]
        play_move_by_clicks(browser, move)
        human_moves += 1
        if human_moves == 6:
            screenshots.mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(shot))
    final = view(browser)
    assert final["over"] and human_moves > 5 and refusals >= 1
    result = browser.find_element(By.ID, "result").text
    assert result.startswith("result: ") and "ended:" in result
    assert browser.find_element(By.ID, "status").text.endswith("game over")
    assert shot.stat().st_size > 20_000


def play_from_the_list(driver, move: dict) -> None:
    """Click ``move``'s button in the move list and wait for the answer."""
    count = len(view(driver)["moves"])
    driver.find_element(By.CSS_SELECTOR, f'#legal button[data-action="{move["action"]}"]').click()
    wait(driver, lambda d: progress(d)["n"] > count)


def test_a_record_round_trips_through_save_upload_and_replay(server, browser, tmp_path):
    """A game with face-down cards and a human seat: no record while it runs (it holds the other seats'
    face-down cards), then saved at the end, uploaded and stepped through."""
    start(browser, server, HIDDEN.key, HIDDEN.player_counts[0], seed=5)
    current = human_turn_or_over(browser)
    assert not browser.find_element(By.ID, "save").is_displayed()
    assert "opens when the game is over" in browser.find_element(By.ID, "save-later").text
    href = browser.find_element(By.ID, "save").get_attribute("href")
    fetch = "const done = arguments[arguments.length - 1]; fetch(arguments[0]).then(r => r.text()).then(done);"
    assert "opens when the game is over" in json.loads(browser.execute_async_script(fetch, href))["error"]
    while not current["over"]:
        play_from_the_list(browser, current["legal"][0])
        current = human_turn_or_over(browser)
    live = view(browser)  # the end, still as player_0 saw it
    assert live["viewer"] == 0 and browser.find_element(By.ID, "save").is_displayed()
    text = browser.execute_async_script(fetch, href)
    path = tmp_path / "saved.jsonl"
    path.write_text(text)
    record = load_record(path)
    assert len(record.moves) == len(live["moves"]) and json.loads(text.splitlines()[0])["seed"] == 5

    browser.find_element(By.ID, "tab-replay").click()
    browser.find_element(By.ID, "record-file").send_keys(str(path))
    browser.find_element(By.ID, "open-record").click()
    wait(browser, lambda d: progress(d)["kind"] == "replay")
    position = browser.find_element(By.ID, "position")
    assert position.text == f"0/{len(record.moves)}"
    browser.find_element(By.ID, "forward").click()
    wait(browser, lambda d: progress(d)["index"] == 1)
    first_all = view(browser)
    Select(browser.find_element(By.ID, "view")).select_by_value("0")
    wait(browser, lambda d: progress(d)["viewer"] == 0)
    assert view(browser)["svg"] != first_all["svg"], "player_0 does not see the others' face-down cards"
    Select(browser.find_element(By.ID, "view")).select_by_value("")
    wait(browser, lambda d: progress(d)["viewer"] is None)
    browser.find_element(By.ID, "last").click()
    wait(browser, lambda d: progress(d)["index"] == len(record.moves))
    browser.find_element(By.ID, "back").click()
    wait(browser, lambda d: progress(d)["index"] == len(record.moves) - 1)
    browser.find_element(By.ID, "forward").click()
    wait(browser, lambda d: progress(d)["index"] == len(record.moves))
    last_all = view(browser)
    Select(browser.find_element(By.ID, "view")).select_by_value("0")
    wait(browser, lambda d: progress(d)["viewer"] == 0)
    # player_0's replay view of the last position is the live game's player_0 board
    board = live["svg"].splitlines()[1:-1]
    assert view(browser)["svg"].splitlines()[1 : len(board) + 1] == board

    bad = tmp_path / "bad.jsonl"
    bad.write_text(text.replace('"format"', '"formats"', 1))
    browser.find_element(By.ID, "record-file").send_keys(str(bad))
    browser.find_element(By.ID, "open-record").click()
    wait(browser, lambda d: "record rejected" in error_text(d))
    assert view(browser)["id"] == last_all["id"], "a bad record changes nothing"


def test_the_status_shows_a_given_seed_exactly_and_a_secret_one_as_the_game_id(server, browser):
    start(browser, server, DEFAULT_GAME.key, DEFAULT_GAME.player_counts[0], seed="123456789012345678901234567890")
    status = browser.find_element(By.ID, "status").text
    assert "seed 123456789012345678901234567890:" in status, status  # not rounded to 1.2345678901234568e+29
    start(browser, server, OTHER.key, OTHER.player_counts[0], seed="")
    current = view(browser)
    assert current["seed"] is None and f"game {current['id']}:" in browser.find_element(By.ID, "status").text
