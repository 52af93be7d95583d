"""``maya-play`` and ``maya-replay`` driven as a person would: in a subprocess, with typed input.
What one game shows (its legend, its notation, its hidden cards) is in ``tests/<key>/test_play_cli.py``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from maya_envs import pretrained
from maya_envs.games import DEFAULT_GAME, find_game
from maya_envs.records import load_record
from tests.conformance import shipped_ppo_baseline
from tests.helpers.cli import run


def test_human_against_the_shipped_pretrained_baseline_plays_a_full_game(tmp_path):
    pytest.importorskip("sb3_contrib")
    path = tmp_path / "pretrained.jsonl"
    name, info = shipped_ppo_baseline(lambda info: info.num_players >= 3)  # seats named and seats left to fill
    game, players = find_game(info.env_id).key, str(info.num_players)
    args = ["--game", game, "--players", players, "--seats", f"pretrained,human,pretrained:{name}"]
    result = run("play", [*args, "--seed", "5", "--record", str(path)], "1\n" * 400)
    assert result.returncode == 0, result.stderr
    record = load_record(path)  # validates every move, the baselines' included
    assert record.end is not None and record.end["terminated"]
    assert {m["agent"] for m in record.moves} >= {"player_0", "player_1", "player_2"}
    # a checkpoint of another game with as many seats as the default game's two-player table
    _, other = shipped_ppo_baseline(
        lambda info: info.game != DEFAULT_GAME.name and info.num_players == DEFAULT_GAME.player_counts[0]
    )
    zipped = Path(pretrained.__file__).parent / other.file
    result = run("play", ["--game", DEFAULT_GAME.key, "--seats", f"human,{zipped}"])
    expected = f"checkpoint '{zipped}': model expects observations of shape {tuple(other.observation_shape)}"
    assert result.returncode == 2 and expected in result.stderr
    name, info = shipped_ppo_baseline(lambda info: info.game != DEFAULT_GAME.name)
    result = run("play", ["--game", DEFAULT_GAME.key, "--seats", f"human,pretrained:{name}"])
    assert result.returncode == 2 and f"{name!r} plays {info.game} with {info.num_players} players" in result.stderr


def test_maya_play_runs_a_network_seat_on_one_torch_thread_unless_told_otherwise():
    """A network seat plays one position at a time: torch's default threads only wait on each
    other there (a quarry 4p game against ``pretrained`` took 96 s with 2 threads, 20 s with one,
    at load 10), so ``maya-play`` asks for one unless ``OMP_NUM_THREADS`` is set."""
    pytest.importorskip("torch")
    code = (
        "import sys; from maya_envs.cli.play import main\n"
        f"main(['--game', '{DEFAULT_GAME.key}', '--seats', 'pretrained:raw,random', '--seed', '1',"
        f" '--record', sys.argv[1]])\n"
        "import torch; print('threads', torch.get_num_threads())"
    )
    for env_threads, expected in ((None, "1"), ("2", "2")):
        env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
        env.update({} if env_threads is None else {"OMP_NUM_THREADS": env_threads})
        done = subprocess.run([sys.executable, "-c", code, os.devnull], env=env, capture_output=True, text=True,
                              timeout=120)  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.splitlines()[-1] == f"threads {expected}"


MOVE_BY_MOVE_COMMANDS = ["maya_envs.cli.play", "training.arena", "training.evaluate", "maya_envs.web.__main__"]


@pytest.mark.parametrize("command", MOVE_BY_MOVE_COMMANDS)
def test_every_command_that_plays_move_by_move_asks_for_one_torch_thread(command, monkeypatch):
    import importlib

    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    with pytest.raises(SystemExit):
        importlib.import_module(command).main(["--help"])
    assert os.environ["OMP_NUM_THREADS"] == "1"
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    with pytest.raises(SystemExit):
        importlib.import_module(command).main(["--help"])
    assert os.environ["OMP_NUM_THREADS"] == "3"  # the user's setting stays


def test_unknown_pretrained_seat_and_unknown_bot_are_refused():
    result = run("play", ["--seats", "human,pretrained:champion"])
    assert result.returncode == 2 and "no pretrained baseline named 'champion'; known: [" in result.stderr
    result = run("play", ["--seats", "human,grandmaster"])
    assert result.returncode == 2 and "unknown bot 'grandmaster'" in result.stderr


def test_replay_prints_the_game_and_exports_frames_and_a_gif(tmp_path):
    pytest.importorskip("PIL")
    path = tmp_path / "bots.jsonl"
    seats = ["--seats", "random,heuristic,random", "--option", "max_turns=8"]
    args = ["--game", DEFAULT_GAME.key, "--players", "3", *seats]
    result = run("play", [*args, "--seed", "4", "--record", str(path)])
    assert result.returncode == 0, result.stderr
    moves = len(load_record(path).moves)
    text = run("replay", [str(path), "--no-pause", "--observer", "0"])
    assert text.returncode == 0 and f"move {moves}/{moves}" in text.stdout
    frames, gif = tmp_path / "frames", tmp_path / "game.gif"
    images = run("replay", [str(path), "--frames", str(frames), "--gif", str(gif), "--fps", "4"])
    assert images.returncode == 0, images.stderr
    assert len(list(frames.glob("frame_*.png"))) == moves + 1 and gif.stat().st_size > 1000
    assert "frames: 100%" in images.stderr and f"{moves + 1}/{moves + 1}" in images.stderr  # the progress bar


@pytest.mark.parametrize("command", ["play", "replay"])
def test_help_is_plain_text(command):
    """--help shows no reST markup (double backticks, :func: roles)."""
    out = run(command, ["--help"]).stdout
    assert "``" not in out and ":func:" not in out and ":mod:" not in out and f"maya-{command}" in out


def test_replay_rejects_a_corrupted_record(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "maya_envs.record/1", "game": "go_v0"}\n')
    result = run("replay", [str(path)])
    assert result.returncode == 1 and "header field" in result.stderr


def test_bad_seed_and_bad_fps_are_usage_errors_naming_the_value(tmp_path):
    result = run("play", ["--seed", "-4"])
    assert result.returncode == 2 and "--seed: seed -4; allowed: an int in 0..2**128-1" in result.stderr
    result = run("replay", [str(tmp_path / "none.jsonl"), "--fps", "0"])
    assert result.returncode == 2 and "--fps '0'; allowed: a number in (0, 1000]" in result.stderr


def test_replay_observer_takes_an_agent_name_as_well_as_a_seat_number(tmp_path):
    path = tmp_path / "g.jsonl"
    args = ["--game", DEFAULT_GAME.key, "--players", "3", "--seats", "random,random,random", "--option", "max_turns=4"]
    assert run("play", [*args, "--seed", "2", "--record", str(path)]).returncode == 0
    by_number = run("replay", [str(path), "--no-pause", "--observer", "1"])
    by_name = run("replay", [str(path), "--no-pause", "--observer", "player_1"])
    assert by_number.returncode == 0 and by_name.stdout == by_number.stdout
    bad = run("replay", [str(path), "--observer", "bob"])
    assert bad.returncode == 2 and "'bob' is not a seat; allowed: a seat number or player_N" in bad.stderr


COUNTS = " / ".join(map(str, DEFAULT_GAME.player_counts))


def test_near_misses_get_a_suggestion(capsys):
    from maya_envs.cli.play import main

    for seats, players, expected in (
        ("human,random,random", [], "3 seats given for a 2-player game (did you mean --players 3?)"),
        ("human,random,random,random,random", [], f"{DEFAULT_GAME.title} is played by {COUNTS} players"),
        ("humna,random", [], "unknown seat 'humna' (did you mean 'human'?)"),
        ("human,heuristc", [], "unknown bot 'heuristc' (did you mean 'heuristic'?)"),
        ("human,mtcs:50", [], "unknown bot 'mtcs:50' (did you mean 'mcts:50'?)"),
    ):
        with pytest.raises(SystemExit) as exit_:
            main(["--seats", seats, *players, "--record", "/dev/null"])
        assert exit_.value.code == 2 and expected in capsys.readouterr().err


def test_play_and_replay_write_to_the_streams_of_the_call_not_of_the_import(tmp_path, monkeypatch):
    """``sys.stdout`` swapped after the modules were imported (a test's capture, a notebook's
    redirect) is where maya-play and maya-replay print; a default bound at import printed to the
    stream of that moment, a closed file by then ("I/O operation on closed file")."""
    import io

    from maya_envs.cli.play import main as play_main
    from maya_envs.cli.replay import main as replay_main

    path = tmp_path / "g.jsonl"
    args = ["--game", DEFAULT_GAME.key, "--players", "3", "--seats", "random,random,random", "--option", "max_turns=4"]
    played = io.StringIO()
    monkeypatch.setattr(sys, "stdout", played)
    assert play_main([*args, "--seed", "2", "--record", str(path)]) == 0
    assert "seed 2" in played.getvalue()
    replayed, keys = io.StringIO(), io.StringIO("")
    monkeypatch.setattr(sys, "stdout", replayed)
    monkeypatch.setattr(sys, "stdin", keys)
    assert replay_main([str(path), "--no-pause"]) == 0
    moves = len(load_record(path).moves)
    assert f"move {moves}/{moves}" in replayed.getvalue()
