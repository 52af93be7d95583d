"""Frictions of running CI and the tools from a checkout (issue 45 item 5): a failing test is
named in the log as it fails, and the files the natural commands write (``bash .ci/run >
ci.log``, ``maya-stats``' default folder) do not dirty the checkout for CI's clean check."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_a_failing_test_is_named_in_the_log_before_the_closing_summary(tmp_path, workers):
    (tmp_path / "test_sample.py").write_text(
        "import pytest\n\n"
        "def test_passes():\n    pass\n\n"
        "def test_fails():\n    assert 1 == 2\n\n"
        "@pytest.fixture\ndef broken():\n    raise RuntimeError('setup')\n\n"
        "def test_errors(broken):\n    pass\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.report_failures", *workers,
         "--rootdir", str(tmp_path), str(tmp_path / "test_sample.py")],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip (--rootdir: node ids relative to tmp_path whatever config file an ancestor of it holds)
    assert done.returncode == 1, done.stdout + done.stderr
    before_summary = done.stdout.split("short test summary info")[0]
    assert before_summary.count("FAILED test_sample.py::test_fails\n") == 1, done.stdout
    assert before_summary.count("ERROR test_sample.py::test_errors (at setup)\n") == 1, done.stdout
    assert "test_passes" not in before_summary


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
@pytest.mark.parametrize("path", ["ci.log", "logs/run.log", "maya-stats/report.md"])
def test_logs_and_maya_stats_default_folder_are_ignored(path):
    """``.ci/run``'s clean check compares ``git status`` before and after; a log written into the
    checkout (or maya-stats' output) must not count as a change, nor switch the check off."""
    done = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT, timeout=60)
    assert done.returncode == 0, f"{path} is not ignored by .gitignore"


def test_config_names_read_the_configs_of_the_code_that_runs():
    """A checkout's ``training`` reads that checkout's ``configs/``, even where an editable install
    of another checkout maps :mod:`training.configs` elsewhere (a git worktree on PYTHONPATH)."""
    import training
    from training.config_names import CONFIGS_DIR

    package = Path(training.__file__).resolve().parent
    assert CONFIGS_DIR in (package / "configs", package.parent / "configs")
