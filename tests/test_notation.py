"""The per-seat action description (:func:`maya_envs.notation.describe_action`): reasons for
illegal moves, reading notation back, end wording. That a seat reads only what it may see is
checked for every game in tests/test_conformance.py (:func:`tests.conformance.check_seat_reads`)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from maya_envs.bots import RandomBot
from maya_envs.notation import describe_action
from maya_envs.records import make_env
from maya_envs.yaxha.actions import COLOURS
from tests.conformance import GAME_CASES

CASES = GAME_CASES


def test_hidden_parts_read_as_the_rules_say():
    quarry = make_env("maya_quarry", num_players=3).unwrapped.rules
    state = quarry.initial_state(np.random.default_rng(0))
    from maya_envs.maya_quarry import actions as QA

    low, high = QA.worker_id(2, 0), QA.worker_id(2, 6)
    assert describe_action(quarry, state, low, 0, 1) == "worker q2 (Transport +2) card ? (low back)"
    assert describe_action(quarry, state, high, 0, 1) == "worker q2 (Transport +2) card ? (high back)"
    assert describe_action(quarry, state, low, 0, 0) == "worker q2 (Transport +2) card 3"

    yaxha = make_env("yaxha", num_players=2).unwrapped.rules
    state = yaxha.initial_state(np.random.default_rng(0))
    assert describe_action(yaxha, state, 1, 0, 1) == "pick tile ?"
    assert describe_action(yaxha, state, 1, 0, None) == "pick tile 1"


def test_bad_seats_are_refused():
    rules = make_env("maya2012").unwrapped.rules
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
    for state, _mover in _random_states(rules, seed=0, every=3):
        legal = set(rules.legal_actions(state))
        assert all(why_illegal(rules, state, action) == "" for action in legal)
        for action in range(rules.spec.num_actions):
            if action not in legal:
                reason = why_illegal(rules, state, action)
                assert reason and "is not legal in this position" not in reason, (action, reason)
                explained += 1
    assert explained > 50


def test_reasons_name_the_rule():
    from maya_envs.notation import describe_end, why_illegal

    yaxha = make_env("yaxha", num_players=2).unwrapped.rules
    state = yaxha.initial_state(np.random.default_rng(0))
    for tile in (0, 1):
        state = yaxha.apply_action(state, tile, np.random.default_rng(0))  # no clash: building starts
    seat = yaxha.current_player(state)
    hand = state.hands[seat]
    missing = next(c for c in range(5) if not hand[c])
    held = next(c for c in range(5) if hand[c])
    anchor = yaxha.geometry.anchor
    reason = why_illegal(yaxha, state, yaxha.table.place(missing, anchor))
    assert reason.startswith(f"you have no {COLOURS[missing]} cube")
    corner = yaxha.geometry.index[(0, 0, 0)]
    assert why_illegal(yaxha, state, yaxha.table.place(held, corner)) == "the first cube goes on L1 (3,3)"
    assert why_illegal(yaxha, state, yaxha.table.discard(held)).endswith("only when it has none")
    quarry = make_env("maya_quarry", num_players=3).unwrapped.rules
    state = quarry.initial_state(np.random.default_rng(0))
    from maya_envs.maya_quarry import actions as QA

    assert why_illegal(quarry, state, QA.worker_id(0, 0)).startswith("no worker card now: this is the setup phase")
    with pytest.raises(ValueError, match="out of range"):
        why_illegal(quarry, state, 10_000)
    finished = quarry.initial_state(np.random.default_rng(0))
    bots = [RandomBot(quarry, seed=s) for s in range(3)]
    while quarry.current_player(finished) >= 0:
        finished = quarry.apply_action(finished, bots[quarry.current_player(finished)].act(finished))
    text = describe_end(quarry, finished)
    assert text.startswith("the game ended: the third round was scored\ngold: player_0 ") and "winner" in text


def _random_states(rules, seed: int, every: int = 1):
    """The states of one random game (every ``every``-th), each with its mover."""
    bots = [RandomBot(rules, seed=seed + s) for s in range(rules.spec.num_players)]
    state = rules.initial_state(np.random.default_rng(seed))
    for step in range(rules.spec.max_game_length):
        mover = rules.current_player(state)
        if mover < 0:
            return
        if step % every == 0:
            yield state, mover
        state = rules.apply_action(state, bots[mover].act(state), np.random.default_rng(step))


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


def test_moves_the_maya2012_table_cannot_hold_get_the_rule():
    """Every ``swap tA-tB @Lk`` and ``monolith tA|tB``: an id exactly for two adjacent towers
    (either order) and, for an exchange, a base level 2-5; else the rule that forbids it."""
    from maya_envs.maya2012 import actions as MA
    from maya_envs.notation import read_move

    rules = make_env("maya2012").unwrapped.rules
    for a in range(11):
        for b in range(11):
            pair = tuple(sorted((a, b)))
            for level in range(7):
                read = read_move(rules, f"swap t{a}-t{b} @L{level}")
                if pair in MA.PAIRS and level in MA.EXCHANGE_LEVELS:
                    assert read == MA.exchange_id(MA.PAIRS.index(pair), level)
                else:
                    assert isinstance(read, str) and read, (a, b, level)
            read = read_move(rules, f"monolith t{a}|t{b}")
            assert read == MA.MONOLITH_BASE + MA.PAIRS.index(pair) if pair in MA.PAIRS else isinstance(read, str)
    assert "not neighbours" in read_move(rules, "swap t0-t2 @L3")
    assert read_move(rules, "swap t0-t1 @L1").startswith("level 1 never moves")
    assert read_move(rules, "raven @L1").startswith("level 1 never moves")
    assert read_move(rules, "swap t0-t9 @L3").startswith("there is no tower t9")
    assert read_move(rules, "swap everything") is None


def test_moves_the_quarry_and_yaxha_tables_cannot_hold_get_the_rule():
    from maya_envs.notation import read_move

    quarry = make_env("maya_quarry", num_players=3).unwrapped.rules
    for q in range(9):
        for value in range(-4, 10):
            read = read_move(quarry, f"worker q{q} card {value}")
            valid = q < 7 and value in (3, 4, 5, 6, 7, 8, -3)  # the table's q0..q6 (why_illegal: q4.. of 3p)
            assert isinstance(read, int) if valid else isinstance(read, str) and read, (q, value)
    assert read_move(quarry, "bid 31") == "bids go up to 30"
    assert read_move(quarry, "place atlantis L1").startswith("there is no pyramid 'atlantis'")
    yaxha = make_env("yaxha", num_players=2).unwrapped.rules
    side = yaxha.geometry.side
    for level in range(6):
        for x in range(side + 2):
            read = read_move(yaxha, f"place green L{level} ({x},0)")
            valid = 1 <= level <= 4 and x < side - (level - 1)
            assert isinstance(read, int) if valid else isinstance(read, str) and read, (level, x)
    assert read_move(yaxha, "place red L1 (3,3)").startswith("there is no red cube")
    assert read_move(yaxha, "pick tile 5").startswith("there is no tile 5")


def test_quarry_moves_name_seats_and_markers_as_players_do():
    """No raw marker identifier (``BLUE_EXTRA_BLOCK``) and no seat offset (``+1``) in any move's
    words; a -3 names its target and an appointment the new start player, by seat."""
    import re

    from maya_envs.maya_quarry import actions as QA

    kinds = set()
    for options in ({"num_players": 3}, {"num_players": 5, "variant": "advanced"}):
        rules = make_env("maya_quarry", **options).unwrapped.rules
        n = rules.spec.num_players
        for seed in range(3):
            for state, mover in _random_states(rules, seed):
                for action in rules.legal_actions(state):
                    for viewer in (None, mover, (mover + 1) % n):
                        text = describe_action(rules, state, action, mover, viewer)
                        assert not re.search(r"[A-Z]{2,}_[A-Z]|(on|player) \+\d", text), text
                    move = QA.decode(action, rules.spec.num_actions)
                    kinds.add(move.kind)
                    if move.kind == "minus3":
                        assert text.endswith(f"on player_{(mover + move.a) % n}")
                    if move.kind == "appoint":
                        assert f"appoints player_{(mover + move.a) % n}" in text
                    if move.kind == "blue_choose":
                        titles = ("Transport +4", "Joker", "Extra block", "+2 quarry points")
                        assert text == f"takes blue marker {titles[move.a]}"
    assert {"minus3", "appoint", "blue_choose", "joker", "protect", "worker"} <= kinds


@pytest.mark.parametrize("players", [2, 3])
def test_a_maya2012_exchange_says_where_the_monolith_and_raven_went(players):
    import re

    rules = make_env("maya2012", num_players=players).unwrapped.rules
    exchanges = 0
    for state, mover in _random_states(rules, seed=players):
        action = RandomBot(rules, seed=exchanges).act(state)
        text = describe_action(rules, state, action, mover, (mover + 1) % players)
        if not text.startswith("swap"):
            continue
        after = rules.apply_action(state, action, np.random.default_rng(0))
        a, b = re.search(r"Monolith (?:t\d\|t\d -> |placed )t(\d)\|t(\d)", text).groups()
        assert rules.action_to_string(48 + after.monolith) == f"monolith t{a}|t{b}"
        raven = re.search(r"Raven L(\d) -> L(\d)", text)
        assert (raven is not None) == (players == 2)
        if raven:
            assert (int(raven[1]), int(raven[2])) == (state.raven, after.raven)
        exchanges += 1
    assert exchanges > 10


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
