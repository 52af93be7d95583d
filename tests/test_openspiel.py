"""The games in OpenSpiel (maya_envs.openspiel): OpenSpiel's own random-simulation test on every
game, player count and variant; its MCTS / IS-MCTS bots against ours; returns equal to the
rules engine's; information states that do not move when hidden data is resampled.

Needs the optional extra ``openspiel`` (``open_spiel>=2.0``); skipped with a message otherwise.
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="OpenSpiel is not installed: pip install 'maya-envs[openspiel]' (scripts/test.sh installs it where "
    "PyPI has a wheel for this Python and platform)",
)

import maya_envs.openspiel  # noqa: E402,F401  (registers the games)
from maya_envs.bots.base import make_bot  # noqa: E402
from maya_envs.core.chance import OutcomeRecorder  # noqa: E402
from maya_envs.core.errors import ConfigError, IllegalActionError  # noqa: E402
from maya_envs.openspiel import MayaBot, ismcts_resampler  # noqa: E402

M12, QUARRY, YAXHA = "maya_envs_maya2012", "maya_envs_maya_quarry", "maya_envs_yaxha"

# Every game, player count and variant (Maya (2012) with a short turn limit: OpenSpiel's
# serialisation check replays each history from the start, so its cost grows with the square
# of the game's length; one default-length game per player count is kept).
SIM_CONFIGS = [
    (M12, {"players": 2}),
    (M12, {"players": 2, "setup": "random", "max_turns": 40, "reward_scheme": "score_diff"}),
    (M12, {"players": 2, "setup": "draft", "max_turns": 40, "at_max_turns": "truncate"}),
    (M12, {"players": 2, "max_turns": 40, "ladder_spaces": "1:1:1:1:1:1:1:1:1", "priests_per_player": 1}),
    (M12, {"players": 3, "max_turns": 120}),
    (M12, {"players": 3, "setup": "draft", "max_turns": 40, "declare_step": "always", "three_plus_two": "best"}),
    (M12, {"players": 4, "max_turns": 120, "reward_scheme": "score_diff"}),
    (M12, {"players": 4, "setup": "draft", "max_turns": 40, "declare_step": "always"}),
    (QUARRY, {"players": 3}),
    (QUARRY, {"players": 3, "variant": "advanced", "first_start_player": -1, "reward_scheme": "gold_diff"}),
    (QUARRY, {"players": 4, "variant": "advanced", "skip_forced": False}),
    (QUARRY, {"players": 4, "first_start_player": -1, "pool_shortfall": "nothing", "relocate_unsupported": "cascade"}),
    (QUARRY, {"players": 3, "global_level_rule": "ever_filled", "bonus_block_recipient": "majority"}),
    (QUARRY, {"players": 5, "variant": "advanced", "plus2_empty_quarry": True}),
    (QUARRY, {"players": 5, "minus3_no_target": False, "bonus_on_special_placements": False}),
    (YAXHA, {"players": 2}),
    (YAXHA, {"players": 2, "footprint": "fixed", "bonus_cards": "first_game", "reward_scheme": "score_diff"}),
    (YAXHA, {"players": 3, "bonus_cards": "bga_random", "bonus_zero_ties_score": True}),
    (YAXHA, {"players": 3, "bonus_cards": "5:9:17", "cubes_per_colour": 18}),
    (YAXHA, {"players": 4}),
    (YAXHA, {"players": 4, "footprint": "fixed", "action_features": True}),
    (YAXHA, {"players": 2, "simultaneous": True}),
    (YAXHA, {"players": 4, "simultaneous": True, "footprint": "fixed"}),
]


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


@pytest.mark.parametrize(
    ("name", "params", "information", "chance", "players"),
    [
        (M12, {"players": 2}, "PERFECT", "EXPLICIT_STOCHASTIC", 2),
        (M12, {"players": 4}, "IMPERFECT", "EXPLICIT_STOCHASTIC", 4),
        (QUARRY, {"players": 3}, "IMPERFECT", "DETERMINISTIC", 3),
        (QUARRY, {"players": 3, "first_start_player": -1}, "IMPERFECT", "EXPLICIT_STOCHASTIC", 3),
        (QUARRY, {"players": 4, "variant": "advanced"}, "IMPERFECT", "EXPLICIT_STOCHASTIC", 4),
        (QUARRY, {"players": 5, "variant": "advanced"}, "IMPERFECT", "DETERMINISTIC", 5),  # all 4 markers
        (YAXHA, {"players": 3}, "IMPERFECT", "EXPLICIT_STOCHASTIC", 3),
        (YAXHA, {"players": 3, "simultaneous": True}, "IMPERFECT", "EXPLICIT_STOCHASTIC", 3),
    ],
)
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


def test_only_a_seats_own_view_is_offered_for_hidden_information():
    """A public-only or all-players observer would need data our per-seat observations do not
    separate: asking for one fails instead of handing out the seat's private view."""
    game = pyspiel.load_game(M12, {"players": 3})
    for private in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.ALL_PLAYERS):
        kind = pyspiel.IIGObservationType(public_info=True, perfect_recall=False, private_info=private)
        with pytest.raises(ValueError, match="only a seat's own view"):
            game.make_py_observer(kind)
    own = pyspiel.IIGObservationType(perfect_recall=True)
    assert game.make_py_observer(own).perfect_recall
    two = pyspiel.load_game(M12, {"players": 2})  # perfect information: nothing private
    none = pyspiel.IIGObservationType(public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    assert not two.make_py_observer(none).perfect_recall


def test_bad_parameters_fail_with_clear_errors():
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game(YAXHA, {"colour": 1})
    with pytest.raises(ConfigError, match="num_players=7"):
        pyspiel.load_game(YAXHA, {"players": 7})
    with pytest.raises(ConfigError, match="setup='choose' is not allowed with num_players=3"):
        pyspiel.load_game(M12, {"players": 3, "setup": "choose"})
    with pytest.raises(ConfigError, match="ladder_spaces='1:x'.*colon-separated ints"):
        pyspiel.load_game(M12, {"ladder_spaces": "1:x"})
    with pytest.raises(IllegalActionError):
        state = pyspiel.load_game(QUARRY, {}).new_initial_state()
        state.apply_action(next(a for a in range(state.num_distinct_actions()) if a not in state.legal_actions()))


RETURN_CONFIGS = [
    (M12, {"players": 2, "setup": "random"}),
    (M12, {"players": 3, "setup": "draft", "reward_scheme": "score_diff"}),
    (QUARRY, {"players": 4, "variant": "advanced", "first_start_player": -1}),
    (YAXHA, {"players": 3}),
]


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


def _chance_step(state, rng):
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(int(rng.choice(outcomes, p=probs)))


def _play(game, pick, seed, max_decisions=None):
    """Play one game: ``pick(state) -> action`` at decision nodes, chance sampled by its
    probabilities. Returns (illegal actions, decisions, returns)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    illegal = decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _chance_step(state, rng)
            continue
        action = pick(state)
        if action not in state.legal_actions():
            illegal += 1
            action = state.legal_actions()[0]
        state.apply_action(action)
        decisions += 1
    return illegal, decisions, state.returns()


def _our_bot(game, name, seed):
    return MayaBot(game, name, seed=seed).step


def test_openspiel_mcts_against_our_heuristic_bot_maya2012():
    """OpenSpiel's MCTS (random rollouts) against our heuristic bot on the perfect-information
    2-player game, both seats: every action legal, zero-sum returns."""
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(M12, {"players": 2, "max_turns": 16})
    for seat in (0, 1):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seat))
        search = mcts.MCTSBot(game, 1.4, 24, evaluator, random_state=np.random.RandomState(seat), solve=False)
        ours = _our_bot(game, "heuristic", seed=seat)

        def pick(state, seat=seat, search=search, ours=ours):
            return search.step(state) if state.current_player() == seat else ours(state)

        illegal, decisions, returns = _play(game, pick, seed=seat)
        assert illegal == 0 and decisions > 0
        assert sum(returns) == pytest.approx(0.0)


ISMCTS_CONFIGS = [
    (M12, {"players": 3, "max_turns": 12}),
    (QUARRY, {"players": 3, "variant": "advanced"}),
    (YAXHA, {"players": 2}),
]


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
    others = [_our_bot(game, "heuristic", 3), _our_bot(game, "random", 4)]

    def pick(state):
        seat = state.current_player()
        return search.step(state) if seat == 0 else others[seat % 2](state)

    illegal, decisions, returns = _play(game, pick, seed=5)
    assert illegal == 0 and decisions > 0
    assert sum(returns) == pytest.approx(0.0)


HIDDEN_CONFIGS = [
    (M12, {"players": 3, "max_turns": 40}),
    (M12, {"players": 4, "setup": "draft", "max_turns": 20}),
    (QUARRY, {"players": 4, "variant": "advanced"}),
    (YAXHA, {"players": 3}),
]


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
                _chance_step(state, rng)
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
    """The README's OpenSpiel example, as written."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## OpenSpiel", 1)[1]
    code = section.split("```python", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md (OpenSpiel)", "exec"), {})


def test_yaxha_simultaneous_form_plays_the_same_game_as_the_turn_based_form():
    """Joint actions at Yaxha's simultaneous nodes (idle seats send the wait id 0) and the same
    actions one seat at a time, in the rules' order, in the turn-based form, with the same
    chance outcomes: the same final rules state and returns. An idle seat's other id is
    refused."""
    simultaneous = pyspiel.load_game(YAXHA, {"players": 3, "simultaneous": True})
    turn_based = pyspiel.load_game(YAXHA, {"players": 3})
    rules, rng = simultaneous.rules, np.random.default_rng(6)
    state, other = simultaneous.new_initial_state(), turn_based.new_initial_state()
    idle_refused = False
    while not state.is_terminal():
        if state.is_chance_node():
            _chance_step(state, rng)
            other.apply_action(state.history()[-1])
            continue
        assert state.is_simultaneous_node()
        joint = [int(rng.choice(state.legal_actions(seat))) for seat in range(3)]
        acting = rules.parallel_seats(state.rules_state())
        for seat in range(3):
            if seat not in acting:
                assert state.legal_actions(seat) == [rules.wait_action]
                assert state.action_to_string(seat, rules.wait_action) == "wait"
                if not idle_refused:
                    bad = list(joint)
                    bad[seat] = 1  # pick tile 1: not the wait id
                    with pytest.raises(IllegalActionError, match=f"player {seat} waits"):
                        state.clone().apply_actions(bad)
                    idle_refused = True
        state.apply_actions(joint)
        for seat in acting:
            assert other.current_player() == seat
            other.apply_action(joint[seat])
    assert idle_refused
    assert other.is_terminal() and other.rules_state() == state.rules_state()
    assert other.returns() == state.returns()


@pytest.mark.parametrize("params", [{"players": 3}, {"players": 3, "simultaneous": True}])
def test_serialised_and_pickled_states_come_back_equal(params):
    """``pyspiel.serialize_game_and_state`` (a game string and the history) and ``pickle``
    restore the rules state and every seat's information state, mid-game."""
    import pickle

    game = pyspiel.load_game(YAXHA, params)
    state, rng = game.new_initial_state(), np.random.default_rng(0)
    for _ in range(40):
        if state.is_chance_node():
            _chance_step(state, rng)
        elif state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(seat))) for seat in range(3)])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    for copy in (restored, pickle.loads(pickle.dumps(state))):
        assert copy.rules_state() == state.rules_state()
        assert copy.history() == state.history()
        for seat in range(3):
            assert copy.information_state_string(seat) == state.information_state_string(seat)
