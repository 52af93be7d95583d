"""Game records: random games of every game and player count written and replayed give equal
states at every step; corrupted records are rejected with clear errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from maya_envs.parallel_base import RulesParallelEnv
from maya_envs.records import (
    RECORD_FORMAT,
    RecordError,
    RecordingWrapper,
    load_record,
    make_env,
    parse_record,
    record_env,
    replay,
)

CONFIGS = [
    ("maya2012", {"num_players": 2}),
    ("maya2012", {"num_players": 2, "setup": "draft", "max_turns": 40}),
    ("maya2012", {"num_players": 3}),
    ("maya2012", {"num_players": 4}),
    ("maya_quarry", {"num_players": 3}),
    ("maya_quarry", {"num_players": 4}),
    ("maya_quarry", {"num_players": 5}),
    ("maya_quarry", {"num_players": 4, "variant": "advanced"}),
    ("yaxha", {"num_players": 2}),
    ("yaxha", {"num_players": 3}),
    ("yaxha", {"num_players": 4}),
]


def play_recorded(env, seed: int | None, rng: np.random.Generator) -> list:
    """Play one random game on a recording env; the states seen, the first after ``reset``."""
    env.reset(seed=seed)
    states = [env.unwrapped.game_state]
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        states.append(env.unwrapped.game_state)
    return states


@pytest.mark.parametrize(("game", "options"), CONFIGS)
def test_random_games_replay_to_the_same_states(tmp_path, game, options):
    for seed in (0, 1):
        path = tmp_path / f"{game}_{seed}.jsonl"
        env = record_env(game, path, **options)
        states = play_recorded(env, seed, np.random.default_rng(seed))
        record = load_record(path)
        assert record.header["game"] == env.unwrapped.rules.spec.name and record.header["seed"] == seed
        assert record.header["config"]["num_players"] == options["num_players"]
        assert len(record.moves) == len(states) - 1 and record.end is not None
        replayed = replay(path)
        assert len(replayed) == len(states)
        for step, (a, b) in enumerate(zip(states, replayed, strict=True)):
            assert a == b, f"state {step} differs after replay"
        for move in record.moves:
            assert move["notation"] == env.unwrapped.rules.action_to_string(move["action"])


def test_reset_without_seed_records_the_seed_it_drew_and_episode_paths(tmp_path):
    env = RecordingWrapper(make_env("maya2012", num_players=3), tmp_path / "g{episode}.jsonl")
    first = play_recorded(env, None, np.random.default_rng(0))
    second = play_recorded(env, None, np.random.default_rng(1))
    assert replay(tmp_path / "g0.jsonl") == first and replay(tmp_path / "g1.jsonl") == second


def test_yaxha_parallel_env_records_through_its_aec_env(tmp_path):
    path = tmp_path / "par.jsonl"
    env = RulesParallelEnv(record_env("yaxha", path, num_players=3))
    observations, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    states = []
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.acting_agents()}
        observations, *_ = env.step(actions)
        states.append(env.game_state)
    replayed = replay(path)
    assert replayed[-1] == states[-1] and load_record(path).end is not None


@pytest.fixture
def good_lines(tmp_path) -> list[str]:
    path = tmp_path / "good.jsonl"
    play_recorded(record_env("maya2012", path, num_players=3, max_turns=10), 5, np.random.default_rng(5))
    return path.read_text().splitlines()


def check(tmp_path, lines: list[str]):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return load_record(path)


def edit(line: str, **changes) -> str:
    data = json.loads(line)
    data.update(changes)
    return json.dumps(data)


def test_good_record_loads(tmp_path, good_lines):
    record = check(tmp_path, good_lines)
    assert record.header["format"] == RECORD_FORMAT and len(record.moves) == len(good_lines) - 2


def test_wrong_game_version_format_and_config_are_rejected(tmp_path, good_lines):
    header, rest = good_lines[0], good_lines[1:]
    with pytest.raises(RecordError, match="line 1: unknown game 'chess_v0'"):
        check(tmp_path, [edit(header, game="chess_v0"), *rest])
    with pytest.raises(RecordError, match="version 3 recorded, this is version 1"):
        check(tmp_path, [edit(header, version=3), *rest])
    with pytest.raises(RecordError, match=r"line 1: unknown game 'maya2012_v0' \(renamed 'maya2012_v1'"):
        check(tmp_path, [edit(header, game="maya2012_v0", version=0), *rest])
    with pytest.raises(RecordError, match="format"):
        check(tmp_path, [edit(header, format="something/9"), *rest])
    with pytest.raises(RecordError, match="line 1: header field 'seed' must be an int, got 'seven'"):
        check(tmp_path, [edit(header, seed="seven"), *rest])
    config = dict(json.loads(header)["config"], no_such_option=1)
    with pytest.raises(RecordError, match="config rejected"):
        check(tmp_path, [edit(header, config=config), *rest])


def test_illegal_out_of_turn_and_mislabelled_moves_are_rejected(tmp_path, good_lines):
    header, first, rest = good_lines[0], good_lines[1], good_lines[2:]
    move = json.loads(first)
    env = make_env("maya2012", num_players=3, max_turns=10)
    env.reset(seed=5)
    illegal = next(a for a in range(75) if a not in env.rules.legal_actions(env.game_state))
    with pytest.raises(RecordError, match=f"line 2: illegal action {illegal}"):
        check(tmp_path, [header, edit(first, action=illegal), *rest])
    other = "player_1" if move["agent"] != "player_1" else "player_2"
    with pytest.raises(RecordError, match="line 2: player_. moves out of turn"):
        check(tmp_path, [header, edit(first, agent=other), *rest])
    with pytest.raises(RecordError, match="line 2: action .* the record says 'swap t9-t9 @L9'"):
        check(tmp_path, [header, edit(first, notation="swap t9-t9 @L9"), *rest])


def test_broken_lines_and_a_wrong_end_are_rejected(tmp_path, good_lines):
    header, moves, end = good_lines[0], good_lines[1:-1], good_lines[-1]
    with pytest.raises(RecordError, match="line 3: not valid JSON"):
        check(tmp_path, [header, moves[0], moves[1][:-5], *moves[2:], end])
    with pytest.raises(RecordError, match="line 2: move field 'action' missing"):
        check(tmp_path, [header, json.dumps({"agent": "player_0"}), *moves[1:], end])
    with pytest.raises(RecordError, match="still running"):
        check(tmp_path, [header, *moves[:-1], end])
    data = json.loads(end)
    data["end"]["rewards"] = {a: 0.5 for a in data["end"]["rewards"]}
    with pytest.raises(RecordError, match="rewards"):
        check(tmp_path, [header, *moves, json.dumps(data)])
    with pytest.raises(RecordError, match="nothing may follow the end line"):
        check(tmp_path, [header, *moves, end, moves[0]])
    with pytest.raises(RecordError, match="empty record"):
        parse_record([])
