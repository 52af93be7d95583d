"""MCTS / ISMCTS: bot names, legality, the simulation budget and the clock (counted, never
timed), determinism from the seed. (Forced wins in hand-built positions are a game's own:
tests/<key>/test_mcts_positions.py.)"""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
import pytest

import maya_envs  # noqa: F401  (registers the gymnasium ids)
from maya_envs.bots import MCTSBot, make_bot
from maya_envs.bots import mcts as mcts_module
from maya_envs.bots.mcts import MCTSConfig, parse_spec
from maya_envs.evaluation import play_match
from maya_envs.games import DEFAULT_GAME, GAMES
from tests.conformance import FIRST_HIDDEN_CASES, case_id, first_game, seeded_states
from tests.helpers.search import CHANCE, PERFECT

#: the first game whose default has hidden information (ISMCTS determinizes)
HIDDEN = first_game("hidden information by default", lambda g: g.make_rules({}).spec.information != "perfect")

# -- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("mcts", MCTSConfig()),
        ("mcts:200", MCTSConfig(simulations=200)),
        ("mcts:50:heuristic", MCTSConfig(simulations=50, rollout="heuristic")),
        ("mcts:1000:time=0.5", MCTSConfig(simulations=1000, time_limit=0.5)),
        ("mcts:time=2", MCTSConfig(simulations=None, time_limit=2.0)),
        ("ismcts:30:random:depth=0:c=0.5", MCTSConfig(simulations=30, depth=0, exploration=0.5, determinize=True)),
    ],
)
def test_spec_names_parse(name, expected):
    assert parse_spec(name)[1] == expected


@pytest.mark.parametrize(
    ("name", "bad"),
    [
        ("mcts:abc", "simulations 'abc'"),
        ("mcts:0", "simulations '0'"),
        ("mcts:-5", "simulations '-5'"),
        ("mcts:10:greedy", "rollout 'greedy'"),
        ("mcts:10:time=fast", "bad value 'fast' for 'time'"),
        ("mcts:10:time=0", "bad value '0' for 'time'"),
        ("mcts:10:depth=-1", "bad value '-1' for 'depth'"),
        ("mcts:10:c=inf", "bad value 'inf' for 'c'"),
        ("mcts:10:c=nan", "bad value 'nan' for 'c'"),
        ("mcts:10:time=nan", "bad value 'nan' for 'time'"),
        ("mcts:10:speed=3", "unknown option 'speed'"),
        ("mcts:time=1:10", "KEY=VALUE parts must come last"),
        ("mcts:10:random:extra", "too many parts"),
    ],
)
def test_bad_spec_names_are_clear_value_errors(name, bad):
    with pytest.raises(ValueError, match=rf"bot '{name}': {bad}.*syntax: mcts\[:SIMULATIONS\]"):
        make_bot(name, DEFAULT_GAME.make_rules({}), 0)


@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan])
def test_the_config_refuses_infinite_and_nan_numbers(bad):
    with pytest.raises(ValueError, match=rf"exploration={bad!r}; allowed: a finite number >= 0"):
        MCTSConfig(exploration=bad)
    with pytest.raises(ValueError, match=rf"time_limit={bad!r}; allowed: seconds > 0 \(finite\) or None"):
        MCTSConfig(time_limit=bad)


def test_names_work_in_gym_make_and_the_arena():
    env = gym.make(HIDDEN.gym_id, opponent="mcts:8:depth=5")
    _, info = env.reset(seed=0)
    for _ in range(5):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not (terminated or truncated)
    env.close()
    result = play_match(lambda: CHANCE.make_aec_env(num_players=2), "mcts:4:depth=5", "random", games=2, seed=0)
    assert result.games == 2 and result.illegal_actions == 0


# -- legality, budget, clock, determinism --------------------------------------------------


def _legality_cases() -> list[tuple[str, dict]]:
    """Each game's first hidden-information case, and its benchmarked variants at that count."""
    out = []
    for key, options in FIRST_HIDDEN_CASES:
        game = GAMES[key]
        out += [(key, options)] + [(key, {**options, game.variant_option: v}) for v in game.benchmark_variants]
    return out


