"""SB3's ``SubprocVecEnv`` with the use-before-reset check in the main process.

A call that needs a game, made in a worker before ``reset()``, raises
:class:`~maya_envs.core.errors.ResetNeededError` there; SB3's worker loop forwards no
exception, so the worker dies and the caller sees only ``EOFError`` (and every other worker
goes with it). :class:`ResetCheckedSubprocVecEnv` raises the same ``ResetNeededError`` in
the calling process instead, before anything is sent: ``step`` / ``step_async`` and
``env_method`` of :data:`NEEDS_GAME` (sb3-contrib's ``get_action_masks`` calls
``env_method("action_masks")``) before the first ``reset``. Needs the ``train`` extra.
"""

from __future__ import annotations

from typing import Any

from stable_baselines3.common.vec_env import SubprocVecEnv

from maya_envs.core.errors import ResetNeededError

NEEDS_GAME = frozenset({"action_masks", "render", "step"})


class ResetCheckedSubprocVecEnv(SubprocVecEnv):
    """``SubprocVecEnv`` that raises ``ResetNeededError`` for calls before ``reset``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._was_reset = False

    def reset(self):
        observations = super().reset()
        self._was_reset = True
        return observations

    def step_async(self, actions) -> None:
        self._check("step")
        super().step_async(actions)

    def env_method(self, method_name: str, *method_args: Any, indices=None, **method_kwargs: Any) -> list[Any]:
        if method_name in NEEDS_GAME:
            self._check(method_name)
        return super().env_method(method_name, *method_args, indices=indices, **method_kwargs)

    def _check(self, call: str) -> None:
        if not self._was_reset:
            raise ResetNeededError(f"{call}() before reset(): call reset() first")
