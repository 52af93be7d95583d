"""Helpers for the Maya (Abacusspiele 2003) tests: rules, custom tables, positions, playouts."""

from __future__ import annotations

import copy
import json

import numpy as np

from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules import MayaQuarryRules
from maya_envs.maya_quarry.rules.config import DEFAULT_COMPONENTS_PATH
from maya_envs.maya_quarry.rules.state import BUILD, MayaQuarryState, Phase

CARD = {value: index for index, value in enumerate(A.CARD_VALUES)}


def default_table() -> dict:
    """A fresh copy of the shipped component table."""
    return json.loads(DEFAULT_COMPONENTS_PATH.read_text())


def table_with(changes) -> dict:
    """The shipped table after ``changes(table)`` mutates a deep copy."""
    table = copy.deepcopy(default_table())
    changes(table)
    return table


def make_rules(n: int = 3, **options) -> MayaQuarryRules:
    return MayaQuarryRules({"num_players": n, **options})


def play(rules: MayaQuarryRules, state: MayaQuarryState, moves) -> MayaQuarryState:
    """Apply ``moves`` (ids) one by one, each by the current player."""
    for move in moves:
        state = rules.apply_action(state, move)
    return state


def worker(q: int, value: int) -> int:
    return A.worker_id(q, CARD[value])


def build_position(rules: MayaQuarryRules, levels: dict, held: list[int], turn: int) -> MayaQuarryState:
    """A building-phase state: ``levels[(p, l)] = per-seat counts``; pools conserve blocks."""
    s = rules.initial_state(np.random.default_rng(0)).clone()
    n = rules.num_players
    s.board = [0] * len(s.board)
    for (p, level), counts in levels.items():
        for seat, count in enumerate(counts):
            s.board[(p * A.MAX_LEVELS + level) * n + seat] = count
    s.held = list(held)
    blocks = rules.components.blocks_per_color
    s.pool = [blocks - held[seat] - sum(s.board[seat::n]) for seat in range(n)]
    s.phase, s.turn, s.actor, s.round = BUILD, turn, turn, 0
    s.hands = [0] * len(s.hands)
    s.resolving = -1
    s._cache = {}
    return s


def random_playout(rules: MayaQuarryRules, seed: int, on_state=None) -> MayaQuarryState:
    """Play one game with uniform random legal actions; ``on_state(state)`` sees every state."""
    rng = np.random.default_rng(seed)
    state = rules.initial_state(rng)
    while not rules.is_terminal(state):
        if on_state is not None:
            on_state(state)
        legal = rules.legal_actions(state)
        state = rules.apply_action(state, legal[rng.integers(len(legal))], rng)
    if on_state is not None:
        on_state(state)
    return state


def at_auction(n: int = 3, seed: int = 0, **options):
    """Rules and the state of round 1's auction (setup played: seat s on pyramids s, s+1)."""
    rules = make_rules(n, variant="advanced", **options)
    rng = np.random.default_rng(seed)
    s = rules.initial_state(rng)
    while s.phase != Phase.BID:
        s = rules.apply_action(s, rules.legal_actions(s)[0], rng)
    return rules, s, rng


def reveal_position(rules, s, columns, blue, hands=None):
    """From the auction state: the auction is over (``blue`` = {marker: seat}), ``columns``
    (``{quarry: [(seat, card value), ...]}``) placed, every seat but seat 0 passed; seat 0 to
    act. ``hands`` optionally replaces a seat's hand (``{seat: [card values]}``)."""
    s = s.clone()
    n = s.num_players
    s.phase, s.turn, s.actor = Phase.WORKERS, 0, 0
    s.bids = [0] * n
    for marker, seat in blue.items():
        s.blue_holder[marker] = seat
    s.hands = list(A.CARD_COUNTS) * n
    for q, cells in columns.items():
        s.columns[q] = [(seat, CARD[value]) for seat, value in cells]
        for seat, value in cells:
            s.hands[seat * 7 + CARD[value]] -= 1
    for seat, values in (hands or {}).items():
        s.hands[seat * 7 : seat * 7 + 7] = [values.count(v) for v in A.CARD_VALUES]
    s.passed = [seat != 0 for seat in range(n)]
    s._cache = {}
    return s
