"""Determinization in Yaxha: what a sample conserves (for the sweep in
tests/bots/test_determinize.py), hidden choices and cubes covering every possibility."""

from __future__ import annotations

import dataclasses

import numpy as np

from maya_envs.yaxha import determinize as yaxha_det
from maya_envs.yaxha.rules import BUILD, SELECT, YaxhaRules
from tests.helpers.determinize import coverage, play_states


def test_yaxha_hidden_choices_and_cubes_cover_every_possibility():
    rules = YaxhaRules(num_players=3)
    rng = np.random.default_rng(0)
    select = build = None
    for state in play_states(rules, seed=5, games=1):
        if state.phase == SELECT and state.choices[0] >= 0 and state.choices[1] < 0 and select is None:
            select = state
        if state.phase == BUILD and state.round >= 3 and state.build_step == 2 and build is None:
            build = state  # seats 0 and 1 have placed one cube, seat 2 is to move
    samples = [yaxha_det.determinize(rules, select, 1, rng) for _ in range(200)]
    assert coverage(samples, lambda s: s.choices[0]) == set(range(3))
    samples = [yaxha_det.determinize(rules, build, 2, rng) for _ in range(1500)]
    # seat 0's hidden first cube: every legal first step from its visible pyramid and tile
    visible = list(build.pyramids[0])
    for cell in build.fresh[0]:
        visible[cell] = -1
    start = dataclasses.replace(
        build,
        build_step=0,
        pyramids=(tuple(visible),) + build.pyramids[1:],
        hands=(build.market[build.owner.index(0)],) + build.hands[1:],
    )
    table = rules.table
    possible = set()
    for action in rules.legal_actions_for(start, 0):
        if action < table.discard_start:
            colour, cell = divmod(action - table.place_start, table.num_cells)
            possible.add((cell, colour))
        else:
            possible.add(("discard", action - table.discard_start))

    def first(s):
        if s.fresh[0]:
            return (s.fresh[0][0], s.pyramids[0][s.fresh[0][0]])
        return ("discard", next(c for c in range(5) if s.hands[0][c] < build.market[build.owner.index(0)][c]))

    assert coverage(samples, first) == possible
