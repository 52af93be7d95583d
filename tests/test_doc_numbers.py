"""Numbers that the docs print and the code defines agree (issue 17 item 9).

Every spec card (the env modules' docstrings) and every game README states action counts, id
ranges, observation sizes and length bounds; each one is rebuilt from the code (the action
tables and each config's ``GameSpec``) and must appear in the text: each game's numbers in
``tests/<key>/test_doc_numbers.py`` (with the helpers here), the card's module name for every
game here. The README's env table is generated from the same specs (``tests/test_env_table.py``).
Measured numbers (speed, mean lengths, win rates) are not derived from code and are not checked.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from maya_envs.games import GAMES
from tests.helpers.docs import card

ROOT = Path(__file__).resolve().parent.parent


def _env_module(key: str):
    """The game's current ``<key>_vN`` PettingZoo module file (whatever its version)."""
    names = sorted(p.stem for p in (ROOT / "maya_envs").glob(f"{key}_v[0-9]*.py"))
    return importlib.import_module(f"maya_envs.{names[-1]}")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_spec_card_names_the_current_module_and_ids(game):
    module = _env_module(game)
    text = card(game)
    name = module.__name__.rsplit(".", 1)[1]
    key, _, version = name.rpartition("_v")
    # the card names the module without its version (written once, in the game table)
    assert f"from maya_envs import {key}_vN" in text and version == str(GAMES[game].version)
    assert module.raw_env().metadata["name"] == name
