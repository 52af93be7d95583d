"""Legal actions memoised on the state, shared by the games whose states carry a ``_cache``.

States are immutable, so a state's legal actions never change: the first call computes them
with the game's ``_compute_legal(state)`` and stores them in ``state._cache``; the mask and the
membership check that ``apply_action`` makes are derived from that one list.
"""

from __future__ import annotations

from typing import Any

import numpy as np


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
