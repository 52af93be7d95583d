"""The per-seat action description (:func:`maya_envs.notation.describe_action`): reasons for
illegal moves, reading notation back, end wording. That a seat reads only what it may see is
checked for every game in tests/test_conformance.py (:func:`tests.conformance.check_seat_reads`)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from maya_envs.bots import RandomBot
from maya_envs.games import DEFAULT_GAME
from maya_envs.notation import describe_action
from maya_envs.records import make_env
from tests.conformance import GAME_CASES
from tests.helpers.notation import random_states

CASES = GAME_CASES


def test_bad_seats_are_refused():
    rules = make_env(DEFAULT_GAME.key).unwrapped.rules
    state = rules.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="viewer=5"):
        describe_action(rules, state, 0, 0, 5)
    with pytest.raises(ValueError, match="actor=-1"):
        describe_action(rules, state, 0, -1, None)


@pytest.mark.parametrize(("game", "options"), CASES, ids=[f"{g}-{o}" for g, o in CASES])
def test_every_illegal_move_gets_a_reason_from_the_rules(game, options):
    """In random positions: a legal move has no reason, and every illegal id gets a specific
    one from the rules (a phase, a Monolith, a full quarry, a seat offset beyond the players,
    a bid above the gold, ...), never the general fallback."""
    from maya_envs.notation import why_illegal

    rules = make_env(game, **options).unwrapped.rules
    explained = 0
    for state, _mover in random_states(rules, seed=0, every=3):
        legal = set(rules.legal_actions(state))
        assert all(why_illegal(rules, state, action) == "" for action in legal)
        for action in range(rules.spec.num_actions):
            if action not in legal:
                reason = why_illegal(rules, state, action)
                assert reason and "is not legal in this position" not in reason, (action, reason)
                explained += 1
    assert explained > 50


@pytest.mark.parametrize(("game", "options"), CASES, ids=[f"{g}-{o}" for g, o in CASES])
def test_read_move_reads_every_notation_back_to_its_id(game, options):
    from maya_envs.notation import read_move

    rules = make_env(game, **options).unwrapped.rules
    module = importlib.import_module(f"maya_envs.{game}.notation")
    by_grammar = 0
    for action in range(rules.spec.num_actions):
        notation = rules.action_to_string(action)
        assert read_move(rules, f"  {notation.upper()} ") == action
        own = module.read_move(rules, " ".join(notation.lower().split()))  # the game's grammar alone
        assert own in (None, action), (notation, own)
        by_grammar += own == action
    assert by_grammar > rules.spec.num_actions // 3


@pytest.mark.parametrize(("game", "options"), CASES[::2], ids=[f"{g}-{o}" for g, o in CASES[::2]])
def test_one_end_reason_wording_in_every_view(tmp_path, game, options):
    """The end's text from the one table (:func:`end_reason`) is what the terminal
    (describe_end), the captions of the GIF and web (result_line) and the text replay say."""
    from maya_envs.captions import result_line
    from maya_envs.cli.replay import text_pages
    from maya_envs.notation import END_TEXTS, describe_end, end_reason
    from maya_envs.records import load_record, record_env

    module = importlib.import_module(f"maya_envs.{game}.notation")
    env = record_env(game, tmp_path / "g.jsonl", render_mode="ansi", **options)
    env.reset(seed=5)
    raw = env.unwrapped
    bots = [RandomBot(raw.rules, seed=s) for s in range(raw.rules.spec.num_players)]
    while not any(raw.terminations.values()) and not any(raw.truncations.values()):
        env.step(bots[raw.seat_of(raw.agent_selection)].act(raw.game_state))
    info = raw.infos[raw.agents[0]]
    reason = end_reason(raw.rules, raw.game_state, info)
    assert reason == module.END_TEXTS[info["end"]].format_map(info)
    assert describe_end(raw.rules, raw.game_state, info).startswith(f"the game ended: {reason}\n")
    rewards = {a: float(raw.rewards[a]) for a in raw.agents}
    assert result_line(raw.rules, raw.game_state, rewards, info).endswith(f"ended: {reason}")
    assert text_pages(load_record(tmp_path / "g.jsonl"), None)[-1].endswith(f"ended: {reason}")
    offender = {"illegal_action": "...", "offender": "player_1", "end": "illegal_action"}
    assert end_reason(raw.rules, raw.game_state, offender) == END_TEXTS["illegal_action"].format(offender="player_1")
