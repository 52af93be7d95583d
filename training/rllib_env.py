"""Our AEC envs as an RLlib ``MultiAgentEnv`` (one agent acts per step).

A thin adapter of ours rather than RLlib's ``PettingZooEnv`` wrapper, because that wrapper
orders the agents from a ``set`` (so ``possible_agents`` changes between processes), returns
``None`` infos on reset and has no way to count illegal actions. This one:

* emits the observation of the agent to move (``{"observation", "action_mask"}``, unchanged),
  with the reward that agent accumulated since it last acted (AEC ``last()`` semantics);
* at the end of a game, steps every agent's dead step and emits each agent's final
  observation, reward and ``terminated``/``truncated`` flag, then ``"__all__"``;
* counts illegal actions (``illegal_actions``: the env ends the game with the offender's
  ``info["illegal_action"]``; the masking module must keep this at 0) and reports the
  episode's count in the offender's final info under ``"illegal_actions"``.

Only ``gymnasium`` and ``ray`` are needed; ``ray`` is imported here, so import this module
only where RLlib is installed (``pip install "maya-envs[rllib]"``).
"""

from __future__ import annotations

from typing import Any

from ray.rllib.env.multi_agent_env import MultiAgentEnv

from maya_envs.games import DEFAULT_GAME, make_aec_env


class MayaMultiAgentEnv(MultiAgentEnv):
    """RLlib view of one game; ``config`` is ``{"game": ..., "game_options": {...}}``.

    RLlib passes its ``env_config`` (an ``EnvContext``, a dict) as ``config``.
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.aec = make_aec_env(config.get("game", DEFAULT_GAME.key), config.get("game_options"))
        self.possible_agents = list(self.aec.possible_agents)
        self.agents = list(self.possible_agents)
        self.observation_spaces = {agent: self.aec.observation_space(agent) for agent in self.possible_agents}
        self.action_spaces = {agent: self.aec.action_space(agent) for agent in self.possible_agents}
        self.illegal_actions = 0
        """Illegal actions taken in this env since it was built."""

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        agent = self.aec.agent_selection
        return {agent: self.aec.observe(agent)}, {agent: {}}

    def step(self, action_dict: dict[str, Any]):
        mover = self.aec.agent_selection
        if mover not in action_dict:
            raise ValueError(f"expected an action for {mover!r} (the agent to move), got {sorted(action_dict)}")
        self.aec.step(action_dict[mover])
        illegal = "illegal_action" in self.aec.infos.get(mover, {})
        self.illegal_actions += int(illegal)
        obs, rewards, terminateds, truncateds, infos = {}, {}, {}, {}, {}
        while self.aec.agents:
            agent = self.aec.agent_selection
            observation, reward, terminated, truncated, info = self.aec.last()
            obs[agent], rewards[agent] = observation, float(reward)
            terminateds[agent], truncateds[agent] = bool(terminated), bool(truncated)
            infos[agent] = dict(info)
            if not (terminated or truncated):
                break
            self.aec.step(None)
        if illegal and mover in infos:
            infos[mover]["illegal_actions"] = 1
        over = not self.aec.agents
        # at the end, the agents whose final step this is stay listed (RLlib checks against them)
        self.agents = list(obs) if over else list(self.aec.agents)
        truncated_any = any(truncateds.values())
        terminateds["__all__"] = over and not truncated_any
        truncateds["__all__"] = over and truncated_any
        return obs, rewards, terminateds, truncateds, infos
