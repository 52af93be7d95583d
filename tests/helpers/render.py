"""Rendering test helpers: random states, the facts an SVG shows, and the check that resampling
hidden data leaves a seat's picture unchanged."""

from __future__ import annotations

import numpy as np

from maya_envs.bots import make_bot
from maya_envs.records import make_env
from tests.conformance import play_states


def random_states(env, seed: int, every: int):
    """Every ``every``-th state of one random game of ``env``'s rules, and the last one."""
    rules = env.rules
    bots = [make_bot("random", rules, seed * 10 + s) for s in range(rules.spec.num_players)]
    states = list(play_states(rules, bots, np.random.default_rng(seed)))
    return states[::every] + [states[-1]]


def svg_facts(svg: str):
    """``(width, height, texts, keys)`` of an SVG picture; it must parse as XML."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    texts = sorted(t.text or "" for t in root.iter(f"{ns}text"))
    keys = {e.get("data-key") for e in root.iter() if e.get("data-key") is not None}
    return int(root.get("width")), int(root.get("height")), texts, keys


def svg_unchanged_by_resampling(env, states, observers, resample, rng) -> int:
    """Assert a seat's SVG is the same after ``resample(state, observer, rng)``; the number of
    states where the resampling changed something."""
    changed = 0
    for state in states:
        for observer in observers:
            other = resample(state, observer, rng)
            changed += other != state
            env.render_observer = observer
            env.game_state = state
            mine = env.render()
            env.game_state = other
            assert env.render() == mine
    return changed


def legend_texts(game: str) -> list[str]:
    """The texts of ``game``'s default SVG picture after ``reset(seed=0)``."""
    env = make_env(game, render_mode="svg")
    env.reset(seed=0)
    return svg_facts(env.render())[2]
