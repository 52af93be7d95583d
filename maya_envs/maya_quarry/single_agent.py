"""``gym.make("maya_envs/MayaQuarry-v1", num_players=..., opponents=..., learner_seat=..., **game_options)``."""

from __future__ import annotations

from typing import Any

from maya_envs.maya_quarry.env import MayaQuarryEnv
from maya_envs.wrappers.single_agent import SingleAgentEnv, single_agent_view


def make_single_agent_env(
    opponents: Any = None,
    learner_seat: int | str = "random",
    render_mode: str | None = None,
    illegal_action: str = "terminate",
    opponent: Any = None,
    **game_options: Any,
) -> SingleAgentEnv:
    """Maya (Abacusspiele 2003) for one learner; the other ``num_players - 1`` seats are played
    by ``opponents``: one spec for all (``"random"``, ``"heuristic"``, a bot, a model with
    ``predict`` or a callable; see :mod:`maya_envs.wrappers.opponents`) or a list with one spec
    per other seat in seat order. ``opponent=`` is accepted as an alias (Maya2012-v1 spelling).

    ``learner_seat``: a seat ``0 .. n-1`` (``"first"`` = 0) or ``"random"`` (drawn per
    episode). ``action_masks()`` gives the learner's mask; the reward is the learner's own.
    Game options are those of :class:`~maya_envs.maya_quarry.rules.MayaQuarryConfig`.

    Raises:
        ValueError: both ``opponents`` and ``opponent`` given, or a bad seat/opponent spec.
        ConfigError: a bad game option.
    """
    aec = MayaQuarryEnv(render_mode=render_mode, illegal_action=illegal_action, **game_options)
    return single_agent_view(aec, "maya_envs/MayaQuarry-v1", opponents, opponent, learner_seat)
