"""Named observation layouts and the observer protocol (OpenSpiel's observer tensors).

A game's :class:`Observer` turns a rules state into one flat ``float32`` vector for one seat.
Its :class:`Layout` names the parts of that vector, in order, each with a shape, so code that
reads a part (a policy's per-action feature head, a test of one slice) asks for it by name
instead of recomputing offsets from a vector length or an env id::

    layout = observer.layout
    features = layout.view(obs, "action_features")      # shape (..., 3, num_actions)
    layout["action_features"]                            # the slice in the flat vector
    layout.starts["turn"]                                # the index of its first value

Encoders write by part name too (``obs[layout.starts["monolith"] + pair] = 1``), so an offset
is never computed beside the layout. A part made of per-item rows (a quarry's values, a
seat's) can have a layout of its own for one row, the outer part's shape being ``(items,
row.size)``.

Pure: standard library and numpy only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from math import prod
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np

#: The part name a policy's per-action feature head reads: shape ``(features, num_actions)``,
#: row ``f`` column ``a`` = feature ``f`` of action id ``a`` (0 for an id not legal now).
ACTION_FEATURES = "action_features"


@dataclass(frozen=True)
class Part:
    """One named part of a flat observation.

    Attributes:
        name: the part's name (unique in its layout).
        start: index of its first value in the flat vector.
        shape: its shape when viewed on its own (``size`` = the product).
    """

    name: str
    start: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return prod(self.shape)

    @property
    def stop(self) -> int:
        return self.start + self.size

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)


class Layout:
    """The parts of a flat observation vector, in order and without gaps.

    Args:
        parts: ``(name, size or shape)`` pairs in vector order; a size of 0 is allowed (the
            part is then empty).

    Raises:
        ValueError: a repeated name, or a negative size.
    """

    def __init__(self, parts: Iterable[tuple[str, int | tuple[int, ...]]]) -> None:
        built: list[Part] = []
        start = 0
        for name, shape in parts:
            shape = (shape,) if isinstance(shape, int) else tuple(int(x) for x in shape)
            if any(x < 0 for x in shape):
                raise ValueError(f"layout part {name!r}: negative size in shape {shape}")
            if any(p.name == name for p in built):
                raise ValueError(f"layout part {name!r} appears twice")
            built.append(Part(name, start, shape))
            start += prod(shape)
        self.parts: tuple[Part, ...] = tuple(built)
        self._by_name = {p.name: p for p in built}
        self.size = start
        #: ``{name: index of the part's first value}``, read-only (what encoders add to).
        self.starts: Mapping[str, int] = MappingProxyType({p.name: p.start for p in built})

    @property
    def shape(self) -> tuple[int]:
        """``(size,)``: the flat observation's shape."""
        return (self.size,)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.parts)

    def part(self, name: str) -> Part:
        """The part called ``name``.

        Raises:
            KeyError: no such part; the message lists the names there are.
        """
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no observation part {name!r}; parts: {list(self.names)}") from None

    def __getitem__(self, name: str) -> slice:
        """The slice of part ``name`` in the flat vector."""
        return self.part(name).slice

    def span(self, first: str, last: str) -> slice:
        """The slice from part ``first``'s start to part ``last``'s end (the parts in between
        included), for one write of several consecutive parts.

        Raises:
            KeyError: no such part.
            ValueError: ``last`` comes before ``first``.
        """
        start, stop = self.part(first).start, self.part(last).stop
        if stop < start:
            raise ValueError(f"part {last!r} comes before part {first!r}; parts: {list(self.names)}")
        return slice(start, stop)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __iter__(self) -> Iterator[Part]:
        return iter(self.parts)

    def __len__(self) -> int:
        return len(self.parts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self.parts == other.parts

    def __hash__(self) -> int:
        return hash(self.parts)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied as its ``(name, shape)`` pairs (``starts`` is a read-only view)."""
        return Layout, ([(p.name, p.shape) for p in self.parts],)

    def __repr__(self) -> str:
        inner = ", ".join(f"{p.name}{list(p.shape)}" for p in self.parts)
        return f"Layout({self.size}: {inner})"

    def check_pieces(self, sizes: Iterable[int]) -> None:
        """Check that consecutive pieces of ``sizes`` (an encoder that concatenates its
        output, e.g. the JAX engine) fill the vector exactly, each part made of whole pieces.

        Raises:
            ValueError: the sizes do not add up to :attr:`size`, or a piece crosses a part's
                end; the message names the part.
        """
        at = 0
        for size in sizes:
            for part in self.parts:
                if at < part.stop < at + size:
                    raise ValueError(f"a piece [{at}, {at + size}) crosses the end of part {part.name!r} at {part.stop}")
            at += size
        if at != self.size:
            raise ValueError(f"the pieces fill {at} values; the layout has {self.size}")

    def view(self, obs: np.ndarray, name: str) -> np.ndarray:
        """Part ``name`` of ``obs`` (shape ``(..., size)``) as ``(..., *part.shape)`` (a view)."""
        part = self.part(name)
        return obs[..., part.slice].reshape(*obs.shape[:-1], *part.shape)

    def as_dict(self) -> dict[str, slice]:
        """``{name: slice}`` in vector order."""
        return {p.name: p.slice for p in self.parts}


class Observer(Protocol):
    """A game's observation encoder at one rules config (``<game>.observation``).

    Attributes:
        rules: the rules it encodes states of.
        layout: the named parts of every vector it returns.
        rows: optional, ``{part name: Layout}``: the layout of one row (the last axis) of a
            part made of rows, where the observer names the values inside a row.
    """

    rules: Any
    layout: Layout

    def encode(self, state: Any, seat: int) -> np.ndarray:
        """``float32`` array of ``layout.shape`` in ``[0, 1]`` from ``seat``'s point of view,
        holding only what that seat may know.

        Raises:
            ValueError: ``seat`` is not a seat of this game.
        """


def action_feature_block(layout: Layout) -> tuple[int, int, int] | None:
    """``(start, features, actions)`` of the :data:`ACTION_FEATURES` part of ``layout`` (the
    block ``[start, start + features * actions)``, row ``f`` column ``a`` = feature ``f`` of
    action id ``a``), or ``None`` when the layout has no such part."""
    if ACTION_FEATURES not in layout:
        return None
    part = layout.part(ACTION_FEATURES)
    features, actions = part.shape
    return part.start, features, actions
