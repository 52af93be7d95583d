"""The open live games and replays of ``maya-web``: at most a number of them, idle ones forgotten
(no Flask here)."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable

from maya_envs.core.errors import shorten


class NotFoundError(LookupError):
    """No live game or replay with that id (never made, closed, or expired)."""


class FullError(RuntimeError):
    """The store holds its maximum number of live games and replays."""


class Item:
    """What the store keeps: an id, a lock, the last time it was used and a ``closed`` flag."""

    def __init__(self) -> None:
        self.id = secrets.token_urlsafe(12)
        self.lock = threading.Lock()
        self.closed = threading.Event()
        self.touch()

    def touch(self) -> None:
        self.last_used = time.monotonic()

    def close(self) -> None:
        """Forget it: a move being computed for it stops (:func:`~maya_envs.web.seats.cancellable`)."""
        self.closed.set()


class Store:
    """At most ``max_items`` live games and replays; one unused for ``idle_seconds`` is closed
    and forgotten (:meth:`Item.close`: a move it is computing stops)."""

    def __init__(self, max_items: int = 16, idle_seconds: float = 1800.0) -> None:
        if max_items < 1 or idle_seconds <= 0:
            raise ValueError(f"max_items {max_items} and idle_seconds {idle_seconds} must be positive")
        self.max_items, self.idle_seconds = max_items, idle_seconds
        self._items: dict[str, Item] = {}
        self._building = 0
        self._lock = threading.Lock()

    def _expire(self) -> None:
        now = time.monotonic()
        for key in [k for k, item in self._items.items() if now - item.last_used > self.idle_seconds]:
            self._items.pop(key).close()

    def open(self, make: Callable[[], Item]) -> Item:
        """Keep the item ``make()`` builds, taking its slot first: a full store refuses before
        anything is built (a game's network seats cost about a CPU second each), and items
        being built count against ``max_items``.

        Raises:
            FullError: ``max_items`` are live or being built; whatever ``make`` raises (the slot
                is given back).
        """
        with self._lock:
            self._expire()
            if len(self._items) + self._building >= self.max_items:
                raise FullError(
                    f"{self.max_items} games and replays are open, the most this server keeps; "
                    f"one left unused for {self.idle_seconds / 60:g} minutes is closed"
                )
            self._building += 1
        try:
            item = make()
        finally:
            with self._lock:
                self._building -= 1
        with self._lock:
            self._items[item.id] = item
        return item

    def add(self, item: Item) -> Item:
        """Keep ``item`` (built already). Raises FullError when ``max_items`` are live."""
        return self.open(lambda: item)

    def get(self, key: str, kind: str) -> Item:
        """The live game or replay ``key``. Raises NotFoundError (unknown, expired, other kind)."""
        with self._lock:
            self._expire()
            item = self._items.get(key)
            if item is None or item.kind != kind:
                raise NotFoundError(
                    f"no {kind} {shorten(key)} here (it may have expired after {self.idle_seconds / 60:g} min)"
                )
            item.touch()
            return item

    def close(self, key: str, kind: str) -> None:
        """Close and forget the live game or replay ``key``. Raises NotFoundError."""
        item = self.get(key, kind)
        with self._lock:
            self._items.pop(item.id, None)
        item.close()

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._items)
