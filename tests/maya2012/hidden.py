"""What a Maya (2012) seat may not see redrawn: the resampler every hidden-information test of the game
uses, and the cross-cutting web tests reach through the game's key
(:func:`tests.conformance.resample_hidden`)."""

from __future__ import annotations

import numpy as np

from maya_envs.maya2012.rules import CENTRE, _replace


def resample_hidden(state, observer: int, rng: np.random.Generator):
    """``state`` with every hand but the observer's and the face-down pair redealt from the
    cards the observer cannot see; ``state`` itself before the deal (a drafted setup deals
    the task cards when its draft ends: until then nothing is hidden)."""
    if not state.tasks:
        return state
    n = state.num_players
    unknown = [c for seat in range(n) if seat != observer for c in state.tasks[seat]] + list(state.spare)
    unknown = [int(c) for c in rng.permutation(unknown)]
    tasks = []
    for seat in range(n):
        if seat == observer:
            tasks.append(state.tasks[seat])
        else:
            tasks.append(tuple(sorted(unknown[:2])))
            unknown = unknown[2:]
    return _replace(state, tasks=tuple(tasks), spare=tuple(sorted(unknown)))


def conserved(rules, true, sampled, observer: int) -> None:
    """The components of ``sampled`` (a ``determinize`` sample for ``observer``) are those of
    ``true`` (tests/bots/test_determinize.py calls this for every hidden-information case)."""
    assert sampled.towers == true.towers and bool(sampled.tasks) == bool(true.tasks)
    if true.tasks:
        assert sampled.tasks[observer] == true.tasks[observer]
        cards = [c for hand in sampled.tasks for c in hand] + list(sampled.spare)
        assert sorted(cards + [sampled.towers[CENTRE][0]]) == list(range(9))
        assert len(sampled.spare) == len(true.spare)
