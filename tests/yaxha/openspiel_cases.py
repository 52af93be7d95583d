"""Yaxha's OpenSpiel parameter sets, swept by tests/test_openspiel.py (each game's sets in its
folder: issue 31 item 2); its simultaneous form is tested in tests/yaxha/test_openspiel.py."""

SIM = [
    {"players": 2},
    {"players": 2, "footprint": "fixed", "bonus_cards": "first_game", "reward_scheme": "score_diff"},
    {"players": 3, "bonus_cards": "bga_random", "bonus_zero_ties_score": True},
    {"players": 3, "bonus_cards": "5:9:17", "cubes_per_colour": 18},
    {"players": 4},
    {"players": 4, "footprint": "fixed", "action_features": True},
    {"players": 2, "simultaneous": True},
    {"players": 4, "simultaneous": True, "footprint": "fixed"},
]
"""OpenSpiel's random-simulation test: every player count and footprint, both forms, and other options."""

GAME_TYPES = [
    ({"players": 3}, "IMPERFECT", "EXPLICIT_STOCHASTIC", 3),
    ({"players": 3, "simultaneous": True}, "IMPERFECT", "EXPLICIT_STOCHASTIC", 3),
]
"""``(params, information, chance mode, players)`` of the game type."""

RETURNS = [{"players": 3}]
"""Returns equal to the engine's for the same actions and chance outcomes."""

ISMCTS = [{"players": 2}]
"""OpenSpiel's IS-MCTS against our bots."""

HIDDEN = [{"players": 3}]
"""Information states unchanged when hidden data is resampled."""
