"""The search toolkit both searches share (the rollout search :mod:`maya_envs.bots.mcts` and
the guided search :mod:`maya_envs.bots.guided`) and the trainer (:mod:`training.exit`) uses:
the game's search hooks, a finished game's score margins and the settings helpers. It imports
no search algorithm, so the trainer does not depend on one (issue 31, item 5). The value
arithmetic (a finished game's value scale, leads from scores) is in :mod:`maya_envs.core.values`,
where the games' own hooks (``<game>/determinize.py``) take it without standing on ``bots``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

import numpy as np

from maya_envs.core.protocol import Rules
from maya_envs.games import game_of_rules


def game_hook(rules: Rules, name: str) -> Callable | None:
    """The hook ``name`` (``"determinize"``, ``"leaf_values"``) of the game whose rules
    ``rules`` are (:mod:`maya_envs.games`), or ``None`` when the game has none or ``rules``
    belong to no game of the table (search then works without the hook)."""
    try:
        game = game_of_rules(rules)
    except ValueError:
        return None
    return game.hook(name)


def with_overrides(config: Any, overrides: dict[str, Any], label: str) -> Any:
    """``config`` (a frozen dataclass) with the fields in ``overrides`` replaced.

    Raises:
        ValueError: an unknown field (the message names it and lists the known ones, as
            ``label`` settings), or a bad value (the config's own check).
    """
    if not overrides:
        return config
    known = {f.name for f in fields(config)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ValueError(f"unknown {label} setting(s) {unknown}; known: {sorted(known)}")
    return replace(config, **overrides)


def determinizer(rules: Rules, wanted: bool | None) -> Callable | None:
    """The game's ``determinize`` hook when the search should sample hidden information
    (``wanted``; ``None``: exactly when ``rules.spec.information`` is not ``"perfect"``), else
    ``None``.

    Raises:
        ValueError: determinization wanted for a game without the hook.
    """
    if wanted is None:
        wanted = rules.spec.information != "perfect"
    if not wanted:
        return None
    hook = game_hook(rules, "determinize")
    if hook is None:
        raise ValueError(
            f"{type(rules).__name__} has no determinize hook (maya_envs.games), "
            "so information-set search is not available for it"
        )
    return hook


def seat_to_act(rules: Rules, state: Any, bot: str) -> int:
    """The seat to move in ``state`` (``rules.current_player``), for ``bot.act``.

    Raises:
        ValueError: the game is over (``"<bot>.act called on a finished game (no legal action)"``).
    """
    seat = rules.current_player(state)
    if seat < 0:
        raise ValueError(f"{bot}.act called on a finished game (no legal action)")
    return seat


def terminal_margins(rules: Rules, state: Any) -> np.ndarray | None:
    """``float64 (num_players,)``: a finished game's score margins (the game's ``score_margins``
    hook: each seat's score lead over a per-game scale), zeros after a truncation (no outcome,
    as :func:`maya_envs.core.values.terminal_values`); ``None`` when the game has no such hook. The target of the
    network's score-margin head."""
    margins = game_hook(rules, "score_margins")
    if margins is None:
        return None
    if rules.is_truncated(state):
        return np.zeros(rules.spec.num_players)
    return np.asarray(margins(rules, state), np.float64)
