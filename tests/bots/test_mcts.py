"""MCTS / ISMCTS: bot names, forced wins in hand-built positions, legality, the simulation
budget and the clock (counted, never timed), determinism from the seed."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import maya_envs  # noqa: F401  (registers the gymnasium ids)
from maya_envs import maya_quarry_v1, yaxha_v1
from maya_envs.bots import MCTSBot, make_bot
from maya_envs.bots import mcts as mcts_module
from maya_envs.bots.mcts import MCTSConfig, parse_spec
from maya_envs.evaluation import play_match
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.rules import Maya2012Rules, winner
from maya_envs.maya_quarry.rules import MayaQuarryRules
from maya_envs.yaxha.rules import YaxhaRules

from ..maya2012.boards import complete_board, state_with

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
        ("mcts:10:speed=3", "unknown option 'speed'"),
        ("mcts:time=1:10", "KEY=VALUE parts must come last"),
        ("mcts:10:random:extra", "too many parts"),
    ],
)
def test_bad_spec_names_are_clear_value_errors(name, bad):
    with pytest.raises(ValueError, match=rf"bot '{name}': {bad}.*syntax: mcts\[:SIMULATIONS\]"):
        make_bot(name, Maya2012Rules(), 0)


def test_names_work_in_gym_make_and_the_arena():
    env = gym.make("maya_envs/MayaQuarry-v1", opponent="mcts:8:depth=5")
    _, info = env.reset(seed=0)
    for _ in range(5):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not (terminated or truncated)
    env.close()
    result = play_match(lambda: yaxha_v1.env(num_players=2), "mcts:4:depth=5", "random", games=2, seed=0)
    assert result.games == 2 and result.illegal_actions == 0


# -- hand-built positions -------------------------------------------------------------------

PAIR_01 = A.PAIRS.index((0, 1))
COMPLETE_T0 = 4 * PAIR_01 + 5 - 2  # swap t0-t1 from level 5: tower 0 becomes monochrome


def _completion_position(max_turns: int):
    """Two players, no ladder spaces (VP come from priests only): tower 0 is colour 0 on
    levels 1-4 and tower 1 has colour 0 on level 5, so White's exchange ``COMPLETE_T0``
    completes tower 0 and earns its priest; nothing else can complete a tower soon."""
    rules = Maya2012Rules({"setup": "random", "ladder_spaces": [0] * 9, "max_turns": max_turns})
    towers = complete_board({0: (0, 0, 0, 0, None), 1: (None, None, None, None, 0)})
    return rules, state_with(towers, monolith=A.PAIRS.index((7, 8)), raven=2)


def _outcomes(rules, state, action):
    after = rules.apply_action(state, action)
    return after, winner(after) if rules.is_terminal(after) else "running"


def test_one_exchange_completes_a_tower_and_wins_and_mcts_finds_it():
    rules, state = _completion_position(max_turns=1)
    results = {a: _outcomes(rules, state, a)[1] for a in rules.legal_actions(state)}
    assert [a for a, w in results.items() if w == 0] == [COMPLETE_T0]  # the only win; all else draws
    assert len(results) > 10
    for seed in range(3):
        assert make_bot("mcts:200", rules, seed).act(state) == COMPLETE_T0


def test_mcts_takes_the_completion_before_the_opponent_does():
    # Three exchanges left (White, Black, White): if White does not complete tower 0 now,
    # Black can (the same exchange stays legal for most White moves), and wins.
    rules, state = _completion_position(max_turns=3)
    black_steals = 0
    for action in rules.legal_actions(state):
        after = rules.apply_action(state, action)
        black_steals += action != COMPLETE_T0 and COMPLETE_T0 in rules.legal_actions(after)
    assert black_steals > 5
    bot = make_bot("mcts:400:depth=10", rules, 0)
    assert bot.act(state) == COMPLETE_T0
    assert bot.last_visits[COMPLETE_T0] == max(bot.last_visits.values())


# -- legality, budget, clock, determinism --------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        Maya2012Rules({"num_players": 3}),
        MayaQuarryRules({"num_players": 3}),
        MayaQuarryRules({"num_players": 3, "variant": "advanced"}),
        YaxhaRules(num_players=2),
    ],
    ids=["maya2012-3p", "quarry-3p", "quarry-advanced", "yaxha-2p"],
)
def test_search_only_chooses_legal_actions_over_a_whole_game(rules):
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
    rules = Maya2012Rules({"setup": "random"})
    state = rules.initial_state(np.random.default_rng(1))
    other = rules.initial_state(np.random.default_rng(2))
    bot = MCTSBot(rules, 0, MCTSConfig(simulations=60, determinize=False))
    bot._determinize = lambda _rules, _state, _observer, _rng: other
    legal = set(rules.legal_actions(state))
    assert bot.act(state) in legal


def test_simulation_count_is_the_budget_and_forced_moves_skip_search():
    rules = YaxhaRules(num_players=2)
    state = rules.initial_state(np.random.default_rng(0))
    bot = make_bot("mcts:37:depth=3", rules, 0)
    bot.act(state)
    assert bot.last_simulations == 37 and sum(bot.last_visits.values()) == 37
    forced = MayaQuarryRules({"num_players": 3, "skip_forced": False})
    s = forced.initial_state(np.random.default_rng(0))
    while len(forced.legal_actions(s)) != 1:
        s = forced.apply_action(s, forced.legal_actions(s)[0], np.random.default_rng(0))
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
    rules = Maya2012Rules({"setup": "random"})
    state = rules.initial_state(np.random.default_rng(0))
    timed = make_bot("mcts:time=0.1", rules, 0)  # no count limit
    timed.act(state)
    # one reading sets the deadline, one per simulation after the first: ~10 simulations
    assert 8 <= timed.last_simulations <= 12
    capped = make_bot("mcts:5:time=100", rules, 0)  # the count comes first
    capped.act(state)
    assert capped.last_simulations == 5


def test_same_seed_same_choices():
    rules = MayaQuarryRules({"num_players": 3})
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
    rules = Maya2012Rules()
    assert make_bot("mcts", rules, 0)._determinize is None
    assert make_bot("ismcts", rules, 0)._determinize is not None  # identity for 2p

    class Foreign:  # a rules object from a package without a determinize module
        spec = rules.spec

    Foreign.__module__ = "maya_envs.core.protocol"
    with pytest.raises(ValueError, match="no determinize hook"):
        MCTSBot(Foreign(), 0, MCTSConfig(determinize=True))


def test_heuristic_rollouts_run():
    rules = Maya2012Rules({"setup": "random"})
    state = rules.initial_state(np.random.default_rng(0))
    bot = make_bot("mcts:10:heuristic:depth=5", rules, 0)
    assert rules.legal_mask(state)[bot.act(state)] == 1 and bot.last_simulations == 10


def test_quarry_aec_env_with_search_opponents_finishes():
    result = play_match(lambda: maya_quarry_v1.env(num_players=3), "mcts:6:depth=5", "heuristic", games=1, seed=1)
    assert result.games == 1 and result.illegal_actions == 0
