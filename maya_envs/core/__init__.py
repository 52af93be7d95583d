"""Game-agnostic core: the rules protocol, game metadata, errors and generator helpers.

Pure: this package imports only the standard library and numpy, so every game's rules
engine can depend on it without pulling in gymnasium, pettingzoo or torch.
"""

from maya_envs.core.errors import ConfigError, IllegalActionError
from maya_envs.core.protocol import Rules
from maya_envs.core.rng import make_rng
from maya_envs.core.spec import GameSpec

__all__ = ["ConfigError", "GameSpec", "IllegalActionError", "Rules", "make_rng"]
