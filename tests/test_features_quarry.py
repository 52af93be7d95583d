"""Per-action features of Maya (Abacusspiele 2003) (issue 16 item 1): shapes, dtypes and ranges;
computed only from what the deciding seat may see (resampling with the game's ``determinize``
hook); and the heuristic bot's choice is a fixed function of the rows.

Agreement rule (the heuristic breaks ties at random): at every position, the set of actions the
heuristic draws its tie-break from (``_best``'s tied set, or its single deterministic choice) is
exactly the set of rows whose :func:`heuristic_score` lies within :data:`TOLERANCE` of the
row maximum. Genuine differences of the heuristic's values are at least 0.001 (its smallest
tie-break weight), far above the float32 rounding of the features (about 1e-5 at most).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from maya_envs.games import find_game
from maya_envs.maya_quarry import actions as A
from maya_envs.maya_quarry.bots import BID_GOLD, BLUE_PREFERENCE, MIN_GAIN, HeuristicBot
from maya_envs.maya_quarry.features import ActionFeatures
from maya_envs.maya_quarry.rules import MayaQuarryRules
from maya_envs.maya_quarry.rules.config import BLUE_MARKERS
from maya_envs.maya_quarry.rules.state import (
    APPOINT,
    BID,
    BLUE_CHOICE,
    BUILD,
    FREE_BLOCK_CHOICE,
    JOKER_CHOICE,
    MINUS3,
    PLUS2_CHOICE,
    PROTECT_CHOICE,
    RELOCATE_SRC,
    SETUP,
    WORKERS,
)

CONFIGS = [(n, variant) for variant in ("basic", "advanced") for n in (3, 4, 5)]
GAMES_PER_CONFIG = 3
TOLERANCE = 1e-4
#: Building rows the heuristic never takes while another building option exists.
NEVER_CHOSEN = ("double_pay", "pass_pay", "pass_free", "free_block_decline")


@functools.cache
def positions(n: int, variant: str) -> tuple:
    """States with at least two legal actions from games where each move is the heuristic's
    (seat-seeded) or, one time in three, a uniformly random legal action (so that declines,
    paid double moves and relocations occur too)."""
    rules = MayaQuarryRules(num_players=n, variant=variant)
    out = []
    for game in range(GAMES_PER_CONFIG):
        rng = np.random.default_rng(1000 * n + game)
        bots = [HeuristicBot(rules, seed=100 * game + seat) for seat in range(n)]
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            legal = rules.legal_actions(state)
            if len(legal) > 1:
                out.append(state)
            seat = rules.current_player(state)
            action = int(rng.choice(legal)) if rng.random() < 1 / 3 else bots[seat].act(state)
            state = rules.apply_action(state, action, rng)
    return rules, tuple(out)


class TieRecorder(HeuristicBot):
    """The heuristic bot, remembering the set it breaks a tie in (``None`` when it did not)."""

    ties: list[int] | None = None

    def act(self, state):
        self.ties = None
        return super().act(state)

    def _pick(self, actions):
        self.ties = list(actions)
        return super()._pick(actions)


def heuristic_ties(bot: TieRecorder, state) -> set[int]:
    action = bot.act(state)
    return set(bot.ties) if bot.ties is not None else {action}


def heuristic_score(features: ActionFeatures, row: np.ndarray) -> float:
    """The fixed function of one feature row whose argmax is the heuristic's choice."""
    f = {name: float(row[i]) * features.scales[name] for i, name in enumerate(features.names)}
    kind = next(k for k in A.KINDS if f[f"kind_{k}"] == 1.0)
    build_value = f["build_standing"] + 0.5 * f["build_blocks"]
    if kind == "worker":
        return f["exp_blocks"] - 0.01 * f["card_points"]
    if kind == "worker_pass":
        return f["exp_blocks"] + MIN_GAIN
    if kind == "plus2":
        return f["exp_blocks"]
    if kind == "plus2_decline":
        return f["exp_blocks"] - 0.01
    if kind == "minus3":
        return f["minus3_blocks"] + 0.001 * f["minus3_target_points"]
    if kind == "minus3_none":
        return f["minus3_blocks"] - 0.01
    if kind == "protect":
        return f["protect_points"]
    if kind == "appoint":
        return -f["seat_offset"]  # itself
    if kind in ("relocate_src", "relocate_decline"):
        return float(kind == "relocate_decline")
    if kind == "relocate_dst":
        return -f["pyramid"]  # the first legal target
    if kind == "bid":
        return -abs(f["bid"] - min(f["bid"] + f["bid_gold_left"], BID_GOLD))
    if kind == "blue_choose":
        marker = next(m for m, name in enumerate(BLUE_MARKERS) if f["blue_" + name[5:].lower()] == 1.0)
        return float(len(BLUE_PREFERENCE) - BLUE_PREFERENCE.index(marker))
    if kind == "joker":
        return 2.0 * f["joker_free_block_from_pool"] + f["joker_free_double_move"]
    if kind == "joker_decline":
        return 0.0
    if kind == "double_free":
        return 1e6
    if kind in NEVER_CHOSEN:
        return 0.0
    return 1e3 + build_value  # place, free block, forced pass


