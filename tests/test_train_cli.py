"""``maya-train`` as a newcomer meets it: mistakes fail before anything is written, RLlib
configs are recognised, the listed names are the ones the errors list, ``--help`` names the
``--set`` keys, and listing does not import the training stack."""

from __future__ import annotations

import subprocess
import sys

import pytest

from maya_envs.games import DEFAULT_GAME
from tests.conformance import shipped_ppo_baseline
from training.config import override_keys
from training.config_names import config_names
from training.train import list_configs, main

QUICK = f"{DEFAULT_GAME.key}/2p_quick"


def _fails(args, capsys) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    return capsys.readouterr().err


def test_a_bad_game_option_fails_before_the_run_directory_exists(tmp_path, capsys):
    refused = max(DEFAULT_GAME.player_counts) + 1
    args = ["--config", QUICK, "--set", f"game_options.num_players={refused}", "--set", f"output_dir={tmp_path}"]
    err = _fails(args, capsys)
    assert f"num_players={refused} is not allowed; allowed: {list(DEFAULT_GAME.player_counts)}" in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # nothing was created
    name, info = shipped_ppo_baseline(lambda info: info.game != DEFAULT_GAME.name)
    err = _fails(["--config", QUICK, "--set", f"opponents={{'pretrained:{name}': 1}}"], capsys)
    assert f"{name!r} plays {info.game} with {info.num_players} players" in err


def test_an_rllib_config_names_its_command(capsys):
    rllib = config_names("rllib")[-1]
    err = _fails(["--config", rllib], capsys)
    assert "is an RLlib config" in err and f"python -m training.rllib_train --config {rllib}" in err


def test_list_configs_and_the_unknown_name_error_list_the_same_names(capsys):
    main(["--list-configs"])
    listed = [line for line in capsys.readouterr().out.splitlines() if line and not line.startswith("RLlib")]
    assert sorted(listed) == config_names()
    assert list_configs().splitlines()[-1].startswith("rllib/")  # the RLlib ones last, under their command
    err = _fails(["--config", f"{DEFAULT_GAME.key}/2p_slow"], capsys)
    assert f"shipped names: {config_names()}" in err


def test_help_lists_every_set_key(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    for key in override_keys():
        assert key in out
    assert "self_play.pool_size" in out and "game_options.<option>" in out and "total_timesteps" in out


def test_listing_and_help_do_not_import_the_training_stack():
    code = (
        "import sys; from training.train import main; main(['--list-configs']); "
        "print(sorted(m for m in ('torch', 'stable_baselines3', 'sb3_contrib') if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "[]"


def test_training_takes_whole_rollouts_and_says_so():
    from training.config import load_config
    from training.train import rollout_steps

    config = load_config(QUICK, ["n_envs=8", "n_steps=256"])
    assert rollout_steps(config, 100_000) == 100_352 and rollout_steps(config, 2048) == 2048
    assert rollout_steps(config, 0) == 0
