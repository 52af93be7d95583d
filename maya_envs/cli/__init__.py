"""Terminal commands that need only the package (and Pillow for pictures): ``maya-play``
(:mod:`maya_envs.cli.play`) and ``maya-replay`` (:mod:`maya_envs.cli.replay`).

Commands that need the training extra (``maya-train``, ``maya-eval``) live in ``training/``.
"""

from __future__ import annotations

import re

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")


def plain(text: str) -> str:
    """``text`` (a docstring's reST) as a terminal shows it: ``x`` -> x, :mod:`a.b` -> a.b,
    :class:`~a.B` -> a.B, for ``--help`` descriptions."""
    return _ROLE.sub(r"\1", text).replace("``", "")


def description(doc: str | None) -> str:
    """The first paragraph of a module docstring, in plain text (an argparse description)."""
    return plain((doc or "").split("\n\n")[0])
