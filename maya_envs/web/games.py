"""What the web app needs to know of each game, looked up in the game table (no Flask here).

:func:`action_targets` dispatches to the game's ``action_targets`` hook (its
``render_image.action_targets``): the keys of the picture's shapes (``data-key`` in the SVG)
that a legal action concerns, so a click on the board can be mapped to the moves it may mean.
"""

from __future__ import annotations

from maya_envs.games import game_of_rules


def action_targets(rules, state, action: int) -> tuple[str, ...]:
    """The picture keys ``action`` concerns in ``state`` (``()``: only from the move list)."""
    return game_of_rules(rules).hook("action_targets")(rules, state, action)
