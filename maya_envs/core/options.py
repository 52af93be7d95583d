"""Validation helpers for game configs: every bad option is a :class:`ConfigError` that names
the value and what is allowed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

import numpy as np

from maya_envs.core.checks import is_int
from maya_envs.core.errors import ConfigError, listed, shorten


def check_choice(name: str, value: Any, allowed: tuple) -> None:
    """Raise unless ``value`` is one of ``allowed`` and of its type: a bool never counts as an
    int choice, nor a float such as ``2.0`` (numpy integers count as ints)."""
    if not any(_same_kind(value, choice) and value == choice for choice in allowed):
        raise ConfigError(f"{name}={shorten(value)} is not allowed; allowed: {list(allowed)}")


def _same_kind(value: Any, choice: Any) -> bool:
    if isinstance(value, bool) or isinstance(choice, bool):
        return isinstance(value, bool) and isinstance(choice, bool)
    if isinstance(choice, int):
        return isinstance(value, (int, np.integer))
    return isinstance(value, type(choice))


def check_int(name: str, value: Any, low: int, high: int) -> None:
    """Raise unless ``value`` is an int (not a bool) in ``low..high``."""
    if not is_int(value) or not low <= value <= high:
        raise ConfigError(f"{name}={shorten(value)} is not allowed; allowed: an int in {low}..{high}")


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
        raise ConfigError(f"unknown {game_title} option(s) {listed(unknown)}; known options: {known}")
    return cls(**options)


def resolve_config(cls: type, config: Any, options: Mapping[str, Any]):
    """The config of ``Rules(config, **options)``, the one way every game's rules take options.

    ``config`` is an instance of ``cls`` (then no ``options``), a mapping of its fields, or
    ``None``; keyword ``options`` are further fields. The mapping and the keywords are read by
    ``cls.from_mapping``.

    Raises:
        ConfigError: ``config`` of another type, a config object together with keywords, a
            key given twice, a key that is not a string, or whatever ``cls.from_mapping`` raises
            (an unknown key, a bad value).
    """
    if isinstance(config, cls):
        if options:
            raise ConfigError(f"pass either a {cls.__name__} or keyword options, not both (got {sorted(options)})")
        return config
    if config is None:
        config = {}
    if not isinstance(config, Mapping):
        raise ConfigError(
            f"config={shorten(config)} is not allowed; allowed: a {cls.__name__}, a mapping of options or None"
        )
    bad_keys = [key for key in config if not isinstance(key, str)]
    if bad_keys:
        raise ConfigError(
            f"option names {listed(bad_keys)} are not allowed; allowed: strings (the {cls.__name__} fields)"
        )
    twice = sorted(set(config) & set(options))
    if twice:
        raise ConfigError(f"option(s) {listed(twice)} given both in the mapping and as keywords; give each once")
    return cls.from_mapping({**config, **options})
