"""The quarry game's OpenSpiel parameter sets, swept by tests/test_openspiel.py (each game's sets
in its folder: issue 31 item 2)."""

SIM = [
    {"players": 3},
    {"players": 3, "variant": "advanced", "first_start_player": -1, "reward_scheme": "gold_diff"},
    {"players": 4, "variant": "advanced", "skip_forced": False},
    {"players": 4, "first_start_player": -1, "pool_shortfall": "nothing", "relocate_unsupported": "cascade"},
    {"players": 3, "global_level_rule": "ever_filled", "bonus_block_recipient": "majority"},
    {"players": 5, "variant": "advanced", "plus2_empty_quarry": True},
    {"players": 5, "minus3_no_target": False, "bonus_on_special_placements": False},
]
"""OpenSpiel's random-simulation test: every player count and variant, and other options."""

GAME_TYPES = [
    ({"players": 3}, "IMPERFECT", "DETERMINISTIC", 3),
    ({"players": 3, "first_start_player": -1}, "IMPERFECT", "EXPLICIT_STOCHASTIC", 3),
    ({"players": 4, "variant": "advanced"}, "IMPERFECT", "EXPLICIT_STOCHASTIC", 4),
    ({"players": 5, "variant": "advanced"}, "IMPERFECT", "DETERMINISTIC", 5),  # all 4 markers
]
"""``(params, information, chance mode, players)`` of the game type."""

RETURNS = [{"players": 4, "variant": "advanced", "first_start_player": -1}]
"""Returns equal to the engine's for the same actions and chance outcomes."""

ISMCTS = [{"players": 3, "variant": "advanced"}]
"""OpenSpiel's IS-MCTS against our bots."""

HIDDEN = [{"players": 4, "variant": "advanced"}]
"""Information states unchanged when hidden data is resampled."""
