"""Game records: random games of every game and player count written and replayed give equal
states at every step; corrupted records are rejected with clear errors."""

from __future__ import annotations

import importlib
import io
import json

import numpy as np
import pytest

from maya_envs.cli import replay as replay_cli
from maya_envs.core.errors import IllegalActionError, ResetNeededError
from maya_envs.core.rng import seed_hides_draws
from maya_envs.games import DEFAULT_GAME, GAMES, RENAMED_ENVS
from maya_envs.parallel_base import RulesParallelEnv
from maya_envs.records import (
    MAX_RECORD_BYTES,
    RECORD_FORMAT,
    RecordError,
    RecordingWrapper,
    load_record,
    make_env,
    parse_record,
    record_env,
    replay,
)
from tests.conformance import GAME_CASES, case_id, default_variant, hidden_at_fewest


def _configs() -> list[tuple[str, dict]]:
    """The whole-game sweep (:data:`tests.conformance.GAME_CASES`); a non-default variant of a
    game with a turn limit plays 40 turns (what it adds is at the start)."""
    out = []
    for key, options in GAME_CASES:
        game, options = GAMES[key], dict(options)
        other = options[game.variant_option] != default_variant(game, options["num_players"])
        if other and hasattr(game.make_rules(options).config, "max_turns"):
            options["max_turns"] = 40
        out.append((key, options))
    return out


CONFIGS = _configs()
#: A game with face-down cards at its fewest seats (its record is held until the end).
HIDDEN = hidden_at_fewest()
#: The first game with a Parallel env (its PettingZoo module has ``parallel_env``).
PARALLEL = next(game for game in GAMES.values() if hasattr(importlib.import_module(game.env_module), "parallel_env"))
#: The default game's old name (a record of it is refused naming the new one).
OLD_NAME = next(old for old, (new, _) in RENAMED_ENVS.items() if new == DEFAULT_GAME.name)


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


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=[case_id(c) for c in CONFIGS])
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


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=[case_id(c) for c in CONFIGS])
def test_a_record_that_would_show_hidden_draws_or_choices_is_written_only_at_the_end(tmp_path, game, options):
    """While a game with hidden information or chance runs, its record file does not exist (its
    seed rebuilds every draw, its moves name every hidden choice); a perfect-information game
    without chance appends each move as played. Either way the finished file is the whole game."""
    path = tmp_path / "g.jsonl"
    env = record_env(game, path, **options)
    hidden = seed_hides_draws(env.unwrapped.rules.spec)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert path.exists() is not hidden
        if not hidden:
            assert len(path.read_text().splitlines()) == 1 + len(env.record.moves)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    record = load_record(path)
    assert record.header["seed"] == 3 and record.end is not None and record.moves == env.record.moves


@pytest.mark.parametrize("finish", ["flush", "reset", "close"])
def test_a_held_record_is_written_at_flush_close_and_the_next_reset(tmp_path, finish):
    env = RecordingWrapper(make_env(HIDDEN.key, num_players=HIDDEN.player_counts[0]), tmp_path / "g{episode}.jsonl")
    assert env.hold_until_end
    env.reset(seed=4)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    path = tmp_path / "g0.jsonl"
    assert not path.exists()
    getattr(env, finish)()
    record = load_record(path)
    assert record.end is None and len(record.moves) == 5 and record.header["seed"] == 4
    assert not (tmp_path / "g1.jsonl").exists()  # the game begun by reset is held in its turn


def test_hold_until_end_false_writes_a_hidden_game_as_played(tmp_path):
    hidden = make_env(HIDDEN.key, num_players=HIDDEN.player_counts[0])
    env = RecordingWrapper(hidden, tmp_path / "open.jsonl", hold_until_end=False)
    env.reset(seed=1)
    assert load_record(tmp_path / "open.jsonl").header["seed"] == 1


def test_reset_without_seed_records_the_seed_it_drew_and_episode_paths(tmp_path):
    env = RecordingWrapper(make_env(DEFAULT_GAME.key, num_players=3), tmp_path / "g{episode}.jsonl")
    first = play_recorded(env, None, np.random.default_rng(0))
    second = play_recorded(env, None, np.random.default_rng(1))
    assert replay(tmp_path / "g0.jsonl") == first and replay(tmp_path / "g1.jsonl") == second


