"""The documentation's tutorials (docs/tutorials/*.py) run, each in a subprocess at the tiny
scale they take from ``MAYA_TUTORIAL_TINY=1``, in a temporary working directory; a tutorial
whose extra is not installed skips and names it. Every tutorial has its page in the site."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "docs" / "tutorials").glob("*.py"))
NEEDS = {
    "jax_vmap": ("jax", "pgx"),
    "jax_selfplay_ppo": ("jax", "pgx", "torch"),
    "sb3_maskable_ppo": ("sb3_contrib", "torch"),
}


def test_there_are_tutorials_and_each_has_a_page_that_includes_it():
    assert len(TUTORIALS) >= 4
    for script in TUTORIALS:
        page = script.with_suffix(".md").read_text(encoding="utf-8")
        assert f'--8<-- "docs/tutorials/{script.name}"' in page, script.name


@pytest.mark.parametrize("script", TUTORIALS, ids=[s.stem for s in TUTORIALS])
def test_tutorial_runs_at_tiny_scale(script, tmp_path):
    missing = [m for m in NEEDS.get(script.stem, ("torch",)) if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"{script.name} needs {', '.join(missing)}")
    env = {**os.environ, "MAYA_TUTORIAL_TINY": "1", "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip(), "the tutorial printed nothing"
    assert not any(tmp_path.iterdir()), "a tutorial wrote files"
