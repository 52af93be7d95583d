"""Exceptions shared by every game.

Both derive from ``ValueError`` so callers that only know the standard library can still
catch bad input; the subclasses let tests and envs tell the two cases apart.

A message that echoes an input shows it through :func:`shorten` (and a list of names through
:func:`listed`): an input may be megabytes long, and a message must stay a line.
"""

import reprlib
from collections.abc import Iterable

MAX_SHOWN_CHARS = 80
"""The longest an echoed value is in a message (:func:`shorten`)."""
MAX_LISTED = 3
"""The most names of an input a message lists (:func:`listed`); the rest are counted."""
_UNITS = {str: "chars", bytes: "bytes", dict: "keys"}


class IllegalActionError(ValueError):
    """An action id that the rules do not allow in the current state.

    Raised by a game's ``apply_action``; the message names the action, the phase and the
    legal action ids.
    """


class ConfigError(ValueError):
    """A game or training config with an unknown key or a value outside its allowed set."""


class CallOrderError(RuntimeError):
    """Env calls in an order the API does not allow, the misuses PettingZoo's
    ``OrderEnforcingWrapper`` catches: a loop over ``agent_iter()`` whose body did not call
    ``step()`` (it would select the same agent for ever). The message names the misuse and
    what to do instead.
    """


class ResetNeededError(CallOrderError):
    """A call that needs a game in progress (``step``, ``observe``, ``last``, ``render``,
    ``agent_iter``, ``action_mask``/``action_masks``, ...) made before the first ``reset()``,
    or a ``step``/``last`` after the episode ended (every agent done, and in the AEC env every
    agent has stepped ``None``).

    Every env kind (AEC, Parallel, single-agent Gymnasium, batched ``VectorEnv``) raises it;
    the message names the call and says to call ``reset()`` first. A ``RuntimeError`` like
    the one PettingZoo's ``OrderEnforcingWrapper`` raises for the same misuse.
    """


class StateError(ConfigError):
    """A saved state (a ``state_to_dict`` dict) that cannot be loaded: wrong schema or version,
    a missing or unknown key, or a field of the wrong type, length or range, or one the rules
    rule out.

    Attributes:
        field: the bad field's path in the dict (``"bids[1]"``, ``"columns[0][2].card"``), or
            ``""`` for the dict as a whole; the message starts with ``state.<field>:``.
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"state.{field}: {message}" if field else f"state: {message}")


def _bounded_repr(limit: int) -> reprlib.Repr:
    """A :class:`reprlib.Repr` whose work and text stay small whatever the value's size."""
    bounded = reprlib.Repr()
    bounded.maxlevel = 3
    bounded.maxstring = bounded.maxother = limit
    bounded.maxlong = 40
    for field in ("maxtuple", "maxlist", "maxarray", "maxdict", "maxset", "maxfrozenset", "maxdeque"):
        setattr(bounded, field, 4)
    return bounded


def shorten(value: object, limit: int = MAX_SHOWN_CHARS) -> str:
    """``repr(value)`` for a message, at most ``limit`` characters plus its size when cut.

    Built with :mod:`reprlib` (so a 7 MiB string or a 600,000-key dict costs no more than a small
    one); a cut value ends with ``...`` and, for a string, bytes or container, its length:
    ``'xxxxxxxx...xxxx' (7,340,032 chars)``, ``{'k0': 1, ...} (600,000 keys)``.
    """
    try:
        text = _bounded_repr(limit).repr(value)
    except ValueError:  # an int past Python's 4300-digit limit for str()
        return f"<an int of {value.bit_length():,} bits>"  # type: ignore[attr-defined]
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    if "..." not in text:
        return text
    try:
        size = len(value)  # type: ignore[arg-type]
    except TypeError:
        return text
    unit = next((word for kind, word in _UNITS.items() if isinstance(value, kind)), "items")
    return f"{text} ({size:,} {unit})"


def listed(names: Iterable[object], most: int = MAX_LISTED) -> str:
    """``['a', 'b', 'c'] and 599,997 more``: a list of at most ``most`` names (each
    :func:`shorten`-ed to 40 characters), the rest counted, never listed (``['a', 'b']``, as
    ``repr`` writes a short list)."""
    names = list(names)
    shown = "[" + ", ".join(shorten(name, 40) for name in names[:most]) + "]"
    rest = len(names) - most
    return f"{shown} and {rest:,} more" if rest > 0 else shown


MAX_MATCHED_CHARS = 64
"""Names longer than this get no "did you mean" (no known name is near, and matching costs
time in the name's length)."""


def close_matches(name: object, known) -> list[str]:
    """The entries of ``known`` closest to ``name`` (:func:`difflib.get_close_matches`, at most
    3), ``[]`` when none is close, ``name`` is not a string or is longer than
    :data:`MAX_MATCHED_CHARS`."""
    import difflib

    if not isinstance(name, str) or len(name) > MAX_MATCHED_CHARS:
        return []
    return difflib.get_close_matches(name, [str(k) for k in known], n=3, cutoff=0.6)


def did_you_mean(name: object, known, fill=lambda match: match) -> str:
    """``" (did you mean 'heuristic'?)"`` for the message of an unknown name (a config, a bot
    spec), from :func:`close_matches` (each written as ``fill(match)``), or ``""``."""
    close = close_matches(name, known)
    return f" (did you mean {' or '.join(repr(fill(c)) for c in close)}?)" if close else ""


def plain_words(error: BaseException) -> str:
    """A Python ``TypeError``'s message in the project's words (a page or a record's reader never
    sees Python's)."""
    text = str(error)
    if "unhashable type" in text:
        return "a list or an object was given where a name or a number belongs"
    if "multiple values for keyword argument" in text:
        keyword = text.rsplit(" ", 1)[-1].strip("'\"")
        return f"{keyword!r} is set by the server, not by the request"
    return "a value of the request has the wrong type (see the route's fields in maya-web's docs)"
