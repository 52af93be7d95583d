"""What the browser tests share (tests/test_web_browser.py, tests/test_docs_browser.py): the check
that Debian's chromium, its driver and the Python modules are there, and a headless Chromium.

Without them a browser test module skips and says what is missing; with ``MAYA_REQUIRE_BROWSER=1``
(set by ``.ci/run``) it fails instead, so CI cannot pass by skipping."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

REQUIRE = os.environ.get("MAYA_REQUIRE_BROWSER") == "1"


def missing(modules: tuple[tuple[str, str], ...]) -> list[str]:
    """What of ``(module, extra)`` pairs, chromium and chromedriver is not installed."""
    out = [
        f"{module} (pip install 'maya-envs[{extra}]')"
        for module, extra in modules
        if importlib.util.find_spec(module) is None
    ]
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        out.append("a chromium browser (apt-get install chromium)")
    if not shutil.which("chromedriver"):
        out.append("chromedriver (apt-get install chromium-driver)")
    return out


def require_browser(modules: tuple[tuple[str, str], ...], what: str) -> None:
    """Skip the calling test module (fail under ``MAYA_REQUIRE_BROWSER=1``) when something is missing."""
    absent = missing(modules)
    if absent:
        message = f"{what} need " + ", ".join(absent)
        if REQUIRE:
            raise RuntimeError(message + " (MAYA_REQUIRE_BROWSER=1)")
        pytest.skip(message, allow_module_level=True)


def headless_chromium(profile: Path, window: str):
    """A headless Chromium driven by Selenium, with its own profile folder; ``window``: ``"W,H"``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    flags = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={window}")
    for flag in flags:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
