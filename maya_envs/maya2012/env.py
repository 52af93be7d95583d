"""Maya (2012) PettingZoo AEC environment (2, 3 or 4 players).

=====================  ===============================================================
Import                 ``from maya_envs import maya2012_vN``, N the version in the game's
                       entry of :data:`maya_envs.games.GAMES` (or its ``make_aec_env()``)
Agents                 ``num_players=2`` (default): ``player_0`` (White), ``player_1``
                       (Black). 3-4: ``player_0 .. player_{n-1}`` clockwise; 4p teams
                       {``player_0``, ``player_2``} and {``player_1``, ``player_3``}
Actions                ``Discrete(75)``; table in :mod:`maya_envs.maya2012.actions`
                       (0-47 exchanges, 48-59 Monolith setup, 60-63 Raven setup (2p),
                       64 declare end, 65 continue (3-4p), 66-74 drafted setup)
Observation            ``{"observation": Box(0, 1, (N,), float32), "action_mask":
                       Box(0, 1, (75,), int8)}`` with N = 610 (2p) or 588 (3-4p), +10
                       with ``setup="draft"``; index tables in
                       :mod:`maya_envs.maya2012.observation`, from the observer's seat.
                       3-4p: own task cards and the public centre card only
Turn order             2p with ``setup="choose"``: Black (``player_1``) first places the
                       Monolith and the Raven, then White makes the first exchange;
                       players then alternate. 3-4p: ``player_0`` first, clockwise;
                       once the centre tower and another tower are complete (public),
                       the same agent chooses declare end / continue after each of its
                       exchanges (``continue`` only, unless it may declare; option
                       ``declare_step``). ``setup="draft"``: 45 block
                       placements first, seats in rotation from ``player_0``
Rewards                paid once on the final step. ``reward_scheme="win_loss"``
                       (default): 2p +1/-1/0; 3p the top scorers share +1, the others
                       share -1; 4p each partner gets the team's +1/-1/0.
                       ``"score_diff"``: 2p own VP - opponent's; 3p own score - mean of
                       the others; 4p own team - other team. Every scheme sums to 0
Termination            the player to move has no legal exchange, a 3-4p declaration, or
                       ``max_turns`` exchanges with ``at_max_turns="score"`` (house rule);
                       a real end wins over the cap reached on the same exchange
Truncation             ``max_turns`` reached with ``at_max_turns="truncate"`` and a legal
                       exchange left (reward 0, ``info`` holds the provisional victory
                       points)
Info                   empty during play; the final step's info holds ``end``
                       (``"no_legal_exchange"``, ``"declared"``, ``"max_turns"`` or
                       ``"illegal_action"``), the scores and, 3-4p, every hand
                       (``tasks``, ``spare``, ``centre_card``), see
                       :meth:`~maya_envs.maya2012.rules.Maya2012Rules.final_info`
Hidden information     3-4p: ``observe``, the mask, ``info`` and ``render`` for a seat
                       (``render_observer``) never depend on other seats' cards;
                       ``render_observer=None`` (default) is a spectator's full view.
                       The sequence of selected agents does not either, with the
                       default ``declare_step="possible"`` (or ``"always"``); the option
                       ``"eligible"`` (shorter games) LEAKS: selecting the same agent
                       twice shows every seat that it holds a complete tower's colour
Illegal actions        ``illegal_action="terminate"`` (default; the offender's team -1:
                       the offender, and in 4p its partner too; others 0) or ``"raise"``;
                       an id outside 0..74 always raises ``ValueError``
Arguments              ``render_mode`` (``"ansi"``, ``"human"``, ``"rgb_array"``, ``"svg"``),
                       ``render_observer`` (seat or ``None``), ``illegal_action``, plus every field of
                       :class:`~maya_envs.maya2012.rules.Maya2012Config`
                       (``num_players``, ``setup``, ``max_turns``, ``at_max_turns``,
                       ``three_plus_two``, ``reward_scheme``, ``declare_step``, ...)
Version history        v0: first release (2p); 3-4p variants, ``setup="draft"`` and
                       ``reward_scheme`` added without changing 2p behaviour or ids.
                       v1: a real end (no legal exchange, a declaration) on the exchange
                       that reaches ``max_turns`` ends and scores the game (was cut by the
                       cap); 4p illegal-move penalty for both partners (was the offender
                       alone); ``info["end"]`` always names the end;
                       3-4p default ``declare_step="possible"`` (was
                       ``"eligible"``, which leaks a task card through the turn
                       order)
=====================  ===============================================================

Rule decisions are listed in :mod:`maya_envs.maya2012.rules`.
"""

from __future__ import annotations

from maya_envs.aec_base import GameAECEnv, env_functions, game_metadata
from maya_envs.games import game_of_module
from maya_envs.maya2012.observation import Maya2012Observer
from maya_envs.maya2012.render import render_text
from maya_envs.maya2012.render_image import draw
from maya_envs.maya2012.rules import Maya2012Rules

GAME = game_of_module(__name__)
"""This game's entry in :data:`maya_envs.games.GAMES`: its name, title and version."""


class Maya2012Env(GameAECEnv):
    """Unwrapped AEC env; see the module docstring for the spec card.

    Raises:
        ConfigError: an unknown game option or a bad value.
        ConfigError: an unknown ``render_mode`` or ``illegal_action``.
    """

    metadata = game_metadata(GAME.name)

    observer_class = Maya2012Observer
    rules_class = Maya2012Rules
    text_view = staticmethod(render_text)
    picture_view = staticmethod(draw)


raw_env, env = env_functions(Maya2012Env)
