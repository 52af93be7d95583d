"""Determinization checks: the states of seeded bot games, a sweep that every sample agrees with
the observer's view and conserves the components (each game's ``conserved`` in
``tests/<key>/hidden.py``), and the set of values samples reach."""

from __future__ import annotations

import importlib

import numpy as np

from maya_envs.bots import make_bot
from maya_envs.games import game_of_rules


def play_states(rules, seed: int, games: int = 2, kind: str = "random"):
    """Every state of ``games`` seeded bot games (the final states excluded)."""
    rng = np.random.default_rng(seed)
    bots = [make_bot(kind, rules, seed * 10 + s) for s in range(rules.spec.num_players)]
    for _ in range(games):
        state = rules.initial_state(rng)
        while rules.current_player(state) >= 0:
            yield state
            state = rules.apply_action(state, bots[rules.current_player(state)].act(state), rng)


def check_samples_agree_and_conserve(rules) -> None:
    """Every 3rd state of two random games, a sample for every observer: the same observation,
    mover and (for the mover) mask, the game's components conserved, and some sample differs."""
    game = game_of_rules(rules)
    determinize = game.hook("determinize")
    encoder = game.hook("observer")(rules)
    conserved = importlib.import_module(f"tests.{game.key}.hidden").conserved
    rng = np.random.default_rng(7)
    changed = 0
    checked = 0
    for index, state in enumerate(play_states(rules, seed=1)):
        if index % 3:
            continue
        mover = rules.current_player(state)
        for observer in range(rules.spec.num_players):
            sampled = determinize(rules, state, observer, rng)
            checked += 1
            changed += sampled != state
            assert np.array_equal(encoder.encode(sampled, observer), encoder.encode(state, observer))
            assert rules.current_player(sampled) == mover
            if observer == mover:
                assert np.array_equal(rules.legal_mask(sampled), rules.legal_mask(state))
            conserved(rules, state, sampled, observer)
    assert checked > 50 and changed > 0


def coverage(samples, key):
    """The set of ``key(sample)`` over ``samples``."""
    return {key(s) for s in samples}
