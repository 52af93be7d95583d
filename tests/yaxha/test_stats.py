"""maya-stats on Yaxha: the rounds played. Moved from tests/test_stats.py (issue 31 item 2: a test
about one game lives in its folder)."""

from __future__ import annotations

from maya_envs.yaxha.rules import NUM_ROUNDS
from tests.helpers.stats import one_random_game


def test_rounds_count_the_rounds_played():
    r = one_random_game('yaxha')
    assert (r.rounds, r.turns) == (NUM_ROUNDS, None)
