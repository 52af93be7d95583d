"""Terminal commands that need only the package (and Pillow for pictures): ``maya-play``
(:mod:`maya_envs.cli.play`) and ``maya-replay`` (:mod:`maya_envs.cli.replay`).

Commands that need the training extra (``maya-train``, ``maya-eval``) live in ``training/``.
"""

from __future__ import annotations

import os
import re

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")


def plain(text: str) -> str:
    """``text`` (a docstring's reST) as a terminal shows it: ``x`` -> x, :mod:`a.b` -> a.b,
    :class:`~a.B` -> a.B, for ``--help`` descriptions."""
    return _ROLE.sub(r"\1", text).replace("``", "")


def description(doc: str | None) -> str:
    """The first paragraph of a module docstring, in plain text (an argparse description)."""
    return plain((doc or "").split("\n\n")[0])


def one_torch_thread() -> None:
    """Let torch use one intra-op thread, unless ``OMP_NUM_THREADS`` says otherwise: called first
    by the commands that play games move by move (``maya-play``, ``maya-arena``, ``maya-eval``,
    ``maya-web``), before a seat imports torch (which reads the variable when imported). Their
    networks are small and see one position at a time, where more threads mostly wait on each
    other: a quarry 4p game of ``maya-play`` against ``pretrained`` took 96 s with torch's
    default 2 threads and 20 s with one, at load 10 on 2 cores. Training sets its own
    (``torch_threads``)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