@pytest.mark.parametrize(("n", "variant"), CONFIGS)
def test_heuristic_choice_is_recoverable_from_the_features(n, variant):
    rules, states = positions(n, variant)
    features = ActionFeatures(rules)
    bot = TieRecorder(rules, seed=0)
    phases = set()
    for state in states:
        seat = rules.current_player(state)
        legal = rules.legal_actions(state)
        rows = features(state, seat, legal)
        scores = np.array([heuristic_score(features, row) for row in rows])
        recovered = {a for a, v in zip(legal, scores, strict=True) if v >= scores.max() - TOLERANCE}
        assert recovered == heuristic_ties(bot, state), (rules.action_to_string(legal[0]), state.phase)
        phases.add(state.phase)
    expected = {SETUP, WORKERS, MINUS3, PROTECT_CHOICE, APPOINT, BUILD}
    if n >= 4:
        expected.add(FREE_BLOCK_CHOICE)
    if n == 5:
        expected.add(RELOCATE_SRC)
    if variant == "advanced":
        expected |= {BID, BLUE_CHOICE, PLUS2_CHOICE, JOKER_CHOICE}
    assert expected <= phases, sorted(expected - phases)


@pytest.mark.parametrize(("n", "variant"), CONFIGS)
def test_features_see_only_what_the_seat_may_see(n, variant):
    """Resampling the other seats' hidden cards (and sealed bids) with the game's determinize
    hook leaves every feature row unchanged."""
    rules, states = positions(n, variant)
    determinize = find_game("maya_quarry").hook("determinize")
    features = ActionFeatures(rules)
    rng = np.random.default_rng(n)
    changed_hidden = 0
    for state in states[::3]:
        seat = rules.current_player(state)
        legal = rules.legal_actions(state)
        rows = features(state, seat, legal)
        for _ in range(2):
            other = determinize(rules, state, seat, rng)
            changed_hidden += other != state
            assert rules.legal_actions(other) == legal
            np.testing.assert_array_equal(features(other, seat, legal), rows)
    assert changed_hidden > 20  # the resampling really moved hidden cards


@pytest.mark.parametrize(("n", "variant"), CONFIGS)
def test_shapes_dtypes_and_ranges(n, variant):
    rules, states = positions(n, variant)
    features = ActionFeatures(rules)
    width = len(features.names)
    assert len(set(features.names)) == width == len(features.scales)
    kinds = [features.names.index(f"kind_{k}") for k in A.KINDS]
    seen = np.zeros(width, bool)
    for state in states[::2]:
        legal = rules.legal_actions(state)
        rows = features(state, rules.current_player(state), legal)
        assert rows.dtype == np.float32 and rows.shape == (len(legal), width)
        assert np.isfinite(rows).all() and np.abs(rows).max() <= 1.0
        np.testing.assert_array_equal(rows[:, kinds].sum(axis=1), 1.0)
        seen |= (rows != 0).any(axis=0)
    assert features(states[0], 0, []).shape == (0, width)
    unused = {name for name, s in zip(features.names, seen, strict=True) if not s}
    # Every column but the kinds these games did not reach (and the advanced variant's in the
    # basic game) holds a nonzero value somewhere.
    allowed = ("kind_",) if variant == "advanced" else ("kind_", "bid", "blue_", "joker_")
    assert all(name.startswith(allowed) for name in unused), unused


def test_bad_seat_or_action_fails_with_the_allowed_range():
    rules = MayaQuarryRules(num_players=3)
    features = ActionFeatures(rules)
    state = rules.initial_state()
    with pytest.raises(ValueError, match=r"seat 3 .*0\.\.2"):
        features(state, 3, [A.place_id(0, 0)])
    with pytest.raises(ValueError, match=r"action 114 .*0\.\.113"):
        features(state, 0, [114])


def test_game_table_features_hook():
    assert find_game("quarry").hook("features") is ActionFeatures
