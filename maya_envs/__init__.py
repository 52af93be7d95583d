"""maya-envs: PettingZoo and Gymnasium environments for three Maya-themed board games.

Importing the package registers the Gymnasium ids listed in :mod:`maya_envs.registration`.
PettingZoo modules: :mod:`maya_envs.maya2012_v0`.
"""

from maya_envs.registration import register_envs

__version__ = "0.1.0"

register_envs()

__all__ = ["__version__", "register_envs"]
