"""Records are untrusted input (issue 29): a mutated record either loads and replays exactly as
the rules play its moves, or raises :class:`~maya_envs.records.RecordError` naming the line, in
:func:`~maya_envs.records.load_record` and :func:`~maya_envs.records.parse_record` (the web
upload's path) alike; no other exception type.

Each case records a few seeded random games, then mutates one record at a time: a line deleted,
duplicated or swapped with the next; the file cut at a random byte; a random byte replaced
(often not UTF-8); one field of one line changed (header, config, move or end fields: the value
mutations of the state fuzz, a field removed, an unknown field added). An accepted record is
replayed by the rules alone (``initial_state`` from the seed's generator, each recorded action
legal for the seat named, its notation the rules' text, the end line's rewards the returns
and its flags the rules' end)
and must give the states :func:`~maya_envs.records.replay` gives.

Each case also writes one game that an illegal action ends (its end line names the action), and
every record as written must load and replay before it is mutated.

The default cases run in well under a minute on one core (about 17 CPU s for all four);
``-m extended`` runs more.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from maya_envs.games import DEFAULT_GAME, GAMES, find_game
from maya_envs.records import RecordError, load_record, parse_record, record_env, replay
from tests.conformance import case_id
from tests.fuzz_mutations import mutate_value


def _cases() -> dict[str, tuple[str, dict[str, Any]]]:
    """Every game at its smallest player count (the default game in its last variant), and the
    default game at its second count; a game with a turn limit stops after 4 turns a seat, so
    that a record stays short."""
    wanted = [(key, {"num_players": game.player_counts[0]}) for key, game in GAMES.items()]
    wanted.append((DEFAULT_GAME.key, {"num_players": DEFAULT_GAME.player_counts[1]}))
    cases = {}
    for key, options in wanted:
        game = GAMES[key]
        if game is DEFAULT_GAME and options["num_players"] == game.player_counts[0]:
            options[game.variant_option] = list(game.hook("variants"))[-1]
        if hasattr(game.make_rules(options).config, "max_turns"):
            options["max_turns"] = 4 * options["num_players"]
        cases[case_id((key, options))] = (key, options)
    return cases


CASES = _cases()


def recorded_lines(tmp_path, key: str, options: dict[str, Any], games: int) -> list[list[str]]:
    """The lines of ``games`` seeded random games of ``key`` recorded by ``RecordingWrapper``;
    the last game ends after a few moves by an illegal action (its end line names it)."""
    out = []
    for seed in range(games):
        path = tmp_path / f"{key}_{seed}.jsonl"
        env = record_env(key, path, **options)
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        for step, _agent in enumerate(env.agent_iter()):
            obs, _reward, terminated, truncated, _info = env.last()
            if seed == games - 1 and step == 6 and not (terminated or truncated):
                with pytest.warns(UserWarning, match="illegal-action penalty"):
                    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
                continue
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        out.append(path.read_text(encoding="utf-8").splitlines())
    return out


def rules_replay(record) -> list[Any]:
    """The states of ``record`` played by its game's rules alone (the oracle)."""
    header = record.header
    rules = find_game(header["game"]).make_rules(header["config"])
    rng = np.random.default_rng(header["seed"])
    state = rules.initial_state(rng)
    states = [state]
    for move in record.moves:
        seat = rules.current_player(state)
        assert seat >= 0 and move["agent"] == f"player_{seat}"
        assert move["action"] in rules.legal_actions(state)
        assert move["notation"] == rules.action_to_string(move["action"])
        state = rules.apply_action(state, move["action"], rng)
        states.append(state)
    if record.end is not None and "illegal" in record.end:
        check_illegal_end(rules, state, record.end)
    elif record.end is not None:
        terminated = rules.is_terminal(state)
        truncated = not terminated and rules.is_truncated(state)
        assert (terminated or truncated) and "illegal" not in record.end  # random play is legal
        assert (record.end["terminated"], record.end["truncated"]) == (terminated, truncated)
        returns = rules.returns(state)
        assert record.end["rewards"] == {f"player_{s}": float(r) for s, r in enumerate(returns)}
    return states


def check_illegal_end(rules, state, end: dict[str, Any]) -> None:
    """The oracle of an end line that names an illegal action: the seat to act, an id in range
    that is not legal, the offender's team sharing its reward (the penalty), the others 0."""
    seat, illegal = rules.current_player(state), end["illegal"]
    assert seat >= 0 and illegal["agent"] == f"player_{seat}"
    assert 0 <= illegal["action"] < rules.spec.num_actions
    assert illegal["action"] not in rules.legal_actions(state)
    team = {f"player_{s}" for s in rules.team_of(seat)}
    penalty = end["rewards"][illegal["agent"]]
    expected = {f"player_{s}": (penalty if f"player_{s}" in team else 0.0) for s in range(rules.spec.num_players)}
    assert end["rewards"] == expected and end["terminated"] and not end["truncated"]


