"""The game table (maya_envs/games.py): every hook imports, the table agrees with the rules,
and no module outside the game packages and the table names a game."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import gymnasium as gym
import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.core.errors import ConfigError
from maya_envs.games import GAMES, HOOKS, find_game, game_of_rules

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_hook_imports_and_the_entry_agrees_with_the_rules(key):
    game = GAMES[key]
    assert set(game.hooks) == set(HOOKS)
    for name, target in game.hooks.items():
        if target is not None:
            assert game.hook(name) is not None, f"{key}: hook {name} ({target}) did not import"
    rules = game.make_rules({})
    assert game_of_rules(rules) is game
    assert rules.spec.name == game.name and rules.spec.title == game.title
    aec = game.make_aec_env()
    assert type(aec) is game.hook("env") and aec.metadata["name"] == game.name
    assert gym.spec(game.gym_id).kwargs == {"game": key}
    supported = []
    for n in range(1, 9):
        try:
            game.make_rules({"num_players": n})
        except ConfigError:
            continue
        supported.append(n)
    assert tuple(supported) == game.player_counts
    for value in game.hook("variants"):
        game.make_rules({game.variant_option: value})


def test_every_name_finds_its_game_and_an_unknown_one_is_refused():
    for game in GAMES.values():
        for name in game.names:
            assert find_game(name) is game
    with pytest.raises(ValueError, match=r"unknown game 'chess'; known: \["):
        find_game("chess")
    with pytest.raises(ValueError, match="is not the rules class of any game"):
        game_of_rules(object())


def _game_words() -> re.Pattern:
    words = {word for game in GAMES.values() for word in (*game.names, game.gym_name, game.env_module)}
    return re.compile("|".join(rf"(?<![A-Za-z0-9_]){re.escape(w)}(?![A-Za-z0-9_])" for w in sorted(words)))


def _code_strings_and_imports(path: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of every string literal that is not a docstring, and every imported
    module name, in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
        else:
            body = []
        # a string statement is documentation (a docstring, or an attribute's docstring)
        docstrings |= {
            id(stmt.value) for stmt in body if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
        }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found.append((node.lineno, node.value))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module))
    return found


def test_no_module_outside_the_game_packages_and_the_table_names_a_game():
    """Everything game-specific is reached through maya_envs/games.py: adding a game is its
    package plus one entry, and renaming an id is one line."""
    pattern = _game_words()
    packages = {ROOT / "maya_envs" / game.key for game in GAMES.values()}
    # the accelerator engines are one module per game by design (Pgx's layout: maya_envs/jax/<game>.py)
    packages |= {ROOT / "maya_envs" / "jax"}
    exempt = {
        ROOT / "maya_envs" / "games.py",
        ROOT / "maya_envs" / "__init__.py",  # the deprecation table: old names, which the game table drops
        ROOT / "benchmarks" / "bench_jax.py",  # the JAX engine against the same game's numba/numpy engine
    } | {ROOT / f"{game.env_module.replace('.', '/')}.py" for game in GAMES.values()}
    offenders = []
    for folder in ("maya_envs", "training", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path in exempt or any(package in path.parents for package in packages):
                continue
            for line, text in _code_strings_and_imports(path):
                if pattern.search(text):
                    offenders.append(f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}")
    assert not offenders, "game names outside maya_envs/games.py:\n" + "\n".join(offenders)
