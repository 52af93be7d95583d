"""Search test helpers: evaluators (uniform, a deterministic oracle over one seat's observation),
seeded random positions, and the first games of the table with perfect information / chance."""

from __future__ import annotations

import numpy as np

from tests.conformance import first_game


def uniform_evaluator(rules, exact=None):
    """A uniform prior; values 0 for an unfinished state, or ``exact(state)`` (absolute seats)."""
    calls = []

    def evaluator(states, seats):
        calls.append((list(states), list(seats)))
        priors = [np.full(len(rules.legal_actions(s)), 1.0 / len(rules.legal_actions(s))) for s in states]
        if exact is None:
            values = np.zeros((len(states), rules.spec.num_players))
        else:
            values = np.stack([exact(s) for s in states])
        return priors, values

    evaluator.calls = calls
    return evaluator


def random_positions(rules, count, seed, steps=(3, 9)):
    rng = np.random.default_rng(seed)
    states = []
    for i in range(count):
        state = rules.initial_state(rng)
        for _ in range(steps[0] + i * steps[1]):
            legal = rules.legal_actions(state)
            if rules.current_player(rules.apply_action(state, legal[0], rng)) < 0:
                break
            state = rules.apply_action(state, legal[int(rng.integers(len(legal)))], rng)
        states.append(state)
    return states


def random_oracle(rules, observer_of):
    """A deterministic evaluator that sees only ``observer.encode(state, seat)``: priors and
    values are fixed functions of that observation."""
    observer = observer_of(rules)

    def evaluator(states, seats):
        priors, values = [], []
        for state, seat in zip(states, seats, strict=True):
            obs = observer.encode(state, seat)
            legal = rules.legal_actions(state)
            h = np.sin(np.arange(1, len(obs) + 1) @ obs + np.arange(len(legal)) * 1.7)
            priors.append(np.exp(h) / np.exp(h).sum())
            values.append(np.tanh(np.cos(obs.sum() + np.arange(rules.spec.num_players))))
        return priors, np.array(values)

    return evaluator


#: the first game whose default is a game of perfect information (no determinization needed)
PERFECT = first_game("perfect information by default", lambda g: g.make_rules({}).spec.information == "perfect")


#: the first game whose default draws chance outcomes during play
CHANCE = first_game("chance during play by default", lambda g: g.make_rules({}).spec.chance)
