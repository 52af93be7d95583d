"""Yaxha (Helvetiq, 2024; Baptiste Vaiana), 2-4 players: the pure rules engine.

Sources: the seed ``003_a36c3e71ea12bb08.txt`` and ``shared/rules/yaxha.md`` (sections cited
as "section n"; the project decisions are section 11). Pure: standard library and numpy.

Rule decisions implemented here (every option is a :class:`YaxhaConfig` field):

* **Components** (section 3): 5 colours x ``cubes_per_colour=24`` (BGA value) in a bag drawn
  from the env's generator; ``N = num_players`` market tiles of 3 cubes; initiative 1..N
  dealt as a random permutation; 3 bonus cards; 10 rounds.
* **Round** (section 4): draw 3 cubes per tile; every seat picks a tile, hidden and
  simultaneous (collected one seat at a time, in seat order, never revealed before all are
  in); a tile chosen by one seat goes to it; a clash goes to the lowest initiative, the
  other clashing seats become *pending* and, in ascending initiative over all clash groups,
  pick an untaken tile; the last pending pick is forced and made by the rules (no
  decision). Then each clash group swaps initiative by rank: ``i <-> k-1-i`` (2: swap;
  3: lowest <-> highest, middle keeps; 4: 1<->4 and 2<->3), using the initiative held when
  choosing.
* **Building** (section 5, decision 11): every seat places its 3 cubes as 3 micro-actions
  (colour, cell), in any colour order. Seats build round-robin (seat 0, 1, .., N-1, three
  times): building is independent, and a seat's cubes placed this round stay hidden from the
  other seats' observations until the round's building is over (simultaneous building).
  Base cubes: the first anywhere (``floating``: at the anchor ``(3,3,0)`` of the 7 x 7
  virtual grid; ``fixed``: any of the 16 cells), later ones orthogonally adjacent to a base
  cube, with the base's bounding box within 4 x 4. Upper cubes: all 4 supporting cubes
  present, and a same-colour cube among the 4 same-level orthogonal neighbours or the 4
  supports. A colour may be discarded only when it has no legal cell.
* **Scoring** (sections 6-8): see :mod:`maya_envs.yaxha.scoring`. Highest total wins; ties
  share the win (no tie-breaker).
* **Bonus cards** (decision 11): ``bonus_cards="random"`` draws 3 of the 18 (5-9 excluded
  with 2 players), ``"first_game"`` 3 of {0-4, 10, 11, 12}, ``"bga_random"`` 3 of 0-11
  (the BGA snapshot's random pool, 5-9 excluded with 2 players), or an explicit list of 3
  distinct ids (5-9 refused with 2 players). ``bonus_zero_ties_score=False`` (PROPOSAL,
  non-canonical): a competitive card needs a best value of at least 1; ``True`` is BGA.
* **Choices beyond the rules file** (project decisions): cards 5-9 are pairwise, so
  ``bonus_zero_ties_score`` does not touch them (0 >= 0 scores, as on BGA); cards 14-17
  read visible cubes only (section 8's convention); card 15 needs at least one cube; an
  explicit card list with 5-9 is refused with 2 players; ``score_diff`` divides by 100.
* **Rewards** (decision 11, as the quarry game): ``reward_scheme="win_loss"``: the w
  winners get +1/w each, the others -1/(n-w) each, all 0 if everyone ties;
  ``"score_diff"``: (own score - mean of the others' scores) / :data:`SCORE_SCALE`.
  Rewards sum to 0 and lie in [-1, 1].
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

import numpy as np

from maya_envs.core.chance import draw, draw_sequence, weighted
from maya_envs.core.errors import IllegalActionError
from maya_envs.core.legal import LegalActionCache, check_action_id
from maya_envs.core.options import resolve_config
from maya_envs.core.spec import GameSpec
from maya_envs.games import game_of_module
from maya_envs.yaxha import serialize
from maya_envs.yaxha.actions import NUM_COLOURS, WAIT, ActionTable
from maya_envs.yaxha.scoring import score_pyramids
from maya_envs.yaxha.state import (
    BONUS_MODES,
    BUILD,
    CUBES_PER_TILE,
    MAX_CHANCE_OUTCOMES,
    NUM_BONUS_IN_PLAY,
    NUM_ROUNDS,
    OVER,
    PENDING,
    PHASES,
    REWARD_SCHEMES,
    SCORE_SCALE,
    SELECT,
    YaxhaConfig,
    YaxhaState,
    evolve,
)

GAME = game_of_module(__name__)
"""This game's entry in :data:`maya_envs.games.GAMES`: its name, title and version."""

