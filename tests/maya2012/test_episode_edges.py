"""Episode edges of Maya (2012) (issue 17): a real end beats a turn cap and ``info["end"]`` names
it (also in the batched engine); the single-agent view refuses a learner seat that never decides;
the batched ``VectorEnv`` only returns games in which the learner can act, with the ``int8`` mask
and the reset check; a team's shared illegal-move result. (Every game's: tests/test_episode_edges.py.)"""

from __future__ import annotations

import dataclasses
import warnings

import gymnasium as gym
import numpy as np
import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.core.errors import ConfigError, ResetNeededError
from maya_envs.games import GAMES
from maya_envs.maya2012.rules import END_REASONS, Maya2012Rules, end_reason
from maya_envs.maya2012.vector_env import Maya2012VectorEnv
from tests.helpers.episodes import IllegalOnce, assert_mask_accepted

GYM_ID = GAMES["maya2012"].gym_id


def make_env(**options):
    """The Maya (2012) AEC env."""
    return GAMES["maya2012"].make_aec_env(**options)


# The issue's reproduction: after these exchanges player_0 has no legal exchange.
ISSUE_EXCHANGES = [29, 0, 35, 16, 7, 32, 19, 12, 41, 3, 45, 0, 33, 10, 4, 29, 40, 1, 16, 6, 13, 44, 2, 36, 41]
ISSUE_EXCHANGES += [39, 1, 42, 36, 25, 8, 6, 17, 43, 21, 36, 3, 24]


# -- 1. a real end beats the turn cap -----------------------------------------------------------


@pytest.mark.parametrize("at_max_turns", ["truncate", "score"])
def test_issue_reproduction_real_end_on_the_cap_step(at_max_turns):
    env = make_env(setup="random", max_turns=38, at_max_turns=at_max_turns)
    env.reset(seed=29)
    for action in ISSUE_EXCHANGES:
        env.step(action)
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.truncations == {"player_0": False, "player_1": False}
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert env.infos["player_0"]["end"] == "no_legal_exchange"


def _natural_ending(num_players: int, seed: int, limit: int = 400):
    """A random game (declaring whenever allowed on odd seeds, 3-4p) and its actions, if it
    ends by a rule within ``limit`` exchanges; else ``None``."""
    rules = Maya2012Rules({"num_players": num_players, "setup": "random", "max_turns": limit + 1})
    rng = np.random.default_rng(seed)
    state, actions = rules.initial_state(np.random.default_rng(seed)), []
    while not rules.is_terminal(state):
        if state.turn >= limit:
            return None
        legal = rules.legal_actions(state)
        action = 64 if 64 in legal and seed % 2 else int(rng.choice(legal))
        actions.append(action)
        state = rules.apply_action(state, action)
    return rules, state, actions


def _replay(options: dict, seed: int, actions: list[int]):
    rules = Maya2012Rules(options)
    state = rules.initial_state(np.random.default_rng(seed))
    for action in actions:
        if rules.current_player(state) < 0:
            break
        state = rules.apply_action(state, action)
    return rules, state


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_natural_end_survives_a_cap_at_its_length(num_players):
    """Replay natural endings (no legal exchange, a declaration) with ``max_turns`` equal to
    their length: the same end, termination, rewards and ``info["end"]``."""
    found = set()
    for seed in range(200):
        game = _natural_ending(num_players, seed)
        if game is None:
            continue
        rules, state, actions = game
        natural = end_reason(state)
        assert natural in ("declared", "no_legal_exchange")
        found.add(natural)
        for at_max_turns in ("truncate", "score"):
            options = {"num_players": num_players, "setup": "random", "max_turns": state.turn}
            capped, other = _replay({**options, "at_max_turns": at_max_turns}, seed, actions)
            assert capped.is_terminal(other) and not capped.is_truncated(other)
            np.testing.assert_array_equal(capped.returns(other), rules.returns(state))
            assert capped.final_info(other)["end"] == natural
        if len(found) == (1 if num_players == 2 else 2) and seed >= 6:
            break
    assert found == ({"no_legal_exchange"} if num_players == 2 else {"declared", "no_legal_exchange"})


def test_batched_engine_real_end_on_the_cap_step():
    """The issue's game in the batched engine (both backends): terminated, -1/+1, and the end
    code of ``no_legal_exchange``."""
    from maya_envs.maya2012.batched import BatchedMaya2012
    from tests.maya2012.helpers import BACKENDS

    env = make_env(setup="random", max_turns=38, at_max_turns="truncate")
    env.reset(seed=29)
    start = env.game_state
    for backend in BACKENDS:
        engine = BatchedMaya2012(1, seed=0, backend=backend, setup="random", max_turns=38, at_max_turns="truncate")
        engine.reset()
        engine.towers[0] = np.array(start.towers)
        engine.monolith[0], engine.raven[0] = start.monolith, start.raven
        engine._update_mask()
        for action in ISSUE_EXCHANGES:
            result = engine.step(np.array([action]), autoreset=False)
        assert result.terminated[0] and not result.truncated[0]
        assert result.rewards[0].tolist() == [-1.0, 1.0]
        assert END_REASONS[result.end[0]] == "no_legal_exchange"


def test_single_agent_refuses_a_learner_seat_that_never_decides():
    # The issue's reproduction: White's one exchange ends every game.
    with pytest.raises(ConfigError, match="learner_seat=1 never decides"):
        gym.make(GYM_ID, setup="random", max_turns=1, learner_seat=1)
    with pytest.raises(ConfigError, match=r"allowed: one of \[0, 1\]"):
        gym.make(GYM_ID, num_players=4, max_turns=2, learner_seat=3)
    # "random" draws only seats that decide; a seat that decides is accepted.
    env = gym.make(GYM_ID, num_players=4, max_turns=2, learner_seat="random")
    for seed in range(12):
        _, info = env.reset(seed=seed)
        assert info["learner"] in ("player_0", "player_1") and env.unwrapped.action_masks().any()
    env = gym.make(GYM_ID, setup="choose", max_turns=1, learner_seat=1)
    env.reset(seed=0)
    assert env.unwrapped.action_masks().any()


