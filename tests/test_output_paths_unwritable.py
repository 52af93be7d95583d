"""Output paths are checked by writing, not by ``os.access`` (which says yes to root everywhere,
and this machine and CI run as root): a path under ``/proc``, where nobody may create a file, is
refused at the start naming the option, by every command, and a good path leaves nothing behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from maya_envs.cli import play as play_cli
from maya_envs.cli import replay as replay_cli
from maya_envs.cli.args import output_file, output_folder
from tests.helpers.cli import never, refused

pytestmark = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")

UNDER_PROC = "/proc/none/x"


@pytest.mark.parametrize("check", [output_file, output_folder])
@pytest.mark.parametrize("path", [UNDER_PROC, "/proc"])
def test_a_place_nobody_may_write_is_refused_even_as_root(check, path):
    if check is output_file and path == "/proc":
        path = "/proc/version"  # an existing file nobody may replace
    with pytest.raises(ValueError, match=r"^--out '/proc[^']*': cannot (write|replace)"):
        check(path, "--out")


def test_a_writable_place_passes_and_the_check_leaves_nothing_behind(tmp_path):
    existing = tmp_path / "old.txt"
    existing.write_text("kept")
    assert output_file(existing) == existing and existing.read_text() == "kept"
    output_file(tmp_path / "new" / "deeper" / "f.jsonl")
    output_folder(tmp_path)
    output_folder(tmp_path / "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.txt"]


def test_maya_play_refuses_a_record_under_proc_before_the_game(monkeypatch, capsys):
    monkeypatch.setattr(play_cli, "record_env", never)
    refused(play_cli.main, ["--seats", "random,random", "--record", "/proc/none/p.jsonl"], capsys, "--record")


def test_maya_replay_blames_the_gif_not_the_record(monkeypatch, capsys):
    monkeypatch.setattr(replay_cli, "load_record", never)
    err = refused(replay_cli.main, ["good.jsonl", "--gif", "/proc/none/x.gif"], capsys, "--gif '/proc/none/x.gif'")
    assert "good.jsonl" not in err


def test_maya_arena_refuses_an_out_under_proc_before_any_game(monkeypatch, capsys):
    arena = pytest.importorskip("training.arena")
    monkeypatch.setattr(arena, "play_arena", never)
    refused(arena.main, ["--agents", "random", "random", "--out", UNDER_PROC], capsys, "--out", UNDER_PROC)


def test_maya_train_dry_run_refuses_an_output_dir_under_proc(capsys):
    train = pytest.importorskip("training.train")
    from training.config_names import config_names

    argv = ["--config", config_names()[0], "--set", "output_dir=/proc/x", "--dry-run"]
    err = refused(train.main, argv, capsys, "output_dir '/proc/x'")
    assert "config ok" not in capsys.readouterr().out + err
