"""The evaluation arena and its statistics."""

from __future__ import annotations

import re

import numpy as np
import pytest

from maya_envs.bot_kinds import BOT_NAMES
from maya_envs.evaluation import play_match, wilson_interval
from maya_envs.games import DEFAULT_GAME
from tests.conformance import first_game


def test_wilson_interval_matches_hand_computed_values():
    # 8 of 10 at z = 1.96: centre (0.8 + 0.19208) / 1.38416, half 0.42563 / 1.38416
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0, abs=1e-12)
    assert wilson_interval(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    with pytest.raises(ValueError, match=r"need 0 <= successes <= trials and trials > 0, got 3/0"):
        wilson_interval(3, 0)


def test_the_win_rate_conventions_count_draws_as_none_or_half():
    from maya_envs.evaluation.stats import win_rate_successes

    assert win_rate_successes("wins", 3, 2) == 3 and win_rate_successes("draws_half", 3, 2) == 4
    with pytest.raises(ValueError, match=r"win_rate_convention='draws'; allowed: \['wins', 'draws_half'\]"):
        win_rate_successes("draws", 3, 2)


def test_seats_are_rotated_equally_and_outcomes_add_up():
    game = first_game("two players", lambda g: 2 in g.player_counts)
    result = play_match(lambda: game.make_aec_env(num_players=2), "heuristic", "random", games=10, seed=3)
    assert result.games_per_seat == [5, 5]
    assert result.wins + result.draws + result.losses == 10
    assert result.wins >= 8  # the heuristic bot wins nearly every game against random
    row = result.to_dict()  # the row says its rate counts wins (a draw is no win)
    assert row["win_rate_convention"] == "wins" and row["win_rate"] == result.wins / 10


def test_an_illegal_move_by_the_candidate_counts_as_a_loss():
    def always_illegal(observation):
        return int(np.flatnonzero(observation["action_mask"] == 0)[0])  # the first masked-out id

    with pytest.warns(UserWarning, match=r"illegal action \d+"):
        result = play_match(DEFAULT_GAME.make_aec_env, always_illegal, "random", games=2, seed=0)
    assert result.illegal_actions >= 1 and result.losses >= result.illegal_actions


def test_bad_agent_spec_is_a_clear_error():
    with pytest.raises(ValueError, match=rf"unknown bot 'grandmaster'; known bots: {re.escape(', '.join(BOT_NAMES))}"):
        play_match(DEFAULT_GAME.make_aec_env, "grandmaster", "random", games=2)
    with pytest.raises(ValueError, match=r"opponent 42 is not usable; allowed"):
        play_match(DEFAULT_GAME.make_aec_env, "random", 42, games=2)
    with pytest.raises(ValueError, match=r"games must be > 0, got 0"):
        play_match(DEFAULT_GAME.make_aec_env, "random", "random", games=0)
