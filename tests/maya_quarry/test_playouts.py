"""Random and heuristic playouts: mask oracle in both directions, invariants, copy independence,
and hypothesis-driven random games."""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maya_envs.bots import make_bot
from maya_envs.core.errors import IllegalActionError
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.rules.state import OVER, SETUP, WORKERS

from ..conformance import assert_mask_matches_rules, play_states
from .helpers import make_rules
from .oracle import oracle_legal

#: Games per player count, bot kind and variant: (kind, games, mark). CI (`slow`) plays 150 random
#: and 40 heuristic games (the heuristic bot's games cost about 7 times a random game's: 300 of
#: them were 290 of this sweep's 375 s of one core); the `extended` run plays 300 of each, the
#: same seeds first. MAYA_QUARRY_GAMES overrides every size (e.g. lower it locally).
SWEEP = [("random", 150, pytest.mark.slow), ("heuristic", 40, pytest.mark.slow),
         ("random", 300, pytest.mark.extended), ("heuristic", 300, pytest.mark.extended)]  # fmt: skip
GAMES = int(os.environ.get("MAYA_QUARRY_GAMES", "0"))


def check_invariants(rules, s) -> None:
    comp, n = rules.components, s.num_players
    for seat in range(n):
        on_board = sum(s.board[seat::n])
        assert s.pool[seat] + s.held[seat] + on_board == comp.blocks_per_color, "blocks not conserved"
        assert s.gold[seat] >= 0 and s.pool[seat] >= 0 and s.held[seat] >= 0
        placed = [0] * 7
        for col in s.columns:
            for owner, card in col:
                if owner == seat:
                    placed[card] += 1
        assert [h + p for h, p in zip(s.hand(seat), placed, strict=True)] == list(A.CARD_COUNTS)
    for p, pyr in enumerate(comp.pyramids):
        for lv, (spaces, _f, _s) in enumerate(pyr.levels):
            assert sum(s.level_counts(p, lv)) <= spaces
            if lv:
                for seat in range(n):  # own-support rule keeps holding (erosion cascade)
                    assert s.count(p, lv, seat) == 0 or s.count(p, lv - 1, seat) > 0
        if s.phase == WORKERS and s.round == 0:  # after setup: never two of a colour
            assert all(c <= 1 for c in s.level_counts(p, 0))
    for q, quarry in enumerate(comp.quarries):
        assert len(s.columns[q]) <= quarry.max_cards
        if s.columns[q]:
            assert A.CARD_IS_LOW[s.columns[q][0][1]]
    if s.phase not in (SETUP, OVER) and s.phase >= WORKERS and s.resolving == len(comp.quarries):
        assert s.held == [0] * n
    if s.phase != OVER:
        assert 0 <= rules.current_player(s) < n
        legal = rules.legal_actions(s)
        assert len(legal) >= 2  # skip_forced: one-choice decisions are never shown
        assert legal == sorted(legal)


def _run(n, kind, games, seed0, variant="basic"):
    rules = make_rules(n, variant=variant)
    lengths = []
    for g in range(games):
        seed = seed0 + g
        bots = [make_bot(kind, rules, seed=seed * 10 + seat) for seat in range(n)]
        steps = 0
        for s in play_states(rules, bots, np.random.default_rng(seed)):
            check_invariants(rules, s)
            legal = set(rules.legal_actions(s))
            assert legal == oracle_legal(rules, s), f"mask differs from the oracle in {s}"
            assert set(np.flatnonzero(rules.legal_mask(s)).tolist()) == legal
            steps += 1
        assert rules.is_terminal(s)
        assert abs(rules.returns(s).sum()) < 1e-9
        lengths.append(steps - 1)
    return lengths


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize(("kind", "games"), [pytest.param(k, g, marks=m, id=f"{k}-{g}") for k, g, m in SWEEP])
@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_mask_oracle_and_invariants(n, kind, games, variant):
    lengths = _run(n, kind, GAMES or games, seed0=10_000 * n, variant=variant)
    assert max(lengths) <= make_rules(n, variant=variant).spec.max_game_length


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_mask_oracle_quick(n, variant):
    _run(n, "random", 10, seed0=7, variant=variant)
    _run(n, "heuristic", 5, seed0=7, variant=variant)


