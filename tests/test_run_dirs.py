"""Run directories are unique even for runs of the same config and seed started in the same
second (issue 29, item 5): the clock is frozen, so every run asks for the same name."""

from __future__ import annotations

import threading

import pytest

import training.run_dirs
from maya_envs.games import DEFAULT_GAME
from training.run_dirs import new_run_dir
from training.train import main

SECOND = "20260101-000000"
RUN = f"{DEFAULT_GAME.gym_id.split('/')[-1]}__exp__1"  # a run name: the Gymnasium id's name, exp_name, seed


@pytest.fixture
def frozen_clock(monkeypatch):
    monkeypatch.setattr(training.run_dirs, "_timestamp", lambda: SECOND)


def test_runs_started_in_the_same_second_get_their_own_directories(tmp_path, frozen_clock):
    first = new_run_dir(tmp_path / "runs", RUN)
    second = new_run_dir(tmp_path / "runs", RUN)
    assert first.name == f"{RUN}__{SECOND}" and second.name == f"{first.name}-2"
    assert first.is_dir() and second.is_dir()

    made, errors = [], []

    def start_run():
        try:
            made.append(new_run_dir(tmp_path / "runs", RUN))
        except Exception as error:  # noqa: BLE001  (reported below)
            errors.append(error)

    threads = [threading.Thread(target=start_run) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(set(made)) == 8 and {first, second}.isdisjoint(made)
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == sorted(
        [first.name] + [f"{first.name}-{k}" for k in range(2, 11)]
    )


PPO = [
    "--config", f"{DEFAULT_GAME.key}/2p_quick", "--set", "total_timesteps=1", "--set", "n_envs=1",
    "--set", "n_steps=16", "--set", "batch_size=16", "--set", "n_epochs=1", "--set", "vec_env=dummy",
]  # fmt: skip
EXIT = [
    "--config", f"{DEFAULT_GAME.key}/2p_exit", "--set", "exit.iterations=0", "--set", "exit.imitation_games=2",
    "--set", "exit.imitation_epochs=1", "--set", "exit.simulations=2", "--set", "exit.gate_games=0",
    "--set", "exit.eval_simulations=0", "--set", "exit.actors=1", "--set", "game_options.max_turns=8",
]  # fmt: skip
SMALL = ["--set", "eval_games=1", "--set", "eval_opponents=[random]", "--set", "progress_bar=false"]


@pytest.mark.parametrize("args", [PPO, EXIT], ids=["ppo", "exit"])
def test_two_maya_train_runs_of_one_config_and_seed_in_the_same_second(tmp_path, frozen_clock, args):
    for _ in range(2):  # the second raised FileExistsError
        assert main([*args, *SMALL, "--set", f"output_dir={tmp_path}"]) == 0
    first, second = sorted(tmp_path.iterdir())
    assert second.name == f"{first.name}-2" and first.name.endswith(f"__1__{SECOND}")
    for run in (first, second):
        assert (run / "config.yaml").is_file() and (run / "evaluation.json").is_file()


def test_claim_new_names_files_with_their_suffix_and_counts_on(tmp_path):
    from maya_envs.core.paths import claim_new

    names = [claim_new(tmp_path / "out", "game-x", suffix=".jsonl").name for _ in range(3)]
    assert names == ["game-x.jsonl", "game-x-2.jsonl", "game-x-3.jsonl"]
    assert all((tmp_path / "out" / name).is_file() for name in names)


def test_two_maya_play_games_in_the_same_second_keep_both_records(tmp_path, monkeypatch):
    """The default record name is the time to the second: the second game overwrote the first."""
    import maya_envs.cli.play as play_cli
    from maya_envs.records import load_record

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(play_cli, "timestamp", lambda: SECOND)
    for seed in (1, 2):
        assert play_cli.main(["--seats", "random,random", "--option", "max_turns=4", "--seed", str(seed)]) == 0
    records = tmp_path / "maya-records"
    assert sorted(p.name for p in records.iterdir()) == sorted([f"{DEFAULT_GAME.name}-{SECOND}{k}.jsonl" for k in ("", "-2")])
    first, second = records / f"{DEFAULT_GAME.name}-{SECOND}.jsonl", records / f"{DEFAULT_GAME.name}-{SECOND}-2.jsonl"
    assert [load_record(p).header["seed"] for p in (first, second)] == [1, 2]


def test_a_refused_maya_play_command_line_leaves_no_record_file(tmp_path, monkeypatch):
    import maya_envs.cli.play as play_cli

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        play_cli.main(["--seats", "random,grandmaster"])
    assert not (tmp_path / "maya-records").exists()
