"""Maya (2012) in ``maya-play`` and ``maya-replay`` (its legend, the rules'
reasons for a refused move, the hidden task cards, the text replay). Moved from
tests/test_play_cli.py (issue 31 item 2: a test about one game lives in its folder)."""

from __future__ import annotations

import re

from maya_envs.records import load_record, replay
from tests.helpers.cli import run


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
