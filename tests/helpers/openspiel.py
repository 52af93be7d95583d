"""OpenSpiel test helpers (skips the importing module without OpenSpiel): the games' OpenSpiel
names, a chance step, and a game between OpenSpiel bots and ours."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="OpenSpiel is not installed: pip install 'maya-envs[openspiel]' (scripts/test.sh installs it where "
    "PyPI has a wheel for this Python and platform)",
)

from maya_envs.games import GAMES  # noqa: E402
from maya_envs.openspiel import MayaBot  # noqa: E402
from maya_envs.openspiel.games import entries  # noqa: E402

SPIEL_NAMES = {key: entry.short_name for key, entry in zip(GAMES, entries(), strict=True)}
"""Game key -> the name ``pyspiel.load_game`` takes (one OpenSpiel entry per game, in table order)."""


def chance_step(state, rng):
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(int(rng.choice(outcomes, p=probs)))


def play_spiel(game, pick, seed, max_decisions=None):
    """Play one game: ``pick(state) -> action`` at decision nodes, chance sampled by its
    probabilities. Returns (illegal actions, decisions, returns)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    illegal = decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        action = pick(state)
        if action not in state.legal_actions():
            illegal += 1
            action = state.legal_actions()[0]
        state.apply_action(action)
        decisions += 1
    return illegal, decisions, state.returns()


def our_bot(game, name, seed):
    return MayaBot(game, name, seed=seed).step
