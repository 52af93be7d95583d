"""``gym.make("maya_envs/Maya2012-v1", num_players=..., opponent=... | opponents=[...],
learner_seat=..., **game_options)``."""

from __future__ import annotations

from typing import Any

from maya_envs.maya2012.env import Maya2012Env
from maya_envs.wrappers.single_agent import SingleAgentEnv, single_agent_view


def make_single_agent_env(
    opponent: Any = None,
    learner_seat: int | str = "random",
    render_mode: str | None = None,
    illegal_action: str = "terminate",
    opponents: Any = None,
    reward_shaping: float = 0.0,
    **game_options: Any,
) -> SingleAgentEnv:
    """Maya (2012) for one learner; the other ``num_players - 1`` seats are played by
    ``opponent`` (one spec for every other seat: ``"random"`` (default), ``"heuristic"``,
    a bot, a model with ``predict`` or a callable; see :mod:`maya_envs.wrappers.opponents`)
    or ``opponents`` (a list with one spec per other seat, in seat order; a single spec is
    also accepted).

    ``learner_seat``: a seat ``0 .. n-1``, ``"first"`` (0; White in 2p, makes the first
    exchange), ``"second"`` (1; Black in 2p, makes the setup decisions when
    ``setup="choose"``) or ``"random"`` (drawn per episode). The reward is the learner's
    own, which in the 4p team game is its team's result (partners get equal returns).
    ``render()`` shows the learner's view. ``reward_shaping``: coefficient of potential-based
    shaping on the victory-point margin (:mod:`maya_envs.wrappers.shaping`; 0, the default,
    disables it). Game options are those of :class:`~maya_envs.maya2012.rules.Maya2012Config`.

    Raises:
        ValueError: both ``opponent`` and ``opponents`` given, or a bad seat/opponent spec.
        ConfigError: a bad game option.
    """
    aec = Maya2012Env(render_mode=render_mode, illegal_action=illegal_action, **game_options)
    return single_agent_view(aec, "maya_envs/Maya2012-v1", opponents, opponent, learner_seat, reward_shaping)
