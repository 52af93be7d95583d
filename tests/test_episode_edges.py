"""Episode edges in every game (issue 17): ``info["end"]`` names the end; the single-agent view
only returns games in which the learner can act; one ``int8`` mask dtype on every surface; use
before ``reset()``; PettingZoo's own registry. (A real end beating a turn cap, the batched
``VectorEnv`` and a team's shared illegal-move result are Maya (2012)'s:
tests/maya2012/test_episode_edges.py.)"""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.core.errors import ResetNeededError
from maya_envs.games import DEFAULT_GAME, GAMES
from maya_envs.registration import ENV_IDS
from tests.conformance import case_id, turn_cap
from tests.helpers.episodes import IllegalOnce, assert_mask_accepted

# Every game at every player count (its default variant).
CASES = [(key, {"num_players": n}) for key, game in GAMES.items() for n in game.player_counts]


def _final_info(env, rng, limit=100_000):
    """Play ``env`` (reset) to the end with uniformly random legal actions; the final info."""
    final = None
    for agent in env.agent_iter(limit):
        _, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            final = info
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(env.action_mask(agent)))))
    return final


# -- 1. the end is named ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_info_names_the_end_in_every_game(case):
    key, options = case
    env = GAMES[key].make_aec_env(**options, **turn_cap(GAMES[key], 60))
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


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_single_agent_reset_plays_on_past_a_game_the_learner_never_joins(case):
    key, options = case
    n = options["num_players"]
    opponent = IllegalOnce()  # every opponent seat: the first one to act plays the illegal id
    aec = GAMES[key].make_aec_env(**options)
    aec.reset(seed=0)
    first = aec.possible_agents.index(aec.agent_selection)
    learner = max(seat for seat in range(n) if seat != first)  # an opponent moves first
    env = gym.make(GAMES[key].gym_id, opponents=[opponent] * (n - 1), learner_seat=learner, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the illegal-action warning of the first game
        obs, info = env.reset(seed=0)
    assert opponent.calls >= 2  # the first game ended on its illegal id before the learner moved
    mask = env.unwrapped.action_masks()
    assert mask.any() and info["learner"] == f"player_{learner}" and "illegal_action" not in info
    env.step(int(np.flatnonzero(mask)[0]))  # the learner can act


def test_single_agent_gives_up_on_an_opponent_that_always_plays_illegal_ids():
    from maya_envs.wrappers import single_agent

    aec = DEFAULT_GAME.make_aec_env()
    aec.reset(seed=0)
    learner = 1 - aec.possible_agents.index(aec.agent_selection)  # the opponent moves first
    env = gym.make(DEFAULT_GAME.gym_id, opponent=lambda obs: int(np.flatnonzero(obs["action_mask"] == 0)[0]),
                   learner_seat=learner)  # fmt: skip
    with warnings.catch_warnings(), pytest.raises(RuntimeError, match=f"games in a row ended before player_{learner}"):
        warnings.simplefilter("ignore")
        env.reset(seed=0)
    assert single_agent.MAX_GAMES_WITHOUT_LEARNER >= 100


# -- 3. one mask dtype on every surface ---------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_mask_surface_is_int8_and_accepted(case):
    key, options = case
    module, gym_id = importlib.import_module(GAMES[key].env_module), GAMES[key].gym_id
    aec = module.env(**options)
    aec.reset(seed=0)
    n = aec.action_space(aec.agent_selection).n
    assert_mask_accepted(aec.observe(aec.agent_selection)["action_mask"], n)
    assert_mask_accepted(aec.action_mask(aec.agent_selection), n)
    assert_mask_accepted(aec.last()[0]["action_mask"], n)
    if hasattr(module, "parallel_env"):
        par = module.parallel_env(**options)
        observations, _ = par.reset(seed=0)
        acting = par.acting_agents()[0]
        assert_mask_accepted(observations[acting]["action_mask"], n)
    env = gym.make(gym_id, **options)
    _, info = env.reset(seed=0)
    assert_mask_accepted(env.unwrapped.action_masks(), n)
    assert_mask_accepted(info["action_mask"], n)
    env.action_space.sample(mask=env.unwrapped.action_masks())  # the call
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    if "action_mask" in info and info["action_mask"].any():
        assert_mask_accepted(info["action_mask"], n)


# -- 4. use before reset --------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_call_before_reset_says_to_call_reset(case):
    key, options = case
    module, gym_id = importlib.import_module(GAMES[key].env_module), GAMES[key].gym_id
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
    assert {env_id.split("/")[1].split("-")[0] for _, env_id in PETTINGZOO_IDS} == set(GAMES)
    assert len(ENV_IDS) == len(GAMES)  # one Gymnasium id per game, as many games as PettingZoo ids


def test_sb3_vector_envs_refuse_action_masks_before_reset():
    """sb3-contrib's ``get_action_masks`` before ``reset``: ResetNeededError from a
    DummyVecEnv, and from the training SubprocVecEnv in the calling process (SB3's own
    workers would die and leave only EOFError)."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from training.vec_env import ResetCheckedSubprocVecEnv

    def make():
        return gym.make(DEFAULT_GAME.gym_id)

    dummy = VecMonitor(DummyVecEnv([make, make]))
    with pytest.raises(ResetNeededError, match=r"call reset\(\) first"):
        get_action_masks(dummy)
    sub = VecMonitor(ResetCheckedSubprocVecEnv([make, make], start_method="fork"))
    try:
        with pytest.raises(ResetNeededError, match=r"action_masks\(\) before reset\(\)"):
            get_action_masks(sub)
        sub.reset()
        masks = get_action_masks(sub)
        num_actions = DEFAULT_GAME.make_rules({}).spec.num_actions
        assert masks.shape == (2, num_actions) and masks.any(axis=1).all()
    finally:
        sub.close()


def test_registration_skips_a_pettingzoo_without_a_registry(monkeypatch):
    import types

    from maya_envs.registration import register_envs

    monkeypatch.setitem(sys.modules, "pettingzoo", types.ModuleType("pettingzoo"))  # no make/register
    register_envs()  # the Gymnasium ids only, no error
