"""The quarry game in ``maya-play`` and ``maya-replay`` (a partial record, typed
notation, the face-down cards). Moved from tests/test_play_cli.py
(issue 31 item 2: a test about one game lives in its folder)."""

from __future__ import annotations

import re

from maya_envs.cli.play import read_choice
from maya_envs.records import load_record, make_env
from tests.helpers.cli import run


def test_quitting_keeps_a_valid_partial_record(tmp_path):
    path = tmp_path / "quit.jsonl"
    result = run("play", ["--game", "maya_quarry", "--seats", "human", "--seed", "2", "--record", str(path)], "1\nq\n")
    assert result.returncode == 0 and "abandoned" in result.stdout  # quitting is not an error
    record = load_record(path)
    assert record.end is None and any(m["agent"] == "player_0" for m in record.moves)


def test_typed_notation_is_accepted_with_any_case_and_spacing():
    env = make_env("maya_quarry", num_players=3)
    env.reset(seed=0)
    legal = env.rules.legal_actions(env.game_state)
    notation = env.rules.action_to_string(legal[-1])
    assert read_choice("  " + notation.upper().replace(" ", "   ") + "\n", env.rules, legal) == legal[-1]
    assert read_choice(str(len(legal)), env.rules, legal) == legal[-1]
    assert read_choice("0", env.rules, legal) is None and read_choice(str(len(legal) + 1), env.rules, legal) is None


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
