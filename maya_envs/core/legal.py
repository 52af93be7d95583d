"""Action ids at the rules' boundary, and legal actions memoised on the state.

:func:`check_action_id` is the one gate every action id passes on its way in (each game's
``apply_action``, the AEC and Parallel envs' ``step``, records): a Python ``int``, a numpy
integer or a 0-d integer array becomes a Python ``int`` once, so no numpy scalar reaches a
state (states stay JSON-safe, and ``np.int32`` arithmetic cannot overflow in the rules).

:class:`LegalActionCache`: states are immutable, so a state's legal actions never change: the
first call computes them with the game's ``_compute_legal(state)`` and stores them in
``state._cache``; the mask and the membership check that ``apply_action`` makes are derived
from that one list.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.core.checks import is_int
from maya_envs.core.errors import IllegalActionError


def check_action_id(action: Any, num_actions: int) -> int:
    """``action`` as a Python ``int`` if it is an integer id in ``[0, num_actions)``.

    Accepted: ``int``, any numpy integer (``np.int32``, ``np.int64``, ``np.uint16``, ...) and a
    0-d integer array. Refused: ``bool``/``np.bool_`` (not an id, though ``True == 1``), floats
    (even ``2.0``), strings, ``None``, arrays with a shape.

    Raises:
        IllegalActionError: ``action`` is not an integer or is out of range; the message names
            the value, its type and the allowed range ``0..num_actions - 1``.
    """
    if type(action) is int and 0 <= action < num_actions:  # the common case, kept fast
        return action
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if not is_int(action):  # np.bool_ is no numpy integer: refused too
        raise IllegalActionError(
            f"action must be an int in [0, {num_actions - 1}], got {action!r} of type {type(action).__name__}"
        )
    action = int(action)
    if not 0 <= action < num_actions:
        raise IllegalActionError(f"action {action} is out of range: allowed ids are 0..{num_actions - 1}")
    return action


class LegalActionCache:
    """Mixin for a rules class with ``spec.num_actions`` and ``_compute_legal(state)``."""

    def legal_actions(self, state: Any) -> list[int]:
        """Sorted legal action ids for the current player (a fresh list each call)."""
        cached = state._cache.get("legal")
        if cached is None:
            cached = state._cache["legal"] = self._compute_legal(state)
        return list(cached)

    def legal_mask(self, state: Any) -> np.ndarray:
        """``int8`` array ``(spec.num_actions,)``, 1 exactly at :meth:`legal_actions`."""
        mask = np.zeros(self.spec.num_actions, np.int8)
        mask[self.legal_actions(state)] = 1
        return mask

    def _legal_set(self, state: Any) -> frozenset[int]:
        cached = state._cache.get("legal_set")
        if cached is None:
            cached = state._cache["legal_set"] = frozenset(self.legal_actions(state))
        return cached