def test_a_recorded_env_stepped_after_the_end_says_to_reset(tmp_path):
    """Through the wrapper as on the env: the env's ResetNeededError, not a KeyError of the
    wrapper's own bookkeeping; the record keeps its one end line."""
    path = tmp_path / "g.jsonl"
    env = record_env(DEFAULT_GAME.key, path, max_turns=4)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        _obs, _reward, terminated, truncated, _info = env.last()
        mask = env.observe(agent)["action_mask"]
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
    with pytest.raises(ResetNeededError, match="reset"):
        env.step(0)
    assert sum('"end"' in line for line in path.read_text().splitlines()) == 1


def test_a_parallel_env_records_through_its_aec_env(tmp_path):
    path = tmp_path / "par.jsonl"
    env = RulesParallelEnv(record_env(PARALLEL.key, path, num_players=3))
    observations, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    states = []
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.acting_agents()}
        observations, *_ = env.step(actions)
        states.append(env.game_state)
    replayed = replay(path)
    assert replayed[-1] == states[-1] and load_record(path).end is not None


def _parallel_game_ended_illegally(path, offenders: int, seed: int):
    """A recorded Parallel game whose step ``seed % 3 + 1`` has ``offenders`` acting agents
    (the last ones in acting order) choose an illegal id; returns the env's last rewards (the
    env closed, so a held record is written)."""
    env = RulesParallelEnv(record_env(PARALLEL.key, path, num_players=3))
    observations, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for step in range(seed % 3 + 2):
        acting = env.acting_agents()
        actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in acting}
        if step == seed % 3 + 1:
            for agent in acting[len(acting) - offenders:]:
                actions[agent] = int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0])
            with pytest.warns(UserWarning, match="illegal"):
                observations, rewards, terminations, *_ = env.step(actions)
            assert all(terminations.values())
            env.close()
            return rewards
        observations, *_ = env.step(actions)
    raise AssertionError("unreachable")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_parallel_game_ended_by_one_illegal_action_records_and_replays_its_end(tmp_path, seed):
    """One acting agent's illegal id (the last in acting order, so the others' commits come
    first) ends the record as the AEC env ends it: an end line naming it, the same rewards."""
    path = tmp_path / "par.jsonl"
    rewards = _parallel_game_ended_illegally(path, offenders=1, seed=seed)
    record = load_record(path)
    assert record.end is not None and record.end["terminated"] and "illegal" in record.end
    assert record.end["rewards"] == rewards and sorted(rewards.values())[0] < 0
    replay(path)


def test_a_parallel_game_ended_by_several_illegal_actions_keeps_no_end_line(tmp_path):
    """Two offenders in one step have no AEC equivalent: the record, written when the env
    closes, stops before the step (the decision documented in docs/security_inputs.md) and
    still loads and replays."""
    path = tmp_path / "par.jsonl"
    rewards = _parallel_game_ended_illegally(path, offenders=2, seed=1)
    assert sum(value < 0 for value in rewards.values()) == 2
    assert load_record(path).end is None
    replay(path)


@pytest.fixture
def good_lines(tmp_path) -> list[str]:
    path = tmp_path / "good.jsonl"
    play_recorded(record_env(DEFAULT_GAME.key, path, num_players=3, max_turns=10), 5, np.random.default_rng(5))
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
    with pytest.raises(RecordError, match=rf"line 1: unknown game '{OLD_NAME}' \(renamed '{DEFAULT_GAME.name}'"):
        check(tmp_path, [edit(header, game=OLD_NAME, version=0), *rest])
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
    env = make_env(DEFAULT_GAME.key, num_players=3, max_turns=10)
    env.reset(seed=5)
    illegal = next(a for a in range(env.rules.spec.num_actions) if a not in env.rules.legal_actions(env.game_state))
    with pytest.raises(RecordError, match=f"line 2: illegal action {illegal}"):
        check(tmp_path, [header, edit(first, action=illegal), *rest])
    other = "player_1" if move["agent"] != "player_1" else "player_2"
    with pytest.raises(RecordError, match="line 2: 'player_.' moves out of turn"):
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


