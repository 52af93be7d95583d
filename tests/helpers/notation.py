"""States for the notation tests: every state of seeded random games."""

from __future__ import annotations

import numpy as np

from maya_envs.bots import RandomBot


def random_states(rules, seed: int, every: int = 1):
    """The states of one random game (every ``every``-th), each with its mover."""
    bots = [RandomBot(rules, seed=seed + s) for s in range(rules.spec.num_players)]
    state = rules.initial_state(np.random.default_rng(seed))
    for step in range(rules.spec.max_game_length):
        mover = rules.current_player(state)
        if mover < 0:
            return
        if step % every == 0:
            yield state, mover
        state = rules.apply_action(state, bots[mover].act(state), np.random.default_rng(step))
