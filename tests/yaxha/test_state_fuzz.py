"""Mutated saved states of Yaxha are refused or play to the end (the fuzz and its checks:
:mod:`tests.state_fuzz`); ``(games, every, per_state)`` per case: 1,000-4,000 mutations each."""

from __future__ import annotations

from tests.state_fuzz import fuzz_tests

test_a_mutated_state_is_refused_or_plays_to_the_end, test_a_mutated_state_is_refused_or_plays_to_the_end_extended = (
    fuzz_tests(
        "yaxha",
        {
            "2p": ({"num_players": 2}, (4, 8, 60)),
            "3p-fixed": ({"num_players": 3, "footprint": "fixed"}, (4, 8, 60)),
            "4p": ({"num_players": 4}, (3, 10, 60)),
        },
    )
)
