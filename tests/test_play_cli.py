"""``maya-play`` and ``maya-replay`` driven as a person would: in a subprocess, with typed input."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from maya_envs import pretrained
from maya_envs.cli.play import read_choice
from maya_envs.records import load_record, make_env, replay


def run(module: str, args: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", f"maya_envs.cli.{module}", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120)


def test_human_against_a_bot_plays_a_full_game_refuses_a_bad_move_and_saves_a_record(tmp_path):
    path = tmp_path / "game.jsonl"
    args = ["--game", "maya2012", "--seats", "human,heuristic", "--option", "max_turns=6", "--seed", "3"]
    typed = "swap everything\n" + "1\n" * 10  # first an invalid move, then always the first legal move
    result = run("play", [*args, "--record", str(path)], typed)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    refused = out.index("not a move: 'swap everything'; type 1-")
    assert out.index("legal moves for player_0:") < refused
    assert out.count("legal moves for player_0:") == out.count("(your view)"), "no reprint after a refusal"
    assert "(your view)" in out and "game over" in out and f"record saved to {path}" in out
    assert out.index("legend: board: towers t0..t8") < out.index("(your view)")
    record = load_record(path)  # validates every move by replaying it
    assert record.end is not None and record.end["terminated"]
    humans = [m for m in record.moves if m["agent"] == "player_0"]
    assert len(humans) == 3 and out.count("your move") == len(humans) + 1
    for move in humans:  # the human's own moves are echoed in notation
        assert f"player_0 (you) plays {move['notation']}" in out
    end = out.split("game over")[1]
    assert "the game ended: 6 turns were played (the max_turns limit)" in end and "victory points: player_0" in end
    assert len(replay(record)) == len(record.moves) + 1


def test_human_in_a_hidden_information_game_sees_only_their_own_cards(tmp_path):
    path = tmp_path / "three.jsonl"
    args = ["--game", "maya2012", "--players", "3", "--seats", "random,human,random", "--option", "max_turns=4"]
    result = run("play", [*args, "--seed", "1", "--record", str(path)], "1\n" * 10)
    assert result.returncode == 0, result.stderr
    during = result.stdout.split("game over")[0]
    assert "player_1 task cards" in during
    assert "player_0 task cards" not in during and "player_2 task cards" not in during
    assert load_record(path).header["num_players"] == 3


def test_quitting_keeps_a_valid_partial_record(tmp_path):
    path = tmp_path / "quit.jsonl"
    result = run("play", ["--game", "maya_quarry", "--seats", "human", "--seed", "2", "--record", str(path)], "1\nq\n")
    assert result.returncode == 0 and "abandoned" in result.stdout  # quitting is not an error
    record = load_record(path)
    assert record.end is None and any(m["agent"] == "player_0" for m in record.moves)


def test_human_against_the_shipped_pretrained_baseline_plays_a_full_game(tmp_path):
    pytest.importorskip("sb3_contrib")
    path = tmp_path / "pretrained.jsonl"
    args = ["--game", "maya_quarry", "--players", "4", "--seats", "pretrained,human,pretrained:maya_quarry_4p"]
    result = run("play", [*args, "--seed", "5", "--record", str(path)], "1\n" * 400)
    assert result.returncode == 0, result.stderr
    record = load_record(path)  # validates every move, the baselines' included
    assert record.end is not None and record.end["terminated"]
    assert {m["agent"] for m in record.moves} >= {"player_0", "player_1", "player_2"}
    from maya_envs.pretrained import pretrained_info

    zipped = Path(pretrained.__file__).parent / pretrained_info("yaxha_2p").file
    result = run("play", ["--game", "maya2012", "--seats", f"human,{zipped}"])
    expected = f"checkpoint '{zipped}': model expects observations of shape (1326,)"
    assert result.returncode == 2 and expected in result.stderr
    result = run("play", ["--game", "yaxha", "--seats", "human,pretrained:maya_quarry_4p"])
    assert result.returncode == 2 and "'maya_quarry_4p' plays maya_quarry_v1 with 4 players" in result.stderr


def test_unknown_pretrained_seat_and_unknown_bot_are_refused():
    result = run("play", ["--seats", "human,pretrained:champion"])
    assert result.returncode == 2 and "no pretrained baseline named 'champion'; known: [" in result.stderr
    result = run("play", ["--seats", "human,grandmaster"])
    assert result.returncode == 2 and "unknown bot 'grandmaster'" in result.stderr


def test_typed_notation_is_accepted_with_any_case_and_spacing():
    env = make_env("maya_quarry", num_players=3)
    env.reset(seed=0)
    legal = env.rules.legal_actions(env.game_state)
    notation = env.rules.action_to_string(legal[-1])
    assert read_choice("  " + notation.upper().replace(" ", "   ") + "\n", env.rules, legal) == legal[-1]
    assert read_choice(str(len(legal)), env.rules, legal) == legal[-1]
    assert read_choice("0", env.rules, legal) is None and read_choice(str(len(legal) + 1), env.rules, legal) is None


def test_replay_prints_the_game_and_exports_frames_and_a_gif(tmp_path):
    pytest.importorskip("PIL")
    path = tmp_path / "bots.jsonl"
    args = ["--game", "maya2012", "--players", "3", "--seats", "random,heuristic,random", "--option", "max_turns=8"]
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
    assert result.returncode == 2 and "--seed -4; allowed: a non-negative int" in result.stderr
    result = run("replay", [str(tmp_path / "none.jsonl"), "--fps", "0"])
    assert result.returncode == 2 and "--fps '0'; allowed: a number in (0, 1000]" in result.stderr


def test_the_move_log_and_replay_captions_hide_face_down_cards(tmp_path):
    path = tmp_path / "quarry.jsonl"
    args = ["--game", "maya_quarry", "--seats", "human,heuristic,heuristic", "--seed", "4", "--record", str(path)]
    result = run("play", args, "1\n" * 400)
    assert result.returncode == 0, result.stderr
    during = result.stdout.split("game over")[0]
    bot_workers = [line for line in during.splitlines() if ") plays worker q" in line and "(you)" not in line]
    assert bot_workers and all(line.rstrip().endswith(("(low back)", "(high back)")) for line in bot_workers)
    record = load_record(path)
    hidden = [m for m in record.moves if m["agent"] != "player_0" and m["notation"].startswith("worker q")]
    assert hidden and all("card ?" not in m["notation"] for m in hidden)  # the record keeps everything
    as_seat_0 = run("replay", [str(path), "--no-pause", "--observer", "0"]).stdout
    everything = run("replay", [str(path), "--no-pause"]).stdout
    for move in hidden:
        quarry = move["notation"].split()[1]
        assert re.search(rf"{move['agent']} worker {quarry} \([^)]+\) card \? \(", as_seat_0)
        value = move["notation"].split()[-1]
        assert re.search(rf"{move['agent']} worker {quarry} \([^)]+\) card {value} ===", everything)
    own = next(m for m in record.moves if m["agent"] == "player_0" and m["notation"].startswith("worker q"))
    quarry, value = own["notation"].split()[1], own["notation"].split()[-1]
    assert re.search(rf"player_0 worker {quarry} \([^)]+\) card {value} ===", as_seat_0)


def test_a_well_formed_illegal_move_is_refused_with_the_rules_reason(tmp_path):
    args = ["--game", "maya2012", "--seats", "human,heuristic", "--option", "max_turns=4", "--seed", "3"]
    typed = "swap t4-t5 @L3\nswap t0-t1 @L5\nswap t0-t2 @L3\nswap t1-t0 @L1\n?\n" + "1\n" * 10
    out = run("play", [*args, "--record", str(tmp_path / "g.jsonl")], typed).stdout  # Monolith t4|t7, Raven L5
    assert "not legal now: t4 stands beside the Monolith (t4|t7)" in out
    assert "not legal now: the Raven stands at level 5: no exchange from that level" in out
    assert "no such move: t0 and t2 are not neighbours" in out  # moves the action table cannot hold
    assert "no such move: level 1 never moves" in out
    assert "not a move" not in out
    first_turn = out.split("(you) plays")[0]
    assert first_turn.count("legal moves for player_0:") == 2  # once, and once more for "?"


def test_replay_observer_takes_an_agent_name_as_well_as_a_seat_number(tmp_path):
    path = tmp_path / "g.jsonl"
    args = ["--game", "maya2012", "--players", "3", "--seats", "random,random,random", "--option", "max_turns=4"]
    assert run("play", [*args, "--seed", "2", "--record", str(path)]).returncode == 0
    by_number = run("replay", [str(path), "--no-pause", "--observer", "1"])
    by_name = run("replay", [str(path), "--no-pause", "--observer", "player_1"])
    assert by_number.returncode == 0 and by_name.stdout == by_number.stdout
    bad = run("replay", [str(path), "--observer", "bob"])
    assert bad.returncode == 2 and "'bob' is not a seat; allowed: a seat number or player_N" in bad.stderr


def test_near_misses_get_a_suggestion(capsys):
    from maya_envs.cli.play import main

    for seats, players, expected in (
        ("human,random,random", [], "3 seats given for a 2-player game (did you mean --players 3?)"),
        ("human,random,random,random,random", [], "Maya (2012) is played by 2 / 3 / 4 players"),
        ("humna,random", [], "unknown seat 'humna' (did you mean 'human'?)"),
        ("human,heuristc", [], "unknown bot 'heuristc' (did you mean 'heuristic'?)"),
        ("human,mtcs:50", [], "unknown bot 'mtcs:50' (did you mean 'mcts:50'?)"),
    ):
        with pytest.raises(SystemExit) as exit_:
            main(["--seats", seats, *players, "--record", "/dev/null"])
        assert exit_.value.code == 2 and expected in capsys.readouterr().err


def test_the_text_replay_steps_back_and_ends_with_the_result(tmp_path):
    import io

    from maya_envs.bots import make_bot
    from maya_envs.cli.replay import PROMPT, show_text
    from maya_envs.records import record_env

    path = tmp_path / "g.jsonl"
    env = record_env("maya2012", path, max_turns=4)
    env.reset(seed=1)
    raw = env.unwrapped
    bots = [make_bot("random", raw.rules, s) for s in range(2)]
    while not any(raw.terminations.values()):
        env.step(bots[raw.seat_of(raw.agent_selection)].act(raw.game_state))
    record = load_record(path)
    out = io.StringIO()
    show_text(record, None, pause=True, stdin=io.StringIO("\n\nb\nb\nb\nq\n"), out=out)
    headings = [line for line in out.getvalue().splitlines() if line.startswith("===") or PROMPT + "===" in line]
    shown = ["start" if "start ===" in h else re.search(r"move \d+/\d+", h)[0] for h in headings]
    total = len(record.moves)
    assert shown == ["start", f"move 1/{total}", f"move 2/{total}", f"move 1/{total}", "start", "start"]
    assert "(this is the start: nothing before it)" in out.getvalue()
    to_end = io.StringIO()
    show_text(record, None, pause=True, stdin=io.StringIO("\n" * (total + 3)), out=to_end)
    assert to_end.getvalue().count(PROMPT) == total and "ended: 4 turns were played" in to_end.getvalue()
