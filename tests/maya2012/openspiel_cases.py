"""Maya (2012)'s OpenSpiel parameter sets, swept by tests/test_openspiel.py (each game's sets in
its folder: issue 31 item 2). Short turn limits: OpenSpiel's serialisation check replays each
history from the start, so its cost grows with the square of the game's length; one
default-length game per player count is kept."""

SIM = [
    {"players": 2},
    {"players": 2, "setup": "random", "max_turns": 40, "reward_scheme": "score_diff"},
    {"players": 2, "setup": "draft", "max_turns": 40, "at_max_turns": "truncate"},
    {"players": 2, "max_turns": 40, "ladder_spaces": "1:1:1:1:1:1:1:1:1", "priests_per_player": 1},
    {"players": 3, "max_turns": 120},
    {"players": 3, "setup": "draft", "max_turns": 40, "declare_step": "always", "three_plus_two": "best"},
    {"players": 4, "max_turns": 120, "reward_scheme": "score_diff"},
    {"players": 4, "setup": "draft", "max_turns": 40, "declare_step": "always"},
]
"""OpenSpiel's random-simulation test: every player count and setup, and other options."""

GAME_TYPES = [
    ({"players": 2}, "PERFECT", "EXPLICIT_STOCHASTIC", 2),
    ({"players": 4}, "IMPERFECT", "EXPLICIT_STOCHASTIC", 4),
]
"""``(params, information, chance mode, players)`` of the game type."""

RETURNS = [
    {"players": 2, "setup": "random"},
    {"players": 3, "setup": "draft", "reward_scheme": "score_diff"},
]
"""Returns equal to the engine's for the same actions and chance outcomes."""

ISMCTS = [{"players": 3, "max_turns": 12}]
"""OpenSpiel's IS-MCTS against our bots."""

HIDDEN = [
    {"players": 3, "max_turns": 40},
    {"players": 4, "setup": "draft", "max_turns": 20},
]
"""Information states unchanged when hidden data is resampled."""
