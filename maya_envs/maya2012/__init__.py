"""Maya (2012), Sirius: tower exchanges for 2-4 players (2p perfect information, 3-4p hidden tasks).

Rules and every rule decision: :mod:`maya_envs.maya2012.rules`. Action table:
:mod:`maya_envs.maya2012.actions`. Observation table: :mod:`maya_envs.maya2012.observation`.
PettingZoo entry points: the module ``maya_envs.maya2012_v<version>`` (the version in the game's
entry in :data:`maya_envs.games.GAMES`).
"""
