"""Maya (Abacusspiele 2003) PettingZoo AEC environment, 3-5 players.

=====================  ===============================================================
Import                 ``from maya_envs import maya_quarry_vN``, N the version in the
                       game's entry of :data:`maya_envs.games.GAMES` (or its ``make_aec_env()``)
Agents                 ``player_0 .. player_{n-1}`` (``num_players=3|4|5``)
Actions                ``Discrete(114)``; table in :mod:`maya_envs.maya_quarry.actions`
                       (0-49 workers, 50-54 -3 targets, 55-92 Special Property decisions,
                       93-108 block placements, 109-113 double moves and passes);
                       ``variant="advanced"``: ``Discrete(164)`` (114-144 sealed bids
                       0..30, 145-148 blue marker picks, 149-156 +2 quarry points,
                       157-163 joker)
Observation            ``{"observation": Box(0, 1, (612|774|1061,), float32),
                       "action_mask": Box(0, 1, (114,), int8)}`` (advanced: 679|858|1164
                       and 164; bids sealed until all are in); index table in
                       :mod:`maya_envs.maya_quarry.observation`, from the observer's seat;
                       hidden card values and hands are never in another seat's view
Turn order             not cyclic: ``agent_selection`` follows the rules (setup, worker
                       placement and building go clockwise from the start player; -3
                       targets and Special Property decisions belong to their owners)
Rewards                once, on the final step: ``reward_scheme="win_loss"`` (+1/w to each
                       of w winners, -1/(n-w) to the others) or ``"gold_diff"``; zero-sum
Termination            after the third round's scoring; ``info`` then holds ``gold``,
                       ``pool`` (tie-break), ``winners``, ``blocks_on_board``
Truncation             never (the game is finite: ``spec_card.max_game_length`` bounds it)
Illegal actions        ``illegal_action="terminate"`` (default; offender -1, others 0)
                       or ``"raise"``; an id outside 0..113 always raises ``ValueError``
Arguments              ``render_mode`` (``"ansi"``/``"human"``/``"rgb_array"``/``"svg"``), ``render_observer`` (seat
                       or ``None``), ``illegal_action``, plus every field of
                       :class:`~maya_envs.maya_quarry.rules.MayaQuarryConfig`
                       (``num_players``, ``variant``, ``reward_scheme``, ``minus3_targets``:
                       ``"scored"``/``"card"``, who a -3 may hit, ...)
Components             the default quarry/pyramid numbers are a NON-CANONICAL proposal
                       (``maya_envs/maya_quarry/data/components.json``; ``components=`` replaces it)
Version history        v0: first release (basic game); ``variant="advanced"`` added
                       (the basic game's spaces and behaviour unchanged). v1: the forced
                       pass (pay a block, +1 gold) is offered beside the free pass when no
                       placement is legal (v0 lost it to an aliased list); option
                       ``minus3_targets`` (``"scored"``, the default and the earlier
                       behaviour, or ``"card"``) added
=====================  ===============================================================

Rule decisions are listed in :mod:`maya_envs.maya_quarry.rules`.
"""

from __future__ import annotations

from maya_envs.aec_base import GameAECEnv, env_functions, game_metadata
from maya_envs.games import game_of_module
from maya_envs.maya_quarry.observation import MayaQuarryObserver
from maya_envs.maya_quarry.render import render_text
from maya_envs.maya_quarry.render_image import draw
from maya_envs.maya_quarry.rules import MayaQuarryRules

GAME = game_of_module(__name__)
"""This game's entry in :data:`maya_envs.games.GAMES`: its name, title and version."""


class MayaQuarryEnv(GameAECEnv):
    """Unwrapped AEC env; see the module docstring for the spec card.

    Raises:
        ConfigError: an unknown game option, a bad value or a bad component table.
        ConfigError: an unknown ``render_mode`` or ``illegal_action``.
    """

    metadata = game_metadata(GAME.name)

    observer_class = MayaQuarryObserver
    rules_class = MayaQuarryRules
    text_view = staticmethod(render_text)
    picture_view = staticmethod(draw)


raw_env, env = env_functions(MayaQuarryEnv)
