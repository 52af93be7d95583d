"""Single-agent Gymnasium views of the multi-agent envs, with opponents in the loop."""

from maya_envs.wrappers.opponents import OpponentPolicy, make_opponent
from maya_envs.wrappers.single_agent import SingleAgentEnv

__all__ = ["OpponentPolicy", "SingleAgentEnv", "make_opponent"]
