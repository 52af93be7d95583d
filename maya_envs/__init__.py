"""maya-envs: PettingZoo and Gymnasium environments for three Maya-themed board games.

Importing the package registers the Gymnasium ids listed in :mod:`maya_envs.registration`.
PettingZoo modules: one per game, ``maya_envs.<key>_v<version>`` with the key and version of its
entry in :data:`maya_envs.games.GAMES` (:attr:`maya_envs.games.Game.env_module`).

An env module whose version was bumped is gone; importing its old name raises
:class:`RenamedEnvError` naming the new one (:data:`RENAMED_ENVS`, README "Versions"); an old
Gymnasium or PettingZoo id (``maya_envs/Maya2012-v0``, ``maya_envs/maya2012-v0``) raises
:class:`maya_envs.registration.RenamedEnvIdError` naming the new id and what changed.
"""

import sys
from importlib.abc import MetaPathFinder

from maya_envs.games import RENAMED_ENVS, renamed_to
from maya_envs.registration import register_envs

__version__ = "0.1.0"


class RenamedEnvError(ImportError):
    """An env module imported by a name it no longer has; the message names the new module."""


def _renamed(name: str) -> RenamedEnvError:
    new, change = renamed_to(name)
    return RenamedEnvError(
        f"maya_envs.{name} was renamed maya_envs.{new} ({change}; README 'Versions'): "
        f"use `from maya_envs import {new}`",
        name=f"{__name__}.{name}",
    )


def __getattr__(name: str):
    """``from maya_envs import maya2012_v0``: a :class:`RenamedEnvError` naming the new module."""
    if name in RENAMED_ENVS:
        raise _renamed(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _RenamedEnvFinder(MetaPathFinder):
    """``import maya_envs.maya2012_v0``: the same error, from the same table (last on ``sys.meta_path``)."""

    def find_spec(self, fullname, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package == __name__ and name in RENAMED_ENVS:
            raise _renamed(name)
        return None


if not any(isinstance(finder, _RenamedEnvFinder) for finder in sys.meta_path):
    sys.meta_path.append(_RenamedEnvFinder())

register_envs()

__all__ = ["RENAMED_ENVS", "RenamedEnvError", "__version__", "register_envs"]
