"""``gym.make("maya_envs/Yaxha-v1", num_players=..., opponents=..., learner_seat=..., **game_options)``."""

from __future__ import annotations

from typing import Any

from maya_envs.wrappers.single_agent import SingleAgentEnv, single_agent_view
from maya_envs.yaxha.env import YaxhaEnv


def make_single_agent_env(
    num_players: int = 2,
    opponents: Any = None,
    learner_seat: int | str = "random",
    render_mode: str | None = None,
    illegal_action: str = "terminate",
    opponent: Any = None,
    **game_options: Any,
) -> SingleAgentEnv:
    """Yaxha for one learner; the other ``num_players - 1`` seats are played by ``opponents``
    (one spec for all, or a list with one spec per other seat; ``opponent=`` is an alias: ``"random"``, ``"heuristic"``,
    a bot, a model with ``predict`` or a callable; see :mod:`maya_envs.wrappers.opponents`).

    The learner acts at its hidden tile choices, its pending picks and its three cubes per
    round; the opponents' decisions in between happen inside ``step``. ``action_masks()``
    gives the learner's legal ids. Game options are those of
    :class:`~maya_envs.yaxha.rules.YaxhaConfig`.

    Raises:
        ConfigError: a bad game option; ValueError: a bad seat or opponent spec.
    """
    aec = YaxhaEnv(num_players=num_players, render_mode=render_mode, illegal_action=illegal_action, **game_options)
    return single_agent_view(aec, "maya_envs/Yaxha-v1", opponents, opponent, learner_seat)
