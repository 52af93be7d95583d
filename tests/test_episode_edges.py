"""Episode edges in every game (issue 17): a real end beats a turn cap and ``info["end"]``
names it; the single-agent view and the batched ``VectorEnv`` only return games in which the
learner can act; one ``int8`` mask dtype on every surface; use before ``reset()``; a team's
shared illegal-move result; PettingZoo's own registry."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs import maya2012_v1, maya_quarry_v1, yaxha_v1
from maya_envs.core.errors import ConfigError, ResetNeededError
from maya_envs.maya2012.rules import END_REASONS, Maya2012Rules, end_reason
from maya_envs.maya2012.vector_env import Maya2012VectorEnv
from maya_envs.registration import ENV_IDS

# Every game at every player count (the AEC module, its options, its Gymnasium id).
GAMES = [
    (maya2012_v1, {"num_players": 2}, "maya_envs/Maya2012-v1"),
    (maya2012_v1, {"num_players": 3}, "maya_envs/Maya2012-v1"),
    (maya2012_v1, {"num_players": 4}, "maya_envs/Maya2012-v1"),
    (maya_quarry_v1, {"num_players": 3}, "maya_envs/MayaQuarry-v1"),
    (maya_quarry_v1, {"num_players": 5}, "maya_envs/MayaQuarry-v1"),
    (yaxha_v1, {"num_players": 2}, "maya_envs/Yaxha-v1"),
    (yaxha_v1, {"num_players": 4}, "maya_envs/Yaxha-v1"),
]
GAME_IDS = [f"{module.__name__.split('.')[-1]}-{opts['num_players']}p" for module, opts, _ in GAMES]

# The issue's reproduction: after these exchanges player_0 has no legal exchange.
ISSUE_EXCHANGES = [29, 0, 35, 16, 7, 32, 19, 12, 41, 3, 45, 0, 33, 10, 4, 29, 40, 1, 16, 6, 13, 44, 2, 36, 41]
ISSUE_EXCHANGES += [39, 1, 42, 36, 25, 8, 6, 17, 43, 21, 36, 3, 24]


def _final_info(env, rng, limit=100_000):
    """Play ``env`` (reset) to the end with uniformly random legal actions; the final info."""
    final = None
    for agent in env.agent_iter(limit):
        _, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            final = info
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(env.action_mask(agent)))))
    return final


# -- 1. a real end beats the turn cap -----------------------------------------------------------


@pytest.mark.parametrize("at_max_turns", ["truncate", "score"])
def test_issue_reproduction_real_end_on_the_cap_step(at_max_turns):
    env = maya2012_v1.env(setup="random", max_turns=38, at_max_turns=at_max_turns)
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
    from tests.maya2012.test_batched import BACKENDS

    env = maya2012_v1.env(setup="random", max_turns=38, at_max_turns="truncate")
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


@pytest.mark.parametrize("game", range(len(GAMES)), ids=GAME_IDS)
def test_info_names_the_end_in_every_game(game):
    module, options, _ = GAMES[game]
    env = module.env(**options, **({"max_turns": 60} if module is maya2012_v1 else {}))
    env.reset(seed=1)
    assert _final_info(env, np.random.default_rng(1))["end"] in (
        "last_round",
        "no_legal_exchange",
        "declared",
        "max_turns",
    )
    env.reset(seed=2)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.action_mask(agent) == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(info["end"] == "illegal_action" for info in env.infos.values())


# -- 2. the single-agent view returns an episode in which the learner acts ------------------------


class _IllegalOnce:
    """An opponent that plays an illegal id on its ``at``-th decision only, else random legal ids."""

    def __init__(self, at: int = 1):
        self.calls, self.at = 0, at
        self.rng = np.random.default_rng(0)

    def __call__(self, observation):
        self.calls += 1
        mask = observation["action_mask"]
        pool = np.flatnonzero(mask == 0) if self.calls == self.at else np.flatnonzero(mask)
        return int(self.rng.choice(pool))


@pytest.mark.parametrize("game", range(len(GAMES)), ids=GAME_IDS)
def test_single_agent_reset_plays_on_past_a_game_the_learner_never_joins(game):
    module, options, gym_id = GAMES[game]
    n = options["num_players"]
    opponent = _IllegalOnce()  # every opponent seat: the first one to act plays the illegal id
    if module is maya2012_v1:
        options = {**options, "setup": "random"}  # player_0 moves first
    env = gym.make(gym_id, opponents=[opponent] * (n - 1), learner_seat=n - 1, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the illegal-action warning of the first game
        obs, info = env.reset(seed=0)
    assert opponent.calls >= 2  # the first game ended on its illegal id before the learner moved
    mask = env.unwrapped.action_masks()
    assert mask.any() and info["learner"] == f"player_{n - 1}" and "illegal_action" not in info
    env.step(int(np.flatnonzero(mask)[0]))  # the learner can act


def test_single_agent_refuses_a_learner_seat_that_never_decides():
    # The issue's reproduction: White's one exchange ends every game.
    with pytest.raises(ConfigError, match="learner_seat=1 never decides"):
        gym.make("maya_envs/Maya2012-v1", setup="random", max_turns=1, learner_seat=1)
    with pytest.raises(ConfigError, match=r"allowed: one of \[0, 1\]"):
        gym.make("maya_envs/Maya2012-v1", num_players=4, max_turns=2, learner_seat=3)
    # "random" draws only seats that decide; a seat that decides is accepted.
    env = gym.make("maya_envs/Maya2012-v1", num_players=4, max_turns=2, learner_seat="random")
    for seed in range(12):
        _, info = env.reset(seed=seed)
        assert info["learner"] in ("player_0", "player_1") and env.unwrapped.action_masks().any()
    env = gym.make("maya_envs/Maya2012-v1", setup="choose", max_turns=1, learner_seat=1)
    env.reset(seed=0)
    assert env.unwrapped.action_masks().any()


def test_single_agent_gives_up_on_an_opponent_that_always_plays_illegal_ids():
    from maya_envs.wrappers import single_agent

    env = gym.make("maya_envs/Maya2012-v1", opponent=lambda obs: int(np.flatnonzero(obs["action_mask"] == 0)[0]),
                   learner_seat=1, setup="random")  # fmt: skip
    with warnings.catch_warnings(), pytest.raises(RuntimeError, match="games in a row ended before player_1"):
        warnings.simplefilter("ignore")
        env.reset(seed=0)
    assert single_agent.MAX_GAMES_WITHOUT_LEARNER >= 100


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


# -- 3. one mask dtype on every surface ---------------------------------------------------------


def _assert_mask_accepted(mask: np.ndarray, n: int) -> None:
    assert mask.dtype == np.int8 and mask.shape[-1] == n and mask.any()
    space = spaces.Discrete(n)
    for row in np.atleast_2d(mask):
        assert row[space.sample(mask=row)] == 1
    try:
        from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
    except ImportError:  # the train extra is not installed
        return
    import torch

    dist = MaskableCategoricalDistribution(n).proba_distribution(torch.zeros((len(np.atleast_2d(mask)), n)))
    dist.apply_masking(mask)
    chosen = dist.sample().numpy()
    assert (np.atleast_2d(mask)[np.arange(len(chosen)), chosen] == 1).all()


@pytest.mark.parametrize("game", range(len(GAMES)), ids=GAME_IDS)
def test_every_mask_surface_is_int8_and_accepted(game):
    module, options, gym_id = GAMES[game]
    aec = module.env(**options)
    aec.reset(seed=0)
    n = aec.action_space(aec.agent_selection).n
    _assert_mask_accepted(aec.observe(aec.agent_selection)["action_mask"], n)
    _assert_mask_accepted(aec.action_mask(aec.agent_selection), n)
    _assert_mask_accepted(aec.last()[0]["action_mask"], n)
    if hasattr(module, "parallel_env"):
        par = module.parallel_env(**options)
        observations, _ = par.reset(seed=0)
        acting = par.acting_agents()[0]
        _assert_mask_accepted(observations[acting]["action_mask"], n)
    env = gym.make(gym_id, **options)
    _, info = env.reset(seed=0)
    _assert_mask_accepted(env.unwrapped.action_masks(), n)
    _assert_mask_accepted(info["action_mask"], n)
    env.action_space.sample(mask=env.unwrapped.action_masks())  # the issue's call
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    if "action_mask" in info and info["action_mask"].any():
        _assert_mask_accepted(info["action_mask"], n)


def test_vector_env_mask_is_int8_and_accepted():
    env = Maya2012VectorEnv(3, seed=0)
    _, info = env.reset(seed=0)
    _assert_mask_accepted(env.action_masks(), 75)
    _assert_mask_accepted(info["action_mask"], 75)
    _, _, _, _, info = env.step(env.engine.sample_legal())
    _assert_mask_accepted(info["action_mask"], 75)


# -- 4. use before reset --------------------------------------------------------------------------


@pytest.mark.parametrize("game", range(len(GAMES)), ids=GAME_IDS)
def test_every_call_before_reset_says_to_call_reset(game):
    module, options, gym_id = GAMES[game]
    aec = module.env(render_mode="ansi", **options)
    calls = {
        "render": aec.render,
        "observe": lambda: aec.observe("player_0"),
        "step": lambda: aec.step(0),
        "last": aec.last,
        "action_mask": lambda: aec.action_mask("player_0"),
    }
    if hasattr(module, "parallel_env"):
        par = module.parallel_env(render_mode="ansi", **options)
        calls["parallel step"] = lambda: par.step({"player_0": 0})
        calls["parallel observe"] = lambda: par.observe("player_0")
        calls["parallel render"] = par.render
    single = gym.make(gym_id, render_mode="ansi", **options).unwrapped
    calls["single step"] = lambda: single.step(0)
    calls["single action_masks"] = single.action_masks
    calls["single render"] = single.render
    for name, call in calls.items():
        with pytest.raises(ResetNeededError, match=r"before reset\(\): call reset\(\) first"):
            call()
        assert name  # each call named in the parametrised failure


def test_vector_env_calls_before_reset_say_to_call_reset():
    env = Maya2012VectorEnv(2, seed=0)
    for call in (env.action_masks, lambda: env.step(np.zeros(2, np.int64))):
        with pytest.raises(ResetNeededError, match=r"call reset\(\) first"):
            call()


# -- 6. a team shares an illegal-move result -----------------------------------------------------


def test_four_player_partners_share_the_illegal_move_result():
    env = maya2012_v1.env(num_players=4)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.action_mask("player_0") == 0)[0])
    with pytest.warns(UserWarning, match="illegal"):
        env.step(illegal)
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": -1.0, "player_3": 0.0}
    assert env.infos["player_2"]["offender"] == "player_0"
    # Three players have no teams: the offender alone.
    env = maya2012_v1.env(num_players=3)
    env.reset(seed=0)
    with pytest.warns(UserWarning):
        env.step(illegal)
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0}


@pytest.mark.parametrize("learner_seat", [0, 2])
def test_four_player_single_agent_learner_gets_its_team_illegal_result(learner_seat):
    # The learner's partner (an opponent) plays an illegal id: the learner's team loses.
    partner = (learner_seat + 2) % 4
    bad = _IllegalOnce(at=2)  # after the learner's first decision
    specs = ["random"] * 3
    specs[sorted(set(range(4)) - {learner_seat}).index(partner)] = bad
    env = gym.make("maya_envs/Maya2012-v1", num_players=4, opponents=specs, learner_seat=learner_seat)
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while True:
            _, reward, terminated, _, info = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
            if terminated:
                break
    assert info["offender"] == f"player_{partner}" and reward == -1.0


# -- 7. PettingZoo's own registry -----------------------------------------------------------------


def test_pettingzoo_registry_knows_every_env_in_a_fresh_process():
    import pettingzoo

    from maya_envs.registration import PETTINGZOO_IDS

    if not hasattr(pettingzoo, "register"):
        pytest.skip(f"PettingZoo {pettingzoo.__version__} has no registry")

    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "import pettingzoo, maya_envs\n"
        f"ids = {PETTINGZOO_IDS!r}\n"
        "for kind, env_id in ids:\n"
        "    env = pettingzoo.make(kind, env_id)\n"
        "    env.reset(seed=0)\n"
        "    print(kind, env_id, type(env).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == len(PETTINGZOO_IDS)
    kinds = {kind for kind, _ in PETTINGZOO_IDS}
    assert kinds == {"aec", "parallel"}
    assert {env_id.split("/")[1].split("-")[0] for _, env_id in PETTINGZOO_IDS} == {"maya2012", "maya_quarry", "yaxha"}
    assert len(ENV_IDS) == 3  # one Gymnasium id per game, as many games as PettingZoo ids


def test_sb3_vector_envs_refuse_action_masks_before_reset():
    """sb3-contrib's ``get_action_masks`` before ``reset``: ResetNeededError from a
    DummyVecEnv, and from the training SubprocVecEnv in the calling process (SB3's own
    workers would die and leave only EOFError)."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from training.vec_env import ResetCheckedSubprocVecEnv

    def make():
        return gym.make("maya_envs/Maya2012-v1", setup="random")

    dummy = VecMonitor(DummyVecEnv([make, make]))
    with pytest.raises(ResetNeededError, match=r"call reset\(\) first"):
        get_action_masks(dummy)
    sub = VecMonitor(ResetCheckedSubprocVecEnv([make, make], start_method="fork"))
    try:
        with pytest.raises(ResetNeededError, match=r"action_masks\(\) before reset\(\)"):
            get_action_masks(sub)
        sub.reset()
        masks = get_action_masks(sub)
        assert masks.shape == (2, 75) and masks.any(axis=1).all()
    finally:
        sub.close()


# -- 8. batched and single engines agree when the first player cannot move -------------------


@pytest.mark.parametrize("autoreset", [True, False])
def test_batched_engine_ends_a_stuck_first_position_like_the_single_engine(monkeypatch, autoreset):
    from maya_envs.maya2012.batched import BatchedMaya2012
    from maya_envs.maya2012.rules import EXCHANGE
    from maya_envs.maya2012.rules import OVER as OVER_PHASE
    from tests.maya2012.test_batched import BACKENDS

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


def test_registration_skips_a_pettingzoo_without_a_registry(monkeypatch):
    import types

    from maya_envs.registration import register_envs

    monkeypatch.setitem(sys.modules, "pettingzoo", types.ModuleType("pettingzoo"))  # no make/register
    register_envs()  # the Gymnasium ids only, no error
