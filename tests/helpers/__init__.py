"""Helpers the test modules share (issue 48 item 6), one module a topic; a game's own shared
helpers are in ``tests/<key>/`` beside its tests (``helpers.py``, ``hidden.py``, ...). A test
module imports helpers, never another test module (``tests/test_test_layout.py`` checks it)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root folder."""
