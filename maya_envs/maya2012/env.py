"""Maya (2012) PettingZoo AEC environment.

=====================  ===============================================================
Import                 ``from maya_envs import maya2012_v0``
Agents                 ``player_0`` (White), ``player_1`` (Black)
Actions                ``Discrete(75)``; table in :mod:`maya_envs.maya2012.actions`
                       (0-47 exchanges, 48-59 Monolith setup, 60-63 Raven setup)
Observation            ``{"observation": Box(0, 1, (466,), float32), "action_mask":
                       Box(0, 1, (75,), int8)}``; index table in
                       :mod:`maya_envs.maya2012.observation`, from the observer's seat
Turn order             with ``setup="choose"`` Black (``player_1``) first places the
                       Monolith and the Raven, then White makes the first exchange;
                       players then alternate
Rewards                +1 win, -1 loss, 0 draw, paid once on the final step
Termination            the player to move has no legal exchange, or ``max_turns``
                       exchanges were made with ``at_max_turns="score"`` (house rule)
Truncation             ``max_turns`` reached with ``at_max_turns="truncate"`` (reward 0,
                       ``info`` holds the provisional victory points)
Illegal actions        ``illegal_action="terminate"`` (default; offender -1, others 0)
                       or ``"raise"``; an id outside 0..74 always raises ``ValueError``
Arguments              ``render_mode``, ``illegal_action``, plus every field of
                       :class:`~maya_envs.maya2012.rules.Maya2012Config`
Version history        v0: first release
=====================  ===============================================================

Rule decisions are listed in :mod:`maya_envs.maya2012.rules`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from maya_envs.aec_base import RulesAECEnv
from maya_envs.maya2012.render import render_text
from maya_envs.maya2012.rules import Maya2012Rules


class Maya2012Env(RulesAECEnv):
    """Unwrapped AEC env; see the module docstring for the spec card.

    Raises:
        ConfigError: an unknown game option or a bad value.
        ValueError: an unknown ``render_mode`` or ``illegal_action``.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "maya2012_v0", "is_parallelizable": False}

    def __init__(
        self,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        **game_options: Any,
    ) -> None:
        rules = Maya2012Rules(game_options)
        renderer = partial(_render, ladder_spaces=rules.config.ladder_spaces)
        super().__init__(rules, renderer, render_mode=render_mode, illegal_action=illegal_action)


def _render(state, observer, ladder_spaces):
    return render_text(state, observer, ladder_spaces)


def raw_env(**kwargs: Any) -> Maya2012Env:
    """The unwrapped AEC env (keyword arguments as :class:`Maya2012Env`)."""
    return Maya2012Env(**kwargs)


def env(**kwargs: Any) -> Maya2012Env:
    """The AEC env.

    Unlike PettingZoo's classic games this adds no ``OrderEnforcingWrapper``: the base
    class already raises clear errors for every misuse those wrappers catch, and the raw
    env keeps attribute access (``env.rules``, ``env.game_state``) direct.
    """
    return raw_env(**kwargs)