def _line_mutations(lines: list[str], rng: np.random.Generator) -> list[tuple[str, bytes]]:
    """``(what, file bytes)`` pairs: structural mutations of the whole file."""
    text = "\n".join(lines) + "\n"
    data = text.encode("utf-8")
    out = []
    for _ in range(4):
        i = int(rng.integers(len(lines)))
        out.append((f"line {i + 1} deleted", "\n".join(lines[:i] + lines[i + 1 :]).encode()))
        out.append((f"line {i + 1} twice", "\n".join(lines[: i + 1] + lines[i:]).encode()))
        if i + 1 < len(lines):
            swapped = lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2 :]
            out.append((f"lines {i + 1}-{i + 2} swapped", "\n".join(swapped).encode()))
        cut = int(rng.integers(1, len(data)))
        out.append((f"cut at byte {cut}", data[:cut]))
        at, byte = int(rng.integers(len(data))), int(rng.integers(256))
        out.append((f"byte {at} -> {byte:#04x}", data[:at] + bytes([byte]) + data[at + 1 :]))
    out.append(("blank line inside", "\n".join([lines[0], "", *lines[1:]]).encode()))
    return out


def _field_mutations(lines: list[str], rng: np.random.Generator, per_line: int) -> list[tuple[str, bytes]]:
    """``(what, file bytes)`` pairs: one field of one line changed, removed or added."""
    out = []
    picks = [0, 0, 0, 1, len(lines) - 1, *rng.choice(len(lines), size=min(3, len(lines)), replace=False).tolist()]
    for i in picks:
        row = json.loads(lines[i])
        targets: list[tuple[list[str], Any]] = [([k], v) for k, v in row.items()]
        for outer in ("config", "end"):
            if isinstance(row.get(outer), dict):
                targets += [([outer, k], v) for k, v in row[outer].items()]
        found = []
        for path, value in targets:
            for new in mutate_value(value, [], rng):
                found.append((path, new))
            found.append((path, "<removed>"))
        found.append((["extra"], 1))
        found.append((["config", "render_mode"], "human"))
        for j in rng.permutation(len(found))[:per_line]:
            path, new = found[j]
            mutated = json.loads(lines[i])
            inner = mutated
            for step in path[:-1]:
                inner = inner.setdefault(step, {}) if isinstance(inner, dict) else inner
            if not isinstance(inner, dict):
                continue
            if new == "<removed>":
                inner.pop(path[-1], None)
            else:
                inner[path[-1]] = new
            text = "\n".join(lines[:i] + [json.dumps(mutated)] + lines[i + 1 :]) + "\n"
            out.append((f"line {i + 1} {'.'.join(path)} -> {new!r}", text.encode()))
    return out


def fuzz(tmp_path, case: str, games: int, per_line: int, seed: int = 0) -> dict[str, int]:
    """Run the fuzz of ``case``; the counts of mutations tried, accepted and refused."""
    key, options = CASES[case]
    rng = np.random.default_rng(seed)
    counts = {"tried": 0, "accepted": 0, "refused": 0}
    path = tmp_path / "mutated.jsonl"
    for lines in recorded_lines(tmp_path, key, options, games):
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        original = load_record(path)  # every record the wrapper writes loads, unmutated
        assert replay(original) == rules_replay(original)
        for what, data in _line_mutations(lines, rng) + _field_mutations(lines, rng, per_line):
            counts["tried"] += 1
            path.write_bytes(data)
            try:
                record = load_record(path)
            except RecordError as error:
                assert str(error).startswith(("line ", "empty record", "the record")), f"{what}: {error}"
                if error.line is not None:
                    assert str(error).startswith(f"line {error.line}:"), f"{what}: {error}"
                counts["refused"] += 1
                try:  # the web upload's path: the same text, the same error
                    text = data.decode("utf-8-sig")
                except UnicodeDecodeError:
                    continue
                with pytest.raises(RecordError) as caught:
                    for _env in replay(parse_record(text.splitlines())):
                        pass
                assert str(caught.value) == str(error), what
                continue
            except Exception as error:  # noqa: BLE001 - any other type is the failure
                raise AssertionError(f"{case}: {what}: {error!r} instead of a RecordError") from error
            counts["accepted"] += 1
            assert replay(record) == rules_replay(record), what
    return counts


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_mutated_record_is_refused_or_replays_exactly(tmp_path, case):
    counts = fuzz(tmp_path, case, games=5, per_line=25)
    print(f"{case}: {counts}")
    assert counts["tried"] >= 800 and counts["accepted"] and counts["refused"]


@pytest.mark.extended
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_mutated_record_is_refused_or_replays_exactly_extended(tmp_path, case):
    counts = fuzz(tmp_path, case, games=10, per_line=40, seed=1)
    print(f"{case}: {counts}")
    assert counts["accepted"] and counts["refused"]

