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

import dataclasses
from typing import Any

import numpy as np

from maya_envs.core.chance import draw, draw_sequence, weighted
from maya_envs.core.errors import IllegalActionError
from maya_envs.core.legal import LegalActionCache
from maya_envs.core.options import resolve_config
from maya_envs.core.spec import GameSpec
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
)

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
    new = list(initiative)
    for tile in set(choices):
        group = sorted((s for s, c in enumerate(choices) if c == tile), key=initiative.__getitem__)
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
    with probability ``bag[c] / len(bag)`` (the cubes left in the bag)."""
    left = list(bag)
    total = sum(left)
    market = []

    def sample(g: np.random.Generator) -> int:
        r = int(g.integers(total))
        colour = 0
        while r >= left[colour]:
            r -= left[colour]
            colour += 1
        return colour

    for _ in range(num_tiles):
        tile = [0] * NUM_COLOURS
        for _ in range(CUBES_PER_TILE):
            colour = draw(rng, lambda: weighted(left), sample, "cube")
            left[colour] -= 1
            tile[colour] += 1
            total -= 1
        market.append(tuple(tile))
    return tuple(market), tuple(left)


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

    def __init__(self, config: YaxhaConfig | dict[str, Any] | None = None, **options: Any) -> None:
        self.config = config = resolve_config(YaxhaConfig, config, options)
        n = config.num_players
        self.num_players = n
        self.table = ActionTable(n, config.footprint)
        self.geometry = self.table.geometry
        self.spec = GameSpec(
            name="yaxha_v1",
            title="Yaxha",
            version=1,
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
        self._window_cache: tuple[Any, Any] = (None, None)

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

    def base_window(self, pyramid: tuple[int, ...]) -> tuple[int, int, int, int] | None:
        """``(lo_x, hi_x, lo_y, hi_y)``: where new base cubes keep the base's bounding box within
        4 x 4 (section 5); ``None`` while the base is empty. Memoised by identity."""
        cached = self._window_cache
        if cached[0] is pyramid:
            return cached[1]
        xy = self._base_xy
        occupied = [xy[i] for i in self.geometry.base_cells if pyramid[i] >= 0]
        window = None
        if occupied:
            xs = [x for x, _ in occupied]
            ys = [y for _, y in occupied]
            window = (max(xs) - 3, min(xs) + 3, max(ys) - 3, min(ys) + 3)
        self._window_cache = (pyramid, window)
        return window

    def cell_is_legal(self, pyramid: tuple[int, ...], colour: int, cell: int) -> bool:
        """Whether a ``colour`` cube may go on ``cell`` now (section 5): the cell is empty; a
        base cell is the anchor (floating) or any cell (fixed) for the first cube, else it
        touches a base cube orthogonally inside :meth:`base_window`; an upper cell has its 4
        supports and a same-colour cube among its same-level orthogonal neighbours or supports."""
        if pyramid[cell] >= 0:
            return False
        g = self.geometry
        if g.level[cell] == 0:
            window = self.base_window(pyramid)
            if window is None:
                return g.anchor is None or cell == g.anchor
            x, y = self._base_xy[cell]
            return (
                window[0] <= x <= window[1]
                and window[2] <= y <= window[3]
                and any(pyramid[j] >= 0 for j in g.orth[cell])
            )
        return all(pyramid[j] >= 0 for j in g.supports[cell]) and any(pyramid[j] == colour for j in g.touch[cell])

    def base_candidates(self, pyramid: tuple[int, ...]) -> list[int]:
        """Empty base cells where any cube may go (section 5), sorted."""
        g = self.geometry
        window = self.base_window(pyramid)
        if window is None:
            return [g.anchor] if g.anchor is not None else list(g.base_cells)
        lo_x, hi_x, lo_y, hi_y = window
        xy, orth = self._base_xy, g.orth
        out = []
        for i in g.base_cells:
            if pyramid[i] < 0:
                x, y = xy[i]
                if lo_x <= x <= hi_x and lo_y <= y <= hi_y and any(pyramid[j] >= 0 for j in orth[i]):
                    out.append(i)
        return out

    def upper_candidates(self, pyramid: tuple[int, ...]) -> list[int]:
        """Empty cells above level 1 with all 4 supporting cubes present (section 5 a), sorted."""
        sup = self.geometry.supports
        return [i for i in self.geometry.upper_cells if pyramid[i] < 0 and all(pyramid[j] >= 0 for j in sup[i])]

    def legal_cells(self, pyramid: tuple[int, ...], colour: int) -> list[int]:
        """Sorted cells where a ``colour`` cube may go now (section 5: base adjacency and
        4 x 4 bounding box; upper: full support and same-colour contact below or beside)."""
        touch = self.geometry.touch
        upper = [i for i in self.upper_candidates(pyramid) if any(pyramid[j] == colour for j in touch[i])]
        return self.base_candidates(pyramid) + upper

    def legal_actions_for(self, state: YaxhaState, seat: int) -> list[int]:
        """Sorted legal ids of ``seat`` if it acts in the current parallel step, else ``[]``."""
        phase, t = state.phase, self.table
        if phase == SELECT:
            return list(range(self.num_players)) if state.choices[seat] < 0 else []
        if phase == PENDING:
            if seat != state.pending[0]:
                return []
            return [tile for tile, o in enumerate(state.owner) if o < 0]
        if phase == BUILD:
            if seat < state.build_step % self.num_players:
                return []
            hand, pyramid = state.hands[seat], state.pyramids[seat]
            places, discards = [], []
            base = None
            for colour in range(NUM_COLOURS):
                if hand[colour]:
                    if base is None:
                        base = self.base_candidates(pyramid)
                        upper = self.upper_candidates(pyramid)
                    touch = self.geometry.touch
                    cells = base + [i for i in upper if any(pyramid[j] == colour for j in touch[i])]
                    if cells:
                        places.extend(t.place(colour, c) for c in cells)
                    else:
                        discards.append(t.discard(colour))
            return places + discards
        return []

    def _compute_legal(self, state: YaxhaState) -> list[int]:
        """Sorted legal ids of the current player; ``[]`` when over (memoised on the state by
        :class:`~maya_envs.core.legal.LegalActionCache`: ``legal_actions``, ``legal_mask``)."""
        if state.phase == OVER:
            return []
        return self.legal_actions_for(state, self.current_player(state))

    def _illegal(self, state: YaxhaState, action: int) -> IllegalActionError:
        name = self.table.to_string(action) if 0 <= action < self.table.num_actions else "out of range"
        return IllegalActionError(
            f"action {action} ({name}) is illegal for seat {self.current_player(state)} in phase "
            f"{PHASES[state.phase]!r}; legal ids: {self.legal_actions(state)}"
        )

    # -- transitions ------------------------------------------------------------------------

    def apply_action(self, state: YaxhaState, action: int, rng: np.random.Generator) -> YaxhaState:
        """Return the state after the current player's ``action`` (section 4-5).

        ``rng`` is drawn from only when a round ends (the next market).

        Raises:
            IllegalActionError: ``action`` is not legal now; the message names the action, the
                phase and the legal ids.
        """
        t, phase = self.table, state.phase
        action = int(action) if isinstance(action, (int, np.integer)) and not isinstance(action, bool) else -1
        if phase == SELECT and 0 <= action < t.place_start:
            seat = state.choices.index(-1)
            choices = state.choices[:seat] + (action,) + state.choices[seat + 1 :]
            if -1 in choices:
                return dataclasses.replace(state, choices=choices)
            return self._resolve(state, choices)
        if phase == PENDING and 0 <= action < t.place_start and state.owner[action] < 0:
            seat = state.pending[0]
            owner = state.owner[:action] + (seat,) + state.owner[action + 1 :]
            return self._after_picks(state, state.choices, owner, state.pending[1:])
        if phase == BUILD and t.place_start <= action < t.num_actions:
            seat = state.build_step % self.num_players
            hand, pyramid = state.hands[seat], state.pyramids[seat]
            if action < t.discard_start:
                colour, cell = divmod(action - t.place_start, t.num_cells)
                if hand[colour] and self.cell_is_legal(pyramid, colour, cell):
                    pyramid = pyramid[:cell] + (colour,) + pyramid[cell + 1 :]
                    fresh = state.fresh[seat] + (cell,)
                    return self._after_build(state, seat, colour, pyramid, fresh, 0, rng)
            else:
                colour = action - t.discard_start
                if hand[colour] and not self.legal_cells(pyramid, colour):
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
            return dataclasses.replace(state, phase=PENDING, choices=choices, owner=owner, pending=pending)
        hands = [None] * self.num_players
        for tile, seat in enumerate(owner):
            hands[seat] = state.market[tile]
        return dataclasses.replace(
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

        def put(values, value):
            return values[:seat] + (value,) + values[seat + 1 :]

        step = state.build_step + 1
        pyramids = put(state.pyramids, pyramid)
        disc = put(state.discarded, state.discarded[seat] + discarded) if discarded else state.discarded
        if step < CUBES_PER_TILE * self.num_players:
            return dataclasses.replace(
                state,
                hands=put(state.hands, hand),
                build_step=step,
                pyramids=pyramids,
                fresh=put(state.fresh, fresh),
                discarded=disc,
            )
        n = self.num_players
        common = dict(
            choices=(-1,) * n,
            owner=(-1,) * n,
            hands=((0,) * NUM_COLOURS,) * n,
            build_step=0,
            pyramids=pyramids,
            fresh=((),) * n,
            discarded=disc,
        )
        if state.round + 1 == NUM_ROUNDS:
            return dataclasses.replace(state, round=NUM_ROUNDS, phase=OVER, **common)
        market, bag = _draw_market(state.bag, n, rng)
        return dataclasses.replace(state, round=state.round + 1, phase=SELECT, market=market, bag=bag, **common)

    # -- end ----------------------------------------------------------------------------------

    def is_terminal(self, state: YaxhaState) -> bool:
        """True after the 10th round's building."""
        return state.phase == OVER

    def is_truncated(self, state: YaxhaState) -> bool:
        """Always False: the game has a fixed length of 10 rounds."""
        return False

    def scores(self, state: YaxhaState) -> list[dict[str, Any]]:
        """Per-seat score breakdown of the current pyramids (see
        :func:`maya_envs.yaxha.scoring.score_pyramids`); meaningful at any time."""
        return score_pyramids(self.geometry, state.pyramids, state.bonus_cards, self.config.bonus_zero_ties_score)

    def returns(self, state: YaxhaState) -> np.ndarray:
        """``float64 (N,)``: zeros before the end; then the ``reward_scheme`` (decision 11)."""
        n = self.num_players
        out = np.zeros(n, np.float64)
        if state.phase != OVER:
            return out
        totals = np.array([s["total"] for s in self.scores(state)], np.float64)
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
        totals = [s["total"] for s in self.scores(state)]
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
                unknown key, or a bad field (named).
        """
        return serialize.from_dict(data, self)

    # -- views ------------------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        """Readable notation (see :mod:`maya_envs.yaxha.actions`)."""
        return self.table.to_string(action)
