"""Checks of the command-line arguments every command shares, run before any game is played:
where the outputs go (``--out``, ``--record``) and how many processes play (``--workers``,
``--actors``).

A command that plays for minutes and then cannot write its result has wasted the minutes: the
output checks find a path that can never be written (a folder where a file is wanted, a file
where a folder is wanted, a file on the way, a folder no file can be created in) at the start,
by creating and removing a file there (``os.access`` answers yes to root even on ``/proc`` or a
read-only mount).
A worker count above the games or the cores starts processes that have nothing to do, so it is
lowered, and the command says so.
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
from pathlib import Path

from maya_envs.core.errors import ConfigError, shorten
from maya_envs.core.rng import MAX_SEED, check_seed


def _shown(path: Path) -> str:
    """``path`` quoted for a message, shortened (:func:`maya_envs.core.errors.shorten`)."""
    return shorten(str(path), 120)


def _kind(path: Path, option: str, shown: Path) -> str | None:
    """``"folder"``, ``"file"`` (anything else that exists) or ``None`` (nothing there)."""
    try:
        return "folder" if path.is_dir() else "file" if path.exists() else None
    except OSError as error:  # a name too long, a loop of links: os.stat itself refuses
        raise ValueError(f"{option} {_shown(shown)}: {error.strerror or error}") from None


def _check_parents(path: Path, option: str) -> None:
    """The nearest existing folder above ``path`` is a folder that may be written into."""
    for parent in path.absolute().parents:
        kind = _kind(parent, option, path)
        if kind is None:
            continue
        if kind == "file":
            raise ValueError(
                f"{option} {_shown(path)}: {_shown(parent)} on its way is a file; allowed: a path under folders"
            )
        _check_writable_folder(parent, option, path)
        return


def _check_writable_folder(folder: Path, option: str, path: Path) -> None:
    """Create and remove a file in ``folder``: the one check that is right for every user and
    file system. ``os.access`` says yes to root everywhere, also on ``/proc`` and on read-only
    mounts, where the write fails only after the work was done."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".maya-write-check-"):
            pass
    except OSError as error:
        where = "" if folder == path else f" into {_shown(folder)}"
        raise ValueError(f"{option} {_shown(path)}: cannot write{where} ({error.strerror or error})") from None


def output_folder(path: str | Path, option: str = "--out") -> Path:
    """Check ``path`` as a folder a command will create (if missing) and write its files into.

    Returns:
        ``path``, unchanged.

    Raises:
        ValueError: ``path`` is an existing file (or other non-folder), a file is on its way,
            the system refuses the name (too long ...), or no file can be created in the
            folder (or the nearest existing one above it); the message names ``option`` and the path
            (shortened) and what is allowed.
    """
    path = Path(path)
    kind = _kind(path, option, path)
    if kind == "file":
        raise ValueError(f"{option} {_shown(path)} is a file; allowed: a folder (new or existing) for the outputs")
    if kind == "folder":
        _check_writable_folder(path, option, path)
    if kind is None:
        _check_parents(path, option)
    return path


def output_file(path: str | Path, option: str = "--out") -> Path:
    """Check ``path`` as a file a command will write (its folders created if missing; an
    existing file is replaced).

    Returns:
        ``path``, unchanged.

    Raises:
        ValueError: ``path`` is an existing folder, a file is on its way, the system refuses
            the name, or it (or the nearest existing folder above it) may not be written; the
            message names ``option``, the path (shortened) and what is allowed.
    """
    path = Path(path)
    kind = _kind(path, option, path)
    if kind == "folder":
        raise ValueError(f"{option} {_shown(path)} is a folder; allowed: a file name (new, or a file to replace)")
    if kind == "file":
        try:  # opened to append, not truncated, nor waiting on a pipe: the file is left as it is
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK))
        except OSError as error:
            raise ValueError(f"{option} {_shown(path)}: cannot replace this file ({error.strerror or error})") from None
    _check_parents(path, option)
    return path


def seed_arg(text: str) -> int:
    """An argparse ``type`` for ``--seed``: decimal digits naming an int in ``0..MAX_SEED``
    (:func:`maya_envs.core.rng.check_seed`, the bound records, pages and resets share).

    Raises:
        argparse.ArgumentTypeError: anything else, naming the text (shortened) and what is
            allowed; only the digits of a seed in range are converted (no unbounded ``int()``).
    """
    digits = len(str(MAX_SEED)) + 1  # one more, so that a seed just above the bound is converted and named
    value = int(text) if re.fullmatch(rf"\s*[+-]?[0-9]{{1,{digits}}}\s*", text) else text
    try:
        return check_seed(value, "seed")
    except ConfigError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def usable_cores() -> int:
    """The CPU cores this process may run on (its affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def capped_workers(requested: int, games: int, option: str = "--workers", cores: int | None = None) -> tuple[int, str]:
    """``requested`` worker processes lowered to ``min(games, cores)`` (``cores``: default
    :func:`usable_cores`), at least 1: more would wait with nothing to play, or share a core.

    Returns:
        ``(workers, note)``: the count to start and the line that says it was lowered
        (``""`` when it was not), for the command to print.
    """
    cores = usable_cores() if cores is None else cores
    limit = max(1, min(games, cores))
    if requested <= limit:
        return requested, ""
    why = f"{games} game{'s' * (games != 1)}" if games <= cores else f"{cores} usable core{'s' * (cores != 1)}"
    return limit, f"{option} {requested} lowered to {limit} (there are {why})"
