"""The games in OpenSpiel (maya_envs.openspiel): OpenSpiel's own random-simulation test on every
game, player count and variant; its MCTS / IS-MCTS bots against ours; returns equal to the
rules engine's; information states that do not move when hidden data is resampled.

Needs the optional extra ``openspiel`` (``open_spiel>=2.0``); skipped with a message otherwise.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

# before any import of maya_envs.openspiel (import sorting keeps imports below a statement apart)
pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'maya-envs[openspiel]'")

import maya_envs.openspiel  # noqa: E402,F401  (registers the games)
from maya_envs.bots.base import make_bot  # noqa: E402
from maya_envs.core.chance import OutcomeRecorder  # noqa: E402
from maya_envs.core.errors import ConfigError, IllegalActionError  # noqa: E402
from maya_envs.games import GAMES  # noqa: E402
from maya_envs.openspiel import ismcts_resampler  # noqa: E402
from tests.helpers.openspiel import (  # noqa: E402
    SPIEL_NAMES,
    chance_step,
    our_bot,
    play_spiel,
    pyspiel,
)


def _cases(kind: str) -> list[tuple]:
    """``(OpenSpiel name, params, ...)`` of every game's ``kind`` list, in table order: each
    game's parameter sets are in ``tests/<key>/openspiel_cases.py`` (a params dict, or a tuple
    starting with one)."""
    return [
        (SPIEL_NAMES[key], *(case if isinstance(case, tuple) else (case,)))
        for key in GAMES
        for case in getattr(importlib.import_module(f"tests.{key}.openspiel_cases"), kind)
    ]


# Every game, player count and variant, and other options (each game's list)
SIM_CONFIGS = _cases("SIM")


def _id(config):
    name, params = config
    return name.removeprefix("maya_envs_") + "-" + "-".join(f"{k}={v}" for k, v in params.items())


@pytest.mark.slow
@pytest.mark.parametrize("config", SIM_CONFIGS, ids=[_id(c) for c in SIM_CONFIGS])
def test_openspiel_random_simulation_test(config):
    """OpenSpiel's own checks (legal actions, chance outcomes, serialisation, observations,
    information states, returns, game length) over random games."""
    name, params = config
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    if game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC:
        # OpenSpiel's test does not check this; ours does: no chance node in a deterministic game
        state, rng = game.new_initial_state(), np.random.default_rng(0)
        while not state.is_terminal():
            assert not state.is_chance_node()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize(("name", "params", "information", "chance", "players"), _cases("GAME_TYPES"))
def test_game_type_follows_the_config(name, params, information, chance, players):
    game = pyspiel.load_game(name, params)
    game_type = game.get_type()
    assert game_type.information == getattr(pyspiel.GameType.Information, f"{information}_INFORMATION")
    assert game_type.chance_mode == getattr(pyspiel.GameType.ChanceMode, chance)
    dynamics = "SIMULTANEOUS" if params.get("simultaneous") else "SEQUENTIAL"
    assert game_type.dynamics == getattr(pyspiel.GameType.Dynamics, dynamics)
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game_type.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == players
    assert game.num_distinct_actions() == game.rules.spec.num_actions
    assert (game.min_utility(), game.max_utility()) == game.rules.spec.reward_range


@pytest.mark.parametrize("key", list(GAMES))
def test_bad_parameters_fail_with_clear_errors(key):
    """An unknown parameter, a player count no game has and an illegal action, in every game
    (each game's own bad values: tests/<key>/test_openspiel.py)."""
    name = SPIEL_NAMES[key]
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game(name, {"colour": 1})
    with pytest.raises(ConfigError, match="num_players=7"):
        pyspiel.load_game(name, {"players": 7})
    state, rng = pyspiel.load_game(name, {}).new_initial_state(), np.random.default_rng(0)
    while state.is_chance_node():  # a game that sets up by chance: the setup, then a seat's action
        chance_step(state, rng)
    with pytest.raises(IllegalActionError):
        state.apply_action(next(a for a in range(state.num_distinct_actions()) if a not in state.legal_actions()))


RETURN_CONFIGS = _cases("RETURNS")


@pytest.mark.parametrize("config", RETURN_CONFIGS, ids=[_id(c) for c in RETURN_CONFIGS])
def test_returns_equal_the_engine_for_the_same_actions_and_chance_outcomes(config):
    """A game played on the rules engine with a generator (its draws recorded as chance
    outcomes, actions by our heuristic bot) and the same actions and outcomes replayed in
    OpenSpiel end in the same rules state with the same returns."""
    name, params = config
    game = pyspiel.load_game(name, params)
    rules = game.rules
    recorder = OutcomeRecorder(np.random.default_rng(11))
    bot = make_bot("heuristic", rules, seed=12)
    engine_state = rules.initial_state(recorder)
    steps = [list(recorder.outcomes)]
    while not (rules.is_terminal(engine_state) or rules.is_truncated(engine_state)):
        action = bot.act(engine_state)
        recorder.outcomes.clear()
        engine_state = rules.apply_action(engine_state, action, recorder)
        steps.append([action, *recorder.outcomes])
    state = game.new_initial_state()
    for step in steps:
        for item in step:
            if state.is_chance_node():
                assert item in dict(state.chance_outcomes())
            else:
                assert item in state.legal_actions()
            state.apply_action(item)
        assert not state.is_chance_node()
    assert state.is_terminal()
    assert state.rules_state() == engine_state
    assert state.returns() == pytest.approx(list(rules.returns(engine_state)))
    assert sum(state.returns()) == pytest.approx(0.0)


ISMCTS_CONFIGS = _cases("ISMCTS")


@pytest.mark.slow
@pytest.mark.parametrize("config", ISMCTS_CONFIGS, ids=[_id(c) for c in ISMCTS_CONFIGS])
def test_openspiel_ismcts_against_our_bots(config):
    """OpenSpiel's IS-MCTS, resampling worlds with our determinization, against our heuristic
    and random bots: 0 illegal actions, zero-sum returns."""
    from open_spiel.python.algorithms import ismcts, mcts

    name, params = config
    game = pyspiel.load_game(name, params)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0), max_length=20)
    search = ismcts.ISMCTSBot(game, evaluator, 1.4, 8, random_state=np.random.RandomState(1))
    search.set_resampler(ismcts_resampler(game, seed=2))
    others = [our_bot(game, "heuristic", 3), our_bot(game, "random", 4)]

    def pick(state):
        seat = state.current_player()
        return search.step(state) if seat == 0 else others[seat % 2](state)

    illegal, decisions, returns = play_spiel(game, pick, seed=5)
    assert illegal == 0 and decisions > 0
    assert sum(returns) == pytest.approx(0.0)


