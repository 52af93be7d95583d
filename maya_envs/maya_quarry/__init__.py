"""Maya (Abacusspiele 2003): the quarry-and-pyramid game for 3-5 players.

Rules and every rule decision: :mod:`maya_envs.maya_quarry.rules`. Action table:
:mod:`maya_envs.maya_quarry.actions`. Observation table: :mod:`maya_envs.maya_quarry.observation`.
The default component numbers are a **non-canonical** proposal, shipped as package data
(``maya_envs/maya_quarry/data/components.json``).
"""
