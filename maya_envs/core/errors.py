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


class ResetNeededError(RuntimeError):
    """A call that needs a game in progress (``step``, ``observe``, ``last``, ``render``,
    ``action_mask``/``action_masks``, ...) made before the first ``reset()``.

    Every env kind (AEC, Parallel, single-agent Gymnasium, batched ``VectorEnv``) raises it;
    the message names the call and says to call ``reset()`` first. A ``RuntimeError`` like
    the one PettingZoo's ``OrderEnforcingWrapper`` raises for the same misuse.
    """
