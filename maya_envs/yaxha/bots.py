"""Yaxha heuristic bot: greedy on the visible score of its own pyramid.

Information discipline: the bot reads the market, which tiles are taken, its own pyramid and
cubes in hand, and the bonus cards in play. It never reads another seat's hidden tile choice,
another seat's cubes placed this round, or the bag's order.

* **Building**: every legal placement (or forced discard) is scored by the value of the
  resulting pyramid; the best is played (ties broken by the bot's generator).
* **Tile choice** (hidden pick or pending pick): for each available tile, the bot builds its
  three cubes greedily on a copy of its pyramid and takes the tile with the best resulting
  value. It ignores clashes (a lower-initiative seat may take the tile first).
* **Value** of a pyramid: the reference-card points of the largest visible group of each
  colour (sections 6-7), plus small bonus-card terms: 0.5 per cube of the colour a colour
  card (0-9) names, 0.5 per cube of the largest group (10), 0.5 per level-1 cube of the best
  level-1 group (11), 1 per level of the tallest group (12), 1 per colour visible on level 1
  (14) or level 2 (17), and -2 per colour beyond 3 (16).
"""

from __future__ import annotations

import numpy as np

from maya_envs.core.rng import make_rng
from maya_envs.yaxha.actions import NUM_COLOURS
from maya_envs.yaxha.rules import BUILD, OVER, YaxhaRules, YaxhaState
from maya_envs.yaxha.scoring import GROUP_POINTS


class HeuristicBot:
    """Greedy Yaxha bot (see the module docstring).

    Args:
        rules: a :class:`~maya_envs.yaxha.rules.YaxhaRules`.
        seed: an int, ``None`` or a generator for tie-breaking.
    """

    def __init__(self, rules: YaxhaRules, seed: int | np.random.Generator | None = None) -> None:
        self.rules = rules
        self.rng = make_rng(seed)
        g = rules.geometry
        self._links, self._covers, self._coverable, self._level = g.links, g.covers, g.fully_coverable, g.level

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
        cards = state.bonus_cards
        if state.phase == BUILD:
            scored = [(self._value(self._after(pyramid, a), cards), a) for a in legal]
        else:
            scored = [(self._tile_value(pyramid, state.market[t], cards), t) for t in legal]
        best = max(v for v, _ in scored)
        ties = [a for v, a in scored if v >= best - 1e-9]
        return int(ties[self.rng.integers(len(ties))]) if len(ties) > 1 else int(ties[0])

    # -- evaluation -------------------------------------------------------------------------

    def _after(self, pyramid: tuple[int, ...], action: int) -> tuple[int, ...]:
        t = self.rules.table
        if action >= t.discard_start:
            return pyramid
        colour, cell = divmod(action - t.place_start, t.num_cells)
        return pyramid[:cell] + (colour,) + pyramid[cell + 1 :]

    def _tile_value(self, pyramid: tuple[int, ...], tile: tuple[int, ...], cards: tuple[int, ...]) -> float:
        hand = list(tile)
        rules, t = self.rules, self.rules.table
        for _ in range(sum(hand)):
            best, best_pyr, best_colour = None, pyramid, None
            for colour in range(NUM_COLOURS):
                if not hand[colour]:
                    continue
                cells = rules.legal_cells(pyramid, colour)
                for cell in cells:
                    p = self._after(pyramid, t.place(colour, cell))
                    v = self._value(p, cards)
                    if best is None or v > best:
                        best, best_pyr, best_colour = v, p, colour
                if not cells and best is None:
                    best_colour = colour
            pyramid = best_pyr
            hand[best_colour] -= 1
        return self._value(pyramid, cards)

    def _value(self, pyramid: tuple[int, ...], cards: tuple[int, ...]) -> float:
        links, covers, coverable, level = self._links, self._covers, self._coverable, self._level
        occupied = [c for c, colour in enumerate(pyramid) if colour >= 0]
        visible = {c for c in occupied if not (coverable[c] and all(pyramid[k] >= 0 for k in covers[c]))}
        largest = [0] * NUM_COLOURS
        best_level1 = best_levels = 0
        seen: set[int] = set()
        by_level: list[set[int]] = [set(), set(), set(), set()]
        for start in visible:
            colour = pyramid[start]
            by_level[level[start]].add(colour)
            if start in seen:
                continue
            seen.add(start)
            stack, size, level1, levels = [start], 0, 0, set()
            while stack:
                cell = stack.pop()
                size += 1
                level1 += level[cell] == 0
                levels.add(level[cell])
                for nb in links[cell]:
                    if nb not in seen and nb in visible and pyramid[nb] == colour:
                        seen.add(nb)
                        stack.append(nb)
            largest[colour] = max(largest[colour], size)
            best_level1 = max(best_level1, level1)
            best_levels = max(best_levels, len(levels))
        value = float(sum(GROUP_POINTS[min(n, 12)] for n in largest))
        for card in cards:
            if card < 10:
                value += 0.5 * largest[card % 5]
            elif card == 10:
                value += 0.5 * max(largest)
            elif card == 11:
                value += 0.5 * best_level1
            elif card == 12:
                value += best_levels
            elif card == 14:
                value += len(by_level[0])
            elif card == 17:
                value += len(by_level[1])
            elif card == 16:
                value -= 2 * max(0, len(set().union(*by_level)) - 3)
        return value
