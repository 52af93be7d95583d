"""Maya (2012) per-action features (issue 16 item 1, :mod:`maya_envs.maya2012.features`):
shapes, dtypes and ranges; computed only from the acting seat's information (resampling the
hidden hands with the game's ``determinize`` hook changes nothing); and the heuristic bot's
choice is a fixed function of the feature rows, over many random positions of 2, 3 and 4
players (its scores recovered exactly; 3-4p with the exact win chance, and agreement of the
default sampled bot wherever its sample and the exact chance are on the same side of 0.5)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from maya_envs.games import GAMES
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012 import bots as maya_bots
from maya_envs.maya2012.bots import HeuristicBot
from maya_envs.maya2012.determinize import determinize
from maya_envs.maya2012.features import ALL_DEALS, ActionFeatures
from maya_envs.maya2012.rules import DECLARE, Maya2012Rules

CONFIGS = {
    2: [{"setup": "choose"}, {"setup": "random", "max_turns": 60}, {"setup": "draft", "max_turns": 40}],
    3: [{}, {"setup": "draft", "declare_step": "always"}],
    4: [{}, {"setup": "draft"}],
}


def positions(n: int, games: int, seed: int) -> Iterator[tuple[Maya2012Rules, object]]:
    """States where a seat must act, from games of ``n`` players mixing heuristic moves (70%)
    and random ones, over :data:`CONFIGS`."""
    rng = np.random.default_rng(seed)
    for game in range(games):
        options = CONFIGS[n][game % len(CONFIGS[n])]
        rules = Maya2012Rules(num_players=n, **options)
        bot = HeuristicBot(rules, seed + game)
        state = rules.initial_state(rng)
        while rules.current_player(state) >= 0:
            yield rules, state
            legal = rules.legal_actions(state)
            action = bot.act(state) if rng.random() < 0.7 else legal[rng.integers(len(legal))]
            state = rules.apply_action(state, action, rng)


class ScoreRecorder(HeuristicBot):
    """The heuristic bot, keeping the per-action scores it picks the best of."""

    def _pick_best(self, legal, scores):
        self.scores = dict(zip(legal, scores, strict=True))
        return super()._pick_best(legal, scores)


def heuristic_scores(rules: Maya2012Rules, names: tuple[str, ...], rows: np.ndarray) -> np.ndarray:
    """The fixed function of the feature rows that the heuristic bot maximises (the features
    module docstring), undoing each feature's documented scale."""
    f = {name: rows[:, i].astype(np.float64) for i, name in enumerate(names)}
    config = rules.config
    if config.num_players == 2:
        priests = min(config.priests_per_player, 9)
        ladders = min(config.ladders_per_player, sum(config.ladder_spaces))
        vp, pr = np.rint(f["vp_diff"] * (9 + priests)), np.rint(f["priest_diff"] * priests)
        lad, reply = np.rint(f["ladder_diff"] * ladders), np.rint(f["reply_joins"] * 2)
        running = 10 * vp + 3 * pr + lad - 2 * reply
        finished = 1000 * (f["win"] - f["loss"])
        value = np.where(f["ends_game"] > 0, finished, running)
        return np.where(f["is_monolith"] > 0, -np.rint(f["setup_white_joins"] * 2), value)
    margin = np.rint(f["margin"] * 60) / 3
    declares = (f["can_declare"] > 0) & (f["win_chance"] >= 0.5)
    exchange = np.where(declares, 1000 * f["win_chance"], margin)
    declare = np.where(f["win_chance"] >= 0.5, 1.0, -1.0)
    return f["is_exchange"] * exchange + f["is_declare"] * declare


def best(legal: list[int], scores: np.ndarray) -> set[int]:
    top = scores.max()
    return {a for a, s in zip(legal, scores, strict=True) if s >= top - 1e-6}


def test_the_game_table_names_the_features():
    assert GAMES["maya2012"].hook("features") is ActionFeatures


def test_all_deals_are_the_90_distinct_equally_likely_splits():
    assert ALL_DEALS.shape == (90, 6)
    assert len({tuple(row) for row in ALL_DEALS}) == 90
    assert all(sorted(row) == list(range(6)) for row in ALL_DEALS.tolist())


