"""Helpers for the Yaxha tests: hand-built pyramids and random playouts."""

from __future__ import annotations

import dataclasses

import numpy as np

from maya_envs.core.errors import IllegalActionError
from maya_envs.yaxha.actions import COLOUR_LETTERS, Geometry
from maya_envs.yaxha.rules import YaxhaRules, YaxhaState


def pyramid(geometry: Geometry, *levels: str) -> tuple[int, ...]:
    """Pyramid from one text block per level (rows = y, columns = x, ``.`` empty, letters
    ``OBGYW``), cropped at the grid origin."""
    cells = [-1] * geometry.num_cells
    for z, block in enumerate(levels):
        for y, row in enumerate(block.split()):
            for x, ch in enumerate(row):
                if ch != ".":
                    cells[geometry.index[(x, y, z)]] = COLOUR_LETTERS.index(ch)
    return tuple(cells)


def with_fields(state: YaxhaState, **fields) -> YaxhaState:
    return dataclasses.replace(state, **fields)


def play_random(rules: YaxhaRules, seed: int, bot_seed: int | None = None):
    """Yield (state, action) pairs of one random game and finally (last_state, None)."""
    from maya_envs.bots import RandomBot

    rng = np.random.default_rng(seed)
    bot = RandomBot(rules, seed if bot_seed is None else bot_seed)
    state = rules.initial_state(rng)
    while not rules.is_terminal(state):
        action = bot.act(state)
        yield state, action
        state = rules.apply_action(state, action, rng)
    yield state, None


def accepted(rules, state, rng) -> set[int]:
    out = set()
    for action in range(rules.spec.num_actions):
        try:
            rules.apply_action(state, action, rng)
        except IllegalActionError:
            continue
        out.add(action)
    return out
