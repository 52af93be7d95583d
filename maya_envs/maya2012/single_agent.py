"""``gym.make("maya_envs/Maya2012-v0", opponent=..., learner_seat=..., **game_options)``."""

from __future__ import annotations

from typing import Any

from maya_envs.maya2012.env import Maya2012Env
from maya_envs.wrappers.shaping import load_potential
from maya_envs.wrappers.single_agent import SingleAgentEnv


def make_single_agent_env(
    opponent: Any = "random",
    learner_seat: int | str = "random",
    render_mode: str | None = None,
    illegal_action: str = "terminate",
    reward_shaping: float = 0.0,
    **game_options: Any,
) -> SingleAgentEnv:
    """Maya (2012) against ``opponent`` (``"random"``, ``"heuristic"``, a bot, a model with
    ``predict`` or a callable; see :mod:`maya_envs.wrappers.opponents`).

    ``learner_seat``: ``"first"``/``0`` is White (makes the first exchange), ``"second"``/``1``
    is Black (makes the setup decisions when ``setup="choose"``), ``"random"`` draws per
    episode. ``reward_shaping``: coefficient of potential-based shaping on the victory-point
    margin (:mod:`maya_envs.wrappers.shaping`; 0 disables it). Game options are those of
    :class:`~maya_envs.maya2012.rules.Maya2012Config`.
    """
    aec = Maya2012Env(render_mode=render_mode, illegal_action=illegal_action, **game_options)
    potential = load_potential("maya_envs/Maya2012-v0") if reward_shaping else None
    return SingleAgentEnv(
        aec, opponents=opponent, learner_seat=learner_seat, shaping_potential=potential, shaping_scale=reward_shaping
    )
