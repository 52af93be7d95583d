"""Yaxha PettingZoo environments: AEC (:class:`YaxhaEnv`) and Parallel (:class:`YaxhaParallelEnv`).

=====================  ===============================================================
Import                 ``from maya_envs import yaxha_vN`` (N the version in the game's
                       entry of :data:`maya_envs.games.GAMES`); ``.env()``, ``.raw_env()``,
                       ``.parallel_env()``
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

from typing import Any

from maya_envs.aec_base import GameAECEnv, env_functions, game_metadata
from maya_envs.games import game_of_module
from maya_envs.parallel_base import RulesParallelEnv
from maya_envs.yaxha.observation import YaxhaObserver
from maya_envs.yaxha.render import render_text
from maya_envs.yaxha.render_image import draw
from maya_envs.yaxha.rules import YaxhaRules

GAME = game_of_module(__name__)
"""This game's entry in :data:`maya_envs.games.GAMES`: its name, title and version."""


class YaxhaEnv(GameAECEnv):
    """Unwrapped AEC env; see the module docstring for the spec card.

    Raises:
        ConfigError: an unknown game option or a bad value.
        ConfigError: an unknown ``render_mode`` or ``illegal_action``.
    """

    metadata = game_metadata(GAME.name)

    observer_class = YaxhaObserver
    observer_options = ("action_features",)
    rules_class = YaxhaRules
    text_view = staticmethod(render_text)
    picture_view = staticmethod(draw)


raw_env, env = env_functions(YaxhaEnv)


def parallel_env(**kwargs: Any) -> RulesParallelEnv:
    """The Parallel env (keyword arguments as :class:`YaxhaEnv`): a
    :class:`~maya_envs.parallel_base.RulesParallelEnv` over a :class:`YaxhaEnv`."""
    return RulesParallelEnv(YaxhaEnv(**kwargs))
