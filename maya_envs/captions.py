"""Texts that tell a game's story under its pictures: the move that led to a position, as a
given seat may know it, and the result with the reason the game ended.

Used by ``maya-replay`` (PNG/GIF frames) and ``maya-web`` (move list, replay captions). Every
move text goes through the one per-seat action description,
:func:`maya_envs.notation.describe_action`, so a hidden part of another seat's move never
reaches a seat's caption.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from maya_envs.notation import describe_action, end_reason, final_scores


def move_caption(rules, state, action: int, observer: int | None, number: int, total: int | None = None) -> str:
    """``"move 5/40: player_1 swap t0-t1 @L3"``: ``action``, taken in ``state`` by the seat to
    move, as ``observer`` (a seat, or ``None`` for everything) may know it."""
    of = f"/{total}" if total is not None else ""
    mover = rules.current_player(state)
    return f"move {number}{of}: player_{mover} {describe_action(rules, state, action, mover, observer)}"


def result_line(rules, state, rewards: Mapping[str, float], info: Mapping[str, Any] | None = None) -> str:
    """``"result: player_0 wins (player_0 +1, player_1 -1); victory points: ...; ended: ..."``:
    who won, the rewards, the scores (:func:`maya_envs.notation.final_scores`, left out after an
    illegal action) and why the game ended (:func:`maya_envs.notation.end_reason`, the wording
    of every view). ``info``: the env's final info (default ``rules.final_info(state)``)."""
    info = rules.final_info(state) if info is None else info
    best = max(rewards.values()) if rewards else 0.0
    winners = [agent for agent, r in rewards.items() if r == best and r > min(rewards.values())]
    who = "draw" if not winners else " and ".join(winners) + (" win" if len(winners) > 1 else " wins")
    parts = [f"result: {who} (" + ", ".join(f"{a} {r:+g}" for a, r in rewards.items()) + ")"]
    if "illegal_action" not in info:
        parts.append(final_scores(rules, state))
    parts.append(f"ended: {end_reason(rules, state, info)}")
    return "; ".join(parts)
