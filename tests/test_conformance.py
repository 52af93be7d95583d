"""The one conformance suite: every game x player count x variant of the game table
(:data:`tests.conformance.ALL_CASES`, derived from :data:`maya_envs.games.GAMES`), so a fourth
game is covered by adding its entry, with no test edited (issue 31, item 2).

* PettingZoo's ``api_test`` and ``seed_test`` on the AEC env, ``parallel_api_test`` and
  ``parallel_seed_test`` where the env module has ``parallel_env``, all with warnings as errors;
* Gymnasium's and SB3's env checkers on the single-agent view (``gym.make(game.gym_id)``);
* the mask, the legal list and what ``apply_action`` accepts are one set, along seeded games;
* save/load: a seeded state goes through JSON and back unchanged under the header
  ``{"schema": "<key>.state", "version": N}``, a corrupted field is named, and every state of
  random and heuristic games loads back unchanged;
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
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import maya_envs  # noqa: F401  (registers the Gymnasium ids)
from maya_envs.bots import make_bot
from maya_envs.core.errors import ConfigError, StateError
from maya_envs.games import GAMES
from tests.conformance import (
    ALL_CASES,
    GAME_CASES,
    assert_mask_matches_rules,
    case_id,
    check_chance_nodes_sum_to_one,
    check_chance_paths_agree,
    check_seat_reads,
    check_spec_chance,
    default_variant,
    play_states,
    seeded_states,
    warnings_as_errors,
)

PARALLEL_CASES = [
    case for case in ALL_CASES if hasattr(importlib.import_module(GAMES[case[0]].env_module), "parallel_env")
]
SINGLE_AGENT_CASES = [
    (key, options)
    for key, options in GAME_CASES
    if options[GAMES[key].variant_option] == default_variant(GAMES[key], options["num_players"])
]
"""The checkers' cases: every player count with its default variant (the view is the same code in
every variant; the AEC tests sweep the variants)."""


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
    for index, state in enumerate(seeded_states(rules, seed=11, steps=rules.spec.max_game_length)):
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
    for index, state in enumerate(seeded_states(rules, seed=3, steps=60)):
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
    *_, state = seeded_states(rules, seed=4, steps=25)
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


@pytest.mark.parametrize("case", GAME_CASES, ids=case_id)
def test_every_state_of_seeded_games_loads_back_unchanged(case):
    """No false alarm from the save validators: every state the rules reach loads back unchanged
    (all phases), in random and heuristic games (the quarry heuristic's FIRST_PLAYER appointments
    move the start player after the auction)."""
    rules = _rules(case)
    games = [seeded_states(rules, seed, 3000) for seed in (0, 1)]
    bots = [make_bot("heuristic", rules, seed=seat) for seat in range(rules.spec.num_players)]
    games.append(play_states(rules, bots, np.random.default_rng(2)))
    for states in games:
        for state in states:
            assert rules.state_from_dict(json.loads(json.dumps(rules.state_to_dict(state)))) == state


# -- chance -------------------------------------------------------------------------------------


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
    for index, state in enumerate(seeded_states(rules, seed=2, steps=rules.spec.max_game_length)):
        if index % 12:
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
