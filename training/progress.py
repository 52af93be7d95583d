"""Progress of the training commands: every loop that may run longer than a second or two
(evaluation games, arena games, learning-curve points, training steps) reports it, as a tqdm
bar on a terminal and as one plain line per 10 % or per minute in a log
(:mod:`maya_envs.cli.progress`).

Everything goes to stderr, so the tables on stdout stay clean for pipes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from maya_envs.cli.progress import LineProgress, is_terminal, progress

__all__ = ["LineProgress", "game_progress", "is_terminal", "progress"]


@contextmanager
def game_progress(total: int, desc: str, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    """Progress over ``total`` games; yields ``update(done)`` for the ``progress=``
    callbacks of :func:`maya_envs.evaluation.play_match` / ``play_arena``.

    Args:
        total: games to play (the bar's end).
        desc: the label, e.g. ``"vs heuristic"``.
        enabled: ``False`` shows nothing (``progress_bar: false`` in a config).
    """
    with progress(total, desc, "game", enabled) as update:
        yield update
