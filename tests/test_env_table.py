"""The README's environment table is the output of ``maya_envs.env_table`` (from each GameSpec)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from maya_envs.env_table import BEGIN, END, markdown_table, readme_table, replace_table, rows
from maya_envs.games import GAMES
from maya_envs.registration import ENV_IDS
from tests.conformance import ALL_CASES

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_table_is_current():
    assert readme_table(README.read_text(encoding="utf-8")) == markdown_table(), (
        "README.md's env table differs from the games' specs; regenerate it with "
        "`python -m maya_envs.env_table --write README.md`"
    )


def test_rows_cover_every_game_and_gymnasium_id_with_numbers_from_the_spec():
    table = rows()
    assert {row.gym_id for row in table} == set(ENV_IDS)
    players = {
        row.module: sorted({s.num_players for r in table if r.module == row.module for s in r.specs}) for row in table
    }
    assert players == {game.name: list(game.player_counts) for game in GAMES.values()}
    text = markdown_table()
    for key, options in ALL_CASES:
        card = GAMES[key].make_aec_env(**options).unwrapped.spec_card
        assert f"{card.observation_shape}" in text and f"{card.num_actions}" in text, (key, options)
    for game in GAMES.values():
        parallel = hasattr(importlib.import_module(game.env_module), "parallel_env")
        assert {row.parallel for row in table if row.module == game.name} == {parallel}


def test_replace_table_rewrites_only_between_the_markers():
    text = f"before\n{BEGIN}\nold table\n{END}\nafter\n"
    new = replace_table(text)
    assert new.startswith(f"before\n{BEGIN}\n") and new.endswith(f"{END}\nafter\n")
    assert readme_table(new) == markdown_table()
    with pytest.raises(ValueError, match="no env table"):
        readme_table("no markers here")