@pytest.mark.parametrize("case", _legality_cases(), ids=case_id)
def test_search_only_chooses_legal_actions_over_a_whole_game(case):
    key, options = case
    rules = GAMES[key].make_rules(options)
    rng = np.random.default_rng(0)
    bots = [make_bot("mcts:12:depth=8", rules, seat) for seat in range(rules.spec.num_players)]
    state = rules.initial_state(rng)
    moves = 0
    while rules.current_player(state) >= 0 and moves < 400:
        seat = rules.current_player(state)
        action = bots[seat].act(state)
        assert rules.legal_mask(state)[action] == 1
        state = rules.apply_action(state, action, rng)
        moves += 1
    assert moves > 20


def test_a_determinization_never_leaks_a_foreign_action_into_the_choice(monkeypatch):
    # A (wrong) hook whose samples offer other actions: the bot must still pick from the
    # true state's legal set.
    rules = DEFAULT_GAME.make_rules({})
    state = rules.initial_state(np.random.default_rng(1))
    legal = set(rules.legal_actions(state))
    other = next(s for s in seeded_states(rules, 2, 400) if set(rules.legal_actions(s)) - legal)  # foreign ids
    bot = MCTSBot(rules, 0, MCTSConfig(simulations=60, determinize=False))
    bot._determinize = lambda _rules, _state, _observer, _rng: other
    assert bot.act(state) in legal


def test_simulation_count_is_the_budget_and_forced_moves_skip_search():
    rules = CHANCE.make_rules({"num_players": 2})
    state = rules.initial_state(np.random.default_rng(0))
    bot = make_bot("mcts:37:depth=3", rules, 0)
    bot.act(state)
    assert bot.last_simulations == 37 and sum(bot.last_visits.values()) == 37
    forced = DEFAULT_GAME.make_rules({})
    s = next(s for s in seeded_states(forced, 0, 400) if len(forced.legal_actions(s)) == 1)  # a forced move
    bot = make_bot("mcts:50", forced, 0)
    assert bot.act(s) == forced.legal_actions(s)[0] and bot.last_simulations == 0


class FakeClock:
    """``perf_counter`` stand-in that advances 0.01 s per reading."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.01
        return self.now


def test_time_limit_stops_the_search_by_the_clock(monkeypatch):
    monkeypatch.setattr(mcts_module.time, "perf_counter", FakeClock())
    rules = DEFAULT_GAME.make_rules({})
    state = rules.initial_state(np.random.default_rng(0))
    timed = make_bot("mcts:time=0.1", rules, 0)  # no count limit
    timed.act(state)
    # one reading sets the deadline, one per simulation after the first: ~10 simulations
    assert 8 <= timed.last_simulations <= 12
    capped = make_bot("mcts:5:time=100", rules, 0)  # the count comes first
    capped.act(state)
    assert capped.last_simulations == 5


def test_same_seed_same_choices():
    rules = HIDDEN.make_rules({})
    rng = np.random.default_rng(3)
    state = rules.initial_state(rng)
    for _ in range(8):
        state = rules.apply_action(state, rules.legal_actions(state)[-1], rng)
    first = [make_bot("mcts:40", rules, 9).act(state) for _ in range(2)]
    assert first[0] == first[1]
    a, b = make_bot("mcts:40", rules, 9), make_bot("mcts:40", rules, 9)
    a.act(state), b.act(state)
    assert a.last_visits == b.last_visits


def test_perfect_information_game_does_not_determinize_and_ismcts_needs_a_hook():
    rules = PERFECT.make_rules({})
    assert make_bot("mcts", rules, 0)._determinize is None
    assert make_bot("ismcts", rules, 0)._determinize is not None  # identity with perfect information

    class Foreign:  # a rules object from a package without a determinize module
        spec = rules.spec

    Foreign.__module__ = "maya_envs.core.protocol"
    with pytest.raises(ValueError, match="no determinize hook"):
        MCTSBot(Foreign(), 0, MCTSConfig(determinize=True))


def test_heuristic_rollouts_run():
    rules = DEFAULT_GAME.make_rules({})
    state = rules.initial_state(np.random.default_rng(0))
    bot = make_bot("mcts:10:heuristic:depth=5", rules, 0)
    assert rules.legal_mask(state)[bot.act(state)] == 1 and bot.last_simulations == 10


def test_a_hidden_information_aec_env_with_search_opponents_finishes():
    result = play_match(HIDDEN.make_aec_env, "mcts:6:depth=5", "heuristic", games=1, seed=1)
    assert result.games == 1 and result.illegal_actions == 0
