"""Yaxha PettingZoo environments: AEC (:class:`YaxhaEnv`) and Parallel (:class:`YaxhaParallelEnv`).

=====================  ===============================================================
Import                 ``from maya_envs import yaxha_v1``; ``yaxha_v1.env()``,
                       ``yaxha_v1.raw_env()``, ``yaxha_v1.parallel_env()``
Agents                 ``player_0 .. player_{N-1}``, ``num_players=2|3|4``
Actions                ``Discrete(N + 5C + 5)`` (C = 126 cells floating, 30 fixed): pick
                       tile, place (colour, cell), discard colour; table in
                       :mod:`maya_envs.yaxha.actions`
Observation            ``{"observation": Box(0, 1, (L,), float32), "action_mask":
                       Box(0, 1, (A,), int8)}``; index table and sizes in
                       :mod:`maya_envs.yaxha.observation`, from the observer's seat
Turn order (AEC)       per round: hidden tile choices in seat order (nobody sees another's
                       choice), pending picks after a clash in initiative order, then
                       building round-robin, one cube per seat per turn, 3 times;
                       ``agent_selection`` follows the rules
Parallel steps         one step per simultaneous decision: all choices; each pending
                       pick alone; each of the 3 building rounds (all seats at once);
                       every live agent sends an action, one that waits in the step
                       has only the wait id ``WAIT = 0`` in its mask
Rewards                once at the end: ``reward_scheme="win_loss"`` (shared wins split
                       +1, losers split -1) or ``"score_diff"``; info holds the scores
                       by colour and by bonus card
Termination            after round 10's building; no truncation (fixed length,
                       ``max_game_length`` = 10 x (N + max(N-2, 0) + 3N) agent steps)
Illegal actions        ``illegal_action="terminate"`` (default; offender -1, others 0)
                       or ``"raise"``; an id outside the space always raises ``ValueError``
Arguments              ``render_mode`` (``"ansi"``/``"human"``/``"rgb_array"``/``"svg"``),
                       ``illegal_action``, ``render_observer``, plus every field of
                       :class:`~maya_envs.yaxha.rules.YaxhaConfig` (``num_players``, ...)
Version history        v0: first release; v1: a waiting agent in a Parallel step has
                       the wait id (0) as its one legal action instead of an all-zero
                       mask (AEC and Gymnasium views unchanged)
=====================  ===============================================================

Rule decisions are listed in :mod:`maya_envs.yaxha.rules`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from maya_envs.aec_base import RulesAECEnv
from maya_envs.parallel_base import RulesParallelEnv
from maya_envs.yaxha.render import render_text
from maya_envs.yaxha.render_image import draw
from maya_envs.yaxha.rules import YaxhaRules


class YaxhaEnv(RulesAECEnv):
    """Unwrapped AEC env; see the module docstring for the spec card.

    Raises:
        ConfigError: an unknown game option or a bad value.
        ValueError: an unknown ``render_mode`` or ``illegal_action``.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array", "svg"], "name": "yaxha_v1", "is_parallelizable": False}

    def __init__(
        self,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        render_observer: int | None = None,
        **game_options: Any,
    ) -> None:
        rules = YaxhaRules(game_options)
        super().__init__(
            rules,
            partial(render_text, rules),
            render_mode=render_mode,
            illegal_action=illegal_action,
            render_observer=render_observer,
            picture=partial(draw, rules),
        )


def raw_env(**kwargs: Any) -> YaxhaEnv:
    """The unwrapped AEC env (keyword arguments as :class:`YaxhaEnv`)."""
    return YaxhaEnv(**kwargs)


def env(**kwargs: Any) -> YaxhaEnv:
    """The AEC env. No ``OrderEnforcingWrapper``, as for every game here: the base class
    raises clear errors itself and keeps ``env.rules``/``env.game_state`` direct."""
    return raw_env(**kwargs)


def parallel_env(**kwargs: Any) -> RulesParallelEnv:
    """The Parallel env (keyword arguments as :class:`YaxhaEnv`): a
    :class:`~maya_envs.parallel_base.RulesParallelEnv` over a :class:`YaxhaEnv`."""
    return RulesParallelEnv(YaxhaEnv(**kwargs))
