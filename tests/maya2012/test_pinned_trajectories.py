"""Seeded Maya (2012) trajectories pinned bit for bit (issue 19: speed work keeps every env
identical). For each config, a few games through the AEC env from ``reset(seed=...)`` with a
seeded random policy over the mask: every observation (bytes; every seat's), mask, reward, termination,
truncation, the final ``info`` and every full state (``state_to_dict``, hidden cards included)
go into one SHA-256 digest, compared with the digest recorded before the speed work. A change
here is a change of what the env does for the same options, seed and actions: it needs a
version bump (README "Versions"), never a new digest alone.

The digests hold for numpy's ``Generator`` streams (stable across the numpy versions the
package supports)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from maya_envs.maya2012.bots import HeuristicBot
from maya_envs.maya2012.rules import Maya2012Rules
from tests.conformance import env_module

ENV_MODULE = env_module("maya2012")

PINNED = {
    "2p choose": "c00bf773994cb2430e23cd597960c59a868b09309dd389fec4f4a64de8c3f3b7",
    "2p random": "e58b4d24ce3fdb6dce5685bc8a82a407d20410d8daeef764728795795c18185b",
    "2p draft": "76ba8497b90860e9189b77d20e4f7190df0bcc549ba3a44461acf01ef472130d",
    "3p random": "213ea3b48936957f70d93038a6ea320e5c9f4a4bedadde95a164adfd8dfca5a4",
    "3p draft always": "46c0543da75a4102709d70b41faa9fffe95604f61c20d005845b895af7c750ba",
    "4p random": "906012415f8a9025b4680bf1ca8dd5658121e034e871e681cba05aee862ab6f4",
    "4p draft eligible": "1f609b1f765ed6d676a52e26961143031de7c5bc47b5741a00a36babbb308d96",
}
OPTIONS = {
    "2p choose": {},
    "2p random": {"setup": "random", "max_turns": 150},
    "2p draft": {"setup": "draft", "max_turns": 60, "at_max_turns": "truncate"},
    "3p random": {"num_players": 3},
    "3p draft always": {"num_players": 3, "setup": "draft", "declare_step": "always", "three_plus_two": "best"},
    "4p random": {"num_players": 4, "reward_scheme": "score_diff"},
    "4p draft eligible": {"num_players": 4, "setup": "draft", "declare_step": "eligible"},
}
GAMES = 3


def trajectory_digest(options: dict, games: int = GAMES) -> str:
    digest = hashlib.sha256()
    env = ENV_MODULE.env(**options)
    for game in range(games):
        env.reset(seed=1000 + game)
        rng = np.random.default_rng(game)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            digest.update(agent.encode())
            digest.update(obs["observation"].tobytes())
            digest.update(obs["action_mask"].tobytes())
            for other in env.agents:  # every seat's view, not only the mover's
                digest.update(env.observe(other)["observation"].tobytes())
            digest.update(np.float64(reward).tobytes())
            digest.update(bytes([terminated, truncated]))
            digest.update(json.dumps(env.rules.state_to_dict(env.game_state), sort_keys=True).encode())
            if terminated or truncated:
                digest.update(json.dumps(info, sort_keys=True, default=str).encode())
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return digest.hexdigest()


@pytest.mark.parametrize("label", list(OPTIONS))
def test_seeded_trajectories_are_unchanged(label):
    assert trajectory_digest(OPTIONS[label]) == PINNED[label]


PINNED_HEURISTIC = {
    "2p choose": "57984b4c99610080d80a5eda4740e5346953f21ba9d8692d683abbe915487c85",
    "3p random": "52075d6e6804cfdc15dab7f8ec4d2242ea24be3ea97c8d2885ac2baf7eac8f57",
    "4p random": "0bc0c918731fd316c13a207c7735c52578b3f6ccd2941393703dd62c62791cdd",
}
HEURISTIC_OPTIONS = {
    "2p choose": {},
    "3p random": {"num_players": 3},
    "4p random": {"num_players": 4, "three_plus_two": "best"},
}


def heuristic_digest(options: dict, games: int = 2) -> str:
    """SHA-256 of the actions of seeded heuristic self-play games on the rules engine."""
    rules = Maya2012Rules(options)
    actions = []
    for game in range(games):
        rng = np.random.default_rng(game)
        bots = [HeuristicBot(rules, 10 * game + seat) for seat in range(rules.config.num_players)]
        state = rules.initial_state(rng)
        while rules.current_player(state) >= 0:
            action = bots[rules.current_player(state)].act(state)
            actions.append(action)
            state = rules.apply_action(state, action, rng)
    return hashlib.sha256(json.dumps(actions).encode()).hexdigest()


@pytest.mark.parametrize("label", list(HEURISTIC_OPTIONS))
def test_seeded_heuristic_games_are_unchanged(label):
    """The heuristic bot's choices (and its generator's use) stay the same too."""
    assert heuristic_digest(HEURISTIC_OPTIONS[label]) == PINNED_HEURISTIC[label]