# -- issue 29: every malformed record is one RecordError naming the line, in every reader -----


def _header_edit(**changes):
    def apply(lines):
        data = json.loads(lines[0])
        for key, value in changes.items():
            if value is _REMOVE:
                data.pop(key)
            else:
                data[key] = value
        return [json.dumps(data), *lines[1:]]

    return apply


def _config_edit(**changes):
    def apply(lines):
        data = json.loads(lines[0])
        data["config"] = {**data["config"], **changes}
        return [json.dumps(data), *lines[1:]]

    return apply


def _move_edit(index, **changes):
    def apply(lines):
        data = json.loads(lines[index])
        data.update(changes)
        return [*lines[:index], json.dumps(data), *lines[index + 1 :]]

    return apply


def _nan_reward(end_line: str) -> str:
    data = json.loads(end_line)
    first = next(iter(data["end"]["rewards"]))
    data["end"]["rewards"][first] = float("nan")
    return json.dumps(data)


def _end_edit(**changes):
    """An edit of the end line: each value, a function of the old value, or ``_REMOVE``."""

    def apply(lines):
        data = json.loads(lines[-1])
        for key, value in changes.items():
            if value is _REMOVE:
                data["end"].pop(key)
            else:
                data["end"][key] = value(data["end"][key]) if callable(value) else value
        return [*lines[:-1], json.dumps(data)]

    return apply


def _rotated(rewards: dict) -> dict:
    """The same rewards, each moved to the next agent (different when not all equal)."""
    agents, values = list(rewards), list(rewards.values())
    assert len(set(values)) > 1, "the good record's rewards are all equal; rotating them changes nothing"
    return dict(zip(agents, values[1:] + values[:1], strict=True))


def _flipped(flag: bool) -> bool:
    return not flag


_REMOVE = object()
MALFORMED = {
    # name: (edit of the good lines, or bytes of a whole file; the line named; a message part)
    "not UTF-8": (lambda lines: "\n".join(lines[:3]).encode() + b'\n{"agent": "\xff"}\n', 4, "not UTF-8"),
    "seed -1": (_header_edit(seed=-1), 1, "header field 'seed' -1; allowed: an int in 0..2**128-1"),
    "seed text": (_header_edit(seed="7"), 1, "header field 'seed' must be an int, got '7'"),
    "seed float": (_header_edit(seed=7.0), 1, "header field 'seed' must be an int, got 7.0"),
    "seed huge": (_header_edit(seed=2**130), 1, "; allowed: an int in 0..2**128-1"),
    "no title": (_header_edit(title=_REMOVE), 1, "header field 'title' missing"),
    "no package_version": (_header_edit(package_version=_REMOVE), 1, "header field 'package_version' missing"),
    "unknown header field": (_header_edit(comment="x"), 1, r"unknown header field(s) ['comment']"),
    "render_mode in config": (_config_edit(render_mode="human"), 1, "'render_mode' is an env keyword"),
    "illegal_action in config": (_config_edit(illegal_action="raise"), 1, "'illegal_action' is an env keyword"),
    "unknown option": (_config_edit(no_such_option=1), 1, f"config rejected by {DEFAULT_GAME.name}: unknown"),
    "bad option value": (_config_edit(max_turns=-3), 1, f"config rejected by {DEFAULT_GAME.name}: max_turns"),
    "unknown move field": (_move_edit(2, comment="x"), 3, r"unknown move field(s) ['comment']"),
    "float action": (_move_edit(1, action=3.0), 2, "move field 'action' must be an int, got 3.0"),
    "bool action": (_move_edit(1, action=True), 2, "move field 'action' must be an int, got True"),
    "illegal move": (_move_edit(1, action=10**9), 2, "illegal action 1000000000"),
    "NaN reward": (lambda lines: [*lines[:-1], _nan_reward(lines[-1])], -1, "NaN is not a JSON number"),
    "key twice": (lambda lines: [lines[0][:-1] + ', "seed": 3}', *lines[1:]], 1, "['seed'] given twice"),
    "nested": (lambda lines: [*lines[:2], "[" * 30_000 + "]" * 30_000, *lines[2:]], 3, "nests too deep"),
    "long line": (lambda lines: [*lines[:2], json.dumps({"x": "y" * 70_000}), *lines[2:]], 3, "at most 65536"),
    "blank inside": (lambda lines: [lines[0], "", *lines[1:]], 2, "a blank line inside the record"),
    "cut mid-line": (lambda lines: [*lines[:-2], lines[-2][:7]], -1, "not valid JSON"),
    "not an object": (lambda lines: [lines[0], "[1, 2]", *lines[1:]], 2, "a move needs"),
    "end with extra field": (
        lambda lines: [*lines[:-1], lines[-1][:-2] + ', "x": 1}}'],
        -1,
        r"unknown end field(s) ['x']",
    ),
    "too many moves": (lambda lines: [lines[0], *lines[1:-1] * 40], "max", "lasts at most"),
    # issue 44: the end line is checked whole, always (rewards, both flags, the illegal action)
    "swapped rewards": (_end_edit(rewards=_rotated), -1, "end rewards"),
    "rewards beside an info": (_end_edit(rewards=_rotated, info={"end": "x"}), -1, "unknown end field(s) ['info']"),
    "flipped terminated": (_end_edit(terminated=_flipped), -1, "end terminated=false recorded, the replay gives"),
    "flipped truncated": (_end_edit(truncated=_flipped), -1, "end truncated=true recorded, the replay gives"),
    "illegal action of no agent": (
        _end_edit(illegal={"agent": "player_9", "action": 0}), -1, "agent 'player_9' has no reward"
    ),
    "illegal action field": (_end_edit(illegal={"agent": "player_0", "action": 0, "x": 1}), -1, "unknown illegal"),
    "illegal action after the end": (_end_edit(illegal={"agent": "player_0", "action": 0}), -1, "after the end"),
    "too big": (lambda lines: b"\n" * (MAX_RECORD_BYTES + 1), None, "larger than"),
}


