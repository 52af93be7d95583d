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
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from maya_envs.games import GAMES, game_of_rules

ROOT = Path(__file__).resolve().parent.parent


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def assert_says(text: str, expected: list[str], where: str) -> None:
    """Every string of ``expected`` is in ``text`` (whitespace runs compared as one space)."""
    flat = _flat(text)
    missing = [e for e in expected if _flat(e) not in flat]
    assert not missing, f"{where} does not say (from the code): {missing}"


def check_docs(docs: dict[str, tuple[Callable[[], str], Callable[[], list[str]]]], doc: str) -> None:
    """``docs[doc]`` is ``(text, expected)``: the text says every expected string."""
    text, expected = docs[doc]
    assert_says(text(), expected(), doc)


def docs_test(docs: dict[str, tuple[Callable[[], str], Callable[[], list[str]]]]) -> Callable[[str], None]:
    """A test over ``docs`` (one case per document) for a game's own file to bind as
    ``test_numbers_in_the_docs_come_from_the_code = docs_test({...})``."""

    @pytest.mark.parametrize("doc", sorted(docs))
    def test(doc: str) -> None:
        check_docs(docs, doc)

    return test


def _env_module(key: str):
    """The game's current ``<key>_vN`` PettingZoo module file (whatever its version)."""
    names = sorted(p.stem for p in (ROOT / "maya_envs").glob(f"{key}_v[0-9]*.py"))
    return importlib.import_module(f"maya_envs.{names[-1]}")


def card(key: str) -> str:
    """The game's spec card: its env module's docstring."""
    return importlib.import_module(f"{GAMES[key].package}.env").__doc__


def shape(rules, **observer_options) -> int:
    """The size of one seat's observation under ``rules`` (the game's observer hook)."""
    return game_of_rules(rules).hook("observer")(rules, **observer_options).layout.size


@pytest.mark.parametrize("game", sorted(GAMES))
def test_spec_card_names_the_current_module_and_ids(game):
    module = _env_module(game)
    text = card(game)
    name = module.__name__.rsplit(".", 1)[1]
    key, _, version = name.rpartition("_v")
    # the card names the module without its version (written once, in the game table)
    assert f"from maya_envs import {key}_vN" in text and version == str(GAMES[game].version)
    assert module.raw_env().metadata["name"] == name
