"""An RLlib checkpoint of :mod:`training.rllib_train` as an arena agent: the spec ``rllib:<path>``.

``<path>`` is the checkpoint directory (``<run dir>/checkpoint``) or the run directory. The
agent loads the RLModules saved under ``learner_group/learner/rl_module/<module id>`` and
plays, for the agent to move, the module that the training's policy mapping gave that seat
(``shared``: the same module everywhere; ``per_seat``: ``seat_<i>`` for ``player_<i>``). It
picks the highest masked logit (greedy, as SB3 models play in the arena with
``deterministic=True``). Needs ``ray`` (``pip install "maya-envs[rllib]"``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

PREFIX = "rllib:"
METADATA_FILE = "maya_rllib.json"  # the name training.rllib_train writes


def _import_ray_modules():
    try:
        import torch
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ImportError as error:
        raise ImportError(
            f"agent specs {PREFIX}<path> need Ray RLlib and torch, which are not installed "
            f"({error}); install them with: pip install 'maya-envs[rllib]'"
        ) from error
    return torch, RLModule


def find_checkpoint(path: str | Path) -> Path:
    """The checkpoint directory at ``path`` (itself, or ``path/checkpoint``).

    Raises:
        FileNotFoundError: no :data:`METADATA_FILE` at either place.
    """
    path = Path(path).expanduser()
    for candidate in (path, path / "checkpoint"):
        if (candidate / METADATA_FILE).is_file():
            return candidate
    raise FileNotFoundError(
        f"no RLlib checkpoint of training.rllib_train at {str(path)!r} (expected {METADATA_FILE} in it "
        "or in its checkpoint/ folder)"
    )


class RLlibAgent:
    """Plays an RLlib checkpoint in our AEC envs; used through ``choose(env, agent)``."""

    def __init__(self, path: str | Path) -> None:
        torch, rl_module = _import_ray_modules()
        self._torch = torch
        self.checkpoint = find_checkpoint(path)
        self.metadata = json.loads((self.checkpoint / METADATA_FILE).read_text())
        self.modules_by_agent: dict[str, str] = dict(self.metadata["modules"])
        root = self.checkpoint / "learner_group" / "learner" / "rl_module"
        self.modules = {
            module_id: rl_module.from_checkpoint(str((root / module_id).resolve()))
            for module_id in sorted(set(self.modules_by_agent.values()))
        }
        for module in self.modules.values():
            module.eval()

    def action_logits(self, observation: dict[str, np.ndarray], agent: str) -> np.ndarray:
        """Masked logits of the module that plays ``agent`` (``-inf``-like where masked).

        Raises:
            KeyError: ``agent`` is not an agent of the game the checkpoint was trained on.
        """
        if agent not in self.modules_by_agent:
            raise KeyError(f"agent {agent!r} is not in this checkpoint's mapping {sorted(self.modules_by_agent)}")
        torch = self._torch
        batch = {
            "obs": {
                "observation": torch.as_tensor(observation["observation"][None], dtype=torch.float32),
                "action_mask": torch.as_tensor(observation["action_mask"][None]),
            }
        }
        with torch.no_grad():
            out = self.modules[self.modules_by_agent[agent]].forward_inference(batch)
        return out["action_dist_inputs"][0].numpy()

    def choose(self, env, agent: str) -> int:
        """Greedy legal action for ``agent`` in ``env`` (an AEC env of the checkpoint's game)."""
        observation = env.observe(agent)
        logits = np.where(observation["action_mask"].astype(bool), self.action_logits(observation, agent), -np.inf)
        return int(np.argmax(logits))


def resolve_opponent(spec: str, rules: Any = None) -> RLlibAgent:
    """The ``rllib`` opponent resolver (entry point ``maya_envs.opponents``, see
    :mod:`maya_envs.wrappers.opponents`): :func:`load_rllib_agent` of ``spec``."""
    return load_rllib_agent(spec)


@cache
def load_rllib_agent(spec: str) -> RLlibAgent:
    """Resolve ``"rllib:<path>"`` (cached per spec: the arena resolves each seat's spec).

    Raises:
        ValueError: ``spec`` does not start with ``rllib:``.
        ImportError: Ray RLlib is not installed (the message says how to install it).
        FileNotFoundError: no checkpoint at the path.
    """
    if not spec.startswith(PREFIX):
        raise ValueError(f"an RLlib agent spec looks like {PREFIX}<checkpoint path>, got {spec!r}")
    return RLlibAgent(spec[len(PREFIX) :])
