"""The documentation's tutorials (docs/tutorials/*.py) run, each in a subprocess at the tiny
scale they take from ``MAYA_TUTORIAL_TINY=1``, in a temporary working directory; a tutorial
whose extra is not installed skips and names it. Every tutorial has its page in the site."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "docs" / "tutorials").glob("*.py"))


#: The package's optional parts and the modules their extras install.
OPTIONAL_PARTS = {"maya_envs.jax": ("jax", "pgx"), "maya_envs.openspiel": ("pyspiel",)}

#: What a tutorial's tiny run must print. The JAX self-play example's evaluation plays one whole
#: game in each of its 4 rows, the policy on both seats (it once counted only the games that
#: ended within 16 steps: none).
EXPECTED_OUTPUT = {
    "jax_selfplay_ppo": r"in 4 games \(seat 0 [0-2]/2, seat 1 [0-2]/2\); win rate [\d.]+%, 95% Wilson \[",
}


def _needs(script: Path) -> set[str]:
    """The top-level modules a tutorial needs: those it imports, and those of the package's
    optional parts it imports (it skips where one is not installed)."""
    names = set()
    for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    needs = {name.split(".")[0] for name in names}
    for part, modules in OPTIONAL_PARTS.items():
        if any(name == part or name.startswith(part + ".") for name in names):
            needs.update(modules)
    return needs


def test_there_are_tutorials_and_each_has_a_page_that_includes_it():
    assert len(TUTORIALS) >= 4
    for script in TUTORIALS:
        page = script.with_suffix(".md").read_text(encoding="utf-8")
        assert f'--8<-- "docs/tutorials/{script.name}"' in page, script.name


@pytest.mark.parametrize("script", TUTORIALS, ids=[s.stem for s in TUTORIALS])
def test_tutorial_runs_at_tiny_scale(script, tmp_path):
    missing = sorted(m for m in _needs(script) if importlib.util.find_spec(m) is None)
    if missing:
        pytest.skip(f"{script.name} needs {', '.join(missing)}")
    env = {**os.environ, "MAYA_TUTORIAL_TINY": "1", "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip(), "the tutorial printed nothing"
    assert re.search(EXPECTED_OUTPUT.get(script.stem, ""), done.stdout), done.stdout[-3000:]
    assert not any(tmp_path.iterdir()), "a tutorial wrote files"
