"""What the web app needs to know of each game, looked up by the rules' game name (no Flask here).

:func:`action_targets` dispatches to the game's ``render_image.action_targets``: the keys of
the picture's shapes (``data-key`` in the SVG) that a legal action concerns, so a click on the
board can be mapped to the moves it may mean.
"""

from __future__ import annotations

import importlib

from maya_envs.captions import game_key

_RENDER_MODULES = {
    "maya2012": "maya_envs.maya2012.render_image",
    "maya_quarry": "maya_envs.maya_quarry.render_image",
    "yaxha": "maya_envs.yaxha.render_image",
}


def action_targets(rules, state, action: int) -> tuple[str, ...]:
    """The picture keys ``action`` concerns in ``state`` (``()``: only from the move list)."""
    return importlib.import_module(_RENDER_MODULES[game_key(rules)]).action_targets(rules, state, action)
