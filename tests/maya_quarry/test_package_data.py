"""The quarry's component table ships as package data. Moved from tests/test_packaging.py
(issue 31 item 2: a test about one game lives in its folder)."""

from __future__ import annotations

import json
from pathlib import Path

from maya_envs.maya_quarry.rules.config import DEFAULT_COMPONENTS_PATH, load_components

ROOT = Path(__file__).resolve().parents[2]


def test_the_quarry_component_table_is_package_data():
    path = Path(str(DEFAULT_COMPONENTS_PATH))
    assert path == ROOT / "maya_envs" / "maya_quarry" / "data" / "components.json"
    assert json.loads(DEFAULT_COMPONENTS_PATH.read_text(encoding="utf-8"))["canonical"] is False
    for n in (3, 4, 5):
        table = load_components(None, n)
        assert table.source == str(path) and not table.canonical
    assert not (ROOT / "configs" / "maya_quarry" / "components.json").exists()