@pytest.mark.parametrize("n", [2, 3, 4])
def test_shapes_dtypes_ranges_and_kind_flags(n):
    seen_kinds = set()
    for index, (rules, state) in enumerate(positions(n, 12, seed=10 * n)):
        if index % 3 and state.phase != DECLARE:
            continue
        features = ActionFeatures(rules)
        legal = rules.legal_actions(state)
        rows = features(state, rules.current_player(state), legal)
        assert rows.dtype == np.float32 and rows.shape == (len(legal), len(features.names))
        assert np.isfinite(rows).all() and (np.abs(rows) <= 1.0).all()
        kinds = rows[:, [i for i, name in enumerate(features.names) if name.startswith("is_")]]
        assert (kinds.sum(axis=1) == 1).all()  # each row is exactly one kind of action
        for action, row in zip(legal, rows, strict=True):
            kind = A.decode(action).kind
            assert row[features.names.index(f"is_{kind}")] == 1.0
            seen_kinds.add(kind)
    assert seen_kinds >= {"exchange", "draft"} | ({"monolith", "raven"} if n == 2 else {"declare", "continue"})
    empty = ActionFeatures(rules)(state, rules.current_player(state), [])
    assert empty.shape == (0, len(features.names)) and empty.dtype == np.float32


def test_bad_seat_or_illegal_action_fails_clearly():
    rules = Maya2012Rules(num_players=3)
    state = rules.initial_state(np.random.default_rng(0))
    features = ActionFeatures(rules)
    with pytest.raises(ValueError, match="seat 3 out of range 0..2"):
        features(state, 3, rules.legal_actions(state))
    with pytest.raises(ValueError, match=r"action ids \[64\] are not legal now"):
        features(state, 0, [64])


@pytest.mark.parametrize("n", [3, 4])
def test_resampled_hidden_cards_do_not_change_the_features(n):
    """The other hands and the spare pair, redealt by the ``determinize`` hook for the acting
    seat, leave every feature row unchanged (and the redeal does change hands)."""
    rng = np.random.default_rng(n)
    changed = checked = 0
    for index, (rules, state) in enumerate(positions(n, 12, seed=100 + n)):
        if index % 7 and state.phase != DECLARE:
            continue
        seat = rules.current_player(state)
        features = ActionFeatures(rules)
        legal = rules.legal_actions(state)
        rows = features(state, seat, legal)
        for _ in range(3):
            other = determinize(rules, state, seat, rng)
            changed += other.tasks != state.tasks
            assert rules.legal_actions(other) == legal
            np.testing.assert_array_equal(features(other, seat, legal), rows)
        checked += 1
    assert checked > 50 and changed > checked


def test_two_player_features_need_no_resampling():
    rules = Maya2012Rules()
    state = next(s for r, s in positions(2, 1, seed=5))
    assert determinize(rules, state, rules.current_player(state), np.random.default_rng(0)) is state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_heuristic_is_a_fixed_function_of_the_features(n):
    """Over many positions, the heuristic's per-action scores (3-4p: with the exact win
    chance, ``samples=None``) equal the fixed function :func:`heuristic_scores` of the feature
    rows, and its action is one of that function's maxima (its declare decisions too)."""
    compared = declares = 0
    for index, (rules, state) in enumerate(positions(n, 24 if n == 2 else 40, seed=1000 + n)):
        legal = rules.legal_actions(state)
        if len(legal) == 1 or (index % 4 and state.phase != DECLARE):
            continue
        seat = rules.current_player(state)
        features = ActionFeatures(rules)
        scores = heuristic_scores(rules, features.names, features(state, seat, legal))
        bot = ScoreRecorder(rules, index, samples=None)
        action = bot.act(state)
        assert action in best(legal, scores)
        if state.phase == DECLARE:
            declares += 1
        elif A.decode(legal[0]).kind != "draft":
            np.testing.assert_allclose([bot.scores[a] for a in legal], scores, rtol=1e-6, atol=1e-3)
        compared += 1
    assert compared > 200
    assert n == 2 or declares >= 10


