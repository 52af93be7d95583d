"""Yaxha per-action features (issue 16 item 1, :mod:`maya_envs.yaxha.features`): the heuristic
bot's choice is the argmax of the ``value_change`` column (tie rule stated in the module
docstring), the rows read only what the seat may see (determinize resampling), the real-score
columns agree with the full scorer, shapes, dtypes and ranges."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from maya_envs.bots import RandomBot
from maya_envs.core.errors import IllegalActionError
from maya_envs.games import find_game
from maya_envs.yaxha.actions import WAIT
from maya_envs.yaxha.bots import HeuristicBot
from maya_envs.yaxha.determinize import determinize
from maya_envs.yaxha.features import (
    MARGIN_SCALE,
    NAMES,
    POINT_SCALE,
    ActionFeatures,
    greedy_build,
    visible_pyramids,
)
from maya_envs.yaxha.rules import BUILD, PENDING, SELECT, YaxhaRules
from maya_envs.yaxha.scoring import score_pyramids

COL = {name: i for i, name in enumerate(NAMES)}
CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 3, "footprint": "fixed", "bonus_cards": [5, 14, 16]},
    {"num_players": 4, "bonus_cards": [10, 11, 15], "bonus_zero_ties_score": True},
    {"num_players": 2, "bonus_cards": [12, 13, 17]},
]


def positions(rules: YaxhaRules, seed: int, games: int = 1):
    """Every state of ``games`` seeded games, played by heuristic bots with 30% random moves
    (so positions are varied, with clashes, pending picks and discards)."""
    rng = np.random.default_rng(seed)
    for game in range(games):
        state = rules.initial_state(rng)
        heuristic, random = HeuristicBot(rules, seed + game), RandomBot(rules, seed + game)
        while not rules.is_terminal(state):
            yield state
            bot = random if rng.random() < 0.3 else heuristic
            state = rules.apply_action(state, bot.act(state), rng)


def heuristic_from_rows(rows: np.ndarray, actions: list[int], bot_seed: int) -> int:
    """The tie rule: the actions (in order) whose ``value_change`` equals the column's maximum;
    with more than one, the bot's generator picks ``ties[rng.integers(len(ties))]``."""
    values = rows[:, COL["value_change"]]
    ties = [a for a, v in zip(actions, values, strict=True) if v == values.max()]
    if len(ties) == 1:
        return ties[0]
    return ties[np.random.default_rng(bot_seed).integers(len(ties))]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_heuristic_choice_is_the_argmax_of_value_change(config):
    rules = YaxhaRules(**config)
    features = ActionFeatures(rules)
    checked, tied, phases = 0, 0, set()
    for i, state in enumerate(positions(rules, seed=11 + config["num_players"], games=3)):
        seat, legal = rules.current_player(state), rules.legal_actions(state)
        rows = features(state, seat, legal)
        bot_seed = 1000 + i
        assert HeuristicBot(rules, bot_seed).act(state) == heuristic_from_rows(rows, legal, bot_seed)
        values = rows[:, COL["value_change"]]
        tied += int((values == values.max()).sum() > 1)
        phases.add(state.phase)
        checked += 1
    assert checked > 200 and phases == ({SELECT, BUILD} if config["num_players"] == 2 else {SELECT, PENDING, BUILD})
    assert tied > 0  # the tie rule is exercised, not only unique maxima


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_features_do_not_change_when_the_hidden_information_is_resampled(num_players):
    rules = YaxhaRules(num_players=num_players)
    features = ActionFeatures(rules)
    rng = np.random.default_rng(num_players)
    resampled_differently = 0
    for state in positions(rules, seed=23 + num_players):
        for seat in rules.parallel_seats(state):
            legal = rules.legal_actions_for(state, seat)
            rows = features(state, seat, legal)
            for _ in range(3):
                other = determinize(rules, state, seat, rng)
                resampled_differently += other != state
                assert rules.legal_actions_for(other, seat) == legal
                np.testing.assert_array_equal(features(other, seat, legal), rows)
    assert resampled_differently > 50  # hidden choices and cubes were really resampled


