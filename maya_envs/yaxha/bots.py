"""Yaxha heuristic bot: greedy on the visible score of its own pyramid.

Information discipline: the bot reads the market, which tiles are taken, its own pyramid and
cubes in hand, and the bonus cards in play. It never reads another seat's hidden tile choice,
another seat's cubes placed this round, or the bag's order.

* **Building**: every legal placement (or forced discard) is scored by the value of the
  resulting pyramid; the best is played (ties broken by the bot's generator).
* **Tile choice** (hidden pick or pending pick): for each available tile, the bot builds its
  three cubes greedily on a copy of its pyramid and takes the tile with the best resulting
  value. It ignores clashes (a lower-initiative seat may take the tile first).
* **Value** of a pyramid (:func:`maya_envs.yaxha.features.heuristic_value`, shared with the
  per-action features, whose ``value_change`` column this bot plays the argmax of): the
  reference-card points of the largest visible group of each colour (sections 6-7), plus
  small bonus-card terms: 0.5 per cube of the colour a colour card (0-9) names, 0.5 per cube
  of the largest group (10), 0.5 per level-1 cube of the best level-1 group (11), 1 per
  level of the tallest group (12), 1 per colour visible on level 1 (14) or level 2 (17), and
  -2 per colour beyond 3 (16).
"""

from __future__ import annotations

import numpy as np

from maya_envs.core.rng import make_rng
from maya_envs.yaxha.features import heuristic_value, tile_value
from maya_envs.yaxha.rules import BUILD, OVER, YaxhaRules, YaxhaState


class HeuristicBot:
    """Greedy Yaxha bot (see the module docstring).

    Args:
        rules: a :class:`~maya_envs.yaxha.rules.YaxhaRules`.
        seed: an int, ``None`` or a generator for tie-breaking.
    """

    def __init__(self, rules: YaxhaRules, seed: int | np.random.Generator | None = None) -> None:
        self.rules = rules
        self.rng = make_rng(seed)

    def act(self, state: YaxhaState) -> int:
        """A legal action id for ``rules.current_player(state)``.

        Raises:
            ValueError: the game is over.
        """
        if state.phase == OVER:
            raise ValueError("HeuristicBot.act called on a finished game")
        seat = self.rules.current_player(state)
        legal = self.rules.legal_actions(state)
        pyramid = state.pyramids[seat]
        cards, rules, geometry = state.bonus_cards, self.rules, self.rules.geometry
        if state.phase == BUILD:
            scored = [(heuristic_value(geometry, self._after(pyramid, a), cards), a) for a in legal]
        else:
            scored = [(tile_value(rules, pyramid, state.market[t], cards), t) for t in legal]
        best = max(v for v, _ in scored)
        ties = [a for v, a in scored if v >= best - 1e-9]
        return int(ties[self.rng.integers(len(ties))]) if len(ties) > 1 else int(ties[0])

    def _after(self, pyramid: tuple[int, ...], action: int) -> tuple[int, ...]:
        t = self.rules.table
        if action >= t.discard_start:
            return pyramid
        colour, cell = divmod(action - t.place_start, t.num_cells)
        return pyramid[:cell] + (colour,) + pyramid[cell + 1 :]
