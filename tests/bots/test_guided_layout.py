"""The guided search keeps the shape issue 48 gave it: a package of small modules, one concept
each (config, spec, evaluators, tree, selection, root, reuse, search, bot), whose functions fit
a screen, and whose public names are importable from the package as before."""

from __future__ import annotations

import ast
from pathlib import Path

import maya_envs.bots.guided as guided

PACKAGE = Path(guided.__file__).parent
MAX_MODULE_LINES = 300
MAX_FUNCTION_LINES = 60


def test_the_search_is_a_package_of_small_modules():
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in PACKAGE.glob("*.py")}
    assert len(sizes) >= 8
    assert {name: n for name, n in sizes.items() if n > MAX_MODULE_LINES} == {}


def test_every_function_of_the_search_fits_a_screen():
    long = {}
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{path.name}:{node.name}"] = lines
    assert long == {}


def test_the_public_names_import_from_the_package():
    for name in guided.__all__:
        assert getattr(guided, name) is not None, name
    assert guided.search_many.__module__ == "maya_envs.bots.guided.search"
