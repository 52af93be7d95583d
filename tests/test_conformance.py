"""The one conformance suite: every game x player count x variant of the game table
(:data:`tests.conformance.ALL_CASES`, derived from :data:`maya_envs.games.GAMES`), so a fourth
game is covered by adding its entry, with no test edited (issue 31, item 2).

* PettingZoo's ``api_test`` and ``seed_test`` on the AEC env, ``parallel_api_test`` and
  ``parallel_seed_test`` where the env module has ``parallel_env``, all with warnings as errors;
* Gymnasium's and SB3's env checkers on the single-agent view (``gym.make(game.gym_id)``);
* the mask, the legal list and what ``apply_action`` accepts are one set, along seeded games;
* save/load: a seeded state goes through JSON and back unchanged under the header
  ``{"schema": "<key>.state", "version": N}``, and a corrupted field is named;
* chance: the generator path and the chance-outcome path give equal states, chance nodes'
  probabilities sum to one, and ``GameSpec.chance`` says whether ``apply_action`` draws;
* aliasing: no two states or answers share a mutable object, final infos share no list;
* per seat: the move description and the rendered views (ansi, svg) a seat gets do not change
  when the game's ``determinize`` hook redraws what that seat may not see.

What is specific to one game stays in ``tests/<game>/``.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import math
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import maya_envs  # noqa: F401  (registers the Gymnasium ids)
from maya_envs.bots import RandomBot
from maya_envs.core.chance import ChanceNeeded, OutcomeRecorder, OutcomeScript
from maya_envs.core.errors import ConfigError, StateError
from maya_envs.games import GAMES
from maya_envs.notation import describe_action
from tests.conformance import ALL_CASES, GAME_CASES, assert_mask_matches_rules, case_id, warnings_as_errors

PARALLEL_CASES = [case for case in ALL_CASES if hasattr(importlib.import_module(GAMES[case[0]].env_module), "parallel_env")]
SINGLE_AGENT_CASES = [case for case in GAME_CASES if case in ALL_CASES]


def _rules(case):
    key, options = case
    return GAMES[key].make_rules(options)


def _cycles(case) -> int:
    """Enough PettingZoo cycles (one step per agent each) for a whole game."""
    spec = _rules(case).spec
    return spec.max_game_length // spec.num_players + 2


def _ignore_finished_agents_masks() -> None:
    # PettingZoo's play test re-checks an agent's last observation after it is done, whose mask
    # is all zeros by definition (it has no legal action); PettingZoo exempts one env by name.
    warnings.filterwarnings("ignore", message="Action mask numpy array is all zeros")


def _states(rules, seed: int, steps: int):
    """Every state of a seeded random game, at most ``steps`` moves long."""
    rng = np.random.default_rng(seed)
    state = rules.initial_state(rng)
    yield state
    for _ in range(steps):
        if rules.is_terminal(state) or rules.is_truncated(state):
            return
        state = rules.apply_action(state, int(rng.choice(rules.legal_actions(state))), rng)
        yield state


# -- PettingZoo, Gymnasium and SB3 checkers ------------------------------------------------------


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_pettingzoo_api_test_with_warnings_as_errors(case):
    key, options = case
    with warnings_as_errors():
        _ignore_finished_agents_masks()
        api_test(GAMES[key].make_aec_env(**options), num_cycles=_cycles(case))


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_pettingzoo_seed_test_with_warnings_as_errors(case):
    key, options = case
    with warnings_as_errors():
        seed_test(lambda: GAMES[key].make_aec_env(**options), num_cycles=_cycles(case))


@pytest.mark.parametrize("case", PARALLEL_CASES, ids=case_id)
def test_pettingzoo_parallel_api_and_seed_tests_with_warnings_as_errors(case):
    key, options = case
    module = importlib.import_module(GAMES[key].env_module)
    with warnings_as_errors():
        parallel_api_test(module.parallel_env(**options), num_cycles=_cycles(case))
        # parallel_seed_test samples unmasked actions, so its first step is illegal and ends the
        # game (the "terminate" policy warns); what it checks is that both copies agree on that
        warnings.filterwarnings("ignore", message=".*illegal action")
        parallel_seed_test(lambda: module.parallel_env(**options), num_cycles=_cycles(case))


@pytest.mark.parametrize("case", SINGLE_AGENT_CASES, ids=case_id)
def test_gymnasium_and_sb3_check_env_on_the_single_agent_view(case):
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    key, options = case
    env = gym.make(GAMES[key].gym_id, opponents="heuristic", illegal_action="terminate", **options)
    with warnings_as_errors():
        # the checkers step unmasked random actions: those end the game with a warning
        warnings.filterwarnings("ignore", message=".*illegal action")
        gym_check_env(env.unwrapped, skip_render_check=True)
        sb3.check_env(env.unwrapped)


# -- legality -----------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_mask_legal_list_and_accepted_actions_are_one_set(case):
    rules = _rules(case)
    checked = 0
    for index, state in enumerate(_states(rules, seed=11, steps=rules.spec.max_game_length)):
        if index % 7 == 0 and rules.current_player(state) >= 0:
            assert_mask_matches_rules(rules, state)
            assert rules.legal_actions(state), "an agent that must act has no legal action"
            checked += 1
    assert checked >= 5


# -- save / load --------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_states_go_through_json_and_back(case):
    key, _ = case
    rules = _rules(case)
    version = importlib.import_module(f"{GAMES[key].package}.serialize").VERSION
    checked = 0
    for index, state in enumerate(_states(rules, seed=3, steps=60)):
        if index % 5:
            continue
        data = json.loads(json.dumps(rules.state_to_dict(state)))
        assert {k: data[k] for k in ("schema", "version")} == {"schema": f"{key}.state", "version": version}
        assert rules.state_from_dict(data) == state
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("case", GAME_CASES, ids=case_id)
def test_a_corrupted_field_is_named(case):
    rules = _rules(case)
    *_, state = _states(rules, seed=4, steps=25)
    data = rules.state_to_dict(state)
    fields = [k for k in data if k not in ("schema", "version")]
    assert len(fields) >= 8
    for key in fields:
        for bad in ("x", [None] * 3):
            broken = copy.deepcopy(data)
            broken[key] = bad
            with pytest.raises(StateError) as caught:
                rules.state_from_dict(broken)
            assert caught.value.field.split("[")[0].split(".")[0] in (key, "num_players", "pool/held/board")
            assert str(caught.value).startswith(f"state.{caught.value.field}")
            assert isinstance(caught.value, ConfigError)
    for key, value, field in [("schema", "other.state", "schema"), ("version", 99, "version")]:
        with pytest.raises(StateError, match=rf"state\.{field}: ") as caught:
            rules.state_from_dict({**data, key: value})
        assert caught.value.field == field
    with pytest.raises(StateError, match=r"unknown keys \['extra'\]"):
        rules.state_from_dict({**data, "extra": 1})


# -- chance -------------------------------------------------------------------------------------


def check_chance_paths_agree(rules) -> int:
    """Each step of a seeded game is taken three ways: with the generator (the env's path), with a
    recorder over an equally seeded generator, and with the recorded outcomes as a script; the
    three states are equal, and the script path needs exactly the recorded outcomes. Returns the
    number of steps (``initial_state`` included) that drew."""
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
    return drawn_steps


def chance_nodes(step, outcomes):
    """Chance nodes met while ``step`` consumes ``outcomes``: [(node outcomes, chosen), ...]."""
    nodes = []
    while True:
        try:
            step(OutcomeScript(outcomes[: len(nodes)]))
        except ChanceNeeded as need:
            nodes.append((need.outcomes, outcomes[len(nodes)]))
            continue
        return nodes


def check_chance_nodes_sum_to_one(rules) -> None:
    """The setup's chance nodes list distinct sorted outcomes with probabilities > 0 summing to 1."""
    recorder = OutcomeRecorder(np.random.default_rng(3))
    rules.initial_state(recorder)
    nodes = chance_nodes(rules.initial_state, recorder.outcomes)
    assert len(nodes) == len(recorder.outcomes)
    for outcomes, chosen in nodes:
        ids = [o for o, _ in outcomes]
        assert ids == sorted(set(ids)) and all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-12)
        assert chosen in ids


