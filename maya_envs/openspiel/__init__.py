"""The maya-envs games as OpenSpiel games (optional extra ``openspiel``: ``open_spiel>=2.0``).

Importing this package registers ``maya_envs_maya2012``, ``maya_envs_maya_quarry`` and
``maya_envs_yaxha`` with ``pyspiel``; then ``pyspiel.load_game("maya_envs_yaxha",
{"players": 3})`` works like any OpenSpiel game. The parameters are listed in
:mod:`maya_envs.openspiel.games`, the game types and observations in
:mod:`maya_envs.openspiel.adapter`.

Raises:
    ImportError: OpenSpiel is not installed (the message says how to install it).
"""

from __future__ import annotations

try:
    import pyspiel
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "maya_envs.openspiel needs OpenSpiel: pip install 'maya-envs[openspiel]' (open_spiel>=2.0)"
    ) from err

from maya_envs.openspiel.adapter import MayaBot, MayaGame, MayaObserver, MayaState, ismcts_resampler, registered_type
from maya_envs.openspiel.games import OpenSpielEntry, entries

GAME_NAMES = tuple(entry.short_name for entry in entries())


def _game_class(entry: OpenSpielEntry) -> type:
    """A ``MayaGame`` subclass for ``entry`` (OpenSpiel registers a class: a closure kept in
    its registry past interpreter shutdown aborts the process at exit)."""

    def __init__(self, params=None):
        MayaGame.__init__(self, entry, params)

    name = "".join(part.title() for part in entry.short_name.split("_")) + "Game"
    return type(name, (MayaGame,), {"__init__": __init__, "__module__": __name__, "__qualname__": name})


GAME_CLASSES = {entry.short_name: _game_class(entry) for entry in entries()}
# Each class is also a name of this module, as OpenSpiel's own Python games are of theirs: pickle
# finds a class by module and name, so games and states pickle (distributed OpenSpiel code does).
globals().update({cls.__name__: cls for cls in GAME_CLASSES.values()})


def _register() -> None:
    known = set(pyspiel.registered_names())
    for entry in entries():
        if entry.short_name not in known:
            pyspiel.register_game(registered_type(entry), GAME_CLASSES[entry.short_name])


_register()

__all__ = [
    "GAME_CLASSES",
    "GAME_NAMES",
    "MayaBot",
    "MayaGame",
    "MayaObserver",
    "MayaState",
    "OpenSpielEntry",
    "entries",
    "ismcts_resampler",
]
