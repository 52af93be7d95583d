"""The test suite's own layout (issue 48 item 6): shared helpers live in helper modules
(``tests/helpers/``, a game's ``tests/<key>/helpers.py`` and the like), so no module of the
suite imports a test module, by an import statement or by ``importlib.import_module`` on a
literal name: the import runs the other module's setup (its skips, its parametrize lists), and
a helper's home would depend on which test happened to need it first."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _called_name(call: ast.Call) -> str | None:
    """The called function's own name (``f`` of ``f(...)`` or ``m.f(...)``)."""
    return getattr(call.func, "attr", getattr(call.func, "id", None))


def imported_modules(path: Path, root: Path) -> list[str]:
    """Every module name the file ``path`` of the suite under ``root`` (the ``tests`` folder)
    imports: ``import x``, ``from x import y`` (as ``x`` and ``x.y``; relative ones resolved)
    and ``importlib.import_module(name)`` with a literal or f-string ``name`` (a ``{...}`` part
    read as ``*``)."""
    package = ("tests", *path.relative_to(root).parent.parts)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found += [module] + [f"{module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and _called_name(node) == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant | ast.JoinedStr):
                arg = node.args[0]
                parts = [arg] if isinstance(arg, ast.Constant) else arg.values
                found.append("".join(str(p.value) if isinstance(p, ast.Constant) else "*" for p in parts))
    return found


def importers_of_test_modules(root: Path) -> dict[str, list[str]]:
    """``{file: the test modules it imports}`` for every file of the suite under ``root`` that
    imports one (a module of ``tests`` whose name starts with ``test_``)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        names = [m for m in imported_modules(path, root) if m.split(".")[0] == "tests"]
        bad = sorted({m for m in names if m.split(".")[-1].startswith("test_")})
        if bad:
            out[str(path.relative_to(root))] = bad
    return out


def test_no_module_of_the_suite_imports_a_test_module():
    assert importers_of_test_modules(TESTS) == {}


def test_the_check_sees_every_kind_of_import(tmp_path):
    (tmp_path / "game").mkdir()
    files = {
        "test_a.py": "from tests.test_b import helper\n",
        "test_b.py": "import tests.test_a\n",
        "game/test_c.py": "from ..test_a import x\nfrom . import test_d\n",
        "game/test_d.py": "import importlib\nm = importlib.import_module(f'tests.{key}.test_e')\n",
        "helpers.py": "from tests.helpers import web\nfrom .game import hidden\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert importers_of_test_modules(tmp_path) == {
        "game/test_c.py": ["tests.game.test_d", "tests.test_a"],
        "game/test_d.py": ["tests.*.test_e"],
        "test_a.py": ["tests.test_b"],
        "test_b.py": ["tests.test_a"],
    }
