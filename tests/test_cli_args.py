"""Command-line arguments are checked before any work (issue 44): an output path that can never
be written is refused at the start with a message naming it (not a traceback after every game),
a README to check must exist, and a worker count above the games or the cores is lowered and
said. Each command's work is replaced by a function that fails the test if it is reached."""

from __future__ import annotations

import pytest

from maya_envs.cli import play as play_cli
from maya_envs.cli import replay as replay_cli
from maya_envs.cli.args import capped_workers, output_file, output_folder
from maya_envs.stats import cli as stats_cli
from tests.helpers.cli import never, refused


def test_output_checks_name_the_path_and_what_is_allowed(tmp_path):
    afile = tmp_path / "a.txt"
    afile.write_text("x")
    assert output_folder(tmp_path / "new" / "deeper") == tmp_path / "new" / "deeper"
    assert output_folder(tmp_path) == tmp_path and output_file(afile) == afile  # a file is replaced
    with pytest.raises(ValueError, match=r"--out '.*a\.txt' is a file; allowed: a folder"):
        output_folder(afile)
    with pytest.raises(ValueError, match=r"a\.txt' on its way is a file"):
        output_folder(afile / "sub")
    with pytest.raises(ValueError, match=r"--gif '.*' is a folder; allowed: a file name"):
        output_file(tmp_path, "--gif")
    with pytest.raises(ValueError, match=r"a\.txt' on its way is a file"):
        output_file(afile / "x.json")
    with pytest.raises(ValueError) as long:
        output_folder(afile / ("y" * 5000))
    assert len(str(long.value)) < 400  # the path is shortened in the message


def test_workers_are_capped_at_the_games_and_the_cores_and_said():
    assert capped_workers(2, 10, cores=4) == (2, "")
    assert capped_workers(12, 2, cores=16) == (2, "--workers 12 lowered to 2 (there are 2 games)")
    assert capped_workers(12, 100, cores=4) == (4, "--workers 12 lowered to 4 (there are 4 usable cores)")
    assert capped_workers(3, 1, "--actors", cores=1) == (1, "--actors 3 lowered to 1 (there are 1 game)")


def test_maya_stats_refuses_an_out_file_before_any_game(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(stats_cli, "play_run", never)
    report = tmp_path / "report"
    report.write_text("a file, not a folder")
    refused(stats_cli.main, ["--games", "2", "--out", str(report), "--no-plots"], capsys, "--out", "is a file")


def test_maya_stats_check_readme_of_a_missing_file_is_a_clear_error(tmp_path, capsys):
    missing = tmp_path / "missing.md"
    refused(stats_cli.main, ["--check-readme", str(missing)], capsys, "--check-readme", "no such file")
    refused(stats_cli.main, ["--readme", str(missing)], capsys, "--readme", "no such file")
    broken = tmp_path / "no_block.md"
    broken.write_text("# a README without the game-statistics block\n")
    refused(stats_cli.main, ["--check-readme", str(broken)], capsys, "--check-readme", "game-statistics block")


def test_maya_stats_workers_are_capped_at_the_games(tmp_path, monkeypatch, capsys):
    seen = []

    def fake_run(config, games, seed, workers):
        seen.append(workers)
        raise ValueError("stop here")  # the command's own error path; the workers are what counts

    monkeypatch.setattr(stats_cli, "play_run", fake_run)
    refused(stats_cli.main, ["--games", "2", "--workers", "12", "--out", str(tmp_path)], capsys, "lowered to")
    assert seen == [min(2, stats_cli.capped_workers(12, 12)[0])]


def test_maya_arena_refuses_an_out_file_before_any_game(tmp_path, monkeypatch, capsys):
    arena = pytest.importorskip("training.arena")
    monkeypatch.setattr(arena, "play_arena", never)
    out = tmp_path / "arena_out"
    out.write_text("x")
    argv = ["--agents", "random", "heuristic", "--games", "2", "--out", str(out)]
    refused(arena.main, argv, capsys, "--out", "is a file")


def test_maya_eval_refuses_an_out_file_before_any_game(tmp_path, monkeypatch, capsys):
    evaluate = pytest.importorskip("training.evaluate")
    monkeypatch.setattr(evaluate, "evaluate_against_bots", never)
    out = tmp_path / "eval_out"
    out.write_text("x")
    refused(evaluate.main, ["--agent", "random", "--games", "2", "--out", str(out)], capsys, "is a file")


def test_a_training_match_checks_out_and_caps_process_actors(tmp_path, monkeypatch, capsys):
    match = pytest.importorskip("training.exit.match")
    monkeypatch.setattr(match, "measure", never)
    refused(match.main, ["net.pt", "--games", "2", "--out", str(tmp_path)], capsys, "is a folder")
    seen = []

    def fake_measure(network, opponents, games, simulations, actors, *rest):
        seen.append(actors)
        return []

    monkeypatch.setattr(match, "measure", fake_measure)
    monkeypatch.setattr(match, "markdown", lambda rows: "")
    match.main(["net.pt", "--games", "2", "--actors", "12"])
    assert seen == [min(2, match.capped_workers(12, 12)[0])]
    assert "--actors 12 lowered to" in capsys.readouterr().err


def test_training_results_refuses_an_out_folder_before_any_run(tmp_path, monkeypatch, capsys):
    results = pytest.importorskip("training.results")
    monkeypatch.setattr(results, "row", never)
    refused(results.main, ["a=runs/a", "--out", str(tmp_path)], capsys, "is a folder")


def test_maya_play_refuses_a_record_path_it_cannot_write_before_the_game(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(play_cli, "record_env", never)
    refused(play_cli.main, ["--seats", "random,random", "--record", str(tmp_path)], capsys, "--record", "is a folder")


def test_maya_replay_refuses_picture_outputs_it_cannot_write_before_drawing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(replay_cli, "load_record", never)
    afile = tmp_path / "f"
    afile.write_text("x")
    refused(replay_cli.main, ["r.jsonl", "--gif", str(tmp_path)], capsys, "--gif", "is a folder")
    refused(replay_cli.main, ["r.jsonl", "--frames", str(afile)], capsys, "--frames", "is a file")


def test_maya_train_refuses_an_output_dir_file_before_training(tmp_path, capsys):
    """Even ``--dry-run`` (which checks the config) refuses it: the run folder could never be made."""
    train = pytest.importorskip("training.train")
    from training.config_names import config_names

    afile = tmp_path / "runs"
    afile.write_text("x")
    argv = ["--config", config_names()[0], "--set", f"output_dir={afile}", "--dry-run"]
    refused(train.main, argv, capsys, "output_dir", "is a file")