def _file_bytes(good_lines, edit) -> tuple[bytes, list[str]]:
    out = edit(list(good_lines))
    data = out if isinstance(out, bytes) else ("\n".join(out) + "\n").encode()
    return data, data.decode("utf-8", errors="replace").splitlines()


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_record_is_one_record_error_naming_the_line_everywhere(tmp_path, good_lines, name, capsys):
    edit, line, part = MALFORMED[name]
    data, lines = _file_bytes(good_lines, edit)
    if line == "max":
        line = make_env(DEFAULT_GAME.key, num_players=3, max_turns=10).unwrapped.rules.spec.max_game_length + 2
    elif line is not None and line < 0:
        line += len(lines) + 1
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    with pytest.raises(RecordError) as caught:
        load_record(path)
    message = str(caught.value)
    assert part in message and caught.value.line == line
    if line is not None:
        assert message.startswith(f"line {line}: ")
    # maya-replay: the same message, exit code 1, no traceback, nothing printed on stdout
    out = io.StringIO()
    assert replay_cli.main([str(path), "--no-pause"], stdin=io.StringIO(), out=out) == 1
    err = capsys.readouterr().err
    assert err == f"maya-replay: {path}: {message}\n" and out.getvalue() == ""
    # the web upload: parse_record of the text, then the replay; through Flask, a JSON 400
    if b"\xff" not in data:
        text = data.decode("utf-8")
        with pytest.raises(RecordError) as uploaded:
            replay(parse_record(text.splitlines()))
        assert str(uploaded.value) == message
        if name != "too big":  # the server bounds the request body before the record
            response = web_client().post("/api/replays", json={"text": text})
            assert response.status_code == 400 and message in response.get_json()["error"]


def web_client():
    flask = pytest.importorskip("flask")
    del flask
    from maya_envs.web.app import create_app

    app = create_app()
    app.testing = True
    return app.test_client()



# -- issue 44: a game ended by an illegal action records, loads and replays -------------------


