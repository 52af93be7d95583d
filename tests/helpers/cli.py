"""Running ``maya-play`` in-process from a test."""

from __future__ import annotations

import subprocess
import sys


def run(module: str, args: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", f"maya_envs.cli.{module}", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120)
