"""Yaxha observation encoder (pure): one flat ``float32`` vector in [0, 1] per seat.

Seats appear relative to the observer: ``r = (seat - observer) % N``, so ``r = 0`` is always
"me" (decision 11: all pyramids, the market, initiative, bonus cards, the round and my own
cubes are visible; another seat's hidden tile choice and its cubes placed this round are not,
and the bag is seen only as colour counts). ``N = num_players``, ``C`` = cells (126
floating, 30 fixed; cell order as in :mod:`maya_envs.yaxha.actions`).

Hidden information: while the tile choices are collected, only the observer's own choice is
shown (``choices`` row ``r = 0``); every seat's is shown once the rules reveal them. Another
seat's cubes placed in the current round's building stay out of ``pyramids`` until that
building ends, and the bag shows only its colour counts. Everything else is public.

==============  ===========  ===================================================================
slice name      length       meaning
==============  ===========  ===================================================================
``pyramids``    ``N*C*5``    index ``(r*C + cell)*5 + colour``: 1 if seat ``r`` has that colour
                             on that cell. Another seat's cubes placed during the current
                             round's building are left out until the round's building ends.
``initiative``  ``N*N``      ``r*N + (initiative - 1)``: one-hot initiative of seat ``r``.
``market``      ``N*5``      ``tile*5 + colour``: cubes of that colour on the tile / 3.
``owner``       ``N*N``      ``tile*N + r``: 1 if seat ``r`` has taken the tile this round.
``choices``     ``N*N``      ``r*N + tile``: the tile seat ``r`` chose this round. While choices
                             are being collected only ``r = 0`` (my own) is shown; after the
                             reveal (pending picks, building) every seat's.
``pending``     ``N``        ``r``: 1 if seat ``r`` still has to pick after a clash.
``hand``        ``5``        my cubes still to place this round, per colour / 3.
``bag``         ``5``        cubes left in the bag per colour / ``cubes_per_colour``.
``bonus``       ``18``       1 for each bonus card in play.
``round``       ``10``       one-hot round (all 0 once the game is over).
``phase``       ``4``        one-hot: select, pending, build, over.
``features``    ``3*A``      only with ``action_features=True`` (part ``action_features``,
                             shape ``(3, A)``; an option of the observer): per-action
                             features, ``A = N + 5C`` (every id but the discards): index
                             ``f*A + id`` is feature ``f`` of action ``id``; 0 for an id not
                             legal now (see below).
==============  ===========  ===================================================================

Sizes: 2 players floating 1326, 3 players 1977, 4 players 2634; fixed footprint 366, 537, 714.
With ``action_features=True``: 3222, 3876, 4536; fixed 822, 996, 1176.

**Per-action features** (the ``action_features`` part, read by name by
``training.policies.ActionFeaturePolicy`` through the observer's layout): the one-step
consequences of each legal id, computed exactly with :mod:`maya_envs.yaxha.scoring` (through
:class:`maya_envs.yaxha.features.ScoreView`, which the per-action features of
:mod:`maya_envs.yaxha.features` share) from what the observer may know: its own pyramid and
hand, and the other seats' pyramids as the ``pyramids`` part shows them (their cubes of the
current building left out). ``D(x)`` maps a point change ``x`` to ``clip(0.5 + x / 12, 0, 1)``.

* Placing a cube (colour ``c`` on ``cell``), during my building: ``f = 0``: ``D(change of my
  colour points)`` (largest visible group per colour, section 7); ``f = 1``: ``D(change of my
  margin)``, the margin being my total (colour points and bonus cards) minus the best other
  total, all judged on the visible pyramids; ``f = 2``: size of the visible group holding the
  new cube / 12 (capped at 1).
* Picking tile ``t`` (hidden choice or pending pick): each of the tile's cubes is valued alone
  on my current pyramid by its best legal cell: ``f = 0``: ``D(sum of the best colour-point
  changes)``; ``f = 1``: ``D(sum of the best margin changes)``; ``f = 2``: the tile's cubes that
  have no legal cell now / 3.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.core.checks import is_int
from maya_envs.core.errors import ConfigError
from maya_envs.core.layout import ACTION_FEATURES, Layout
from maya_envs.yaxha.actions import NUM_COLOURS
from maya_envs.yaxha.features import ScoreView, score_view, visible_pyramids
from maya_envs.yaxha.rules import YaxhaRules, YaxhaState
from maya_envs.yaxha.scoring import NUM_BONUS_CARDS

NUM_ROUNDS = 10
NUM_PHASES = 4
NUM_FEATURES = 3
"""Rows of the ``action_features`` part (colour-point change, margin change, group size or
discards)."""
_SELECT, _PENDING, _BUILD = 0, 1, 2
_ONE_HOT = np.vstack([np.eye(NUM_COLOURS, dtype=np.float32), np.zeros((1, NUM_COLOURS), np.float32)])
"""Row ``colour`` is the one-hot of a cube of that colour; row -1 (an empty cell) is all 0."""


def observation_layout(num_players: int, num_cells: int, action_features: bool = False) -> Layout:
    """The named parts of the vector (the module table), in order; ``action_features`` (shape
    ``(NUM_FEATURES, N + 5C)``) only with ``action_features``."""
    n = num_players
    parts: list[tuple[str, int | tuple[int, ...]]] = [
        ("pyramids", n * num_cells * NUM_COLOURS),
        ("initiative", n * n),
        ("market", n * NUM_COLOURS),
        ("owner", n * n),
        ("choices", n * n),
        ("pending", n),
        ("hand", NUM_COLOURS),
        ("bag", NUM_COLOURS),
        ("bonus", NUM_BONUS_CARDS),
        ("round", NUM_ROUNDS),
        ("phase", NUM_PHASES),
    ]
    if action_features:
        parts.append((ACTION_FEATURES, (NUM_FEATURES, n + NUM_COLOURS * num_cells)))
    return Layout(parts)


def observation_size(num_players: int, num_cells: int, action_features: bool = False) -> int:
    """Length of the observation vector."""
    return observation_layout(num_players, num_cells, action_features).size


class YaxhaObserver:
    """The observation encoder of one :class:`~maya_envs.yaxha.rules.YaxhaRules` (the
    :class:`~maya_envs.core.layout.Observer` protocol).

    Args:
        rules: the rules.
        action_features: append the per-action feature block (part ``action_features``; not a
            rule: it only changes what the observation holds). Default ``False``.

    Raises:
        ConfigError: ``action_features`` is not a bool.
    """

    def __init__(self, rules: YaxhaRules, action_features: bool = False) -> None:
        if not isinstance(action_features, bool):
            raise ConfigError(f"action_features={action_features!r}; allowed: True, False")
        self.rules = rules
        self.action_features = action_features
        self.layout = observation_layout(rules.num_players, rules.geometry.num_cells, action_features)
        self._block = rules.geometry.num_cells * NUM_COLOURS
        self._onehots: dict[int, tuple[tuple[int, ...], np.ndarray]] = {}
        self._round_parts: tuple[Any, ...] = (None, None, None)

    def _onehot(self, pyramid: tuple[int, ...]) -> np.ndarray:
        """The ``pyramids`` block of one seat: ``float32 (C*5,)``, 1 at ``cell*5 + colour``
        (memoised by the pyramid object, up to the last 64 seen)."""
        entry = self._onehots.get(id(pyramid))
        if entry is not None and entry[0] is pyramid:
            return entry[1]
        block = _ONE_HOT[np.array(pyramid, np.intp)].reshape(-1)
        if len(self._onehots) >= 64:
            self._onehots.clear()
        self._onehots[id(pyramid)] = (pyramid, block)  # the pyramid is held, so its id stays its own
        return block

    def encode(self, state: YaxhaState, seat: int) -> np.ndarray:
        """Observation of ``seat`` as ``float32`` of ``layout.shape`` in [0, 1] (module table).

        Raises:
            ValueError: ``seat`` is not a seat of this game.
        """
        rules = self.rules
        n = rules.num_players
        if not is_int(seat) or not 0 <= seat < n:
            raise ValueError(f"observer seat {seat!r} is out of range: allowed 0..{n - 1}")
        observer, start, block = int(seat), self.layout.starts, self._block
        obs = np.zeros(self.layout.size, np.float32)
        seats = [(observer + r) % n for r in range(n)]  # absolute seat of relative seat r
        pyramids, fresh = state.pyramids, state.fresh
        for r, other in enumerate(seats):
            at = start["pyramids"] + r * block
            obs[at : at + block] = self._onehot(pyramids[other])
            if r:
                pyramid = pyramids[other]
                for cell in fresh[other]:  # another seat's cubes of this round: hidden
                    obs[at + cell * NUM_COLOURS + pyramid[cell]] = 0.0
        at, initiative = start["initiative"], state.initiative
        for r, other in enumerate(seats):
            obs[at + r * n + initiative[other] - 1] = 1.0
        market, bag = self._round(state)
        at = start["market"]
        obs[at : at + market.size] = market
        at = start["owner"]
        for tile, other in enumerate(state.owner):
            if other >= 0:
                obs[at + tile * n + (other - observer) % n] = 1.0
        at, choices = start["choices"], state.choices
        if state.phase in (_PENDING, _BUILD):  # revealed: every seat's choice
            for r, other in enumerate(seats):
                if choices[other] >= 0:
                    obs[at + r * n + choices[other]] = 1.0
        elif choices[observer] >= 0:  # while choosing: only my own
            obs[at + choices[observer]] = 1.0
        at = start["pending"]
        for other in state.pending:
            obs[at + (other - observer) % n] = 1.0
        hand = state.hands[observer]
        if any(hand):
            at = start["hand"]
            obs[at : at + NUM_COLOURS] = np.asarray(hand, np.float32) / 3.0
        at = start["bag"]
        obs[at : at + NUM_COLOURS] = bag
        at = start["bonus"]
        for card in state.bonus_cards:
            obs[at + card] = 1.0
        if state.round < NUM_ROUNDS:
            obs[start["round"] + state.round] = 1.0
        obs[start["phase"] + state.phase] = 1.0
        if self.action_features:
            legal = rules.legal_actions_for(state, observer) if state.phase in (_SELECT, _PENDING, _BUILD) else []
            if legal:
                view = score_view(rules, state.bonus_cards, observer, visible_pyramids(state, observer))
                _write_features(view, self.layout.view(obs, ACTION_FEATURES), state, legal)
        return obs

    def _round(self, state: YaxhaState) -> tuple[np.ndarray, np.ndarray]:
        """The parts that change once a round (market / 3, bag / cubes_per_colour), memoised for
        the last market and bag seen."""
        cached = self._round_parts
        if cached[0] is state.market and cached[1] is state.bag:
            return cached[2]
        parts = (
            np.asarray(state.market, np.float32).reshape(-1) / 3.0,
            np.asarray(state.bag, np.float32) / self.rules.config.cubes_per_colour,
        )
        self._round_parts = (state.market, state.bag, parts)
        return parts


def observe(rules: YaxhaRules, state: YaxhaState, seat: int) -> np.ndarray:
    """``seat``'s observation of ``state`` by the default :class:`YaxhaObserver` of ``rules`` (for
    tests and tools; an env keeps its own observer)."""
    return YaxhaObserver(rules).encode(state, seat)


def encode(rules: YaxhaRules, state: YaxhaState, observer: int, layout: Layout | None = None) -> np.ndarray:
    """Observation of ``observer`` (a seat) as ``float32`` of ``layout``'s shape (default: the
    layout without the action features): :meth:`YaxhaObserver.encode`.

    Raises:
        ValueError: ``observer`` is not a seat of this game.
    """
    with_features = layout is not None and ACTION_FEATURES in layout
    return YaxhaObserver(rules, with_features).encode(state, observer)


def _points(change: float) -> float:
    """``D``: a point change mapped into [0, 1] (0 -> 0.5; -6 and +6 and beyond -> 0 and 1)."""
    return min(max(0.5 + change / 12.0, 0.0), 1.0)


def _write_features(view: ScoreView, out: np.ndarray, state: YaxhaState, legal: list[int]) -> None:
    """Fill ``out`` (``NUM_FEATURES`` x ``N + 5C``) at the ``legal`` ids of ``state`` from the
    observer's :class:`~maya_envs.yaxha.features.ScoreView` (module docstring)."""
    t = view.rules.table
    if state.phase == _BUILD:
        for action in legal:
            if action < t.discard_start:
                colour, cell = divmod(action - t.place_start, t.num_cells)
                points, margin, size = view.place(colour, cell)[:3]
                out[0, action], out[1, action], out[2, action] = (
                    _points(points),
                    _points(margin),
                    min(size / 12, 1.0),
                )
        return
    best: dict[int, tuple[float, float] | None] = {}
    rules, pyramid, touch = view.rules, view.pyramid, view.geometry.touch
    base, upper = rules.base_candidates(pyramid), rules.upper_candidates(pyramid)
    for tile in legal:
        points = margin = stuck = 0
        for colour, count in enumerate(state.market[tile]):
            if not count:
                continue
            if colour not in best:
                cells = base + [i for i in upper if any(pyramid[j] == colour for j in touch[i])]  # legal_cells
                options = [view.place(colour, cell)[:2] for cell in cells]
                best[colour] = (max(p for p, _ in options), max(m for _, m in options)) if options else None
            if best[colour] is None:
                stuck += count
            else:
                points += count * best[colour][0]
                margin += count * best[colour][1]
        out[0, tile], out[1, tile], out[2, tile] = _points(points), _points(margin), stuck / 3
