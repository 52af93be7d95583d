"""The option checks the training configs share (:mod:`training.config`,
:mod:`training.exit.config`): each bad value is a :class:`~maya_envs.core.errors.ConfigError`
naming the key, the value and what is allowed."""

from __future__ import annotations

import math
from typing import Any

from maya_envs.bot_kinds import BOT_KINDS
from maya_envs.core.checks import is_int, is_number
from maya_envs.core.errors import ConfigError, shorten


def check_int(key: str, value: Any, minimum: int, maximum: int | None = None) -> None:
    """Raise unless ``value`` is an int (not a bool) in ``minimum..maximum`` (``None``: no upper
    bound)."""
    if not is_int(value, numpy=False) or value < minimum or (maximum is not None and value > maximum):
        allowed = "a positive int" if minimum == 1 else f"an int >= {minimum}"
        if maximum is not None:
            allowed += f", at most {maximum:_}"
        raise ConfigError(f"{key}={shorten(value)}; allowed: {allowed}")


def check_number(key: str, value: Any, low: float = 0.0, high: float = math.inf) -> None:
    """Raise unless ``value`` is a finite number (not a bool) in ``[low, high]``: infinity and NaN
    are refused whatever the bounds (YAML reads ``.inf`` and ``.nan`` as floats; an infinite
    weight or NaN makes the losses and the draws NaN long after the config was read)."""
    if not is_number(value, numpy=False) or not math.isfinite(value) or not low <= value <= high:
        raise ConfigError(f"{key}={shorten(value)}; allowed: {_finite_range(low, high)}")


def _finite_range(low: float, high: float) -> str:
    """``"a finite number >= 0"``, ``"a number in [0, 1]"`` or ``"a finite number"``."""
    if high != math.inf:
        return f"a number in [{low:g}, {high:g}]"
    return "a finite number" if low == -math.inf else f"a finite number >= {low:g}"


def check_bool(key: str, value: Any) -> None:
    """Raise unless ``value`` is a bool."""
    if not isinstance(value, bool):
        raise ConfigError(f"{key}={shorten(value)}; allowed: true, false")


def check_choice(key: str, value: Any, allowed, quote: bool = True) -> None:
    """Raise unless ``value`` is one of the strings ``allowed`` (a list, a mapping or ``None``
    is refused by name, not hashed); the message lists them quoted unless ``quote`` is false."""
    if not isinstance(value, str) or value not in allowed:
        shown = ", ".join(map(repr, allowed) if quote else allowed)
        raise ConfigError(f"{key}={shorten(value)}; allowed: {shown}")


def check_names(key: str, names: Any, empty: bool = False) -> None:
    """Raise unless ``names`` is a list of strings, non-empty unless ``empty`` (a nested list
    or a mapping in it is refused by its index, before any name is looked up)."""
    size = "a" if empty else "a non-empty"
    if not isinstance(names, list) or not (empty or names):
        raise ConfigError(f"{key}={shorten(names)}; allowed: {size} list of bot names")
    for index, name in enumerate(names):
        if not isinstance(name, str):
            raise ConfigError(f"{key}[{index}]={shorten(name)}; allowed: a bot name (a string)")


def is_search_spec(name: Any) -> bool:
    """Whether ``name`` names a search bot that plays without a network: a row of
    :data:`maya_envs.bot_kinds.BOT_KINDS` with settings and no model (``mcts...``, ``ismcts...``)."""
    kind = BOT_KINDS.get(name.split(":", 1)[0]) if isinstance(name, str) else None
    return kind is not None and kind.parse is not None and kind.model is None


def check_search_spec(key: str, name: str) -> None:
    """Raise unless ``name`` is a well-formed search bot spec (:func:`is_search_spec`)."""
    try:
        BOT_KINDS[name.split(":", 1)[0]].check(name)
    except ValueError as error:
        raise ConfigError(f"{key}: {error}") from None
