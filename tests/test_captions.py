"""Replay captions (issue 21 item 5): each frame says which move led to it and by whom, the last
one the result and why the game ended. (The per-seat move text is maya_envs.notation's,
tested by resampling in tests/test_notation.py; each game's result line is in its folder,
tests/<key>/test_captions.py.)"""

from __future__ import annotations

import pytest

from maya_envs.bots import make_bot
from maya_envs.games import GAMES
from maya_envs.notation import describe_action
from maya_envs.records import load_record, make_env, record_env, replay


def recorded_game(tmp_path, game: str, seed: int, **options):
    path = tmp_path / f"{game}.jsonl"
    env = record_env(game, path, **options)
    env.reset(seed=seed)
    raw = env.unwrapped
    bots = [make_bot("random", raw.rules, seed + s) for s in range(raw.rules.spec.num_players)]
    for agent in env.agent_iter():
        _obs, _r, terminated, truncated, _info = env.last()
        env.step(None if terminated or truncated else bots[raw.seat_of(agent)].act(raw.game_state))
    return load_record(path)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_replay_frame_has_a_caption_and_the_last_the_result(tmp_path, game):
    pytest.importorskip("PIL")
    options = {"num_players": GAMES[game].player_counts[0]}
    from maya_envs.cli.replay import captioned_pictures

    record = recorded_game(tmp_path, game, 3, **options)
    pictures = captioned_pictures(record, observer=None)
    assert len(pictures) == len(record.moves) + 1
    assert len({p.height for p in pictures}) == 1, "GIF frames must share one size"

    def texts(picture):
        return [p["text"] for kind, p in picture.shapes if kind == "text"]

    assert any("start position" in t for t in texts(pictures[0]))
    states, rules = replay(record), make_env(game, **options).rules
    for index in (1, len(record.moves) // 2, len(record.moves)):
        move = record.moves[index - 1]
        words = describe_action(rules, states[index - 1], move["action"], int(move["agent"][7:]), None)
        caption = f"move {index}/{len(record.moves)}: {move['agent']} {words}"
        assert caption in " ".join(texts(pictures[index])), texts(pictures[index])[-3:]
    last = " ".join(texts(pictures[-1]))
    assert "result:" in last and "ended:" in last
    assert all("result:" not in " ".join(texts(p)) for p in pictures[:-1])
