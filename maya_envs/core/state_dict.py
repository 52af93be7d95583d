"""The save/load contract every game follows, and the field validators it uses.

A game saves a state with ``rules.state_to_dict(state)`` (its ``<game>/serialize.py``
``to_dict``) as a JSON-able dict that starts with one header, ``{"schema": "<game>.state",
"version": N}``, and loads it with ``rules.state_from_dict(data)``, which validates every field
and raises :class:`~maya_envs.core.errors.StateError` naming the first bad one. Older versions
a game once wrote keep loading (each game's ``from_dict`` lists them).

The validators below return the checked value (ints as ``int``, lists as tuples where noted)
and raise :class:`StateError` with the field's path; ``bool`` never counts as an int.

Pure: the standard library and the type predicates of :mod:`maya_envs.core.checks`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from maya_envs.core.checks import is_int
from maya_envs.core.errors import StateError, shorten


def header(game: str, version: int) -> dict[str, Any]:
    """``{"schema": "<game>.state", "version": version}``: the first keys of a saved state."""
    return {"schema": f"{game}.state", "version": version}


def read_header(data: Any, game: str, versions: Iterable[int]) -> int:
    """The version of a saved state of ``game``, one of ``versions``.

    Raises:
        StateError: ``data`` is not a dict, or its schema or version is not one of these.
    """
    if not isinstance(data, Mapping):
        raise StateError("", f"must be a dict, got {type(data).__name__}")
    versions = tuple(versions)
    if data.get("schema") != f"{game}.state":
        raise StateError("schema", f"must be {game + '.state'!r}, got {shorten(data.get('schema'))}")
    if data.get("version") not in versions:
        raise StateError("version", f"must be one of {list(versions)}, got {shorten(data.get('version'))}")
    return data["version"]


def check_keys(data: Mapping[str, Any], keys: Iterable[str]) -> None:
    """Raise unless ``data`` has exactly ``keys``.

    Raises:
        StateError: a missing or an unknown key (the message lists both).
    """
    keys = list(keys)
    missing = [k for k in keys if k not in data]
    unknown = sorted(set(data) - set(keys))
    if missing or unknown:
        raise StateError("", f"missing keys {missing}, unknown keys {unknown}")


def int_field(field: str, value: Any, low: int, high: int) -> int:
    """``value``, an int in ``low..high``.

    Raises:
        StateError: anything else.
    """
    if not is_int(value, numpy=False) or not low <= value <= high:
        raise StateError(field, f"must be an int in {low}..{high}, got {shorten(value)}")
    return value


def int_list(field: str, value: Any, length: int | None, low: int, high: int) -> list[int]:
    """``value``, a list of ``length`` ints (any length for ``None``) in ``low..high``.

    Raises:
        StateError: not a list, the wrong length (names the list), or a bad item (names it).
    """
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = f"{length} " if length is not None else ""
        raise StateError(field, f"must be a list of {size}ints in {low}..{high}, got {shorten(value)}")
    for index, item in enumerate(value):
        int_field(f"{field}[{index}]", item, low, high)
    return list(value)


def int_grid(field: str, value: Any, rows: int, cols: int, low: int, high: int) -> tuple[tuple[int, ...], ...]:
    """``value``, ``rows`` lists of ``cols`` ints in ``low..high``, as a tuple of tuples.

    Raises:
        StateError: the wrong shape (names the grid or the row) or a bad item (names it).
    """
    if not isinstance(value, list) or len(value) != rows:
        raise StateError(field, f"must be a list of {rows} lists of {cols} ints in {low}..{high}, got {shorten(value)}")
    return tuple(tuple(int_list(f"{field}[{r}]", row, cols, low, high)) for r, row in enumerate(value))


def bool_list(field: str, value: Any, length: int) -> list[bool]:
    """``value``, a list of ``length`` bools.

    Raises:
        StateError: anything else.
    """
    if not isinstance(value, list) or len(value) != length or not all(isinstance(v, bool) for v in value):
        raise StateError(field, f"must be a list of {length} bools, got {shorten(value)}")
    return list(value)


def choice(field: str, value: Any, allowed: Iterable[Any]) -> Any:
    """``value``, one of ``allowed`` (a bool never matches an int).

    Raises:
        StateError: anything else (the message lists ``allowed``).
    """
    allowed = list(allowed)
    if isinstance(value, bool) != any(isinstance(a, bool) for a in allowed) or value not in allowed:
        raise StateError(field, f"must be one of {allowed}, got {shorten(value)}")
    return value
