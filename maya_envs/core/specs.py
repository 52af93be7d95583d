"""The one grammar of bot specs: ``kind[:model][:N...][:KEY=VALUE...]`` (pure, stdlib only).

Every bot kind with settings reads its spec with :func:`parse_parts`: the search bots
(``mcts:200:heuristic:time=0.5``, :func:`maya_envs.bots.mcts.parse_spec`), the guided search
(``az:<model>:32:leaf=hook``, :func:`maya_envs.bots.guided.parse_az_spec`) and the raw network
(``policy:<model>``, :func:`maya_envs.nn.specs.parse_network_spec`). A kind says which parts it
takes (:class:`Grammar`); the parser splits, orders and reads them and words every error the
same way: ``bot '<spec>': <what is wrong>; syntax: <the kind's syntax>``. The table of kinds is
:mod:`maya_envs.bot_kinds`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from maya_envs.core.errors import shorten

Reader = Callable[[str], Any]
"""``read(text) -> value``; raises :class:`ValueError` for a bad text."""


@dataclass(frozen=True)
class Grammar:
    """Which parts a bot kind's spec takes, after ``kind``.

    Attributes:
        syntax: the kind's syntax in words, quoted by every error.
        model: ``None`` (no model part), ``"first"`` (the part after ``kind``, before any
            other: ``az:<model>:32``) or ``"rest"`` (everything after ``kind:``, colons
            included: ``policy:<model>``).
        positional: ``(field, read)`` for each positional part, in order; ``read`` raises
            :class:`ValueError` whose text is the error (``"simulations 'x' is not a positive
            int"``).
        options: ``KEY -> (field, read)`` for the ``KEY=VALUE`` parts; a ``read`` error is
            worded ``bad value 'V' for 'KEY'``.
        check: called with the fields read so far after each option (a config's own checks);
            a :class:`ValueError` there is that option's bad value.
    """

    syntax: str
    model: str | None = None
    positional: tuple[tuple[str, Reader], ...] = ()
    options: Mapping[str, tuple[str, Reader]] = field(default_factory=dict)
    check: Callable[[dict[str, Any]], Any] | None = None


@dataclass(frozen=True)
class SpecParts:
    """A parsed spec: ``kind``, ``model`` (``None`` where the grammar has none), the
    ``positional`` field names given and ``values`` (field -> value read)."""

    kind: str
    model: str | None
    positional: tuple[str, ...]
    values: dict[str, Any]


def parse_parts(name: str, grammar: Grammar, defaults: Mapping[str, Any] | None = None) -> SpecParts:
    """Split and read ``name`` by ``grammar`` (``defaults``: fields set before the parts).

    Raises:
        ValueError: ``bot '<name>': ...; syntax: ...``: no model where one is needed, a
            ``KEY=VALUE`` before a positional part, too many positional parts, a bad positional
            value (the reader's text), an unknown option or a bad option value.
    """
    syntax = grammar.syntax
    kind, _, rest = name.partition(":")
    model = None
    parts = rest.split(":") if rest else []
    if grammar.model is not None:
        if not rest:
            raise ValueError(f"bot {shorten(name)}: expected {syntax}")
        if grammar.model == "rest":
            model, parts = rest, []
        else:
            model, *parts = parts
            if not model or "=" in model:
                raise ValueError(f"bot {shorten(name)}: no model before the options; syntax: {syntax}")
    positional = [p for p in parts if "=" not in p]
    keyed = [p for p in parts if "=" in p]
    if parts != positional + keyed:
        raise ValueError(f"bot {shorten(name)}: KEY=VALUE parts must come last; syntax: {syntax}")
    if len(positional) > len(grammar.positional):
        raise ValueError(f"bot {shorten(name)}: too many parts; syntax: {syntax}")
    values: dict[str, Any] = dict(defaults or {})
    for text, (field_name, read) in zip(positional, grammar.positional):
        try:
            values[field_name] = read(text)
        except ValueError as error:
            raise ValueError(f"bot {shorten(name)}: {error}; syntax: {syntax}") from None
    for part in keyed:
        key, _, text = part.partition("=")
        if key not in grammar.options:
            raise ValueError(f"bot {shorten(name)}: unknown option {shorten(key)}; syntax: {syntax}")
        field_name, read = grammar.options[key]
        try:
            values[field_name] = read(text)
            if grammar.check is not None:
                grammar.check(values)
        except ValueError:
            raise ValueError(f"bot {shorten(name)}: bad value {shorten(text)} for {key!r}; syntax: {syntax}") from None
    used = tuple(field_name for field_name, _ in grammar.positional[: len(positional)])
    return SpecParts(kind, model, used, values)


MAX_COUNT_DIGITS = 18
"""The most digits a count in a spec may have (a longer one is refused before ``int`` reads
it: Python refuses past 4,300 digits in its own words)."""


def positive_count(label: str) -> Reader:
    """A reader of a positive decimal int, its error naming ``label``
    (``"simulations '0' is not a positive int"``)."""

    def read(text: str) -> int:
        if not text.isdigit() or len(text) > MAX_COUNT_DIGITS or int(text) < 1:
            raise ValueError(f"{label} {shorten(text)} is not a positive int")
        return int(text)

    return read


def one_of(label: str, allowed: tuple[str, ...]) -> Reader:
    """A reader of one of ``allowed`` (``"rollout 'x' is not one of ('random', 'heuristic')"``)."""

    def read(text: str) -> str:
        if text not in allowed:
            raise ValueError(f"{label} {shorten(text)} is not one of {allowed}")
        return text

    return read


def number(low: float = 0.0, *, strict: bool = False, finite: bool = False, integer: bool = False) -> Reader:
    """A reader of a number ``>= low`` (``> low`` when ``strict``; finite when ``finite``; an
    int when ``integer``); a NaN is refused."""

    def read(text: str) -> float | int:
        value = int(text) if integer else float(text)
        if not (value > low if strict else value >= low) or (finite and math.isinf(value)):
            raise ValueError(f"{value!r} is out of range")
        return value

    return read
