"""What every state of Maya (Abacusspiele 2003) that the rules reach keeps true, at the path
every game has: :func:`check_invariants` of :mod:`maya_envs.maya_quarry.rules.invariants` (in
the rules package for the reason :mod:`maya_envs.maya_quarry.serialize` gives).

Pure: standard library only.
"""

from __future__ import annotations

from maya_envs.maya_quarry.rules.invariants import check_invariants

__all__ = ["check_invariants"]
