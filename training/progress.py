"""Progress bars for the command-line tools: every loop that may run longer than a second or two
(evaluation games, arena games, learning-curve points) shows one, as SB3's training bar does.

tqdm (``train`` extra) writes to stderr, so the tables on stdout stay clean for pipes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def game_progress(total: int, desc: str, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    """A progress bar over ``total`` games; yields ``update(done)`` for the ``progress=``
    callbacks of :func:`maya_envs.evaluation.play_match` / ``play_arena``.

    Args:
        total: games to play (the bar's end).
        desc: the label, e.g. ``"vs heuristic"``.
        enabled: ``False`` shows nothing (``progress_bar: false`` in a config).
    """
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, unit="game", disable=not enabled, dynamic_ncols=True) as bar:

        def update(done: int) -> None:
            bar.update(done - bar.n)

        yield update