__all__ = [
    "BONUS_MODES",
    "BUILD",
    "CUBES_PER_TILE",
    "MAX_CHANCE_OUTCOMES",
    "NUM_BONUS_IN_PLAY",
    "NUM_ROUNDS",
    "OVER",
    "PENDING",
    "PHASES",
    "REWARD_SCHEMES",
    "SCORE_SCALE",
    "SELECT",
    "YaxhaConfig",
    "YaxhaRules",
    "YaxhaState",
]


def swap_initiative(initiative: tuple[int, ...], choices: tuple[int, ...]) -> tuple[int, ...]:
    """Section 4.4: in each clash group sorted by initiative, rank i swaps with rank k-1-i."""
    groups: dict[int, list[int]] = {}
    for seat in sorted(range(len(choices)), key=initiative.__getitem__):
        groups.setdefault(choices[seat], []).append(seat)
    new = list(initiative)
    for group in groups.values():
        k = len(group)
        for i in range(k // 2):
            a, b = group[i], group[k - 1 - i]
            new[a], new[b] = initiative[b], initiative[a]
    return tuple(new)


def _draw_market(
    bag: tuple[int, ...], num_tiles: int, rng: np.random.Generator
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Draw 3 cubes per tile without replacement from ``bag``; returns (market, new bag).

    Explicit chance (:mod:`maya_envs.core.chance`): one chance node per cube, colour ``c``
    with probability ``bag[c] / len(bag)`` (the cubes left in the bag). From a generator: cube
    ``k`` (0-based) takes the ``r``-th cube of the bag in colour order, ``r`` the generator's
    ``integers(len(bag) - k)``; the ``3 N`` draws are made in one call with an array of bounds,
    which numpy serves with the same stream as the scalar calls one by one (the pinned seeded
    trajectories of ``tests/yaxha/test_pinned_trajectories.py`` check it)."""
    left = list(bag)
    total = sum(left)
    cubes = CUBES_PER_TILE * num_tiles
    if isinstance(rng, np.random.Generator):
        draws = rng.integers(0, np.arange(total, total - cubes, -1)).tolist()
    else:
        draws = None
    market = []
    k = 0
    for _ in range(num_tiles):
        tile = [0] * NUM_COLOURS
        for _ in range(CUBES_PER_TILE):
            if draws is not None:
                r, colour = draws[k], 0
                while r >= left[colour]:
                    r -= left[colour]
                    colour += 1
            else:
                colour = draw(rng, lambda: weighted(left), _sampler(left, total), "cube")
            left[colour] -= 1
            tile[colour] += 1
            total -= 1
            k += 1
        market.append(tuple(tile))
    return tuple(market), tuple(left)


def _sampler(left: list[int], total: int):
    """The generator call of one cube (the script and recorder path of :func:`_draw_market`)."""

    def sample(g: np.random.Generator) -> int:
        r = int(g.integers(total))
        colour = 0
        while r >= left[colour]:
            r -= left[colour]
            colour += 1
        return colour

    return sample


FRONTIER_MEMO = 1024
"""Pyramids whose :class:`Frontier` a rules object remembers per generation (two generations)."""


class Frontier:
    """Where a cube may go on one pyramid (section 5), computed once per pyramid and updated
    cube by cube (:meth:`YaxhaRules.frontier`).

    Attributes:
        window: ``(lo_x, hi_x, lo_y, hi_y)``, where new base cubes keep the base's bounding box
            within 4 x 4; ``None`` while the base is empty.
        base: empty base cells where any cube may go, sorted.
        upper: empty cells above level 1 with all 4 supporting cubes present, sorted.
        touching: per cell of ``upper``, a bit mask of the colours among its same-level
            orthogonal neighbours and its supports (bit ``c`` set: a ``c`` cube may go there).
    """

    __slots__ = ("window", "base", "upper", "touching", "_offsets", "_cells", "_ids")

    def __init__(
        self,
        window: tuple[int, int, int, int] | None,
        base: tuple[int, ...],
        upper: tuple[int, ...],
        touching: tuple[int, ...],
        offsets: tuple[int, ...],
    ) -> None:
        self.window, self.base, self.upper, self.touching = window, base, upper, touching
        self._offsets = offsets
        self._cells: list[tuple[int, ...] | None] = [None] * NUM_COLOURS
        self._ids: list[tuple[int, ...] | None] = [None] * NUM_COLOURS

    def cells(self, colour: int) -> tuple[int, ...]:
        """Sorted cells where a ``colour`` cube may go (memoised)."""
        cells = self._cells[colour]
        if cells is None:
            bit = 1 << colour
            upper = tuple([u for u, mask in zip(self.upper, self.touching, strict=True) if mask & bit])
            cells = self._cells[colour] = self.base + upper
        return cells

    def allows(self, colour: int, cell: int) -> bool:
        """Whether a ``colour`` cube may go on ``cell`` (``cell in cells(colour)``, faster)."""
        if cell in self.base:
            return True
        upper = self.upper
        return cell in upper and bool(self.touching[upper.index(cell)] >> colour & 1)

    def ids(self, colour: int) -> tuple[int, ...]:
        """Sorted ids placing a ``colour`` cube (memoised)."""
        ids = self._ids[colour]
        if ids is None:
            offset, bit = self._offsets[colour], 1 << colour
            ids = [offset + cell for cell in self.base]
            ids += [offset + u for u, mask in zip(self.upper, self.touching, strict=True) if mask & bit]
            ids = self._ids[colour] = tuple(ids)
        return ids


class YaxhaRules(LegalActionCache):
    """Yaxha rules at one config (implements :class:`maya_envs.core.protocol.Rules`).

    Args:
        config: a :class:`YaxhaConfig`, a mapping of its fields, or ``None`` for defaults.
        **options: further fields as keywords (``num_players=3, footprint="fixed", ...``).

    Raises:
        ConfigError: see :func:`maya_envs.core.options.resolve_config`; an unknown key or a
            bad value.
    """

    wait_action = WAIT
    """The id an idle seat sends in a Parallel step (:data:`maya_envs.yaxha.actions.WAIT`)."""

    final_info_seat_keys = ()
    """No :meth:`final_info` value is a seat or ``None`` (``winners`` is a list)."""

    def __init__(self, config: YaxhaConfig | dict[str, Any] | None = None, **options: Any) -> None:
        self.config = config = resolve_config(YaxhaConfig, config, options)
        n = config.num_players
        self.num_players = n
        self.table = ActionTable(n, config.footprint)
        self.geometry = self.table.geometry
        self.spec = GameSpec(
            **GAME.identity,
            num_players=n,
            num_actions=self.table.num_actions,
            max_game_length=NUM_ROUNDS * (n + max(n - 2, 0) + CUBES_PER_TILE * n),
            reward_range=(-1.0, 1.0),
            chance=True,
            information="imperfect",
            simultaneous=True,
        )
        g = self.geometry
        self._empty_pyramid = (-1,) * g.num_cells
        self._all_base = g.base_cells
        self._base_xy = {i: g.coords[i][:2] for i in g.base_cells}
        self._offsets = tuple(self.table.place(colour, 0) for colour in range(NUM_COLOURS))
        self._discard_start = self.table.discard_start
        self._rests = tuple(tuple((v, itemgetter(*g.supports[v])) for v in g.covers[c]) for c in range(g.num_cells))
        self._new_round = {
            "choices": (-1,) * n,
            "owner": (-1,) * n,
            "hands": ((0,) * NUM_COLOURS,) * n,
            "build_step": 0,
            "fresh": ((),) * n,
        }
        self._frontiers: dict[int, tuple[tuple[int, ...], Frontier]] = {}
        self._old_frontiers: dict[int, tuple[tuple[int, ...], Frontier]] = {}

    # -- setup ------------------------------------------------------------------------------

    def initial_state(self, rng: np.random.Generator) -> YaxhaState:
        """Deal bonus cards, then initiative, then draw round 1's market (in that order).

        Explicit chance (``rng`` an :class:`~maya_envs.core.chance.OutcomeScript`): one chance
        node per bonus card (uniform over the pool's cards not drawn yet), one per seat's
        initiative (seat 0 first; outcome ``k`` means initiative ``k + 1``, uniform over the
        values not dealt yet), then one per market cube (see :func:`_draw_market`)."""
        n, cfg = self.num_players, self.config
        if isinstance(cfg.bonus_cards, tuple):
            bonus = cfg.bonus_cards
        else:
            pool = cfg.bonus_pool()
            drawn = draw_sequence(
                rng,
                [int(c) for c in pool],
                NUM_BONUS_IN_PLAY,
                lambda g: [int(pool[i]) for i in g.choice(len(pool), NUM_BONUS_IN_PLAY, replace=False)],
                "bonus card",
            )
            bonus = tuple(sorted(drawn))
        order = draw_sequence(rng, range(n), n, lambda g: [int(i) for i in g.permutation(n)], "initiative")
        initiative = tuple(i + 1 for i in order)
        market, bag = _draw_market((cfg.cubes_per_colour,) * NUM_COLOURS, n, rng)
        return YaxhaState(
            round=0,
            phase=SELECT,
            bag=bag,
            market=market,
            initiative=initiative,
            choices=(-1,) * n,
            owner=(-1,) * n,
            pending=(),
            hands=((0,) * NUM_COLOURS,) * n,
            build_step=0,
            pyramids=(self._empty_pyramid,) * n,
            fresh=((),) * n,
            discarded=(0,) * n,
            bonus_cards=bonus,
        )

    # -- whose turn -------------------------------------------------------------------------

    def current_player(self, state: YaxhaState) -> int:
        """Seat to decide: first seat without a choice (select), the first pending seat, or
        ``build_step % N`` (round-robin building); -1 when over."""
        phase = state.phase
        if phase == SELECT:
            return state.choices.index(-1)
        if phase == PENDING:
            return state.pending[0]
        if phase == BUILD:
            return state.build_step % self.num_players
        return -1

    def parallel_seats(self, state: YaxhaState) -> tuple[int, ...]:
        """Seats acting in the next parallel step, in the order their actions are applied:
        the seats still to choose (select), the first pending seat, or the rest of the
        current building micro-round. Each one's legal actions do not depend on the others'
        actions in the same step (see :meth:`legal_actions_for`)."""
        phase = state.phase
        if phase == SELECT:
            return tuple(s for s, c in enumerate(state.choices) if c < 0)
        if phase == PENDING:
            return (state.pending[0],)
        if phase == BUILD:
            return tuple(range(state.build_step % self.num_players, self.num_players))
        return ()

    # -- legality ---------------------------------------------------------------------------

    def frontier(self, pyramid: tuple[int, ...]) -> Frontier:
        """The :class:`Frontier` of ``pyramid`` (memoised by the pyramid object: the rules keep
        the last 2 x :data:`FRONTIER_MEMO` pyramids they saw, and a pyramid made by
        :meth:`apply_action` gets its frontier from its predecessor's, cube by cube)."""
        entry = self._frontiers.get(id(pyramid))
        if entry is not None and entry[0] is pyramid:
            return entry[1]
        entry = self._old_frontiers.get(id(pyramid))
        frontier = entry[1] if entry is not None and entry[0] is pyramid else self._build_frontier(pyramid)
        self._remember(pyramid, frontier)
        return frontier

    def _remember(self, pyramid: tuple[int, ...], frontier: Frontier) -> None:
        memo = self._frontiers
        if len(memo) >= FRONTIER_MEMO:
            self._old_frontiers, self._frontiers = memo, {}
            memo = self._frontiers
        memo[id(pyramid)] = (pyramid, frontier)  # the pyramid is held, so its id stays its own

    def _build_frontier(self, pyramid: tuple[int, ...]) -> Frontier:
        """:class:`Frontier` of ``pyramid`` from scratch (section 5)."""
        g = self.geometry
        xy, orth = self._base_xy, g.orth
        occupied = [xy[i] for i in g.base_cells if pyramid[i] >= 0]
        if not occupied:
            window = None
            base = (g.anchor,) if g.anchor is not None else g.base_cells
        else:
            xs = [x for x, _ in occupied]
            ys = [y for _, y in occupied]
            window = lo_x, hi_x, lo_y, hi_y = (max(xs) - 3, min(xs) + 3, max(ys) - 3, min(ys) + 3)
            base = tuple(
                i
                for i in g.base_cells
                if pyramid[i] < 0
                and lo_x <= xy[i][0] <= hi_x
                and lo_y <= xy[i][1] <= hi_y
                and any(pyramid[j] >= 0 for j in orth[i])
            )
        sup = g.supports
        upper = tuple(i for i in g.upper_cells if pyramid[i] < 0 and all(pyramid[j] >= 0 for j in sup[i]))
        return Frontier(window, base, upper, tuple(self._touching(pyramid, u) for u in upper), self._offsets)

    def _touching(self, pyramid: tuple[int, ...], cell: int) -> int:
        mask = 0
        for j in self.geometry.touch[cell]:
            colour = pyramid[j]
            if colour >= 0:
                mask |= 1 << colour
        return mask

    def _frontier_after(self, frontier: Frontier, after: tuple[int, ...], cell: int, colour: int) -> Frontier:
        """The :class:`Frontier` of ``after``: the pyramid of ``frontier`` with a ``colour`` cube
        added on ``cell`` (one of its legal cells). Only the cells around ``cell`` change: a
        base cube moves the base candidates (and may shrink the window); an upper cube leaves
        the upper candidates and gives its colour to the candidates beside it; either may
        complete the supports of the cells resting on it."""
        g = self.geometry
        window, base, upper, touching = frontier.window, frontier.base, frontier.upper, frontier.touching
        orth = g.orth[cell]
        if g.level[cell] == 0:
            x, y = self._base_xy[cell]
            if window is None:
                window = (x - 3, x + 3, y - 3, y + 3)
                base = tuple(sorted(orth))  # all empty, all inside the new window
            else:
                new_window = (
                    max(window[0], x - 3),
                    min(window[1], x + 3),
                    max(window[2], y - 3),
                    min(window[3], y + 3),
                )
                xy = self._base_xy
                lo_x, hi_x, lo_y, hi_y = new_window
                cells = set(base)
                cells.discard(cell)
                if new_window != window:
                    window = new_window
                    cells = {i for i in cells if lo_x <= xy[i][0] <= hi_x and lo_y <= xy[i][1] <= hi_y}
                cells.update(j for j in orth if after[j] < 0 and lo_x <= xy[j][0] <= hi_x and lo_y <= xy[j][1] <= hi_y)
                base = tuple(sorted(cells))
        else:
            i = upper.index(cell)
            upper, touching = upper[:i] + upper[i + 1 :], touching[:i] + touching[i + 1 :]
            bit = 1 << colour
            for j in orth:
                if j in upper:
                    k = upper.index(j)
                    touching = touching[:k] + (touching[k] | bit,) + touching[k + 1 :]
        new = [v for v, supports in self._rests[cell] if after[v] < 0 and min(supports(after)) >= 0]
        if new:
            pairs = sorted([*zip(upper, touching, strict=True), *((v, self._touching(after, v)) for v in new)])
            upper, touching = tuple(u for u, _ in pairs), tuple(m for _, m in pairs)
        return Frontier(window, base, upper, touching, self._offsets)

    def base_window(self, pyramid: tuple[int, ...]) -> tuple[int, int, int, int] | None:
        """``(lo_x, hi_x, lo_y, hi_y)``: where new base cubes keep the base's bounding box within
        4 x 4 (section 5); ``None`` while the base is empty."""
        return self.frontier(pyramid).window

    def cell_is_legal(self, pyramid: tuple[int, ...], colour: int, cell: int) -> bool:
        """Whether a ``colour`` cube may go on ``cell`` now (section 5): the cell is empty; a
        base cell is the anchor (floating) or any cell (fixed) for the first cube, else it
        touches a base cube orthogonally inside :meth:`base_window`; an upper cell has its 4
        supports and a same-colour cube among its same-level orthogonal neighbours or supports."""
        return self.frontier(pyramid).allows(colour, cell)

    def base_candidates(self, pyramid: tuple[int, ...]) -> list[int]:
        """Empty base cells where any cube may go (section 5), sorted."""
        return list(self.frontier(pyramid).base)

    def upper_candidates(self, pyramid: tuple[int, ...]) -> list[int]:
        """Empty cells above level 1 with all 4 supporting cubes present (section 5 a), sorted."""
        return list(self.frontier(pyramid).upper)

    def legal_cells(self, pyramid: tuple[int, ...], colour: int) -> list[int]:
        """Sorted cells where a ``colour`` cube may go now (section 5: base adjacency and
        4 x 4 bounding box; upper: full support and same-colour contact below or beside)."""
        return list(self.frontier(pyramid).cells(colour))

    def legal_actions_for(self, state: YaxhaState, seat: int) -> list[int]:
        """Sorted legal ids of ``seat`` if it acts in the current parallel step, else ``[]``."""
        phase = state.phase
        if phase == SELECT:
            return list(range(self.num_players)) if state.choices[seat] < 0 else []
        if phase == PENDING:
            if seat != state.pending[0]:
                return []
            return [tile for tile, o in enumerate(state.owner) if o < 0]
        if phase == BUILD:
            if seat < state.build_step % self.num_players:
                return []
            return self.build_actions(state.hands[seat], state.pyramids[seat])
        return []

    def build_actions(self, hand: tuple[int, ...], pyramid: tuple[int, ...]) -> list[int]:
        """Sorted legal building ids of a seat with ``hand`` (5 colour counts) and ``pyramid``:
        every legal placement of a colour in hand, then the discards of the colours in hand
        with no legal cell (section 5)."""
        frontier = self.frontier(pyramid)
        places: list[int] = []
        discards = []
        for colour in range(NUM_COLOURS):
            if hand[colour]:
                ids = frontier.ids(colour)
                if ids:
                    places += ids
                else:
                    discards.append(self._discard_start + colour)
        return places + discards

    def place_cube(self, pyramid: tuple[int, ...], colour: int, cell: int) -> tuple[int, ...]:
        """``pyramid`` with a ``colour`` cube on ``cell``, its :meth:`frontier` derived from
        ``pyramid``'s (``cell`` must be legal for ``colour``: see :meth:`cell_is_legal`)."""
        after = pyramid[:cell] + (colour,) + pyramid[cell + 1 :]
        self._remember(after, self._frontier_after(self.frontier(pyramid), after, cell, colour))
        return after

    def _compute_legal(self, state: YaxhaState) -> list[int]:
        """Sorted legal ids of the current player; ``[]`` when over (memoised on the state by
        :class:`~maya_envs.core.legal.LegalActionCache`: ``legal_actions``, ``legal_mask``)."""
        if state.phase == OVER:
            return []
        return self.legal_actions_for(state, self.current_player(state))

    def _illegal(self, state: YaxhaState, action: int) -> IllegalActionError:
        return IllegalActionError(
            f"action {action} ({self.table.to_string(action)}) is illegal for seat {self.current_player(state)} "
            f"in phase {PHASES[state.phase]!r}; legal ids: {self.legal_actions(state)}"
        )

    # -- transitions ------------------------------------------------------------------------

    def apply_action(self, state: YaxhaState, action: int, rng: np.random.Generator) -> YaxhaState:
        """Return the state after the current player's ``action`` (section 4-5).

        ``rng`` is drawn from only when a round ends (the next market). ``action`` is an int or
        a numpy integer, taken as a Python ``int`` (:func:`~maya_envs.core.legal.check_action_id`),
        so the new state holds no numpy scalar.

        Raises:
            IllegalActionError: ``action`` is not an integer id in ``0..num_actions - 1`` (the
                message names the value and the range) or is not legal now (the message names
                the action, the phase and the legal ids).
        """
        t, phase = self.table, state.phase
        action = check_action_id(action, t.num_actions)
        if phase == SELECT and 0 <= action < t.place_start:
            choices = state.choices
            seat = choices.index(-1)
            choices = choices[:seat] + (action,) + choices[seat + 1 :]
            if -1 in choices:
                return evolve(state, choices=choices)
            return self._resolve(state, choices)
        if phase == PENDING and 0 <= action < t.place_start and state.owner[action] < 0:
            seat = state.pending[0]
            owner = state.owner[:action] + (seat,) + state.owner[action + 1 :]
            return self._after_picks(state, state.choices, owner, state.pending[1:])
        if phase == BUILD and t.place_start <= action < t.num_actions:
            seat = state.build_step % self.num_players
            hand, pyramid = state.hands[seat], state.pyramids[seat]
            frontier = self.frontier(pyramid)
            if action < t.discard_start:
                colour, cell = divmod(action - t.place_start, t.num_cells)
                if hand[colour] and frontier.allows(colour, cell):
                    after = pyramid[:cell] + (colour,) + pyramid[cell + 1 :]
                    self._remember(after, self._frontier_after(frontier, after, cell, colour))
                    fresh = state.fresh[seat] + (cell,)
                    return self._after_build(state, seat, colour, after, fresh, 0, rng)
            else:
                colour = action - t.discard_start
                if hand[colour] and not frontier.cells(colour):
                    return self._after_build(state, seat, colour, pyramid, state.fresh[seat], 1, rng)
        raise self._illegal(state, action)

    def _resolve(self, state: YaxhaState, choices: tuple[int, ...]) -> YaxhaState:
        """All choices are in: uncontested tiles and clash winners take theirs (section 4.3)."""
        init = state.initiative
        owner = [-1] * self.num_players
        pending = []
        for seat in sorted(range(self.num_players), key=init.__getitem__):
            tile = choices[seat]
            if owner[tile] < 0:
                owner[tile] = seat
            else:
                pending.append(seat)
        return self._after_picks(state, choices, tuple(owner), tuple(pending))

    def _after_picks(
        self, state: YaxhaState, choices: tuple[int, ...], owner: tuple[int, ...], pending: tuple[int, ...]
    ) -> YaxhaState:
        """Force the last pending pick; once every tile is taken, swap initiative and build."""
        if len(pending) == 1:
            tile = owner.index(-1)
            owner = owner[:tile] + (pending[0],) + owner[tile + 1 :]
            pending = ()
        if pending:
            return evolve(state, phase=PENDING, choices=choices, owner=owner, pending=pending)
        hands = [None] * self.num_players
        for tile, seat in enumerate(owner):
            hands[seat] = state.market[tile]
        return evolve(
            state,
            phase=BUILD,
            choices=choices,
            owner=owner,
            pending=(),
            initiative=swap_initiative(state.initiative, choices),
            hands=tuple(hands),
            build_step=0,
        )

    def _after_build(
        self,
        state: YaxhaState,
        seat: int,
        colour: int,
        pyramid: tuple[int, ...],
        fresh: tuple[int, ...],
        discarded: int,
        rng: np.random.Generator,
    ) -> YaxhaState:
        """One cube placed or discarded; after the last one, the next round's market (or the end)."""
        hand = state.hands[seat]
        hand = hand[:colour] + (hand[colour] - 1,) + hand[colour + 1 :]
        step = state.build_step + 1
        pyramids = state.pyramids[:seat] + (pyramid,) + state.pyramids[seat + 1 :]
        disc = state.discarded
        if discarded:
            disc = disc[:seat] + (disc[seat] + discarded,) + disc[seat + 1 :]
        n = self.num_players
        if step < CUBES_PER_TILE * n:
            return evolve(
                state,
                hands=state.hands[:seat] + (hand,) + state.hands[seat + 1 :],
                build_step=step,
                pyramids=pyramids,
                fresh=state.fresh[:seat] + (fresh,) + state.fresh[seat + 1 :],
                discarded=disc,
            )
        if state.round + 1 == NUM_ROUNDS:
            return evolve(state, round=NUM_ROUNDS, phase=OVER, pyramids=pyramids, discarded=disc, **self._new_round)
        market, bag = _draw_market(state.bag, n, rng)
        return evolve(
            state,
            round=state.round + 1,
            phase=SELECT,
            market=market,
            bag=bag,
            pyramids=pyramids,
            discarded=disc,
            **self._new_round,
        )

    # -- end ----------------------------------------------------------------------------------

    def is_terminal(self, state: YaxhaState) -> bool:
        """True after the 10th round's building."""
        return state.phase == OVER

    def is_truncated(self, state: YaxhaState) -> bool:
        """Always False: the game has a fixed length of 10 rounds."""
        return False

    def scores(self, state: YaxhaState) -> list[dict[str, Any]]:
        """Per-seat score breakdown of the current pyramids (see
        :func:`maya_envs.yaxha.scoring.score_pyramids`); meaningful at any time. Computed once
        per state (memoised on it); each call returns its own copy."""
        return [
            {**seat, "colour_points": dict(seat["colour_points"]), "largest_group": dict(seat["largest_group"]),
             "bonus": dict(seat["bonus"])}
            for seat in self._scores(state)
        ]  # fmt: skip

    def totals(self, state: YaxhaState) -> list[int]:
        """Per-seat total score of the current pyramids (the ``"total"`` of :meth:`scores`)."""
        return [seat["total"] for seat in self._scores(state)]

    def _scores(self, state: YaxhaState) -> list[dict[str, Any]]:
        """:meth:`scores`, memoised on the state (read only)."""
        scores = state._cache.get("scores")
        if scores is None:
            config = self.config
            scores = score_pyramids(self.geometry, state.pyramids, state.bonus_cards, config.bonus_zero_ties_score)
            state._cache["scores"] = scores
        return scores

    def returns(self, state: YaxhaState) -> np.ndarray:
        """``float64 (N,)``: zeros before the end; then the ``reward_scheme`` (decision 11)."""
        n = self.num_players
        out = np.zeros(n, np.float64)
        if state.phase != OVER:
            return out
        totals = np.array(self.totals(state), np.float64)
        if self.config.reward_scheme == "score_diff":
            return (totals - (totals.sum() - totals) / (n - 1)) / SCORE_SCALE
        winners = totals == totals.max()
        w = int(winners.sum())
        if w < n:
            out[winners] = 1.0 / w
            out[~winners] = -1.0 / (n - w)
        return out

    def idle_seats(self) -> tuple[int, ...]:
        """Seats that never decide: none (every seat decides every round)."""
        return ()

    def team_of(self, seat: int) -> tuple[int, ...]:
        """No teams: ``(seat,)``."""
        return (seat,)

    def winners(self, state: YaxhaState) -> list[int]:
        """Seats with the highest total (shared wins); meaningful once over."""
        totals = self.totals(state)
        return [seat for seat, t in enumerate(totals) if t == max(totals)]

    def final_info(self, state: YaxhaState) -> dict[str, Any]:
        """JSON-able: ``scores`` (totals), ``winners``, ``breakdown`` (per seat: colour points,
        largest groups, bonus points per card), ``bonus_cards``, ``discarded`` and ``end``
        (``"last_round"``: the game's only end, after round 10's building)."""
        scores = self.scores(state)
        totals = [s["total"] for s in scores]
        return {
            "scores": totals,
            "winners": [seat for seat, t in enumerate(totals) if t == max(totals)],
            "breakdown": scores,
            "bonus_cards": list(state.bonus_cards),
            "discarded": list(state.discarded),
            "end": "last_round" if state.phase == OVER else None,
        }

    # -- serialisation ----------------------------------------------------------------------

    def state_to_dict(self, state: YaxhaState) -> dict[str, Any]:
        """JSON-able dict of ``state`` (:func:`maya_envs.yaxha.serialize.to_dict`, schema
        ``yaxha.state`` version 2)."""
        return serialize.to_dict(state, self)

    def state_from_dict(self, data: dict[str, Any]) -> YaxhaState:
        """Inverse of :meth:`state_to_dict`, validated against this rules object (version 1
        dicts load too).

        Raises:
            StateError: a wrong schema or version, player count or footprint, a missing or
                unknown key, a bad field (named), or a state these rules cannot play: a broken
                invariant of :func:`maya_envs.yaxha.invariants.check_invariants`.
        """
        return serialize.from_dict(data, self)

    # -- views ------------------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        """Readable notation (see :mod:`maya_envs.yaxha.actions`)."""
        return self.table.to_string(action)
