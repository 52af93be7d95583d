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

from maya_envs.games import game_of_rules
from maya_envs.notation import describe_action


def move_caption(rules, state, action: int, observer: int | None, number: int, total: int | None = None) -> str:
    """``"move 5/40: player_1 swap t0-t1 @L3"``: ``action``, taken in ``state`` by the seat to
    move, as ``observer`` (a seat, or ``None`` for everything) may know it."""
    of = f"/{total}" if total is not None else ""
    mover = rules.current_player(state)
    return f"move {number}{of}: player_{mover} {describe_action(rules, state, action, mover, observer)}"


def end_reason(rules, state, info: Mapping[str, Any]) -> str:
    """Why the game ended, in words, from the final ``info`` (``rules.final_info`` or an
    illegal-action info); the game's ``end_reason`` hook (:mod:`maya_envs.games`) words it."""
    if "illegal_action" in info:
        return f"{info.get('offender', 'a player')} chose an illegal action"
    return game_of_rules(rules).hook("end_reason")(rules, state, info)


def scores_text(rules, info: Mapping[str, Any]) -> str:
    """The final scores by seat (victory points, gold or Yaxha points), ``""`` if unknown."""
    for field, unit in (("victory_points", "VP"), ("gold", "gold"), ("scores", "points")):
        values = info.get(field)
        if isinstance(values, (list, tuple)):
            return ", ".join(f"player_{s} {v} {unit}" for s, v in enumerate(values))
    return ""


def result_line(rules, state, rewards: Mapping[str, float], info: Mapping[str, Any] | None = None) -> str:
    """``"result: player_0 wins (player_0 +1, player_1 -1); ... ; ended: ..."``: who won, the
    rewards, the scores and why the game ended. ``info`` defaults to ``rules.final_info(state)``."""
    info = rules.final_info(state) if info is None else info
    best = max(rewards.values()) if rewards else 0.0
    winners = [agent for agent, r in rewards.items() if r == best and r > min(rewards.values())]
    who = "draw" if not winners else " and ".join(winners) + (" win" if len(winners) > 1 else " wins")
    parts = [f"result: {who} (" + ", ".join(f"{a} {r:+g}" for a, r in rewards.items()) + ")"]
    scores = scores_text(rules, info) if "illegal_action" not in info else ""
    if scores:
        parts.append(scores)
    parts.append("ended: " + end_reason(rules, state, info))
    return "; ".join(parts)
