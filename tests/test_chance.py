"""Explicit chance (maya_envs.core.chance): the generator path and the chance-outcome path of
every game's rules give the same states, and the chance nodes' probabilities are exact."""

from __future__ import annotations

import math

import numpy as np
import pytest

from maya_envs.core.chance import ChanceNeeded, OutcomeRecorder, OutcomeScript
from maya_envs.core.errors import IllegalActionError
from maya_envs.maya2012.rules import Maya2012Rules
from maya_envs.maya2012.setup import _bregman_bound, board_outcomes, draw_towers, random_towers
from maya_envs.maya_quarry.rules import MayaQuarryRules
from maya_envs.yaxha.rules import YaxhaRules

CONFIGS = [
    *[(Maya2012Rules, {"num_players": 2, "setup": s, "max_turns": 30}) for s in ("choose", "random", "draft")],
    *[(Maya2012Rules, {"num_players": n, "setup": s, "max_turns": 30}) for n in (3, 4) for s in ("random", "draft")],
    *[(YaxhaRules, {"num_players": n}) for n in (2, 3, 4)],
    (YaxhaRules, {"num_players": 2, "bonus_cards": "first_game"}),
    *[(MayaQuarryRules, {"num_players": n, "variant": "advanced", "first_start_player": "random"}) for n in (3, 4)],
    (MayaQuarryRules, {"num_players": 5, "variant": "basic", "first_start_player": "random"}),
]


def _rules(make, options):
    return make(**options) if make is YaxhaRules else make(options)


def _ids(options):
    return "-".join(f"{k}={v}" for k, v in options.items())


@pytest.mark.parametrize(("make", "options"), CONFIGS, ids=[_ids(o) for _, o in CONFIGS])
def test_generator_and_chance_outcome_paths_give_identical_states(make, options):
    """Each step is taken three ways: with the generator (the env's path), with a recorder
    over an equally seeded generator, and with the recorded outcomes as a script; the three
    states are equal, and the script path needs exactly the recorded outcomes."""
    rules = _rules(make, options)
    plain_rng, recorded_rng = np.random.default_rng(7), np.random.default_rng(7)
    pick = np.random.default_rng(8)
    drawn_steps = 0

    def three_ways(step):
        nonlocal drawn_steps
        recorder = OutcomeRecorder(recorded_rng)
        plain = step(plain_rng)
        recorded = step(recorder)
        script = OutcomeScript(recorder.outcomes)
        scripted = step(script)
        assert plain == recorded == scripted
        assert script.used == len(recorder.outcomes)
        if recorder.outcomes:
            drawn_steps += 1
            with pytest.raises(ChanceNeeded):  # one outcome short: the last node is asked for
                step(OutcomeScript(recorder.outcomes[:-1]))
        return plain

    state = three_ways(rules.initial_state)
    for _ in range(400):
        if rules.is_terminal(state) or rules.is_truncated(state):
            break
        legal = rules.legal_actions(state)
        action = legal[int(pick.integers(len(legal)))]
        state = three_ways(lambda rng, s=state, a=action: rules.apply_action(s, a, rng))
    assert drawn_steps >= 1


def _walk(step, outcomes):
    """Chance nodes met while ``step`` consumes ``outcomes``: [(node outcomes, chosen), ...]."""
    nodes = []
    while True:
        try:
            step(OutcomeScript(outcomes[: len(nodes)]))
        except ChanceNeeded as need:
            nodes.append((need.outcomes, outcomes[len(nodes)]))
            continue
        return nodes


@pytest.mark.parametrize(("make", "options"), CONFIGS, ids=[_ids(o) for _, o in CONFIGS])
def test_chance_nodes_have_probabilities_summing_to_one(make, options):
    rules = _rules(make, options)
    recorder = OutcomeRecorder(np.random.default_rng(3))
    rules.initial_state(recorder)
    nodes = _walk(rules.initial_state, recorder.outcomes)
    assert len(nodes) == len(recorder.outcomes)
    for outcomes, chosen in nodes:
        ids = [o for o, _ in outcomes]
        assert ids == sorted(set(ids)) and all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-12)
        assert chosen in ids


def test_every_board_has_the_same_chance_path_probability():
    """The board's chance nodes make every valid board equally likely: along a board's nodes
    (every attempt going on) the product of probabilities is ``1/9! * prod_L 1/B_L`` for any
    board (the sampler's acceptance of one attempt), which fails if a cell's weights were off."""
    expected = 1 / math.factorial(9) * math.prod(1 / _bregman_bound(9 - level, 9) for level in range(1, 5))
    rng = np.random.default_rng(0)
    for _ in range(6):
        towers = random_towers(rng)
        nodes = _walk(draw_towers, board_outcomes(towers))
        probability = math.prod(dict(outcomes)[chosen] for outcomes, chosen in nodes)
        assert math.isclose(probability, expected, rel_tol=1e-9)
        assert draw_towers(OutcomeScript(board_outcomes(towers))) == towers


def test_start_over_empties_the_board():
    rng = np.random.default_rng(1)
    towers = random_towers(rng)
    outcomes = board_outcomes(towers)
    # level 1 is 8 nodes (the 9th tower's colour is forced), then level 2's attempt node
    assert outcomes[8] == 1
    restarted = outcomes[:8] + [0] + outcomes
    assert draw_towers(OutcomeScript(restarted)) == towers


def test_scripted_outcome_that_is_impossible_is_refused():
    rules = YaxhaRules(num_players=2, bonus_cards=(0, 1, 2))
    with pytest.raises(IllegalActionError, match="chance outcome 9 is not possible for this initiative"):
        rules.initial_state(OutcomeScript([9]))
    with pytest.raises(ValueError, match="not a valid board"):
        board_outcomes(((0,) * 5,) * 9)


@pytest.mark.parametrize(("make", "options"), CONFIGS, ids=[_ids(o) for _, o in CONFIGS])
def test_spec_chance_says_whether_apply_action_draws(make, options):
    """``GameSpec.chance`` ("the rules draw from the generator after ``initial_state``") is
    what the rules do: over a few random games some step draws exactly when it is True."""
    rules = _rules(make, options)
    rng, pick = np.random.default_rng(5), np.random.default_rng(6)
    drew = False
    for _ in range(3):
        state = rules.initial_state(rng)
        while not (rules.is_terminal(state) or rules.is_truncated(state)) and not drew:
            legal = rules.legal_actions(state)
            recorder = OutcomeRecorder(rng)
            state = rules.apply_action(state, legal[int(pick.integers(len(legal)))], recorder)
            drew = bool(recorder.outcomes)
    assert drew == rules.spec.chance


def test_spec_chance_is_false_where_nothing_is_drawn_after_setup():
    assert not MayaQuarryRules({"num_players": 3, "first_start_player": "random"}).spec.chance
    assert not MayaQuarryRules({"num_players": 5, "variant": "advanced"}).spec.chance  # all 4 markers
    assert not Maya2012Rules({"num_players": 3}).spec.chance  # board and cards drawn in initial_state
