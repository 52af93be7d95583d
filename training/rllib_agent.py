"""An RLlib checkpoint of :mod:`training.rllib_train` as an arena agent: the spec ``rllib:<path>``.

``<path>`` is the checkpoint directory (``<run dir>/checkpoint``) or the run directory. The
agent reads only the checkpoint's weights-only export (:mod:`training.rllib_policy`: plain JSON
and ``torch.load(weights_only=True)``), never Ray's pickles, and needs torch but not Ray. It
plays, for the agent to move, the module that the training's policy mapping gave that seat
(``shared``: the same module everywhere; ``per_seat``: ``seat_<i>`` for ``player_<i>``), picking
the highest masked logit (greedy, as SB3 models play in the arena with ``deterministic=True``).
A Ray checkpoint without the export is refused with the command that writes it
(:data:`training.rllib_policy.EXPORT_COMMAND`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

PREFIX = "rllib:"
METADATA_FILE = "maya_rllib.json"
"""Written by :mod:`training.rllib_train` into every checkpoint: game, options, policy mapping,
module ids, and the export's description (:mod:`training.rllib_policy`)."""


def _import_torch():
    try:
        import torch
    except ImportError as error:
        raise ImportError(
            f"agent specs {PREFIX}<path> need torch, which is not installed ({error}); install it with: "
            "pip install 'maya-envs[train]'"
        ) from error
    return torch


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


def _check_game(checkpoint: Path, metadata: dict[str, Any], nets: dict[str, Any]) -> dict[str, str]:
    """The agent -> module mapping of ``metadata`` once the game it names (made with its options)
    has exactly those agents, and each agent's observation and action sizes fit its network.

    Raises:
        UnreadableModel: anything that does not fit (the message says what differs).
    """
    from maya_envs.core.errors import shorten
    from maya_envs.games import make_aec_env
    from training.rllib_policy import refusal

    options = metadata.get("game_options", {})
    if not isinstance(options, dict):
        raise refusal(checkpoint, f"its game_options {shorten(options)} are not a JSON object")
    try:
        env = make_aec_env(metadata.get("game"), options)
    except (ValueError, TypeError, KeyError) as error:
        raise refusal(checkpoint, f"its game and options do not make a game ({error})") from None
    mapping = metadata["modules"]
    if sorted(mapping) != sorted(env.possible_agents):
        raise refusal(checkpoint, f"its agents {sorted(mapping)[:8]} are not the game's {env.possible_agents}")
    for agent, module_id in mapping.items():
        spec, space = nets[module_id].spec, env.observation_space(agent)["observation"]
        sizes = (spec["observation_size"], spec["num_actions"])
        if sizes != (space.shape[0], env.action_space(agent).n):
            raise refusal(
                checkpoint,
                f"module {module_id!r} takes {sizes[0]} observation values and {sizes[1]} actions; {agent} of "
                f"{metadata['game']} has {space.shape[0]} and {env.action_space(agent).n} (another game version?)",
            )
    return dict(mapping)


class RLlibAgent:
    """Plays an RLlib checkpoint's export in our AEC envs; used through ``choose(env, agent)``.

    Raises (constructor):
        FileNotFoundError: no checkpoint at ``path``.
        UnreadableModel: no export, or one that is malformed or does not fit its game.
    """

    def __init__(self, path: str | Path) -> None:
        from training.rllib_policy import read_export

        self._torch = _import_torch()
        self.checkpoint = find_checkpoint(path)
        self.metadata, self.modules = read_export(self.checkpoint)
        self.modules_by_agent = _check_game(self.checkpoint, self.metadata, self.modules)

    def action_logits(self, observation: dict[str, np.ndarray], agent: str) -> np.ndarray:
        """Masked logits, float32 ``(num_actions,)``, of the module that plays ``agent``
        (about ``-3.4e38`` where masked).

        Raises:
            KeyError: ``agent`` is not an agent of the game the checkpoint was trained on.
        """
        if agent not in self.modules_by_agent:
            raise KeyError(f"agent {agent!r} is not in this checkpoint's mapping {sorted(self.modules_by_agent)}")
        torch = self._torch
        inputs = (
            torch.as_tensor(observation["observation"][None], dtype=torch.float32),
            torch.as_tensor(observation["action_mask"][None]),
        )
        with torch.no_grad():
            return self.modules[self.modules_by_agent[agent]](*inputs)[0].numpy()

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
        ImportError: torch is not installed (the message says how to install it).
        FileNotFoundError: no checkpoint at the path.
        UnreadableModel: a checkpoint without a (valid) weights-only export.
    """
    if not spec.startswith(PREFIX):
        raise ValueError(f"an RLlib agent spec looks like {PREFIX}<checkpoint path>, got {spec!r}")
    return RLlibAgent(spec[len(PREFIX) :])
