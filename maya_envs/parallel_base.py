"""Shared PettingZoo ``ParallelEnv`` over a rules engine with simultaneous phases.

The Parallel env is a view over the game's AEC env (:class:`maya_envs.aec_base.RulesAECEnv`):
a parallel step feeds the acting agents' actions to the AEC env one at a time. So seeding,
spaces, rendering, rewards and the final ``info`` are the AEC env's, and the two APIs play
identical games for the same seed and the same actions by construction.

The rules engine must provide, besides :class:`~maya_envs.core.protocol.Rules`:

* ``parallel_seats(state) -> tuple[int, ...]``: the seats acting in the next parallel step,
  in the order the AEC env asks them (the first is ``current_player(state)``);
* ``legal_actions_for(state, seat) -> list[int]``: the sorted legal ids of ``seat`` if it
  acts in the step, else ``[]``. Within one step a seat's legal ids must not depend on the
  actions of the seats before it (that is what makes the step simultaneous);
* ``wait_action: int``: the id an idle agent sends (see below).

Idle agents follow OpenSpiel's simultaneous-move convention (a player with no decision in a
simultaneous step passes action 0): every agent in ``agents`` must send an action, and one
that does not act in this step (a seat waiting for a clash's pending pick, for example) has
exactly one legal id, ``rules.wait_action``, in its ``action_mask``; so a mask is never all
zeros while the episode runs, and the usual ``rng.choice(np.flatnonzero(mask))`` loop works
for every agent. The wait changes nothing. An idle agent's action may also be left out (or
``None``); any other id is an illegal action. All actions are checked before any is
applied; ``actions`` must be a dict keyed by live agents (anything else raises
:class:`~maya_envs.core.errors.IllegalActionError`). Rewards are those the AEC env pays during
the step (Python floats; ``rules.returns`` on the step that ends the game), after which
``agents`` is empty, and the observations that step returns are those
:meth:`RulesParallelEnv.observe` gives from then on (all-zero masks). The spaces are the AEC
env's: one object per agent.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from maya_envs.aec_base import RulesAECEnv
from maya_envs.core.errors import IllegalActionError, ResetNeededError, shorten
from maya_envs.core.legal import check_action_id


class RulesParallelEnv(ParallelEnv):
    """PettingZoo Parallel env over an AEC env whose rules have ``parallel_seats`` and
    ``legal_actions_for`` (see the module docstring).

    Args:
        aec_env: the game's AEC env; its ``render_mode``, ``illegal_action`` and
            ``illegal_reward`` apply. Under ``"terminate"`` every offender of a step (and its
            partners in a team game) gets ``illegal_reward``, the others 0, and every info
            holds ``"illegal_action"``, ``"offenders"`` and ``"end": "illegal_action"``;
            under ``"raise"`` nothing of the step is applied.
    """

    def __init__(self, aec_env: RulesAECEnv) -> None:
        self.aec_env = aec_env
        self.rules = aec_env.rules
        self.metadata = {k: v for k, v in aec_env.metadata.items() if k != "is_parallelizable"}
        self.render_mode = aec_env.render_mode
        self.possible_agents = list(aec_env.possible_agents)
        self.agents: list[str] = []
        self.observation_spaces = aec_env.observation_spaces
        self.action_spaces = aec_env.action_spaces
        self._was_reset = False

    @property
    def game_state(self) -> Any:
        """The rules state (shared with the underlying AEC env)."""
        return self.aec_env.game_state

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def acting_agents(self) -> list[str]:
        """Agents whose actions the next :meth:`step` applies, in application order."""
        if not self.agents:
            return []
        return [self.possible_agents[s] for s in self.rules.parallel_seats(self.game_state)]

    def reset(self, seed: int | None = None, options: dict | None = None):
        aec = self.aec_env
        aec.reset(seed=seed, options=options)
        self._was_reset = True
        over = all(aec.terminations[a] or aec.truncations[a] for a in aec.agents)
        self.agents = [] if over else list(self.possible_agents)  # a game over before any step
        return self._observations(), {agent: copy.deepcopy(aec.infos[agent]) for agent in self.possible_agents}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32, "action_mask": int8}`` of ``agent`` now: its legal ids if it
        acts in the next step, only ``rules.wait_action`` if it waits, all 0 once the episode is
        over.

        Raises:
            ResetNeededError: before the first :meth:`reset`.
        """
        self._check_reset("observe")
        seat = self.aec_env.seat_of(agent)
        mask = np.zeros(self.rules.spec.num_actions, np.int8)
        if self.agents:
            legal = self.rules.legal_actions_for(self.game_state, seat)
            mask[legal if legal else [self.rules.wait_action]] = 1
        return {"observation": self.aec_env.observer.encode(self.game_state, seat), "action_mask": mask}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self.observe(agent) for agent in self.possible_agents}

    def step(self, actions: dict[str, Any]):
        """Apply one action per acting agent (see the module docstring).

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``, dicts keyed by the
            agents live before the step; ``rewards`` are Python floats. On the step that ends
            the episode ``agents`` is emptied first, so its observations are what
            :meth:`observe` gives afterwards (all-zero masks).

        Raises:
            ResetNeededError: before the first :meth:`reset`, or after the episode ended.
            ValueError: an acting agent has no action.
            IllegalActionError: ``actions`` is not a dict of live agents, an action id is not
                an int in ``[0, num_actions)`` (always raised), or an illegal action with
                ``illegal_action="raise"`` (an idle agent's id other than ``rules.wait_action``
                included).
        """
        self._check_step_input(actions)
        chosen, offenders = self._choices(actions)
        agents = list(self.agents)
        if offenders:
            message = "; ".join(text for _, text in offenders)
            if self.aec_env.illegal_action == "raise":
                raise IllegalActionError(message)
            warnings.warn(message + "; the game ends with the illegal-action penalty", stacklevel=2)
            ended = self._end_illegally(message, [agent for agent, _ in offenders], agents)
            self._end_the_record(chosen, [agent for agent, _ in offenders])
            return ended
        aec = self.aec_env
        rewards = dict.fromkeys(agents, 0.0)
        for agent, action in chosen:
            if aec.agent_selection != agent:
                raise RuntimeError(
                    f"rules broke the parallel contract: expected {agent}, AEC asks {aec.agent_selection}"
                )
            aec.step(action)
            for a in agents:
                rewards[a] += aec.rewards[a]
        terminations = {a: aec.terminations[a] for a in agents}
        truncations = {a: aec.truncations[a] for a in agents}
        infos = {a: copy.deepcopy(aec.infos[a]) for a in agents}
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []  # before the observations: an ended episode's masks are all zero
        return self._observations(), rewards, terminations, truncations, infos

    def _check_step_input(self, actions: Any) -> None:
        """Refuse a step before reset or after the end, and ``actions`` that is not a dict of
        live agents (:meth:`step`'s errors)."""
        self._check_reset("step")
        if not self.agents:
            raise ResetNeededError("step() after the episode ended (agents is empty): call reset() to start a new game")
        if not isinstance(actions, dict):
            raise IllegalActionError(
                f"step() takes a dict {{agent: action}} for the live agents {self.agents}, got "
                f"{type(actions).__name__} {shorten(actions)}"
            )
        strangers = [agent for agent in actions if agent not in self.agents]
        if strangers:
            raise IllegalActionError(f"actions for {strangers}, which are not live agents; live agents: {self.agents}")

    def _choices(self, actions: dict[str, Any]) -> tuple[list[tuple[str, int]], list[tuple[str, str]]]:
        """``(agent, action id)`` of the acting agents in order, and ``(agent, why)`` for each illegal one: an
        idle agent's id other than ``rules.wait_action`` or an acting agent's illegal id.

        Raises:
            ValueError: an acting agent has no action.
            IllegalActionError: an id that is not an int in ``[0, num_actions)``.
        """
        rules, state = self.rules, self.game_state
        acting = self.acting_agents()
        chosen, offenders = [], []
        wait = rules.wait_action
        for agent in self.agents:
            if agent in acting or actions.get(agent) is None:
                continue
            action = check_action_id(actions[agent], rules.spec.num_actions)
            if action != wait:
                offenders.append((agent, f"{agent} waits in this step and chose {action}; its only legal id is {wait}"))
        for agent in acting:
            if actions.get(agent) is None:
                raise ValueError(f"no action for {agent}; this step needs actions from {acting}")
            action = check_action_id(actions[agent], rules.spec.num_actions)
            legal = rules.legal_actions_for(state, self.aec_env.seat_of(agent))
            if action not in legal:
                why = f"{agent} chose illegal action {action} ({rules.action_to_string(action)}); legal ids: {legal}"
                offenders.append((agent, why))
            chosen.append((agent, action))
        return chosen, offenders

    def _end_illegally(self, message: str, bad: list[str], agents: list[str]):
        """End the episode on illegal actions: the offenders' teams get the penalty, every agent
        terminates with the same ``info`` (:meth:`step`'s return value)."""
        aec = self.aec_env
        penalised = {member for agent in bad for member in aec.team_of(agent)}
        rewards = {a: (aec.illegal_reward if a in penalised else 0.0) for a in agents}
        info = {"illegal_action": message, "offenders": bad, "end": "illegal_action"}
        self.agents = []
        return (
            self._observations(),
            rewards,
            dict.fromkeys(agents, True),
            dict.fromkeys(agents, False),
            {a: copy.deepcopy(info) for a in agents},
        )

    def _end_the_record(self, chosen: list[tuple[str, int]], bad: list[str]) -> None:
        """Play a recorded game's illegal ending into the AEC env as the AEC env itself ends one,
        so that its :class:`~maya_envs.records.RecordingWrapper` writes an end line that replays
        to the same end: the commits before the offender's, then the offender's illegal id.

        Only where the AEC env records and one acting agent offended: that is the same ending
        (its team penalised, the others 0). Several offenders at once, or an idle agent's id,
        have no AEC equivalent (the first illegal action would end the game alone): such a
        record keeps the moves before the step and no end line, and loads as an unfinished game
        (documented in ``docs/security_inputs.md``).
        """
        aec = self.aec_env
        acting = [agent for agent, _ in chosen]
        if getattr(aec, "record", None) is None or len(bad) != 1 or bad[0] not in acting:
            return
        with warnings.catch_warnings():  # the step already warned once, in the Parallel env's words
            warnings.simplefilter("ignore")
            for agent, action in chosen:
                if aec.agent_selection != agent:
                    return
                aec.step(action)
                if agent == bad[0]:
                    return

    def render(self) -> str | None:
        """The AEC env's ``render``.

        Raises:
            ResetNeededError: before the first :meth:`reset` (with a ``render_mode``).
        """
        if self.render_mode is not None:
            self._check_reset("render")
        return self.aec_env.render()

    def _check_reset(self, call: str) -> None:
        if not self._was_reset:
            raise ResetNeededError(f"{call}() before reset(): call reset() first")

    def state(self) -> np.ndarray:
        raise NotImplementedError("no global state array: use env.game_state (the rules state)")

    def close(self) -> None:
        self.aec_env.close()
