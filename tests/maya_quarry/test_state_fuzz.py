"""Mutated saved states of the quarry game are refused or play to the end (the fuzz and its checks:
:mod:`tests.state_fuzz`); ``(games, every, per_state)`` per case: 1,000-4,000 mutations each."""

from __future__ import annotations

from tests.state_fuzz import fuzz_tests

test_a_mutated_state_is_refused_or_plays_to_the_end, test_a_mutated_state_is_refused_or_plays_to_the_end_extended = (
    fuzz_tests(
        "maya_quarry",
        {
            "3p": ({"num_players": 3}, (4, 25, 60)),
            "4p": ({"num_players": 4, "skip_forced": False}, (4, 25, 60)),
            "3p-advanced": ({"num_players": 3, "variant": "advanced"}, (4, 25, 60)),
            "5p-advanced": ({"num_players": 5, "variant": "advanced", "skip_forced": False}, (2, 30, 60)),
        },
    )
)
