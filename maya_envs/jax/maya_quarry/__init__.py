"""Maya (Abacusspiele 2003), the quarry game, as a JAX environment with Pgx's API: jit-compiled,
vmapped, equal to the rules engine step for step.

=====================  ===============================================================
Import                 ``from maya_envs.jax import MayaQuarry`` (the ``jax`` extra)
Class                  :class:`MayaQuarry`, a ``pgx.Env``: ``init(key)``, ``step(state,
                       action, key)``, ``observe(state, player_id)``; pure functions,
                       ``jax.jit`` / ``jax.vmap`` them
Players                3, 4 or 5 (``num_players``); ``state.current_player`` is the seat
                       that decides (player id = seat): not cyclic (-3 targets, marker
                       decisions and auction picks belong to their owners)
Actions                the ids of :mod:`maya_envs.maya_quarry.actions`: 114 (basic),
                       164 (``variant="advanced"``)
State                  :class:`State`: Pgx's six public fields and the game in
                       ``state._x`` (:class:`~.tables.Game`, the rules state's fields as
                       fixed-shape arrays)
Observation            the PettingZoo env's vector, value for value
                       (:mod:`maya_envs.maya_quarry.observation`: 612/774/1061 values at
                       3/4/5 players, advanced 679/858/1164); ``observe(state, seat)``
                       reads only that seat's view: other seats' face-down card values
                       and hands, and sealed bids before the last one, never enter it
Rewards                paid on the step that ends the game (rules ``returns``:
                       ``win_loss`` or ``gold_diff``); zero-sum
Termination            after the third round's scoring; never truncated. Pgx conventions:
                       at the end the mask is all ``True`` and a step on a finished
                       state changes nothing
Illegal actions        the PettingZoo default ``illegal_action="terminate"``: the game
                       ends on the position before the move, the offender gets -1, the
                       others 0; ids outside the table likewise; a non-integer id raises
                       ``TypeError``
Options                every :class:`~maya_envs.maya_quarry.rules.MayaQuarryConfig`
                       field and value, ``components=`` tables included (each table is
                       one set of array shapes): ``variant``, ``minus3_targets``,
                       ``minus3_no_target``, ``pool_shortfall``, ``global_level_rule``,
                       ``missing_levels_full``, ``bonus_block_recipient``,
                       ``bonus_on_special_placements``, ``relocate_unsupported``,
                       ``skip_forced``, ``plus2_empty_quarry``, ``first_start_player``,
                       ``reward_scheme``, ``gold_diff_scale``. None is left out
Randomness             ``init(key)``: the start player with ``first_start_player=
                       "random"``; ``step(state, action, key)``: the advanced variant's
                       ``n - 1`` blue markers of the next round (3-4 players; all four at
                       5), drawn when the round begins and held in ``state._x.blue_offer``
Equality               :func:`state_from_rules` / :func:`state_to_rules` convert both ways;
                       given the same chance outcomes (the rules' ``OutcomeScript`` fed with
                       the JAX draw) the two engines give the same states, masks, every
                       seat's observations, rewards and endings
                       (``tests/jax/test_maya_quarry.py``)
Version                ``MayaQuarry.version``: the game table's version of the rules this
                       engine repeats (a test compares them)
=====================  ===============================================================

Modules: :mod:`.tables` (the config's constants and the :class:`~.tables.Game` arrays),
:mod:`.board` (pyramids: placements, bonus blocks, erosion, scoring), :mod:`.flow` (the mask,
each decision, the steps nobody decides), :mod:`.observe` (the observation), :mod:`.env` (the
``pgx.Env``), :mod:`.convert` (the rules state both ways). Rule decisions and sources:
:mod:`maya_envs.maya_quarry.rules` (repeated here as array operations, under the equality tests).
A step runs the rules' forced decisions (``skip_forced``) and the quarry reveals in one
``jax.lax.while_loop``, so a batched step costs as many loop passes as its busiest game.
"""

from maya_envs.jax.maya_quarry.convert import game_from_rules, state_from_rules, state_to_rules
from maya_envs.jax.maya_quarry.env import ENV_ID, MayaQuarry, State

__all__ = ["ENV_ID", "MayaQuarry", "State", "game_from_rules", "state_from_rules", "state_to_rules"]
