"""A record whose replay ends the game must carry its end line (the outcome is checked only
there); an unfinished game's record has none and loads. Refused alike by ``load_record``,
``maya-replay`` and the web upload (one check, in ``iter_replay``)."""

from __future__ import annotations

import io

import pytest

from maya_envs.cli import replay
from maya_envs.cli.play import main as play_main
from maya_envs.games import DEFAULT_GAME
from maya_envs.records import RecordError, load_record


@pytest.fixture(scope="module")
def finished_lines(tmp_path_factory) -> list[str]:
    path = tmp_path_factory.mktemp("rec") / "g.jsonl"
    seats = ",".join(["random"] * min(DEFAULT_GAME.player_counts))
    assert play_main(["--game", DEFAULT_GAME.key, "--seats", seats, "--seed", "3", "--record", str(path)]) == 0
    lines = path.read_text().splitlines()
    assert '"end"' in lines[-1]
    return lines


def test_a_finished_game_without_its_end_line_is_refused_naming_the_line(finished_lines, tmp_path, capsys):
    path = tmp_path / "cut.jsonl"
    path.write_text("\n".join(finished_lines[:-1]) + "\n")
    with pytest.raises(RecordError, match="the replayed game is over and the record has no end line") as caught:
        load_record(path)
    assert caught.value.line == len(finished_lines)
    assert replay.main([str(path), "--no-pause"], stdin=io.StringIO(), out=io.StringIO()) == 1
    assert "no end line" in capsys.readouterr().err


def test_the_web_upload_refuses_it_too(finished_lines):
    from maya_envs.web.sessions import Replay

    with pytest.raises(RecordError, match="no end line"):
        Replay("\n".join(finished_lines[:-1]))
    assert Replay("\n".join(finished_lines)).over


def test_an_unfinished_game_without_an_end_line_loads(finished_lines, tmp_path):
    path = tmp_path / "part.jsonl"
    path.write_text("\n".join(finished_lines[:4]) + "\n")
    assert len(load_record(path).moves) == 3


def test_the_whole_record_loads(finished_lines, tmp_path):
    path = tmp_path / "whole.jsonl"
    path.write_text("\n".join(finished_lines) + "\n")
    assert load_record(path).end is not None
