"""The game table (maya_envs/games.py): every hook imports, the table agrees with the rules,
and no module outside the game packages and the table names a game."""

from __future__ import annotations

import ast
import re
import sys
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


#: What may stand right before or after a game's name for it to be that name: anything but a
#: letter or a digit. ``_``, ``/``, ``.`` and ``-`` join a name to others (``maya_envs_<key>``,
#: ``rllib/<key>_3p``, ``<key>_2p_exit``) and are boundaries; ``<key>2`` or ``x<key>`` is
#: another word.
NAME_START, NAME_END = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"


def _game_words() -> re.Pattern:
    """Any of the table's names of a game (keys, aliases, module names, Gymnasium ids, the
    Gymnasium name), alone or joined to other words by ``_``, ``/``, ``.`` or ``-``."""
    words = {word for game in GAMES.values() for word in (*game.names, game.gym_name, game.env_module)}
    return re.compile("|".join(rf"{NAME_START}{re.escape(w)}{NAME_END}" for w in sorted(words)))


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
            # ``from maya_envs import maya2012_v1`` names the game by the imported name
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
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
        ROOT / "training" / "jax_alphazero.py",  # AlphaZero on the JAX engine, which plays one game
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


# -- issue 31, item 2: cross-cutting tests read the game table -----------------------------------

#: Cross-cutting test files that still name a game, each to be moved to ``tests/<game>/`` or to
#: read the table (issue 31 item 2). The list may only shrink: a listed file that no longer names
#: a game fails the test below, so it is taken off. None left: every cross-cutting test reads the
#: table.
NOT_YET_TABLE_DRIVEN: set[str] = set()

#: Test files that check the table's names themselves.
CHECKS_THE_NAMES = {"test_games.py", "test_versions.py"}


def _cross_cutting_test_files() -> list[Path]:
    """Test files outside ``tests/<key>/`` whose name names no game (``test_features_quarry.py``
    and ``tests/jax/test_maya2012.py`` are that game's files)."""
    words = {word for game in GAMES.values() for word in (game.key, *game.aliases)}
    out = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        relative = path.relative_to(ROOT / "tests")
        if relative.parts[0] in GAMES or any(word in path.stem for word in words):
            continue
        out.append(path)
    return out


def _names_a_game(path: Path, pattern: re.Pattern) -> list[str]:
    return [f"{line}: {text[:60]!r}" for line, text in _code_strings_and_imports(path) if pattern.search(text)]


def test_cross_cutting_tests_name_no_game():
    """A test outside ``tests/<game>/`` and the files named after a game sweeps the table
    (:data:`tests.conformance.ALL_CASES`) or reads a property of an entry, so a fourth game is
    covered and a renamed one needs no test edit; string literals and imports are checked."""
    pattern = _game_words()
    offenders, cleaned = [], []
    for path in _cross_cutting_test_files():
        relative = path.relative_to(ROOT / "tests").as_posix()
        if relative in CHECKS_THE_NAMES:
            continue
        found = _names_a_game(path, pattern)
        if found and relative not in NOT_YET_TABLE_DRIVEN:
            offenders.append(f"tests/{relative}:{found[0]} (+{len(found) - 1} more)")
        if not found and relative in NOT_YET_TABLE_DRIVEN:
            cleaned.append(relative)
    assert not offenders, "cross-cutting tests that name a game (read it from maya_envs.games):\n" + "\n".join(offenders)
    assert not cleaned, f"these files name no game any more: take them off NOT_YET_TABLE_DRIVEN: {cleaned}"


def test_the_name_check_finds_a_literal_key_and_an_imported_module(tmp_path):
    """The check is known to see the kinds it looks for (a key compared, a module imported)."""
    pattern = _game_words()
    key, name = next(iter(GAMES)), next(iter(GAMES.values())).name
    sample = tmp_path / "sample.py"
    sample.write_text(f"from maya_envs import {name}\n\n\ndef f(key):\n    return key == {key!r}\n")
    assert len(_names_a_game(sample, pattern)) == 2
    sample.write_text("from maya_envs.games import GAMES\n\n\ndef f(key):\n    return GAMES[key].aliases\n")
    assert _names_a_game(sample, pattern) == []


def test_the_name_check_finds_a_name_joined_to_others_by_underscores_slashes_dots_and_dashes():
    """``maya_envs_<key>`` (an OpenSpiel name), ``rllib/<key>_3p`` (a config), ``<key>_2p_exit``
    (a shipped network) and ``runs/<key>-x`` name the game too; a name inside a longer word
    (``<key>2``, ``x<GymName>``) does not."""
    pattern = _game_words()
    for game in GAMES.values():
        for text in (f"maya_envs_{game.key}", f"rllib/{game.key}_3p", f"az:{game.key}_2p_exit:32", f"runs/{game.key}-x",
                     f"{game.gym_name}_wrapped"):
            assert pattern.search(text), text
        for text in (f"{game.key}2", f"x{game.gym_name}", f"{game.gym_name}s"):
            assert not pattern.search(text), text


# -- issue 31, item 3: a game's identity is written once -------------------------------------------

#: Where a current ``<key>_v<N>`` may be written (the decided allow-list): the table, each game's
#: PettingZoo module shim (``maya_envs/<key>_v<N>.py``), documentation (``*.md``, the tutorials
#: ``docs/tutorials/*.py``, which users copy as they are), this test file
#: and ``tests/test_versions.py`` (they check the names), and the saved data that records which
#: version a shipped model was trained on (``maya_envs/pretrained/registry.json``: a bump must
#: re-validate those models, so the bump does not rewrite it).
VERSIONED_NAME_ALLOWED = (
    {"maya_envs/games.py", "maya_envs/pretrained/registry.json"}
    | {f"tests/{name}" for name in CHECKS_THE_NAMES}
    | {str(path.relative_to(ROOT)) for path in (ROOT / "docs").rglob("*.py")}  # the tutorials: documentation
)

