"""Exceptions shared by every game.

Both derive from ``ValueError`` so callers that only know the standard library can still
catch bad input; the subclasses let tests and envs tell the two cases apart.
"""


class IllegalActionError(ValueError):
    """An action id that the rules do not allow in the current state.

    Raised by a game's ``apply_action``; the message names the action, the phase and the
    legal action ids.
    """


class ConfigError(ValueError):
    """A game or training config with an unknown key or a value outside its allowed set."""
