"""The documentation site in a real browser: the site is built (``mkdocs build --strict``) into a
temporary folder, served on 127.0.0.1, and headless Chromium opens the main pages: each has its
title and the navigation, its pictures load, every link it has into the site answers (no 404),
and a screenshot of each is saved (into a temporary folder, or ``MAYA_SCREENSHOTS``). Without the
``docs`` extra, Selenium or a browser these tests skip and say what is missing; with
``MAYA_REQUIRE_BROWSER=1`` (set by ``.ci/run``) they fail instead."""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urldefrag

import pytest

from maya_envs.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
REQUIRE = os.environ.get("MAYA_REQUIRE_BROWSER") == "1"
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


def _missing() -> list[str]:
    missing = [
        f"{module} (pip install 'maya-envs[{extra}]')"
        for module, extra in (("mkdocs", "docs"), ("material", "docs"), ("selenium", "browser"))
        if importlib.util.find_spec(module) is None
    ]
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        missing.append("a chromium browser (apt-get install chromium)")
    if not shutil.which("chromedriver"):
        missing.append("chromedriver (apt-get install chromium-driver)")
    return missing


MISSING = _missing()
if MISSING:
    message = "docs browser tests need " + ", ".join(MISSING)
    if REQUIRE:
        raise RuntimeError(message + " (MAYA_REQUIRE_BROWSER=1)")
    pytest.skip(message, allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

pytestmark = pytest.mark.xdist_group("docs_browser")


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
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *a, **k: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_port}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
    ):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium')}")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
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