HIDDEN_CONFIGS = _cases("HIDDEN")


@pytest.mark.parametrize("config", HIDDEN_CONFIGS, ids=[_id(c) for c in HIDDEN_CONFIGS])
def test_information_state_unchanged_when_hidden_data_is_resampled(config):
    """Along random games: the rules state is resampled from seat p's point of view (our
    determinization: the other seats' hidden cards, picks, cubes, bids) and put in an
    OpenSpiel state with the same history digest; seat p's information-state and observation
    strings and tensors are the same, while the resampled data did change some state."""
    name, params = config
    game = pyspiel.load_game(name, params)
    rules, determinize = game.rules, game.determinize
    rng = np.random.default_rng(21)
    changed = checked = 0
    for _ in range(1):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance_step(state, rng)
                continue
            for seat in range(game.num_players()):
                other = determinize(rules, state.rules_state(), seat, rng)
                twin = game.state_from_rules_state(other, like=state)
                assert twin.information_state_string(seat) == state.information_state_string(seat)
                assert twin.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert twin.observation_string(seat) == state.observation_string(seat)
                assert twin.observation_tensor(seat) == state.observation_tensor(seat)
                checked += 1
                changed += other != state.rules_state()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked > 0 and changed > 0


@pytest.mark.slow
def test_readme_openspiel_example_runs():
    """The OpenSpiel guide's example (docs/guides/openspiel.md), as written."""
    from pathlib import Path

    guide = (Path(__file__).resolve().parent.parent / "docs" / "guides" / "openspiel.md").read_text(encoding="utf-8")
    code = guide.split("```python", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/guides/openspiel.md", "exec"), {})




# -- issue 44: games and states pickle, as OpenSpiel's own Python games do -------------------

PICKLE_CONFIGS = RETURN_CONFIGS + [c for c in SIM_CONFIGS if c[1].get("simultaneous")][:1]
"""Every game's returns sets (non-default parameters included) and one simultaneous-move game."""


def _random_step(state, rng) -> list[int]:
    """The actions of one random step at ``state``: a chance outcome, one seat's action, or
    every seat's at a simultaneous node (not applied)."""
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        return [int(rng.choice(outcomes, p=probs))]
    if state.is_simultaneous_node():
        return [int(rng.choice(state.legal_actions(p))) for p in range(state.num_players())]
    return [int(rng.choice(state.legal_actions()))]


def _apply(state, actions: list[int]) -> None:
    if state.is_simultaneous_node():
        state.apply_actions(actions)
    else:
        state.apply_action(actions[0])


def _seen(state) -> tuple:
    """What a state shows: its rules state, history, returns and every seat's information."""
    seats = range(state.num_players())
    views = () if state.is_chance_node() or state.is_terminal() else (
        [state.information_state_string(p) for p in seats],
        [list(state.observation_tensor(p)) for p in seats],
    )
    return state.rules_state(), state.history(), state.returns(), views


@pytest.mark.parametrize("config", PICKLE_CONFIGS, ids=[_id(c) for c in PICKLE_CONFIGS])
def test_games_and_states_pickle_and_play_on_equal(config):
    """``pickle`` round trips of a game (the same class, parameters and first state) and of a
    state in mid-game (the same rules state, history and information), and the unpickled state
    plays on to the same end as the original under the same actions."""
    import pickle

    name, params = config
    game = pyspiel.load_game(name, params)
    copy = pickle.loads(pickle.dumps(game))
    assert type(copy) is type(game) and str(copy) == str(game)
    assert copy.new_initial_state().rules_state() == game.new_initial_state().rules_state()
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    for _ in range(25):
        _apply(state, _random_step(state, rng))
    restored = pickle.loads(pickle.dumps(state))
    assert type(restored) is type(state) and _seen(restored) == _seen(state)
    while not state.is_terminal():
        actions = _random_step(state, rng)
        _apply(state, actions)
        _apply(restored, actions)
        assert _seen(restored) == _seen(state)
    assert restored.is_terminal() and restored.returns() == state.returns()