def play_to_an_illegal_action(env, seed: int, moves: int) -> tuple[str, int]:
    """Play ``moves`` random legal moves on a recording env, then an illegal in-range id (the
    env's ``illegal_action="terminate"`` ends the game); the offender and the id."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    raw = env.unwrapped
    for _ in range(moves):
        env.step(int(rng.choice(raw.rules.legal_actions(raw.game_state))))
    legal = raw.rules.legal_actions(raw.game_state)
    action = next(a for a in range(raw.rules.spec.num_actions) if a not in legal)
    agent = raw.agent_selection
    with pytest.warns(UserWarning, match="illegal-action penalty"):
        env.step(action)
    return agent, action


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("moves", [0, 5])
def test_a_game_ended_by_an_illegal_action_loads_and_replays(tmp_path, game, moves, capsys):
    """Every game of the table: the record names the illegal action on its end line, loads,
    replays to the ended game (the last position is the one before the illegal id) and shows
    in maya-replay; the penalty is the env's (here not the default)."""
    path = tmp_path / "illegal.jsonl"
    env = record_env(game, path)
    env.unwrapped.illegal_reward = -3.0
    agent, action = play_to_an_illegal_action(env, seed=moves, moves=moves)
    record = load_record(path)
    assert record.end["illegal"] == {"agent": agent, "action": action}
    assert record.end["rewards"][agent] == -3.0 and record.end["terminated"] and not record.end["truncated"]
    states = replay(record)
    assert len(states) == moves + 1 and states[-1] == env.unwrapped.game_state
    out = io.StringIO()
    assert replay_cli.main([str(path), "--no-pause"], stdin=io.StringIO(), out=out) == 0, capsys.readouterr().err
    assert "illegal" in out.getvalue()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_crafted_illegal_ending_is_refused(tmp_path, game):
    """The illegal-ending record of every game with one thing changed: swapped rewards, a
    flipped flag, a legal id, an id out of range, another agent: each a RecordError naming
    the end line."""
    path = tmp_path / "illegal.jsonl"
    agent, action = play_to_an_illegal_action(record_env(game, path), seed=1, moves=3)
    lines = path.read_text().splitlines()
    raw = make_env(game)
    raw.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(3):
        raw.step(int(rng.choice(raw.rules.legal_actions(raw.game_state))))
    legal = raw.rules.legal_actions(raw.game_state)[0]
    other = next(a for a in raw.possible_agents if a != agent)
    crafted = {
        "swapped rewards": (_end_edit(rewards=_rotated), "end rewards"),
        "flipped terminated": (_end_edit(terminated=_flipped), "end terminated=false"),
        "flipped truncated": (_end_edit(truncated=_flipped), "end truncated=true"),
        "a legal id": (_end_edit(illegal={"agent": agent, "action": legal}), "is legal here"),
        "an id out of range": (_end_edit(illegal={"agent": agent, "action": 10**6}), "is no action id"),
        "another agent": (_end_edit(illegal={"agent": other, "action": action}), "out of turn"),
        "no illegal action": (_end_edit(illegal=_REMOVE), "still running"),
    }
    for name, (change, part) in crafted.items():
        edited = change(lines)
        if name == "another agent":  # the other agent's reward is the penalty, else the reward check speaks
            data = json.loads(edited[-1])
            data["end"]["rewards"] = {a: (-1.0 if a == other else 0.0) for a in data["end"]["rewards"]}
            edited[-1] = json.dumps(data)
        with pytest.raises(RecordError, match=f"line {len(lines)}: .*{part}") as caught:
            check(tmp_path, edited)
        assert caught.value.line == len(lines), name


@pytest.mark.parametrize("game", sorted(GAMES))
def test_under_the_raise_policy_a_refused_illegal_action_leaves_the_record_whole(tmp_path, game):
    """``illegal_action="raise"``: the id is refused, the game goes on, and the finished record
    holds the legal moves only and replays to the same end."""
    path = tmp_path / "raise.jsonl"
    env = record_env(game, path, illegal_action="raise")
    raw = env.unwrapped
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    refused = 0
    for _agent in env.agent_iter():
        _obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = raw.rules.legal_actions(raw.game_state)
        if refused < 3:
            with pytest.raises(IllegalActionError):
                env.step(next(a for a in range(raw.rules.spec.num_actions) if a not in legal))
            refused += 1
        env.step(int(rng.choice(legal)))
    record = load_record(path)
    assert "illegal" not in record.end and replay(record)[-1] == raw.game_state
