"""Progress of the command-line tools, shaped for where it goes: a tqdm bar on a terminal, plain
lines in a log.

A bar redraws itself with carriage returns, which a terminal overwrites but a log file (``cmd >
log 2>&1``, CI) keeps: one line of thousands of updates. So when the stream is not a TTY (or
tqdm is not installed), :class:`LineProgress` writes one ordinary line each time another
``every_percent`` of the work is done or ``every_seconds`` have passed since the last line,
whichever comes first, and a last line at the end. Everything goes to stderr, so tables on
stdout stay clean for pipes.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import IO, TypeVar

T = TypeVar("T")

EVERY_PERCENT = 10
"""A log line each time this much more of the work is done (percent)."""
EVERY_SECONDS = 60.0
"""... or when this many seconds passed since the last line (slow loops)."""


def is_terminal(stream: IO[str] | None = None) -> bool:
    """True when ``stream`` (default: stderr) is an interactive terminal, where bars belong."""
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}" if minutes else f"{secs} s"


class LineProgress:
    """Progress as whole lines: ``desc: 10% 40/400 games, 0:12 elapsed, 3.3 games/s`` (tqdm's
    ``desc: 10%`` start, so a log reads the same either way).

    Args:
        total: the amount of work (> 0; 0 prints only the last line).
        desc: the label at the start of each line.
        unit: what is counted, singular (``"game"``, ``"step"``).
        stream: where lines go (default: stderr at the time of writing).
        every_percent: a line each time this many more percent are done.
        every_seconds: a line when this many seconds passed since the last one.
        clock: seconds, monotonic (tests pass a fake one).
        extra: more to say at the end of each line (e.g. a mean reward), or ``""``.

    :meth:`update_to` may pass a ``note`` too (a running win rate), said after ``extra``.
    """

    def __init__(
        self,
        total: int,
        desc: str,
        unit: str = "item",
        stream: IO[str] | None = None,
        every_percent: float = EVERY_PERCENT,
        every_seconds: float = EVERY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        extra: Callable[[], str] | None = None,
    ) -> None:
        self.total, self.desc, self.unit, self.stream, self.extra = total, desc, unit, stream, extra
        self.every_percent, self.every_seconds, self.clock = every_percent, every_seconds, clock
        self.started = self.last_time = clock()
        self.done = 0
        self.note = ""
        self.last_percent = 0.0
        self.closed = False

    def line(self) -> str:
        """The current line (without newline)."""
        elapsed = self.clock() - self.started
        units = self.unit if self.total == 1 else f"{self.unit}s"
        share = f"{100 * self.done / self.total:.0f}% " if self.total else ""
        rate = f", {self.done / elapsed:.1f} {self.unit}s/s" if elapsed > 0 and self.done else ""
        more = ", ".join(x for x in (self.extra() if self.extra is not None else "", self.note) if x)
        more = f", {more}" if more else ""
        return f"{self.desc}: {share}{self.done:,}/{self.total:,} {units}, {_duration(elapsed)} elapsed{rate}{more}"

    def _write(self) -> None:
        stream = sys.stderr if self.stream is None else self.stream
        print(self.line(), file=stream, flush=True)
        self.last_time = self.clock()
        self.last_percent = 100 * self.done / self.total if self.total else 100.0

    def update_to(self, done: int, note: str = "") -> None:
        """``done`` units are finished in all (``note``: what to say of them now, e.g. a
        running win rate); writes a line when a step is due."""
        self.done, self.note = done, note
        if self.done >= self.total:
            return  # the last line is written by close()
        percent = 100 * self.done / self.total
        if percent - self.last_percent >= self.every_percent or self.clock() - self.last_time >= self.every_seconds:
            self._write()

    def close(self) -> None:
        """The last line (once)."""
        if not self.closed:
            self.closed = True
            self._write()


@contextmanager
def progress(
    total: int, desc: str, unit: str = "item", enabled: bool = True, stream: IO[str] | None = None
) -> Iterator[Callable[..., None]]:
    """Progress over ``total`` units; yields ``update(done, note="")`` (``done``: finished so
    far, in all; ``note``: said after the count, e.g. a running win rate).

    A tqdm bar when ``stream`` (default stderr) is a terminal and tqdm is installed, else
    :class:`LineProgress` lines; nothing when ``enabled`` is ``False``.
    """
    if not enabled:
        yield lambda done, note="": None
        return
    if is_terminal(stream):
        try:
            from tqdm import tqdm
        except ImportError:
            pass
        else:
            with tqdm(total=total, desc=desc, unit=unit, file=stream or sys.stderr, dynamic_ncols=True) as bar:

                def update(done: int, note: str = "") -> None:
                    if note:
                        bar.set_postfix_str(note, refresh=False)
                    bar.update(done - bar.n)

                yield update
            return
    lines = LineProgress(total, desc, unit, stream)
    try:
        yield lines.update_to
    finally:
        lines.close()


def iterate(items: Iterable[T], total: int, desc: str, unit: str = "item", enabled: bool = True) -> Iterator[T]:
    """``items`` with :func:`progress` over them (``total`` of them)."""
    with progress(total, desc, unit, enabled) as update:
        for done, item in enumerate(items, 1):
            yield item
            update(done)
