"""Running the commands from a test: ``maya-play`` in a subprocess (:func:`run`), and a
command's ``main`` refusing its arguments before any work (:func:`refused`, :func:`never`)."""

from __future__ import annotations

import subprocess
import sys

import pytest


def run(module: str, args: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", f"maya_envs.cli.{module}", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120)


def never(*_args, **_kwargs):
    """Put in place of a command's work: fails the test if the command reaches it."""
    raise AssertionError("the command started its work before refusing its arguments")


def refused(main, argv, capsys, *parts: str) -> str:
    """``main(argv)`` exits with status 2 and a message holding every one of ``parts``."""
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and all(part in err for part in parts), err
    return err
