"""``gym.make_vec`` merges full infos of every game at every player count (issue 44): Gymnasium
types each info key's array by the first value it sees, so a key of the single-agent view has
one type in every game. A final-info seat nobody holds (Maya (2012)'s ``winner`` after a draw
or a truncation, ``declared_by``, ``centre_bonus``) is ``NO_SEAT`` (-1) there, ``None`` in the
AEC env's infos."""

from __future__ import annotations

from collections import defaultdict

import gymnasium as gym
import numpy as np
import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.games import GAMES
from maya_envs.wrappers.single_agent import NO_SEAT

CASES = [(key, n) for key in sorted(GAMES) for n in GAMES[key].player_counts]


def short_game_options(key: str, num_players: int) -> dict:
    """A turn limit of a few turns where the game has one: many truncated games (no winner)."""
    options = {"num_players": num_players}
    if hasattr(GAMES[key].make_rules(options).config, "max_turns"):
        options["max_turns"] = 6
    return options


def play_vector(envs, games: int, seed: int = 0) -> list[dict]:
    """Masked random play until ``games`` sub-env games ended; the infos of the ending steps."""
    rng = np.random.default_rng(seed)
    _obs, info = envs.reset(seed=seed)
    ended, steps, endings = 0, 0, []
    while ended < games:
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in info["action_mask"]])
        _obs, _rewards, terminations, truncations, info = envs.step(actions)
        done = terminations | truncations
        ended, steps = ended + int(done.sum()), steps + 1
        assert steps < 20_000, "the games do not end"
        if done.any():
            endings.append(info)
    return endings


@pytest.mark.parametrize(("key", "num_players"), CASES)
def test_sync_make_vec_merges_full_infos(key, num_players):
    envs = gym.make_vec(GAMES[key].gym_id, num_envs=3, vectorization_mode="sync",
                        **short_game_options(key, num_players))  # fmt: skip
    endings = play_vector(envs, games=12)
    envs.close()
    for info in endings:
        for seat_key in GAMES[key].make_rules({"num_players": num_players}).final_info_seat_keys:
            if seat_key in info:
                rows = info[seat_key][info["_" + seat_key]]
                assert rows.dtype.kind == "i" and ((rows >= NO_SEAT) & (rows < num_players)).all()


@pytest.mark.parametrize("key", sorted(GAMES))
def test_async_make_vec_merges_full_infos(key):
    num_players = GAMES[key].player_counts[0]
    envs = gym.make_vec(GAMES[key].gym_id, num_envs=2, vectorization_mode="async",
                        **short_game_options(key, num_players))  # fmt: skip
    try:
        assert len(play_vector(envs, games=4)) >= 1
    finally:
        envs.close(terminate=True)  # a failed merge leaves a step pending: a plain close waits for ever


@pytest.mark.parametrize(("key", "num_players"), CASES)
def test_every_info_key_has_one_type_across_games(key, num_players):
    """The property ``make_vec`` needs, over many games with wins, draws and truncations."""
    env = gym.make(GAMES[key].gym_id, **short_game_options(key, num_players))
    rng = np.random.default_rng(3)
    types: dict[str, set[type]] = defaultdict(set)
    for episode in range(25):
        _obs, info = env.reset(seed=episode)
        over = False
        while not over:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, _reward, terminated, truncated, info = env.step(action)
            over = terminated or truncated
            for name, value in info.items():
                types[name].add(type(value))
    env.close()
    mixed = {name: sorted(t.__name__ for t in seen) for name, seen in types.items() if len(seen) > 1}
    assert mixed == {}


SEAT_KEY_GAMES = [key for key in sorted(GAMES) if GAMES[key].make_rules({}).final_info_seat_keys]


@pytest.mark.parametrize("key", SEAT_KEY_GAMES)
def test_a_truncated_game_has_no_seat_in_the_gym_info_and_none_in_the_aec_info(key):
    num_players = GAMES[key].player_counts[0]
    env = gym.make(GAMES[key].gym_id, **short_game_options(key, num_players), at_max_turns="truncate")
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=0)
    truncated = terminated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, _reward, terminated, truncated, info = env.step(action)
    aec_info = env.unwrapped.aec_env.infos[info["learner"]]
    assert truncated
    for seat_key in set(info) & set(GAMES[key].make_rules({}).final_info_seat_keys):
        assert info[seat_key] == NO_SEAT and aec_info[seat_key] is None
