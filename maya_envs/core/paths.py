"""New output files and folders named by the time, unique even when two start in the same second.

``maya-train``'s run directories, ``maya-play``'s default record file and ``maya-eval``'s result
files are named ``<stem>`` with the local time to the second; a second one of the same stem in
the same second gets ``<stem>-2``, the next ``-3``, ... The name is claimed by creating it
exclusively (``mkdir`` / open mode ``"x"``), so two processes never share one: the file system
decides which one wins a name.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from maya_envs.core.errors import shorten

#: How many same-second names :func:`claim_new` tries before it gives up.
MAX_SAME_SECOND = 1000


def timestamp() -> str:
    """The local time to the second, ``YYYYmmdd-HHMMSS``."""
    return time.strftime("%Y%m%d-%H%M%S")


def new_file(path: Path) -> None:
    """Create the empty file ``path``; ``FileExistsError`` if it exists (a :func:`claim_new` maker)."""
    path.open("x").close()


def claim_new(parent: str | Path, stem: str, make: Callable[[Path], None] = new_file, suffix: str = "") -> Path:
    """Create and return ``<parent>/<stem><suffix>``, or ``<stem>-2<suffix>``, ``-3``, ... where
    the name exists. ``make(path)`` creates it and raises ``FileExistsError`` on a clash
    (:func:`new_file`, or ``Path.mkdir`` for a folder). ``parent`` is created if missing.

    Raises:
        FileExistsError: :data:`MAX_SAME_SECOND` names of that stem exist already.
    """
    parent = Path(parent)
    parent.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, MAX_SAME_SECOND + 1):
        path = parent / (f"{stem}{suffix}" if attempt == 1 else f"{stem}-{attempt}{suffix}")
        try:
            make(path)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"{MAX_SAME_SECOND} files or folders {parent / stem}[-k]{suffix} exist already")


def names_a_file(path: str | Path) -> bool:
    """Whether ``path`` is an existing regular file; ``False`` for a name the system cannot look
    up (longer than the system allows, or with a NUL byte), where ``Path.is_file`` raises."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


SHOWN_PATH_CHARS = 300
"""The longest a path is shown in a message: a real path fits whole, a megabyte "name" does not."""


def shown_path(path: str | Path) -> str:
    """``repr(str(path))`` for a message, cut (with its length) past :data:`SHOWN_PATH_CHARS`."""
    return shorten(str(path), SHOWN_PATH_CHARS)