@pytest.mark.parametrize("n", [3, 5])
@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_apply_accepts_exactly_the_mask(n, variant):
    """Every id is tried on sampled states: accepted iff masked (conformance helper)."""
    rules = make_rules(n, variant=variant)
    bots = [make_bot("random", rules, seed=seat) for seat in range(n)]
    for index, s in enumerate(play_states(rules, bots, np.random.default_rng(n))):
        if index % 7 == 0:
            assert_mask_matches_rules(rules, s)


@pytest.mark.parametrize(
    "options",
    [
        {"skip_forced": False},
        {"minus3_no_target": False},
        {"global_level_rule": "ever_filled"},
        {"bonus_block_recipient": "majority"},
        {"relocate_unsupported": "cascade"},
        {"pool_shortfall": "nothing"},
        {"bonus_on_special_placements": False},
        {"missing_levels_full": False},
    ],
)
def test_every_option_plays_to_the_end(options):
    for n in (3, 5):
        rules = make_rules(n, **options)
        bots = [make_bot("random", rules, seed=seat) for seat in range(n)]
        for g in range(5):
            for s in play_states(rules, bots, np.random.default_rng(g)):
                for seat in range(n):
                    assert s.pool[seat] + s.held[seat] + sum(s.board[seat::n]) == 28
            assert rules.is_terminal(s)


def test_relocate_and_free_block_decisions_are_reached():
    """The 5-player table has RELOCATE_TO_LEVEL1 and FREE_BLOCK_FROM_POOL: random play reaches
    both decisions, and each is applied as the mask says."""
    rules = make_rules(5)
    seen = set()
    bots = [make_bot("random", rules, seed=seat) for seat in range(5)]
    for g in range(40):
        for s in play_states(rules, bots, np.random.default_rng(g)):
            seen.add(s.phase)
    assert {4, 5, 6, 7, 3, 2} <= seen  # relocate src/dst, free block, appoint, protect, minus3


def test_apply_action_never_mutates_and_copies_are_independent():
    rules = make_rules(4)
    rng = np.random.default_rng(0)
    s = rules.initial_state(rng)
    while not rules.is_terminal(s):
        snapshot = rules.state_to_dict(s)
        legal = rules.legal_actions(s)
        nxt = rules.apply_action(s, legal[rng.integers(len(legal))], rng)
        assert rules.state_to_dict(s) == snapshot
        clone = nxt.clone()
        clone.board[0] += 1
        clone.columns[0].append((0, 0))
        clone.gold[0] += 5
        assert nxt != clone and nxt.board[0] == clone.board[0] - 1
        s = nxt
    with pytest.raises(IllegalActionError, match="legal ids: \\[\\]"):
        rules.apply_action(s, 0)


@settings(max_examples=40, deadline=None)
@given(n=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32 - 1), start=st.sampled_from([0, 1, 2]))
def test_hypothesis_random_games(n, seed, start):
    rules = make_rules(n, first_start_player=start)
    rng = np.random.default_rng(seed)
    s = rules.initial_state(rng)
    steps = 0
    while not rules.is_terminal(s):
        legal = rules.legal_actions(s)
        assert legal
        s = rules.apply_action(s, legal[rng.integers(len(legal))], rng)
        steps += 1
        assert steps <= rules.spec.max_game_length
    check_invariants(rules, s)
    assert s.round == 2 and s.actor == -1


def test_clone_copies_every_list_field():
    """``clone`` (built without ``__init__`` for speed) copies every list field of the state,
    and each quarry's column, so a field added later cannot end up shared by two states."""
    rules = make_rules(5, variant="advanced")
    rng = np.random.default_rng(3)
    s = rules.initial_state(rng)
    for _ in range(30):
        legal = rules.legal_actions(s)
        s = rules.apply_action(s, legal[rng.integers(len(legal))], rng)
    clone = s.clone()
    assert clone == s and clone._cache == {}
    lists = [f.name for f in dataclasses.fields(s) if isinstance(getattr(s, f.name), list)]
    assert "columns" in lists and len(lists) == 15
    for name in lists:
        assert getattr(clone, name) is not getattr(s, name), name
    assert all(a is not b for a, b in zip(clone.columns, s.columns, strict=True))
