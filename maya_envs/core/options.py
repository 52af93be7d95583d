"""Validation helpers for game configs: every bad option is a :class:`ConfigError` that names
the value and what is allowed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

import numpy as np

from maya_envs.core.errors import ConfigError


def check_choice(name: str, value: Any, allowed: tuple) -> None:
    """Raise unless ``value`` is one of ``allowed`` (a bool never counts as an int choice)."""
    if isinstance(value, bool) or value not in allowed:
        raise ConfigError(f"{name}={value!r} is not allowed; allowed: {list(allowed)}")


def check_int(name: str, value: Any, low: int, high: int) -> None:
    """Raise unless ``value`` is an int (not a bool) in ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise ConfigError(f"{name}={value!r} is not allowed; allowed: an int in {low}..{high}")


def config_from_mapping(cls: type, options: Mapping[str, Any] | None, game_title: str):
    """``cls(**options)`` for a config dataclass, rejecting keys that are not its fields.

    Raises:
        ConfigError: an unknown key (the message lists the known ones), or whatever the
            dataclass's own validation raises.
    """
    options = dict(options or {})
    known = [f.name for f in fields(cls)]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ConfigError(f"unknown {game_title} option(s) {unknown}; known options: {known}")
    return cls(**options)
