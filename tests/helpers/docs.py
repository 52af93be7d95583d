"""Numbers the docs print, rebuilt from the code: a test over a game's documents
(:func:`docs_test`), the spec card, an observation's size."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable

import pytest

from maya_envs.games import GAMES, game_of_rules


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


def card(key: str) -> str:
    """The game's spec card: its env module's docstring."""
    return importlib.import_module(f"{GAMES[key].package}.env").__doc__


def shape(rules, **observer_options) -> int:
    """The size of one seat's observation under ``rules`` (the game's observer hook)."""
    return game_of_rules(rules).hook("observer")(rules, **observer_options).layout.size
