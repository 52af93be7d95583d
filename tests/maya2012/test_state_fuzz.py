"""Mutated saved states of Maya (2012) are refused or play to the end (the fuzz and its checks:
:mod:`tests.state_fuzz`); ``(games, every, per_state)`` per case: 1,000-4,000 mutations each."""

from __future__ import annotations

from tests.state_fuzz import fuzz_tests

test_a_mutated_state_is_refused_or_plays_to_the_end, test_a_mutated_state_is_refused_or_plays_to_the_end_extended = (
    fuzz_tests(
        "maya2012",
        {
            "2p": ({"num_players": 2, "setup": "random"}, (6, 12, 40)),
            "2p-draft": ({"num_players": 2, "setup": "draft"}, (6, 12, 40)),
            "3p": ({"num_players": 3}, (6, 12, 40)),
            "4p": ({"num_players": 4}, (6, 12, 40)),
        },
    )
)
