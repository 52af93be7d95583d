"""maya-stats on Maya (2012): a two-seat lineup, the deals its determinizer draws, turns. Moved
from tests/test_stats.py (issue 31 item 2: a test about one game lives in its folder)."""

from __future__ import annotations

import numpy as np

from maya_envs.games import GAMES
from maya_envs.stats.collect import StatsConfig, probe_hidden
from maya_envs.stats.figures import world_estimate
from maya_envs.stats.report import run
from tests.helpers.stats import one_random_game


def test_real_two_seat_random_lineup_counts_every_game_once():
    run_ = run(StatsConfig("maya2012", {"num_players": 2}, ("random", "random"), hidden_games=0), 12, seed=5)
    balance = run_["figures"]["balance"]
    wins = [s["count"] for s in balance["seats"]]
    assert sum(wins) + balance["draws"]["count"] == 12  # 2p: one winner or none per game
    assert sum(e["count"] for e in run_["figures"]["endings"]["ends"].values()) == 12
    assert "hidden" not in run_["figures"]  # two-player Maya (2012) is perfect information
    phases = set(run_["figures"]["branching"]["by_phase"])
    from maya_envs.maya2012.state import PHASE_NAMES

    assert phases <= set(PHASE_NAMES) and "exchange" in phases


def test_hidden_probe_counts_maya2012_deals_by_its_determinizer():
    # 3 players, at the deal: a seat sees its 2 cards and the centre card, so the other 6 colours
    # are dealt 2 + 2 to the other seats and 2 to the spare: 6! / (2! 2! 2!) = 90 worlds, 6 cards
    game = GAMES["maya2012"]
    rules = game.make_rules({"num_players": 3})
    state = rules.initial_state(np.random.default_rng(0))
    fields, distinct, pairs = probe_hidden(rules, game.hook("determinize"), state, 0, 1500, np.random.default_rng(1))
    assert fields == 6 and distinct == 90
    worlds, how = world_estimate(distinct, pairs, 1500)
    assert how == "collisions" and 80 < worlds < 100
    two = game.make_rules({"num_players": 2})
    state = two.initial_state(np.random.default_rng(0))
    assert probe_hidden(two, game.hook("determinize"), state, 0, 8, np.random.default_rng(1)) == [0, 1, 28]


def test_turns_come_from_final_info():
    r = one_random_game("maya2012")
    assert r.rounds is None and r.turns is not None and 0 < r.turns <= r.moves