#: Test files that still import or name ``<key>_v<N>`` (to read it from the table instead; the
#: list may only shrink): none left, every test reads it from the table.
VERSIONED_NAME_NOT_YET: set[str] = set()

#: Where a current Gymnasium id (``<gym_name>-v<N>``) or PettingZoo id (``<key>-v<N>``) may be
#: written: the table, documentation, the shipped models' registry and the two tests that check
#: the names (as :data:`VERSIONED_NAME_ALLOWED`, without the module shims, which need no id).
#: Configs write the versionless id (``maya_envs/<gym_name>``, resolved by
#: :func:`maya_envs.registration.resolve_env_id`); code and tests read ``GAMES[key].gym_id``.
VERSIONED_ID_ALLOWED = VERSIONED_NAME_ALLOWED

#: Test files that still write a current Gymnasium id (to read ``GAMES[key].gym_id`` or the
#: versionless id instead; the list may only shrink): none left.
VERSIONED_ID_NOT_YET: set[str] = set()


def _tracked_text_files() -> list[str]:
    import subprocess

    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    if listed.returncode:
        pytest.skip("not a git checkout")
    return [name for name in listed.stdout.splitlines() if name.endswith((".py", ".sh", ".json", ".yaml", ".toml", ".cfg"))]


def _check_written_only_where_allowed(
    words: set[str], allowed: set[str], not_yet: set[str], what: str, end: str = NAME_END
) -> None:
    """Fail naming the first place of each tracked text file outside ``allowed`` that writes one
    of ``words`` (not inside a longer word, joined ones included as for :func:`_game_words`;
    ``end``: what may not follow), unless the file is in ``not_yet``; and fail naming each file
    of ``not_yet`` that no longer writes one."""
    pattern = re.compile("|".join(rf"{NAME_START}{re.escape(w)}{end}" for w in sorted(words)))
    offenders, cleaned = [], []
    for name in _tracked_text_files():
        if name in allowed or not (ROOT / name).is_file():
            continue
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        found = [f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}" for m in pattern.finditer(text)]
        if found and name not in not_yet:
            offenders.append(found[0] + f" (+{len(found) - 1} more)")
        if not found and name in not_yet:
            cleaned.append(name)
    assert not offenders, f"{what} outside maya_envs/games.py:\n" + "\n".join(offenders)
    assert not cleaned, f"these files write no {what} any more: take them off the list: {cleaned}"


def test_no_versioned_game_name_outside_the_table_the_shims_and_the_docs():
    """A version bump is the table entry plus the module shim: no other file writes a game's
    current ``<key>_v<N>`` (code, docstrings, comments, scripts, configs and data all read)."""
    shims = {f"{game.env_module.replace('.', '/')}.py" for game in GAMES.values()}
    names = {game.name for game in GAMES.values()}
    _check_written_only_where_allowed(
        names, VERSIONED_NAME_ALLOWED | shims, VERSIONED_NAME_NOT_YET, "a game's versioned module name (VERSIONED_NAME_NOT_YET)"
    )


def test_no_versioned_env_id_outside_the_table_and_the_docs():
    """A version bump edits no config, code or test for the ids either: a current Gymnasium id
    (``<gym_name>-v<N>``, with or without ``maya_envs/``) or PettingZoo id (``<key>-v<N>``) is
    written only where :data:`VERSIONED_ID_ALLOWED` says."""
    ids = {f"{word}-v{game.version}" for game in GAMES.values() for word in (game.gym_name, game.key)}
    # a digit may not follow (``-v1`` is not ``-v10``), ``_`` may: a run directory
    # ``<gym_name>-v<N>__<exp>__...`` written in a test is the id too
    _check_written_only_where_allowed(
        ids, VERSIONED_ID_ALLOWED, VERSIONED_ID_NOT_YET, "a current env id (VERSIONED_ID_NOT_YET)", end="(?![0-9])"
    )


def test_the_versioned_name_check_finds_an_id_and_passes_a_longer_version(tmp_path, monkeypatch):
    """The id check sees an id in a config line and in a run directory's name, and does not
    take ``-v10`` for ``-v1``."""
    game = next(iter(GAMES.values()))
    sample = tmp_path / "sample.yaml"
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "_tracked_text_files", lambda: [sample.name])
    word = f"{game.gym_name}-v{game.version}"
    for line in (f"env_id: maya_envs/{word}", f"run: runs/{word}__main__1__20260101-000000", f"old: x_{word}"):
        sample.write_text(line + "\n")
        with pytest.raises(AssertionError, match=re.escape(f"sample.yaml:1: {word}")):
            _check_written_only_where_allowed({word}, set(), set(), "an id", end="(?![0-9])")
    sample.write_text(f"env_id: maya_envs/{word}0\nenv_id: {game.versionless_gym_id}\n")
    _check_written_only_where_allowed({word}, set(), set(), "an id", end="(?![0-9])")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_rules_and_the_env_take_their_identity_from_the_table(key):
    """``GameSpec`` name/title/version and the env's ``metadata["name"]`` are the entry's, and the
    heuristic bot is found through the entry's hook (not a module path)."""
    from maya_envs.bots.heuristic import heuristic_bot

    game = GAMES[key]
    rules = game.make_rules({})
    spec = rules.spec
    assert {"name": spec.name, "title": spec.title, "version": spec.version} == game.identity
    assert game.hook("env").metadata["name"] == game.name
    assert type(heuristic_bot(rules, 0)) is game.hook("heuristic_bot")