@pytest.mark.parametrize("n", [3, 4])
def test_the_sampled_heuristic_agrees_where_its_sample_is_on_the_exact_side(n, monkeypatch):
    """The default bot estimates the win chance from 32 sampled deals. Wherever every sampled
    chance it computes is on the same side of 0.5 as the exact ``win_chance`` feature, it makes
    the same kind of choice: the same margins and choice when it would declare after no
    exchange, a declaring exchange when it would, and the same declare decision."""
    sampled: list[float] = []

    def recording(*args, **kwargs):
        sampled.append(maya_bots_win_probability(*args, **kwargs))
        return sampled[-1]

    maya_bots_win_probability = maya_bots.win_probability
    monkeypatch.setattr(maya_bots, "win_probability", recording)
    agreed = with_chance = 0
    for index, (rules, state) in enumerate(positions(n, 40, seed=2000 + n)):
        legal = rules.legal_actions(state)
        if len(legal) == 1 or A.decode(legal[0]).kind == "draft":
            continue
        seat = rules.current_player(state)
        features = ActionFeatures(rules)
        rows = features(state, seat, legal)
        scores = heuristic_scores(rules, features.names, rows)
        exact = rows[:, features.names.index("win_chance")][rows[:, features.names.index("can_declare")] > 0]
        sampled.clear()
        bot = ScoreRecorder(rules, index)
        action = bot.act(state)
        assert len(sampled) == len(exact)
        if not sampled:
            assert action in best(legal, scores)  # no chance involved: margins only
            continue
        with_chance += 1
        if any((s >= 0.5) != (e >= 0.5) for s, e in zip(sampled, exact, strict=True)):
            continue
        agreed += 1
        if state.phase == DECLARE:
            assert action == (A.DECLARE_END if exact[0] >= 0.5 else A.CONTINUE)
        elif max(scores) >= 500:
            assert scores[legal.index(action)] >= 500  # a declaring exchange
        else:
            np.testing.assert_allclose([bot.scores[a] for a in legal], scores, atol=1e-9)
            assert action in best(legal, scores)
    assert with_chance >= 10 and agreed >= 0.7 * with_chance


def test_one_pass_reply_terms_match_the_rule_read_per_exchange():
    """:func:`best_reply` (one pass, shared seam table) equals the definition: the most joins
    of any legal exchange (:func:`joins_formed`) and the largest VP swing of a joining one
    (:func:`exchange_consequences`), the values the exchange phase of the other seat faces."""
    from maya_envs.maya2012.features import best_reply
    from maya_envs.maya2012.observation import exchange_consequences
    from maya_envs.maya2012.rules import EXCHANGE, joins_formed, legal_exchanges

    checked = 0
    for rules, state in positions(2, 12, seed=5):
        if state.phase != EXCHANGE:
            continue
        moves = legal_exchanges(state.towers, state.monolith, state.raven)
        joins = [joins_formed(state.towers, move) for move in moves]
        swing = max(
            (
                exchange_consequences(state, move, state.to_move, rules.config.ladder_spaces)[2]
                for move, formed in zip(moves, joins, strict=True)
                if formed
            ),
            default=0,
        )
        assert best_reply(state, rules.config.ladder_spaces) == (max(joins, default=0), swing)
        checked += 1
    assert checked > 200


def test_reply_table_gives_best_reply_after_every_action():
    """:class:`ReplyTable` (each reply's value read once on the board before the action) equals
    :func:`best_reply` of the state each action leads to, in every 2p phase with a reply to come
    (the Raven placement included), over every ladder-space config of :data:`CONFIGS`."""
    from maya_envs.maya2012.features import ReplyTable, best_reply
    from maya_envs.maya2012.rules import EXCHANGE

    checked = set()
    for rules, state in positions(2, 12, seed=9):
        seat, spaces = rules.current_player(state), rules.config.ladder_spaces
        table = ReplyTable(state, 1 - seat, spaces)
        for action in rules.legal_actions(state):
            after = rules.apply_action(state, action, np.random.default_rng(0))
            if after.phase == EXCHANGE and after.to_move != seat:
                assert table.best(after, action) == best_reply(after, spaces)
                checked.add(state.phase)
    assert len(checked) >= 2  # exchanges and the Raven placement


def test_victory_points_after_an_action_are_counted_on_its_towers_only():
    """The features' VP difference (now, with the action's two towers recounted) equals the
    rules' count on the whole board after each action."""
    from maya_envs.maya2012.rules import victory_points

    features_seen = 0
    for rules, state in positions(2, 8, seed=11):
        seat = rules.current_player(state)
        legal = rules.legal_actions(state)
        rows = ActionFeatures(rules)(state, seat, legal)
        column = ActionFeatures(rules).names.index("vp_diff")
        scale = ActionFeatures(rules)._scales_2p[0]
        for row, action in zip(rows, legal, strict=True):
            if action >= A.DRAFT_BASE:
                continue
            vp = victory_points(rules.apply_action(state, action, np.random.default_rng(0)))
            assert row[column] == np.float32((vp[seat] - vp[1 - seat]) / scale)
            features_seen += 1
    assert features_seen > 500