def check_spec_chance(rules) -> None:
    """``GameSpec.chance`` ("the rules draw from the generator after ``initial_state``") is what
    the rules do: over a few random games some step draws exactly when it is True."""
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


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_generator_and_chance_outcome_paths_give_identical_states(case):
    rules = _rules(case)
    drawn_steps = check_chance_paths_agree(rules)
    assert drawn_steps >= 1 or not rules.spec.chance  # a game with chance moves met one


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_chance_nodes_have_probabilities_summing_to_one(case):
    check_chance_nodes_sum_to_one(_rules(case))


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_spec_chance_says_whether_apply_action_draws(case):
    check_spec_chance(_rules(case))


# -- aliasing -----------------------------------------------------------------------------------

MUTABLE = (list, dict, set, bytearray, np.ndarray)


def _mutable_ids(obj, out: set[int]) -> set[int]:
    if isinstance(obj, MUTABLE):
        out.add(id(obj))
    if isinstance(obj, dict):
        for value in obj.values():
            _mutable_ids(value, out)
    elif isinstance(obj, (list, tuple, set)):
        for value in obj:
            _mutable_ids(value, out)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            if f.name != "_cache":  # each state's own memo (a fresh dict per state)
                _mutable_ids(getattr(obj, f.name), out)
    return out