@pytest.mark.parametrize("config", CONFIGS[:5], ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_score_columns_agree_with_the_full_scorer_on_the_visible_pyramids(config):
    rules = YaxhaRules(**config)
    features = ActionFeatures(rules)
    g, t = rules.geometry, rules.table

    def outcome(pyramids, seat, cards):
        scores = score_pyramids(g, pyramids, cards, rules.config.bonus_zero_ties_score)
        totals = [s["total"] for s in scores]
        margin = totals[seat] - max(v for s, v in enumerate(totals) if s != seat)
        won = [scores[seat]["bonus"][str(c)] > 0 for c in cards]
        return sum(scores[seat]["colour_points"].values()), margin, won

    for i, state in enumerate(positions(rules, seed=5)):
        if i % 3:
            continue
        seat, legal = rules.current_player(state), rules.legal_actions(state)
        rows = features(state, seat, legal)
        seen = visible_pyramids(state, seat)
        points_now, margin_now, won_now = outcome(seen, seat, state.bonus_cards)
        for action, row in zip(legal, rows, strict=True):
            if state.phase == BUILD and action >= t.discard_start:
                after = seen[seat]
            elif state.phase == BUILD:
                colour, cell = divmod(action - t.place_start, t.num_cells)
                after = seen[seat][:cell] + (colour,) + seen[seat][cell + 1 :]
            else:
                after = greedy_build(rules, seen[seat], state.market[action], state.bonus_cards)[0]
            points, margin, won = outcome(seen[:seat] + (after,) + seen[seat + 1 :], seat, state.bonus_cards)
            assert row[COL["colour_points_change"]] == np.float32((points - points_now) / POINT_SCALE)
            assert row[COL["margin_change"]] == np.float32((margin - margin_now) / POINT_SCALE)
            assert row[COL["margin_after"]] == np.float32(margin / MARGIN_SCALE)
            for k in range(3):
                assert row[COL[f"card{k}_won"]] == int(won[k]) - int(won_now[k])


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_shapes_dtypes_ranges_and_action_kinds(num_players):
    rules = YaxhaRules(num_players=num_players)
    features = ActionFeatures(rules)
    t = rules.table
    assert features.names == NAMES and len(set(NAMES)) == len(NAMES)
    for state in positions(rules, seed=3):
        seat, legal = rules.current_player(state), rules.legal_actions(state)
        rows = features(state, seat, legal)
        assert rows.dtype == np.float32 and rows.shape == (len(legal), len(NAMES))
        assert np.isfinite(rows).all()
        assert np.abs(rows).max() <= 2.0
        kinds = rows[:, [COL["is_pick"], COL["is_place"], COL["is_discard"], COL["is_wait"]]]
        assert set(np.unique(kinds)) <= {0.0, 1.0} and (kinds.sum(axis=1) == 1).all()
        for action, row in zip(legal, rows, strict=True):
            kind = "is_pick" if action < t.place_start else "is_place" if action < t.discard_start else "is_discard"
            assert row[COL[kind]] == 1
        for name in ("rivals_ahead", "rivals_behind", "group_size", "level", "discards"):
            assert (rows[:, COL[name]] >= 0).all() and (rows[:, COL[name]] <= 1).all()
        # a subset of the actions, in another order, gets the same rows
        order = legal[::-2]
        np.testing.assert_array_equal(features(state, seat, order), rows[[legal.index(a) for a in order]])


def test_initiative_and_rival_columns_on_a_hand_built_clash():
    rules = YaxhaRules(num_players=3, bonus_cards=[0, 1, 2])
    state = rules.initial_state(np.random.default_rng(0))
    # Every seat has an empty pyramid, so every seat values the tiles alike: the orange-rich tile
    # is everyone's best (card 0 rewards orange).
    market = ((3, 0, 0, 0, 0), (0, 1, 1, 1, 0), (0, 0, 1, 1, 1))
    state = dataclasses.replace(state, market=market, initiative=(2, 1, 3))
    rows = ActionFeatures(rules)(state, 0, [0, 1, 2])
    ahead, behind, gain = (rows[:, COL[n]] for n in ("rivals_ahead", "rivals_behind", "initiative_gain"))
    # seat 1 (initiative 1) beats me to tile 0, seat 2 (initiative 3) loses it to me
    assert ahead.tolist() == [0.5, 0, 0] and behind.tolist() == [0.5, 0, 0]
    # all three on tile 0: 1 <-> 3 swap, I (2) keep mine; alone on tile 1 or 2: the other two swap
    assert gain.tolist() == [0, 0, 0]
    assert rows[0, COL["rival_value_change"]] == rows[:, COL["rival_value_change"]].max()
    state = dataclasses.replace(state, initiative=(3, 1, 2))
    rows = ActionFeatures(rules)(state, 0, [0, 1, 2])
    # my initiative 3 swaps with seat 1's 1 when all three clash on tile 0: I gain 2 / 2
    assert rows[:, COL["initiative_gain"]].tolist() == [1.0, 0, 0]
    assert rows[:, COL["rivals_ahead"]].tolist() == [1.0, 0, 0]


def test_waiting_seat_gets_the_wait_row_and_bad_input_is_refused():
    rules = YaxhaRules(num_players=3)
    features = ActionFeatures(rules)
    state = rules.initial_state(np.random.default_rng(1))
    state = rules.apply_action(state, 0, np.random.default_rng(1))
    state = rules.apply_action(state, 0, np.random.default_rng(1))
    state = rules.apply_action(state, 0, np.random.default_rng(1))  # a three-way clash on tile 0
    assert state.phase == PENDING
    idle = next(s for s in range(3) if s not in state.pending)
    wait = features(state, idle, [WAIT])
    assert wait.tolist() == [[float(name == "is_wait") for name in NAMES]]
    with pytest.raises(IllegalActionError, match="legal ids"):
        features(state, idle, [1])
    with pytest.raises(IllegalActionError, match=r"action 0 .*legal ids: \[1, 2\]"):
        features(state, state.pending[0], [0])  # tile 0 is taken
    with pytest.raises(ValueError, match="seat 3 is out of range"):
        features(state, 3, [1])


def test_game_table_features_hook():
    game = find_game("yaxha")
    rules = game.make_rules({"num_players": 2})
    hook = game.hook("features")(rules)
    state = rules.initial_state(np.random.default_rng(0))
    assert hook(state, 0, rules.legal_actions(state)).shape == (2, len(hook.names))
