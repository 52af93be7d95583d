"""Determinization: every sample agrees with the observer's view exactly (observation, and the
legal mask when the observer moves), conserves the components, and over many samples puts
each hidden item in every place it could be (no fixed leak of the true hidden state)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from maya_envs.bots import make_bot
from maya_envs.maya2012 import determinize as m2012_det
from maya_envs.maya2012.observation import Maya2012Observer
from maya_envs.maya2012.rules import CENTRE, EXCHANGE, Maya2012Rules
from maya_envs.maya_quarry import determinize as quarry_det
from maya_envs.maya_quarry.actions import CARD_COUNTS, CARD_IS_LOW, NUM_CARD_TYPES
from maya_envs.maya_quarry.observation import MayaQuarryObserver
from maya_envs.maya_quarry.rules import MayaQuarryRules
from maya_envs.maya_quarry.rules.state import BID, WORKERS
from maya_envs.yaxha import determinize as yaxha_det
from maya_envs.yaxha.observation import YaxhaObserver
from maya_envs.yaxha.rules import BUILD, SELECT, YaxhaRules

GAMES = {
    "maya2012-3p": (lambda: Maya2012Rules({"num_players": 3}), m2012_det),
    "maya2012-4p": (lambda: Maya2012Rules({"num_players": 4}), m2012_det),
    "maya2012-3p-eligible": (lambda: Maya2012Rules({"num_players": 3, "declare_step": "eligible"}), m2012_det),
    "maya2012-3p-draft": (lambda: Maya2012Rules({"num_players": 3, "setup": "draft"}), m2012_det),
    "quarry-3p": (lambda: MayaQuarryRules({"num_players": 3}), quarry_det),
    "quarry-5p": (lambda: MayaQuarryRules({"num_players": 5}), quarry_det),
    "quarry-4p-advanced": (lambda: MayaQuarryRules({"num_players": 4, "variant": "advanced"}), quarry_det),
    "yaxha-2p": (lambda: YaxhaRules(num_players=2), yaxha_det),
    "yaxha-4p-fixed": (lambda: YaxhaRules(num_players=4, footprint="fixed"), yaxha_det),
}
OBSERVERS = {Maya2012Rules: Maya2012Observer, MayaQuarryRules: MayaQuarryObserver, YaxhaRules: YaxhaObserver}


def play_states(rules, seed: int, games: int = 2, kind: str = "random"):
    """Every state of ``games`` seeded bot games (the final states excluded)."""
    rng = np.random.default_rng(seed)
    bots = [make_bot(kind, rules, seed * 10 + s) for s in range(rules.spec.num_players)]
    for _ in range(games):
        state = rules.initial_state(rng)
        while rules.current_player(state) >= 0:
            yield state
            state = rules.apply_action(state, bots[rules.current_player(state)].act(state), rng)


def conserved(game: str, rules, true, sampled, observer: int) -> None:
    """The components of ``sampled`` are those of ``true`` (per game)."""
    n = rules.spec.num_players
    if game.startswith("maya2012"):
        assert sampled.towers == true.towers and bool(sampled.tasks) == bool(true.tasks)
        if true.tasks:
            assert sampled.tasks[observer] == true.tasks[observer]
            cards = [c for hand in sampled.tasks for c in hand] + list(sampled.spare)
            assert sorted(cards + [sampled.towers[CENTRE][0]]) == list(range(9))
            assert len(sampled.spare) == len(true.spare)
    elif game.startswith("quarry"):
        assert sampled.board == true.board and sampled.gold == true.gold and sampled.pool == true.pool
        assert sampled.hand(observer) == true.hand(observer)
        for seat in range(n):
            owned = Counter(card for col in sampled.columns for s, card in col if s == seat)
            for t in range(NUM_CARD_TYPES):
                owned[t] += sampled.hands[seat * NUM_CARD_TYPES + t]
            if sampled.phase != BID and true.round == sampled.round:
                assert all(owned[t] == CARD_COUNTS[t] for t in range(NUM_CARD_TYPES)), (seat, owned)
            backs = [[CARD_IS_LOW[c] for s, c in col if s == seat] for col in sampled.columns]
            assert backs == [[CARD_IS_LOW[c] for s, c in col if s == seat] for col in true.columns]
    else:
        for seat in range(n):
            placed = Counter(sampled.pyramids[seat][c] for c in sampled.fresh[seat])
            true_placed = Counter(true.pyramids[seat][c] for c in true.fresh[seat])
            # this round's cubes: hand + placed + discarded this round is the tile either way
            disc = sampled.discarded[seat] - true.discarded[seat]
            total = sum(sampled.hands[seat]) + sum(placed.values())
            assert total - (sum(true.hands[seat]) + sum(true_placed.values())) == -disc
            assert sampled.market == true.market and sampled.bag == true.bag


@pytest.mark.parametrize("game", sorted(GAMES))
def test_samples_agree_with_the_observers_view_and_conserve_components(game):
    make_rules, module = GAMES[game]
    rules = make_rules()
    encoder = OBSERVERS[type(rules)](rules)
    rng = np.random.default_rng(7)
    changed = 0
    checked = 0
    for index, state in enumerate(play_states(rules, seed=1)):
        if index % 3:
            continue
        mover = rules.current_player(state)
        for observer in range(rules.spec.num_players):
            sampled = module.determinize(rules, state, observer, rng)
            checked += 1
            changed += sampled != state
            assert np.array_equal(encoder.encode(sampled, observer), encoder.encode(state, observer))
            assert rules.current_player(sampled) == mover
            if observer == mover:
                assert np.array_equal(rules.legal_mask(sampled), rules.legal_mask(state))
            conserved(game, rules, state, sampled, observer)
    assert checked > 50 and changed > 0


def _coverage(samples, key):
    return {key(s) for s in samples}


def test_maya2012_every_hidden_card_reaches_every_other_hand_and_the_spare():
    rules = Maya2012Rules({"num_players": 3})
    state = rules.initial_state(np.random.default_rng(3))
    rng = np.random.default_rng(0)
    samples = [m2012_det.determinize(rules, state, 0, rng) for _ in range(600)]
    hidden = m2012_det.hidden_cards(state, 0)
    assert len(hidden) == 6
    for place in ("seat1", "seat2", "spare"):
        seen = set()
        for s in samples:
            seen.update(s.tasks[1] if place == "seat1" else s.tasks[2] if place == "seat2" else s.spare)
        assert seen == set(hidden), place
    # not stuck on the true deal
    assert sum(s.tasks == state.tasks for s in samples) < 100


def test_maya2012_declare_phase_keeps_only_deals_where_the_decider_may_declare():
    """Only with the leaking option ``declare_step="eligible"``: there the turn order shows it."""
    rules = Maya2012Rules({"num_players": 3, "declare_step": "eligible"})
    rng = np.random.default_rng(5)
    found = 0
    for state in play_states(rules, seed=11, games=30):
        if state.phase != EXCHANGE and state.tasks and state.to_move != 0:
            found += 1
            for _ in range(20):
                sampled = m2012_det.determinize(rules, state, 0, rng)
                assert rules.legal_actions(sampled) == rules.legal_actions(state)
    if not found:
        pytest.skip("no declare decision of another seat in these games")


def test_quarry_every_hidden_value_reaches_every_face_down_slot_of_its_back():
    rules = MayaQuarryRules({"num_players": 3})
    rng = np.random.default_rng(0)
    target = None
    for state in play_states(rules, seed=4, games=3):
        if state.phase == WORKERS and quarry_det.hidden_slots(state, 1) and sum(state.hand(1)) >= 3:
            target = state
            break
    assert target is not None
    samples = [quarry_det.determinize(rules, target, 0, rng) for _ in range(800)]
    hidden = Counter(c for q, i in quarry_det.hidden_slots(target, 1) for c in [target.columns[q][i][1]])
    for t in range(NUM_CARD_TYPES):
        hidden[t] += target.hands[NUM_CARD_TYPES + t]
    for q, i in quarry_det.hidden_slots(target, 1):
        low = CARD_IS_LOW[target.columns[q][i][1]]
        possible = {t for t in hidden if hidden[t] and CARD_IS_LOW[t] == low}
        assert _coverage(samples, lambda s, q=q, i=i: s.columns[q][i][1]) == possible
    for t in hidden:
        counts = _coverage(samples, lambda s, t=t: s.hands[NUM_CARD_TYPES + t])
        assert len(counts) >= 1 and max(counts) <= CARD_COUNTS[t]


def test_quarry_sealed_bids_of_others_cover_their_whole_legal_range():
    rules = MayaQuarryRules({"num_players": 4, "variant": "advanced"})
    rng = np.random.default_rng(0)
    for state in play_states(rules, seed=2, games=2):
        others = [s for s in range(1, 4) if state.bids[s] >= 0]
        if state.phase == BID and others:
            seat = others[0]
            samples = [quarry_det.determinize(rules, state, 0, rng) for _ in range(400)]
            top = min(state.gold[seat], 30)
            assert _coverage(samples, lambda s, seat=seat: s.bids[seat]) == set(range(top + 1))
            return
    pytest.fail("no bidding state with another seat's sealed bid")


def test_yaxha_hidden_choices_and_cubes_cover_every_possibility():
    rules = YaxhaRules(num_players=3)
    rng = np.random.default_rng(0)
    select = build = None
    for state in play_states(rules, seed=5, games=1):
        if state.phase == SELECT and state.choices[0] >= 0 and state.choices[1] < 0 and select is None:
            select = state
        if state.phase == BUILD and state.round >= 3 and state.build_step == 2 and build is None:
            build = state  # seats 0 and 1 have placed one cube, seat 2 is to move
    samples = [yaxha_det.determinize(rules, select, 1, rng) for _ in range(200)]
    assert _coverage(samples, lambda s: s.choices[0]) == set(range(3))
    samples = [yaxha_det.determinize(rules, build, 2, rng) for _ in range(1500)]
    # seat 0's hidden first cube: every legal first step from its visible pyramid and tile
    visible = list(build.pyramids[0])
    for cell in build.fresh[0]:
        visible[cell] = -1
    start = dataclasses.replace(
        build,
        build_step=0,
        pyramids=(tuple(visible),) + build.pyramids[1:],
        hands=(build.market[build.owner.index(0)],) + build.hands[1:],
    )
    table = rules.table
    possible = set()
    for action in rules.legal_actions_for(start, 0):
        if action < table.discard_start:
            colour, cell = divmod(action - table.place_start, table.num_cells)
            possible.add((cell, colour))
        else:
            possible.add(("discard", action - table.discard_start))

    def first(s):
        if s.fresh[0]:
            return (s.fresh[0][0], s.pyramids[0][s.fresh[0][0]])
        return ("discard", next(c for c in range(5) if s.hands[0][c] < build.market[build.owner.index(0)][c]))

    assert _coverage(samples, first) == possible
