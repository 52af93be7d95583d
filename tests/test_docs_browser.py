"""The documentation site in a real browser: the site is built (``mkdocs build --strict``) into a
temporary folder, served on 127.0.0.1, and headless Chromium opens the main pages: each has its
title and the navigation, its pictures load, every link it has into the site answers (no 404),
and a screenshot of each is saved (into a temporary folder, or ``MAYA_SCREENSHOTS``). Without the
``docs`` extra, Selenium or a browser these tests skip and say what is missing; with
``MAYA_REQUIRE_BROWSER=1`` (set by ``.ci/run``) they fail instead."""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urldefrag

import pytest

from maya_envs.games import GAMES
from tests.browser_support import headless_chromium, require_browser

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = os.environ.get("MAYA_SCREENSHOTS")
#: (page, words its title starts with): the site's main pages.
PAGES = [
    ("index.html", "maya-envs"),
    ("getting_started.html", "Getting started"),
    *((f"games/{game.key}.html", game.title) for game in GAMES.values()),
    ("guides/index.html", "Guides"),
    ("tutorials/cleanrl_masked_ppo.html", "A masked PPO loop"),
    ("reference/core.html", "Core"),
    ("results/index.html", "Results and benchmarks"),
]


require_browser((("mkdocs", "docs"), ("material", "docs"), ("selenium", "browser")), "docs browser tests")

from selenium.webdriver.common.by import By  # noqa: E402

pytestmark = pytest.mark.xdist_group("docs_browser")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # one line per request would flood the test's output
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> str:
    """The built site served over HTTP; its base URL."""
    folder = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)},
    )
    assert build.returncode == 0, build.stderr[-3000:]
    handler = functools.partial(_QuietHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_port}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = headless_chromium(tmp_path_factory.mktemp("chromium"), "1280,1000")
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory) -> Path:
    return Path(SCREENSHOTS) if SCREENSHOTS else tmp_path_factory.mktemp("docs_screenshots")


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize(("page", "title"), PAGES, ids=[p for p, _ in PAGES])
def test_main_page_renders_with_title_nav_pictures_and_working_links(page, title, site, browser, screenshots):
    url = site + page
    assert _status(url) == 200, url
    browser.get(url)
    assert browser.title.startswith(title) and browser.title.endswith("maya-envs"), browser.title
    nav = browser.find_elements(By.CSS_SELECTOR, "nav.md-nav--primary a.md-nav__link")
    assert len(nav) >= 8, "the navigation is missing"
    assert browser.find_element(By.CSS_SELECTOR, "article h1").text.startswith(title)
    broken_pictures = browser.execute_script(
        "return [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
    )
    assert broken_pictures == []
    links = {urldefrag(a.get_attribute("href"))[0] for a in browser.find_elements(By.CSS_SELECTOR, "article a[href]")}
    inside = sorted(link for link in links if link.startswith(site))
    assert [link for link in inside if _status(link) != 200] == []
    browser.save_screenshot(str(screenshots / (page.replace("/", "_").replace(".html", ".png"))))


def test_a_missing_page_is_a_404(site):
    assert _status(site + "no_such_page.html") == 404
