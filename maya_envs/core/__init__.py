"""Game-agnostic core: the rules and observer protocols, named observation layouts, game
metadata, errors and generator helpers.

Pure: this package imports only the standard library and numpy, so every game's rules
engine can depend on it without pulling in gymnasium, pettingzoo or torch.
"""

from maya_envs.core.errors import ConfigError, IllegalActionError
from maya_envs.core.layout import Layout, Observer
from maya_envs.core.protocol import Rules
from maya_envs.core.rng import make_rng
from maya_envs.core.spec import GameSpec

__all__ = ["ConfigError", "GameSpec", "IllegalActionError", "Layout", "Observer", "Rules", "make_rng"]
