"""The import map of ``maya_envs`` has no circles (issue 18): dependencies run one way, core <-
rules <- observation/actions <- env <- wrappers, and that holds for every import statement,
the local ones inside functions and the ``TYPE_CHECKING`` ones included, and through the
packages an import runs: importing ``a.b.c`` runs ``a/b/__init__.py`` first, so a module that
imports ``a.b.c`` depends on package ``a.b`` too, unless that package holds the module itself
(then it is already being imported; issue 31)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import maya_envs
from maya_envs.games import GAMES

ROOT = Path(maya_envs.__file__).parent


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Modules of the package that ``name`` imports anywhere in its file: ``from a import b``
    counts as ``a.b`` where that is a module, else as ``a``; each with the packages whose
    ``__init__`` importing it runs (:func:`_packages_run`)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                target = f"{base}.{alias.name}"
                if target in modules:
                    found.add(target)
                elif base in modules:
                    found.add(base)
    found.discard(name)
    return found | {package for target in found for package in _packages_run(name, target, modules)}


def _packages_run(name: str, target: str, modules: dict[str, Path]) -> set[str]:
    """The packages of the import map whose ``__init__`` runs when module ``name`` imports
    ``target``: every package above ``target``, less those above ``name`` (or ``name`` itself):
    they are already imported, or being imported, when ``name`` runs."""
    parts = target.split(".")
    above_name = {".".join(name.split(".")[:k]) for k in range(1, name.count(".") + 2)}
    packages = {".".join(parts[:k]) for k in range(1, len(parts))}
    return {p for p in packages - above_name if p in modules}


def import_circles() -> list[list[str]]:
    """Every group of modules that import each other in a circle (strongly connected
    components with more than one module), each sorted."""
    modules = _modules()
    graph = {name: sorted(_imports(name, path, modules)) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_no_module_of_the_package_imports_in_a_circle():
    assert import_circles() == []


def test_the_checker_sees_local_and_type_checking_imports(tmp_path, monkeypatch):
    """The checker itself: a circle made only of a function-level import and a TYPE_CHECKING
    import is found."""
    package = tmp_path / "maya_envs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from maya_envs import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from maya_envs.a import f\n"
    )
    monkeypatch.setattr(f"{__name__}.ROOT", package)
    assert import_circles() == [["maya_envs.a", "maya_envs.b"]]


def test_the_checker_sees_a_circle_through_a_package_init(tmp_path, monkeypatch):
    """The checker itself: ``a.save`` imports ``a.rules.state``, which runs ``a/rules/__init__.py``,
    which imports ``a.rules.engine``, which imports ``a.save``: a circle no module arrow shows
    (the quarry's serialize -> rules/__init__ -> engine -> serialize, issue 31); a module that
    imports a sibling inside its own package runs no ``__init__`` and makes none."""
    package = tmp_path / "maya_envs"
    rules = package / "game" / "rules"
    rules.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "game" / "__init__.py").write_text("")
    (package / "game" / "save.py").write_text("from maya_envs.game.rules.state import State\n")
    (rules / "__init__.py").write_text("from maya_envs.game.rules.engine import Rules\n")
    (rules / "state.py").write_text("State = object\n")
    (rules / "engine.py").write_text(
        "from maya_envs.game.rules.state import State\nimport maya_envs.game.save as save\nRules = object\n"
    )
    monkeypatch.setattr(f"{__name__}.ROOT", package)
    assert import_circles() == [["maya_envs.game.rules", "maya_envs.game.rules.engine", "maya_envs.game.save"]]
    (package / "game" / "save.py").write_text("State = object\n")
    assert import_circles() == []


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_the_search_hooks_and_the_trainer_import_the_search_toolkit_not_a_search():
    """Issue 31 item 5: the games' search hooks, the guided search and the trainer take the shared
    pieces from maya_envs.bots.search_common, never from the rollout search's module."""
    trainer = (ROOT.parent / "training" / "exit").glob("*.py")
    users = [*(ROOT / "bots" / "guided").glob("*.py"), *ROOT.glob("*/determinize.py"), *trainer]
    assert len(users) > 12
    offenders = [path.name for path in users if "maya_envs.bots.mcts" in _imported_modules(path)]
    assert offenders == []
    assert "maya_envs.bots.search_common" in _imported_modules(ROOT / "bots" / "mcts.py")


def _package_imports(package: str) -> dict[str, set[str]]:
    """``{module: modules of maya_envs it imports}`` for every module of ``maya_envs.<package>``."""
    modules = _modules()
    prefix = f"maya_envs.{package}"
    return {
        name: _imports(name, path, modules)
        for name, path in modules.items()
        if name == prefix or name.startswith(prefix + ".")
    }


@pytest.mark.parametrize(("lower", "upper"), [("bots", "nn"), ("web", "cli")])
def test_no_arrow_runs_back_up_from_bots_to_nn_or_from_web_to_cli(lower, upper):
    """Issue 31 item 1: the bots reach the network bots only through the bot-kind table's lazy rows
    (maya_envs.bot_kinds), and the web app resolves seats with maya_envs.players, not the CLI."""
    imports = _package_imports(lower)
    assert len(imports) > 2
    offenders = {
        name: sorted(m for m in found if m == f"maya_envs.{upper}" or m.startswith(f"maya_envs.{upper}."))
        for name, found in imports.items()
    }
    assert {name: found for name, found in offenders.items() if found} == {}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_game_stands_on_core_not_on_the_bots(key):
    """Issue 48 item 4: a game's search hooks take their value arithmetic from maya_envs.core
    (core.values), so no module of a game's package imports the bots, networks or the layers
    above them."""
    above = ("bots", "nn", "evaluation", "wrappers", "web", "cli", "stats", "jax", "openspiel")
    imports = _package_imports(key)
    assert len(imports) > 5
    offenders = {name: sorted(m for m in found if m.split(".")[1] in above) for name, found in imports.items()}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_bot_kind_table_and_the_resolver_import_no_bot_and_no_network():
    """The table is pure like the game table (its rows import their modules on use), and the
    resolver sits above it, below the wrappers: neither imports bots/, nn/ or wrappers/."""
    modules = _modules()
    for name in ("maya_envs.bot_kinds", "maya_envs.players"):
        found = _imports(name, modules[name], modules)
        assert not [m for m in found if m.split(".")[1] in ("bots", "nn", "wrappers", "web", "cli")], (name, found)
