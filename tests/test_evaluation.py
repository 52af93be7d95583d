"""The evaluation arena and its statistics."""

from __future__ import annotations

import pytest

from maya_envs import maya2012_v1
from maya_envs.evaluation import play_match, wilson_interval


def test_wilson_interval_matches_hand_computed_values():
    # 8 of 10 at z = 1.96: centre (0.8 + 0.19208) / 1.38416, half 0.42563 / 1.38416
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0, abs=1e-12)
    assert wilson_interval(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    with pytest.raises(ValueError, match=r"need 0 <= successes <= trials and trials > 0, got 3/0"):
        wilson_interval(3, 0)


def test_seats_are_rotated_equally_and_outcomes_add_up():
    result = play_match(lambda: maya2012_v1.env(setup="random"), "heuristic", "random", games=10, seed=3)
    assert result.games_per_seat == [5, 5]
    assert result.wins + result.draws + result.losses == 10
    assert result.wins >= 8  # the heuristic bot wins every game against random in 400-game runs


def test_an_illegal_move_by_the_candidate_counts_as_a_loss():
    def always_zero(observation):
        return 0  # "swap t0-t1 @L2" is illegal in the setup phase and often later

    with pytest.warns(UserWarning, match="illegal action 0"):
        result = play_match(lambda: maya2012_v1.env(), always_zero, "random", games=2, seed=0)
    assert result.illegal_actions >= 1 and result.losses >= result.illegal_actions


def test_bad_agent_spec_is_a_clear_error():
    with pytest.raises(ValueError, match=r"unknown bot 'grandmaster'; known bots: random, heuristic"):
        play_match(lambda: maya2012_v1.env(), "grandmaster", "random", games=2)
    with pytest.raises(ValueError, match=r"opponent 42 is not usable; allowed"):
        play_match(lambda: maya2012_v1.env(), "random", 42, games=2)
    with pytest.raises(ValueError, match=r"games must be > 0, got 0"):
        play_match(lambda: maya2012_v1.env(), "random", "random", games=0)
