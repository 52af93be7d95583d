"""The Pgx state shape every JAX game of :mod:`maya_envs.jax` shares: Pgx's six public fields,
its step counter and the game's own arrays in ``_x``, immutable, a JAX pytree.

A game subclasses :class:`GameState` (adding ``env_id`` and ``to_svg``) and registers the
subclass with :func:`register_state`.
"""

from __future__ import annotations

from typing import Any

import jax
import pgx.core

FIELDS = ("current_player", "observation", "rewards", "terminated", "truncated", "legal_action_mask",
          "_step_count", "_x")  # fmt: skip
"""The fields of a :class:`GameState`, in pytree order."""


class GameState(pgx.core.State):
    """Pgx state of one game (batch it with ``jax.vmap``); ``_x`` holds the game's arrays (a
    ``NamedTuple``). Immutable: change it with :meth:`replace`."""

    def __init__(self, current_player, observation, rewards, terminated, truncated, legal_action_mask,
                 _step_count, _x):  # fmt: skip
        values = (current_player, observation, rewards, terminated, truncated, legal_action_mask, _step_count, _x)
        for name, value in zip(FIELDS, values, strict=True):
            object.__setattr__(self, name, value)

    def replace(self, **changes: Any) -> GameState:
        values = {name: getattr(self, name) for name in FIELDS}
        values.update(changes)
        return type(self)(**values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"State is immutable: use state.replace({name}=...)")

    def first(self) -> GameState:
        """This state, or the first game of a batched one (for pictures)."""
        return self if self.rewards.ndim == 1 else jax.tree_util.tree_map(lambda v: v[0], self)

    def save_svg(self, filename, *, color_theme: str | None = None, scale: float | None = None) -> None:
        """Write ``to_svg()`` to ``filename``."""
        with open(filename, "w", encoding="utf-8") as handle:
            handle.write(self.to_svg())


def register_state(cls: type[GameState]) -> type[GameState]:
    """Register ``cls`` as a JAX pytree (its children: :data:`FIELDS` in order); returns ``cls``."""
    jax.tree_util.register_pytree_node(
        cls,
        lambda s: (tuple(getattr(s, name) for name in FIELDS), None),
        lambda _, children: cls(*children),
    )
    return cls
