"""One bound for every seed a user gives (``maya_envs.core.rng.check_seed``): each command, the
web, records and resets refuse ``2**128`` and accept ``2**128 - 1``, and the record a command
writes with the largest seed replays."""

from __future__ import annotations

import importlib
import io

import numpy as np
import pytest

from maya_envs.cli import replay
from maya_envs.cli.play import main as play_main
from maya_envs.core.errors import ConfigError
from maya_envs.core.rng import MAX_SEED, check_seed, make_rng, offset_seed
from maya_envs.games import DEFAULT_GAME
from maya_envs.records import load_record
from maya_envs.web.policy import page_seed

TOO_BIG = MAX_SEED + 1
ALLOWED = "0..2**128-1"


def test_max_seed_is_128_bits():
    assert MAX_SEED == 2**128 - 1


@pytest.mark.parametrize("value", [0, 7, MAX_SEED, np.uint64(2**64 - 1), np.int8(3)])
def test_check_seed_returns_every_seed_in_range_unchanged_as_a_python_int(value):
    seed = check_seed(value)
    assert seed == int(value) and type(seed) is int


@pytest.mark.parametrize("value", [TOO_BIG, -1, 10**1000, True, 1.0, "5", None])
def test_check_seed_refuses_the_rest_naming_the_value_shortened_and_what_is_allowed(value):
    with pytest.raises(ConfigError, match=r"^--seed .*allowed: an int in 0\.\.2\*\*128-1$") as caught:
        check_seed(value, "--seed")
    assert len(str(caught.value)) < 400  # 10**1000 is shown shortened


def test_make_rng_and_every_reset_share_the_bound():
    assert make_rng(MAX_SEED).integers(10) == np.random.default_rng(MAX_SEED).integers(10)  # valid seeds unchanged
    with pytest.raises(ConfigError, match=ALLOWED.replace("*", r"\*").replace(".", r"\.")):
        make_rng(TOO_BIG)
    env = DEFAULT_GAME.make_aec_env()
    env.reset(seed=MAX_SEED)
    with pytest.raises(ConfigError):
        env.reset(seed=TOO_BIG)


def test_the_single_agent_gym_reset_shares_the_bound():
    import gymnasium as gym

    import maya_envs  # noqa: F401  (registers the ids)

    env = gym.make(DEFAULT_GAME.gym_id)
    env.reset(seed=MAX_SEED)
    with pytest.raises(ConfigError):
        env.reset(seed=TOO_BIG)


def test_the_web_accepts_the_largest_seed_as_a_number_or_digits_and_refuses_one_more():
    assert page_seed(MAX_SEED) == MAX_SEED
    assert page_seed(str(MAX_SEED)) == MAX_SEED
    for value in (TOO_BIG, str(TOO_BIG), "9" * 40, "9" * 5000):
        with pytest.raises(ValueError, match=r"allowed: an int in 0\.\.2\*\*128-1") as caught:
            page_seed(value)
        assert len(str(caught.value)) < 400


@pytest.mark.parametrize(
    "module", ["maya_envs.cli.play", "maya_envs.stats.cli", "training.arena", "training.exit.match"]
)
def test_every_command_refuses_a_seed_past_the_bound_before_any_work(module, capsys):
    with pytest.raises(SystemExit) as caught:
        importlib.import_module(module).main(["--seed", str(TOO_BIG), "x"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "argument --seed" in err and str(TOO_BIG) in err and ALLOWED in err


@pytest.mark.parametrize(
    ("module", "others"), [("maya_envs.stats.cli", []), ("training.arena", ["--agents", "random", "random"])]
)
def test_commands_with_a_parser_take_the_largest_seed(module, others):
    args = importlib.import_module(module).build_parser().parse_args(["--seed", str(MAX_SEED), *others])
    assert args.seed == MAX_SEED


def test_a_seat_seed_derived_from_the_largest_seed_wraps_to_a_valid_seed():
    assert offset_seed(5, 2) == 7
    assert offset_seed(MAX_SEED, 1) == 0 and check_seed(offset_seed(MAX_SEED, 3)) == 2


def test_maya_play_with_the_largest_seed_writes_a_record_that_maya_replay_replays(tmp_path):
    path = tmp_path / "big.jsonl"
    seats = ",".join(["random"] * min(DEFAULT_GAME.player_counts))
    argv = ["--game", DEFAULT_GAME.key, "--seats", seats, "--seed", str(MAX_SEED), "--record", str(path)]
    assert play_main(argv) == 0
    assert load_record(path).header["seed"] == MAX_SEED
    assert replay.main([str(path), "--no-pause"], stdin=io.StringIO(), out=io.StringIO()) == 0