def test_vector_env_plays_on_past_games_that_end_before_the_learner_moves(monkeypatch):
    """Stuck boards (no legal first exchange; a constructed case: a valid random board always
    has one) end at once; the VectorEnv replaces them until the learner can act."""
    env = Maya2012VectorEnv(4, learner_seat=0, seed=0, setup="random")
    engine = env.engine
    real_boards, calls = engine._boards, []

    def boards(count):
        calls.append(count)
        out = real_boards(count)
        if len(calls) == 1:
            out[:] = np.arange(9, dtype=np.int8)[:, None]  # every tower one colour: no exchange
        return out

    monkeypatch.setattr(engine, "_boards", boards)
    env.reset(seed=0)
    assert len(calls) >= 2
    masks = env.action_masks()
    assert masks.any(axis=1).all() and (engine.to_move == env.seats).all()
    with pytest.raises(ConfigError, match="learner_seat=1 never moves"):
        Maya2012VectorEnv(2, learner_seat=1, setup="random", max_turns=1)
    env = Maya2012VectorEnv(8, learner_seat="random", seed=0, setup="random", max_turns=1)
    env.reset(seed=0)
    assert (env.seats == 0).all() and env.action_masks().any(axis=1).all()
    _, _, terminated, _, info = env.step(env.engine.sample_legal())
    assert terminated.all() and set(info["end"]) <= {"max_turns", "no_legal_exchange"}
    assert env.action_masks().any(axis=1).all()


def test_vector_env_mask_is_int8_and_accepted():
    env = Maya2012VectorEnv(3, seed=0)
    _, info = env.reset(seed=0)
    assert_mask_accepted(env.action_masks(), 75)
    assert_mask_accepted(info["action_mask"], 75)
    _, _, _, _, info = env.step(env.engine.sample_legal())
    assert_mask_accepted(info["action_mask"], 75)


def test_vector_env_calls_before_reset_say_to_call_reset():
    env = Maya2012VectorEnv(2, seed=0)
    for call in (env.action_masks, lambda: env.step(np.zeros(2, np.int64))):
        with pytest.raises(ResetNeededError, match=r"call reset\(\) first"):
            call()


# -- 6. a team shares an illegal-move result -----------------------------------------------------


def test_four_player_partners_share_the_illegal_move_result():
    env = make_env(num_players=4)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.action_mask("player_0") == 0)[0])
    with pytest.warns(UserWarning, match="illegal"):
        env.step(illegal)
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": -1.0, "player_3": 0.0}
    assert env.infos["player_2"]["offender"] == "player_0"
    # Three players have no teams: the offender alone.
    env = make_env(num_players=3)
    env.reset(seed=0)
    with pytest.warns(UserWarning):
        env.step(illegal)
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0}


@pytest.mark.parametrize("learner_seat", [0, 2])
def test_four_player_single_agent_learner_gets_its_team_illegal_result(learner_seat):
    # The learner's partner (an opponent) plays an illegal id: the learner's team loses.
    partner = (learner_seat + 2) % 4
    bad = IllegalOnce(at=2)  # after the learner's first decision
    specs = ["random"] * 3
    specs[sorted(set(range(4)) - {learner_seat}).index(partner)] = bad
    env = gym.make(GYM_ID, num_players=4, opponents=specs, learner_seat=learner_seat)
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while True:
            _, reward, terminated, _, info = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
            if terminated:
                break
    assert info["offender"] == f"player_{partner}" and reward == -1.0


# -- 8. batched and single engines agree when the first player cannot move -------------------


@pytest.mark.parametrize("autoreset", [True, False])
def test_batched_engine_ends_a_stuck_first_position_like_the_single_engine(monkeypatch, autoreset):
    from maya_envs.maya2012.batched import BatchedMaya2012
    from maya_envs.maya2012.rules import EXCHANGE
    from maya_envs.maya2012.rules import OVER as OVER_PHASE
    from tests.maya2012.helpers import BACKENDS

    stuck = np.repeat(np.arange(9, dtype=np.int8)[:, None], 5, axis=1)  # no exchange anywhere
    for backend in BACKENDS:
        engine = BatchedMaya2012(3, seed=0, backend=backend, setup="random")
        real = engine._boards

        def boards(count, real=real):
            out = real(count)
            out[0] = stuck
            return out

        monkeypatch.setattr(engine, "_boards", boards)
        engine.reset()
        single = Maya2012Rules({"setup": "random"})
        expected = single._start_exchanges(dataclasses.replace(engine.state(0), phase=EXCHANGE, _cache={}))
        assert expected.phase == OVER_PHASE and engine.state(0) == expected  # over before any move, as in rules
        assert not engine.mask[0].any() and engine.sample_legal()[0] == -1
        actions = engine.sample_legal()
        result = engine.step(actions, autoreset=autoreset)
        assert result.done.tolist() == [True, False, False] and result.terminated[0]
        assert result.rewards[0].tolist() == single.returns(expected).tolist() == [0.0, 0.0]
        assert END_REASONS[result.end[0]] == single.final_info(expected)["end"] == "no_legal_exchange"
        if not autoreset:  # reported once: the row stays over until reset_done
            with pytest.raises(Exception, match="illegal"):
                engine.step(engine.sample_legal(), autoreset=False)
