"""The JAX engines' table: game key -> the Pgx-API env class of :mod:`maya_envs.jax`.

Names are resolved through the game table (:func:`maya_envs.games.find_game`: a key, an alias,
a module name or a Gymnasium id), so every name of a game finds its JAX engine; an engine is
imported only when it is made.
"""

from __future__ import annotations

import importlib
from typing import Any

from maya_envs.core.errors import ConfigError
from maya_envs.games import find_game

ENGINES: dict[str, str] = {
    "maya2012": "maya_envs.jax.maya2012:Maya2012",
    "yaxha": "maya_envs.jax.yaxha:Yaxha",
    "maya_quarry": "maya_envs.jax.maya_quarry:MayaQuarry",
}
"""Game key -> ``"module:class"`` of its JAX engine (a ``pgx.Env`` taking the game's options as
keywords and ``observe_on_step``); a game without a JAX engine has no entry."""


def engine_names() -> list[str]:
    """The keys of the games that have a JAX engine, in table order."""
    return list(ENGINES)


def make(game: str, **options: Any) -> Any:
    """The JAX engine of ``game`` (any name of the game table) for ``options``.

    Raises:
        ConfigError: ``game`` is no game, or a game without a JAX engine (the message names
            the games that have one); an unknown option or a bad value (the rules' message).
    """
    try:
        key = find_game(game).key
    except (KeyError, ValueError) as error:
        raise ConfigError(f"{str(game)[:60]!r} is not a game; JAX engines: {engine_names()}") from error
    if key not in ENGINES:
        raise ConfigError(f"{key!r} has no JAX engine; JAX engines: {engine_names()}")
    module, _, name = ENGINES[key].partition(":")
    return getattr(importlib.import_module(module), name)(**options)
