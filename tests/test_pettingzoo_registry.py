"""PettingZoo's registry (1.27+): every game's AEC id makes its env, and ``pettingzoo.make("parallel",
id)`` makes a Parallel env where the game has one, else says "this game has no Parallel API" (not
PettingZoo's "not found in registry", which reads as a typo). Swept over the game table."""

from __future__ import annotations

import pytest

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.games import GAMES
from maya_envs.registration import AEC_ONLY_IDS, NoParallelApiError

pettingzoo = pytest.importorskip("pettingzoo")
if not hasattr(pettingzoo, "make"):
    pytest.skip("PettingZoo < 1.27 has no registry", allow_module_level=True)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_parallel_make_gives_the_parallel_env_or_says_there_is_none(key):
    game = GAMES[key]
    env_id = f"maya_envs/{key}-v{game.version}"
    assert isinstance(pettingzoo.make("aec", env_id), pettingzoo.AECEnv)
    if env_id in AEC_ONLY_IDS:
        with pytest.raises(NoParallelApiError, match=rf"'{env_id}': this game has no Parallel API.*'aec'"):
            pettingzoo.make("parallel", env_id)
    else:
        env = pettingzoo.make("parallel", env_id)
        assert isinstance(env, pettingzoo.ParallelEnv)
        env.close()


def test_some_game_is_aec_only_and_none_of_them_has_a_parallel_env():
    import importlib

    assert AEC_ONLY_IDS  # the sweep above checks the error on at least one game
    for game in GAMES.values():
        module = importlib.import_module(game.env_module)
        assert (f"maya_envs/{game.key}-v{game.version}" in AEC_ONLY_IDS) != hasattr(module, "parallel_env")
