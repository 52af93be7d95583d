"""Maya (Abacusspiele 2003) state save/load, at the path every game has: the functions of
:mod:`maya_envs.maya_quarry.rules.serialize`, which lives in the rules package beside the state
and phase modules it reads (outside it, importing them ran ``rules/__init__.py``, which imports
the engine, which imports the save/load code: an import loop, issue 31).

Pure: standard library only.
"""

from __future__ import annotations

from maya_envs.maya_quarry.rules.serialize import FIELDS, GAME, LEGACY_SCHEMAS, VERSION, from_dict, to_dict

__all__ = ["FIELDS", "GAME", "LEGACY_SCHEMAS", "VERSION", "from_dict", "to_dict"]