def _spoil(value) -> None:
    """Change a returned container in place (what a careless caller might do)."""
    if isinstance(value, np.ndarray) and value.size:
        value[...] = 7
    elif isinstance(value, list):
        value.append(-99)
    elif isinstance(value, dict):
        for item in list(value.values()):
            _spoil(item)
        value["spoiled"] = True


@pytest.mark.parametrize("case", GAME_CASES, ids=case_id)
def test_no_state_or_answer_shares_a_mutable_object(case):
    """Along a random game: consecutive states share no mutable object (list, dict, set,
    ndarray), ``apply_action`` leaves its input equal, and mutating what ``legal_actions``,
    ``legal_mask``, ``returns``, ``final_info`` and the observer return changes neither the state
    nor the next answer. (The quarry game once lost its forced pass this way.)"""
    key, _ = case
    rules = _rules(case)
    observer = GAMES[key].hook("observer")(rules)
    n = rules.spec.num_players
    rng = np.random.default_rng(0)
    state = rules.initial_state(rng)
    for _ in range(rules.spec.max_game_length + 1):
        before = copy.deepcopy(state)
        answers = [
            lambda state=state: rules.legal_actions(state),
            lambda state=state: rules.legal_mask(state),
            lambda state=state: rules.returns(state),
            lambda state=state: rules.final_info(state),
            *[lambda seat=seat, state=state: observer.encode(state, seat) for seat in range(n)],
        ]
        for answer in answers:
            first = answer()
            expected = copy.deepcopy(first)
            _spoil(first)
            again = answer()
            if isinstance(expected, np.ndarray):
                np.testing.assert_array_equal(again, expected)
            else:
                assert again == expected
        assert state == before
        if rules.current_player(state) < 0:
            break
        action = int(rng.choice(rules.legal_actions(state)))
        nxt = rules.apply_action(state, action, rng)
        assert state == before, "apply_action changed its input"
        shared = _mutable_ids(state, set()) & _mutable_ids(nxt, set())
        assert not shared, f"consecutive states share {len(shared)} mutable object(s) after action {action}"
        state = nxt
    else:
        raise AssertionError("game did not end")


@pytest.mark.parametrize("case", GAME_CASES, ids=case_id)
def test_final_infos_share_no_list_between_agents(case):
    key, options = case
    env = GAMES[key].make_aec_env(**options)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
    owners = [_mutable_ids(info, set()) - {id(info)} for info in env.infos.values()]
    for i in range(len(owners)):
        for j in range(i):
            assert not owners[i] & owners[j]


# -- what a seat reads and sees -----------------------------------------------------------------


def _after(rules, state, action):
    """The state after ``action``; every call draws the same chance outcomes."""
    return rules.apply_action(state, action, np.random.default_rng(0))


def _same_for(env, a, b, viewer) -> bool:
    """Whether ``viewer`` cannot tell the states ``a`` and ``b`` apart (turn, observation and
    its rendered view)."""
    rules = env.rules
    return (
        rules.current_player(a) == rules.current_player(b)
        and np.array_equal(env.observer.encode(a, viewer), env.observer.encode(b, viewer))
        and env._renderer(a, viewer) == env._renderer(b, viewer)
    )


