"""The per-seat action description (:func:`maya_envs.notation.describe_action`).

Tested by resampling what a seat may not see: (a) the actor's other legal actions that leave
the seat's observation unchanged read the same to that seat (a hidden card value, tile or cube
never shows in the text); (b) in a state drawn by the game's ``determinize`` hook for that
seat (the other seats' hidden cards, choices and cubes redrawn), the same action reads the
same. The actor and a viewer of ``None`` read the whole move."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from maya_envs.bots import RandomBot
from maya_envs.notation import describe_action
from maya_envs.records import make_env
from maya_envs.yaxha.actions import COLOURS

CASES = [
    ("maya2012", {"num_players": 2}),
    ("maya2012", {"num_players": 3}),
    ("maya_quarry", {"num_players": 3}),
    ("maya_quarry", {"num_players": 4, "variant": "advanced"}),
    ("yaxha", {"num_players": 2}),
    ("yaxha", {"num_players": 3, "footprint": "fixed"}),
    ("yaxha", {"num_players": 4}),
]


def _after(rules, state, action):
    """The state after ``action``; every call draws the same chance outcomes."""
    return rules.apply_action(state, action, np.random.default_rng(0))


def _same_for(env, a, b, viewer) -> bool:
    """Whether ``viewer`` cannot tell the states ``a`` and ``b`` apart (turn, observation and
    its rendered view)."""
    rules = env.rules
    return (
        rules.current_player(a) == rules.current_player(b)
        and np.array_equal(env.observer.encode(a, viewer), env.observer.encode(b, viewer))
        and env._renderer(a, viewer) == env._renderer(b, viewer)
    )


@pytest.mark.parametrize(("game", "options"), CASES, ids=[f"{g}-{o}" for g, o in CASES])
def test_a_seat_reads_only_what_it_may_see(game, options):
    env = make_env(game, **options).unwrapped
    rules = env.rules
    determinize = importlib.import_module(f"maya_envs.{game}.determinize").determinize
    n = rules.spec.num_players
    rng = np.random.default_rng(7)
    hidden_texts = checked_alternatives = 0
    for g in range(1):
        bots = [RandomBot(rules, seed=10 * g + s) for s in range(n)]
        before = rules.initial_state(np.random.default_rng(g))
        for _ in range(rules.spec.max_game_length):
            actor = rules.current_player(before)
            if actor < 0:
                break
            action = bots[actor].act(before)
            after = _after(rules, before, action)
            full = describe_action(rules, before, action, actor, None)
            assert describe_action(rules, before, action, actor, actor) == full
            legal = rules.legal_actions(before)
            others = legal if len(legal) <= 25 else list(rng.choice(legal, 25, replace=False))
            for viewer in range(n):
                if viewer == actor:
                    continue
                text = describe_action(rules, before, action, actor, viewer)
                hidden_texts += text != full
                # (a) an action that leads elsewhere, in a way the viewer cannot see, reads the
                # same (an action whose effect leaves no trace at all, e.g. a -3 without
                # consequence, is public and may read differently)
                for other in others:
                    other_after = _after(rules, before, int(other))
                    if other != action and other_after != after and _same_for(env, after, other_after, viewer):
                        checked_alternatives += 1
                        assert describe_action(rules, before, int(other), actor, viewer) == text
                # (b) the same action in a redrawn state that the viewer cannot tell apart
                resampled = determinize(rules, before, viewer, rng)
                if rules.current_player(resampled) == actor and action in rules.legal_actions(resampled):
                    assert describe_action(rules, resampled, action, actor, viewer) == text
            before = after
    if rules.spec.information == "imperfect" and game != "maya2012":
        assert hidden_texts > 0 and checked_alternatives > 0  # the test saw hidden moves


def test_hidden_parts_read_as_the_rules_say():
    quarry = make_env("maya_quarry", num_players=3).unwrapped.rules
    state = quarry.initial_state(np.random.default_rng(0))
    from maya_envs.maya_quarry import actions as QA

    low, high = QA.worker_id(2, 0), QA.worker_id(2, 6)
    assert describe_action(quarry, state, low, 0, 1) == "worker q2 card ? (low back)"
    assert describe_action(quarry, state, high, 0, 1) == "worker q2 card ? (high back)"
    assert describe_action(quarry, state, low, 0, 0) == "worker q2 card 3"

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
    """In random positions: a legal move has no reason, every illegal one has one, and every
    illegal exchange (Maya 2012), worker card or block placement (quarry) or Yaxha move gets a
    specific one from the rules, never the general fallback."""
    from maya_envs.notation import why_illegal

    rules = make_env(game, **options).unwrapped.rules
    rng = np.random.default_rng(3)
    bots = [RandomBot(rules, seed=s) for s in range(rules.spec.num_players)]
    state = rules.initial_state(np.random.default_rng(0))
    explained = 0
    for step in range(rules.spec.max_game_length):
        if rules.current_player(state) < 0:
            break
        legal = rules.legal_actions(state)
        if step % 3 == 0:
            assert why_illegal(rules, state, legal[0]) == ""
            for action in rng.choice(rules.spec.num_actions, 30, replace=False):
                action = int(action)
                if action in legal:
                    continue
                reason = why_illegal(rules, state, action)
                notation = rules.action_to_string(action)
                assert reason
                if game == "yaxha" or notation.startswith(("swap", "worker", "place")):
                    assert "is not legal in this position" not in reason, (notation, reason)
                    explained += 1
        state = rules.apply_action(state, bots[rules.current_player(state)].act(state), np.random.default_rng(step))
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
