"""The documentation site's generated game pages (scripts/gen_docs.py) match the code: the
committed docs/games/*.md are what the generator writes now, every observation part has its
meaning from the docstrings, and every command a page gives to reproduce a result parses."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from maya_envs.games import GAMES
from tests.helpers.commands import SCRIPTS, parse_only

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "scripts"))


gen_docs = _load("gen_docs")
docs_rst = _load("docs_rst")


def test_the_committed_game_pages_are_current():
    assert gen_docs.stale_pages() == [], "regenerate with `python scripts/gen_docs.py`"


def test_a_page_edited_by_hand_is_reported_stale(tmp_path, monkeypatch):
    pages = gen_docs.pages()
    monkeypatch.setattr(gen_docs, "ROOT", tmp_path)
    for path, text in pages.items():
        copy = tmp_path / path.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(text, encoding="utf-8")
    monkeypatch.setattr(gen_docs, "pages", lambda: {tmp_path / p.relative_to(ROOT): t for p, t in pages.items()})
    assert gen_docs.stale_pages() == []
    edited = tmp_path / "docs" / "games" / f"{next(iter(GAMES))}.md"
    edited.write_text(edited.read_text(encoding="utf-8").replace("| 1000 |", "| 999 |", 1), encoding="utf-8")
    assert gen_docs.stale_pages() == [str(edited.relative_to(tmp_path))]


@pytest.mark.parametrize("key", list(GAMES))
def test_every_observation_part_has_its_offset_size_and_meaning(key):
    """Each config's table lists the layout's parts back to back from 0 to its size, and each
    part's meaning was found in the observation docstring (no fallback text)."""
    game = GAMES[key]
    tables = gen_docs.observation_tables(game, gen_docs.configs(game))
    assert "see the part" not in tables
    for block in tables.split("### ")[1:]:
        size = int(re.match(r"`\((\d+),\)`", block)[1])
        rows = re.findall(r"^\| `\w+` \| (\d+) \| (\d+) \|", block, flags=re.MULTILINE)
        ends = 0
        for start, length in rows:
            assert int(start) == ends
            ends += int(length)
        assert ends == size


@pytest.mark.parametrize("key", list(GAMES))
def test_a_game_with_hidden_information_says_what_is_hidden(key):
    """The page's hidden-information section is the observation docstring's own paragraph for
    every game that has imperfect information (not the one-word fallback)."""
    game = GAMES[key]
    rows = gen_docs.configs(game)
    page = gen_docs.game_page(game)
    section = page.split("## Hidden information", 1)[1].split("\n## ", 1)[0]
    if any(row["spec"].information == "imperfect" for row in rows):
        assert section.strip().startswith("Hidden information"), section[:200]


def _reproduce_commands() -> list[str]:
    text = "\n".join(gen_docs.agents_section(game) for game in GAMES.values())
    return sorted(set(re.findall(r"`((?:python -m training\.exit\.match|maya-eval) [^`]+)`", text)))


@pytest.mark.parametrize("command", _reproduce_commands())
def test_each_reproduce_command_parses(command, monkeypatch, tmp_path):
    words = command.split()
    if words[0] == "python":
        target, args = "training.exit.match:main", words[3:]
    else:
        target, args = SCRIPTS[words[0]], words[1:]
    monkeypatch.chdir(ROOT)
    namespace = parse_only(target, args, monkeypatch)
    if words[0] == "maya-eval":
        assert (ROOT / namespace.checkpoint).is_file(), namespace.checkpoint


def test_simple_tables_join_continuation_lines():
    doc = """intro

=====  ====  ==============
ids    n     meaning
=====  ====  ==============
0-3    4     first row
             goes on
4      1     ``x`` :data:`~.a.B`
=====  ====  ==============
"""
    (table,) = docs_rst.simple_tables(doc)
    assert table.header == ("ids", "n", "meaning")
    assert table.rows == (("0-3", "4", "first row goes on"), ("4", "1", "``x`` :data:`~.a.B`"))
    assert docs_rst.table_markdown(table).splitlines()[-1] == "| 4 | 1 | `x` `a.B` |"


def test_the_readme_is_a_front_page_whose_links_resolve():
    """At most about 250 lines, every relative link names a file of the checkout, and it links
    the site's entry pages."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    targets = {url.split("#")[0] for url in re.findall(r"\]\(([^)\s]+)\)", text) if "://" not in url}
    assert [t for t in sorted(targets) if t and not (ROOT / t).exists()] == []
    entry_pages = {"docs/getting_started.md", "docs/games/index.md", "docs/guides/index.md", "docs/results/index.md"}
    assert entry_pages <= targets