def check_seat_reads(case) -> tuple[int, int]:
    """The per-seat move description (:func:`maya_envs.notation.describe_action`), tested by
    resampling what a seat may not see: (a) the actor's other legal actions that leave the seat's
    observation unchanged read the same to that seat; (b) in a state drawn by the game's
    ``determinize`` hook for that seat, the same action reads the same. The actor and a viewer of
    ``None`` read the whole move. Returns ``(descriptions that differ from the full one,
    alternatives checked under (a))``, so a game's own test can ask that hidden moves were met."""
    key, options = case
    env = GAMES[key].make_aec_env(**options).unwrapped
    rules = env.rules
    determinize = GAMES[key].hook("determinize")
    n = rules.spec.num_players
    rng = np.random.default_rng(7)
    hidden_texts = checked_alternatives = 0
    bots = [RandomBot(rules, seed=s) for s in range(n)]
    before = rules.initial_state(np.random.default_rng(0))
    for _ in range(rules.spec.max_game_length):
        actor = rules.current_player(before)
        if actor < 0:
            break
        action = bots[actor].act(before)
        after = _after(rules, before, action)
        full = describe_action(rules, before, action, actor, None)
        assert describe_action(rules, before, action, actor, actor) == full
        legal = rules.legal_actions(before)
        others = legal if len(legal) <= 25 else list(rng.choice(legal, 25, replace=False))
        for viewer in range(n):
            if viewer == actor:
                continue
            text = describe_action(rules, before, action, actor, viewer)
            hidden_texts += text != full
            # (a) an action that leads elsewhere, in a way the viewer cannot see, reads the same
            # (an action whose effect leaves no trace at all, e.g. a -3 without consequence, is
            # public and may read differently)
            for other in others:
                other_after = _after(rules, before, int(other))
                if other != action and other_after != after and _same_for(env, after, other_after, viewer):
                    checked_alternatives += 1
                    assert describe_action(rules, before, int(other), actor, viewer) == text
            # (b) the same action in a redrawn state that the viewer cannot tell apart
            resampled = determinize(rules, before, viewer, rng)
            if rules.current_player(resampled) == actor and action in rules.legal_actions(resampled):
                assert describe_action(rules, resampled, action, actor, viewer) == text
        before = after
    return hidden_texts, checked_alternatives


@pytest.mark.parametrize("case", GAME_CASES, ids=case_id)
def test_a_seat_reads_only_what_it_may_see(case):
    hidden_texts, checked_alternatives = check_seat_reads(case)
    if hidden_texts:
        assert checked_alternatives > 0, "hidden moves were met but no alternative was compared"


@pytest.mark.parametrize("mode", ["ansi", "svg"])
@pytest.mark.parametrize("case", GAME_CASES, ids=case_id)
def test_a_seats_render_does_not_change_when_what_it_may_not_see_is_redrawn(case, mode):
    """Each seat's view (``render_observer`` = that seat) of seeded states is the same in a state
    the game's ``determinize`` hook redraws for that seat; the full view (``None``) of an
    imperfect-information game does change in some redrawn state, so the check has teeth."""
    if mode == "svg":
        pytest.importorskip("PIL")
    key, options = case
    env = GAMES[key].make_aec_env(render_mode=mode, **options)
    env.reset(seed=0)
    rules, determinize = env.unwrapped.rules, GAMES[key].hook("determinize")
    rng = np.random.default_rng(5)
    redrawn = full_changed = 0
    for index, state in enumerate(_states(rules, seed=2, steps=rules.spec.max_game_length)):
        if index % 9:
            continue
        for seat in range(rules.spec.num_players):
            other = determinize(rules, state, seat, rng)
            redrawn += other != state
            for viewer in (seat, None):
                env.unwrapped.render_observer = viewer
                env.unwrapped.game_state = state
                mine = env.render()
                env.unwrapped.game_state = other
                if viewer is None:
                    full_changed += env.render() != mine
                else:
                    assert env.render() == mine, f"seat {seat} sees a redrawn hidden part ({mode})"
    if rules.spec.information == "imperfect":
        assert redrawn > 0 and full_changed > 0
