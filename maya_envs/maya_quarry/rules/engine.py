"""The rules object of Maya (Abacusspiele 2003): phase flow, legal actions, returns.

The phase modules (:mod:`.building`: setup and building; :mod:`.quarry`: worker placement,
-3 targets, the green markers won at a quarry, transport; :mod:`.auction`: the advanced
variant's bids and blue markers; :mod:`.scoring`) hold the rules of each phase, each decision
as a ``(legal, apply)`` handler pair in :data:`HANDLERS`. This module keeps the game flow
(setup -> 3 x [auction -> workers -> distribution -> transport -> building -> scoring/erosion])
and implements the :class:`~maya_envs.core.protocol.Rules` protocol. Rule decisions are listed
in :mod:`maya_envs.maya_quarry.rules`.

Pure: standard library and numpy only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

import maya_envs.maya_quarry.actions as A
from maya_envs.core.chance import draw, draw_sequence, uniform
from maya_envs.core.errors import IllegalActionError
from maya_envs.core.legal import LegalActionCache, check_action_id
from maya_envs.core.options import resolve_config
from maya_envs.core.spec import GameSpec
from maya_envs.games import game_of_module
from maya_envs.maya_quarry.rules import auction, building, quarry, scoring, serialize
from maya_envs.maya_quarry.rules import config as C
from maya_envs.maya_quarry.rules.config import ADVANCED_STARTING_GOLD, MayaQuarryConfig, load_components
from maya_envs.maya_quarry.rules.state import NUM_ROUNDS, PHASE_NAMES, MayaQuarryState, Phase

GAME = game_of_module(__name__)
"""This game's entry in :data:`maya_envs.games.GAMES`: its name, title and version."""

L = A.MAX_LEVELS


MAX_CHANCE_OUTCOMES = max(5, A.NUM_BLUE)
"""Largest chance outcome id + 1: the start seat (0-4) and the blue markers drawn."""


class MayaQuarryRules(LegalActionCache):
    """The :class:`~maya_envs.core.protocol.Rules` of Maya (Abacusspiele 2003) at one config.

    Args:
        config: a :class:`MayaQuarryConfig`, a mapping of its fields, or ``None`` (3 players,
            every default).

    Attributes:
        config: the validated options.
        components: the component table for ``num_players`` (non-canonical unless a user table
            says otherwise).
        spec: :class:`~maya_envs.core.spec.GameSpec`; ``num_actions`` = 114 (basic) or 164
            (advanced) for every player count; the observation (and its shape) is
            :class:`maya_envs.maya_quarry.observation.MayaQuarryObserver`'s.
        advanced: ``config.variant == "advanced"``.

    Raises:
        ConfigError: an unknown option, a bad value, or a bad component table (the message
            names the field).
    """

    final_info_seat_keys = ()
    """No :meth:`final_info` value is a seat or ``None`` (``winners`` is a list)."""

    def __init__(self, config: MayaQuarryConfig | Mapping[str, Any] | None = None, **options: Any) -> None:
        self.config = config = resolve_config(MayaQuarryConfig, config, options)
        self.components = comp = load_components(config.components, config.num_players)
        self.num_players = n = config.num_players
        self.num_quarries = len(comp.quarries)
        self.num_pyramids = len(comp.pyramids)
        self.pyramid_names = tuple(p.name for p in comp.pyramids)
        self.advanced = config.variant == "advanced"
        num_actions = A.NUM_ACTIONS_ADVANCED if self.advanced else A.NUM_ACTIONS
        self.starting_gold = ADVANCED_STARTING_GOLD if self.advanced else 0
        per_round = n * (len(A.CARD_VALUES) + 2) + n + 2 * self.num_quarries + n * (comp.blocks_per_color + 2)
        if self.advanced:  # n bids, n - 1 marker picks, +2 points, joker (+ 2 follow-ups)
            per_round += 2 * n + 3
        top_gold = sum(level[1] for p in comp.pyramids for level in p.levels) + comp.blocks_per_color
        bound = (
            1.0
            if config.reward_scheme == "win_loss"
            else (NUM_ROUNDS * top_gold + self.starting_gold) / config.gold_diff_scale
        )
        self.spec = GameSpec(
            **GAME.identity,
            num_players=n,
            num_actions=num_actions,
            max_game_length=n * comp.starting_blocks + NUM_ROUNDS * per_round,
            reward_range=(-bound, bound),
            chance=self.advanced and n - 1 < A.NUM_BLUE,  # draws after initial_state: the blue markers
            information="imperfect",
        )

    # -- protocol --------------------------------------------------------------------------

    def initial_state(self, rng: np.random.Generator | None = None) -> MayaQuarryState:
        """The state before the first setup placement (start player drawn from ``rng`` only
        with ``first_start_player="random"``).

        Explicit chance (:mod:`maya_envs.core.chance`): the start player is one chance node
        (uniform over the seats); the advanced variant's ``n - 1`` blue markers of a round are
        ``n - 1`` chance nodes, each uniform over the markers not drawn yet.

        Raises:
            ValueError: ``rng`` is ``None`` but a draw is needed.
        """
        cfg, comp, n = self.config, self.components, self.num_players
        if cfg.first_start_player == "random":
            if rng is None:
                raise ValueError("first_start_player='random' needs a generator")
            start = draw(rng, lambda: uniform(range(n)), lambda g: int(g.integers(n)), "start player")
        else:
            start = cfg.first_start_player
        s = MayaQuarryState(
            num_players=n,
            round=0,
            phase=Phase.SETUP,
            start=start,
            turn=start,
            actor=start,
            gold=[self.starting_gold] * n,
            pool=[comp.blocks_per_color - comp.starting_blocks] * n,
            held=[comp.starting_blocks] * n,
            board=[0] * (self.num_pyramids * L * n),
            hands=list(A.CARD_COUNTS) * n,
            passed=[False] * n,
            columns=[[] for _ in range(self.num_quarries)],
            resolving=self.num_quarries,
            deduct=[0] * n,
            pending=[],
            protect_q=-1,
            protect_seat=-1,
            holder=[-1] * 7,
            ever_full=[False] * (self.num_pyramids * L),
            bids=[-1] * n,
        )
        if comp.starting_blocks == 0:
            self.begin_round(s, 0, rng)
        return self._settle(s, rng)

    def current_player(self, state: MayaQuarryState) -> int:
        return -1 if state.phase == Phase.OVER else state.actor

    def apply_action(
        self, state: MayaQuarryState, action: int, rng: np.random.Generator | None = None
    ) -> MayaQuarryState:
        """The state after the current player takes ``action`` (``state`` is not changed).

        With ``skip_forced`` the engine then takes every decision that has exactly one legal
        action.

        ``action`` is an int or a numpy integer, taken as a Python ``int``
        (:func:`~maya_envs.core.legal.check_action_id`), so the new state holds no numpy scalar.

        Raises:
            IllegalActionError: ``action`` is not an integer id in ``0..num_actions - 1`` (the
                message names the value and the range) or is not legal here (the message names
                the action, the phase and the legal ids).
            ValueError: ``rng`` is ``None`` but the advanced variant must draw the next round's
                blue markers (3 or 4 players).
        """
        action = check_action_id(action, self.spec.num_actions)
        legal = state._cache.get("legal")
        if legal is None:
            legal = state._cache["legal"] = self._compute_legal(state)
        if action not in legal:
            raise IllegalActionError(
                f"action {action} ({self.action_to_string(action)}) is illegal in phase {PHASE_NAMES[state.phase]} "
                f"for seat {self.current_player(state)}; legal ids: {self.legal_actions(state)}"
            )
        s = state.clone()
        self._step(s, action, rng)
        return self._settle(s, rng)

    def is_terminal(self, state: MayaQuarryState) -> bool:
        return state.phase == Phase.OVER

    def is_truncated(self, state: MayaQuarryState) -> bool:
        return False

    def returns(self, state: MayaQuarryState) -> np.ndarray:
        """Rules file section 6: ``win_loss`` (+1/w to each of the w winners, -1/(n-w) to the
        others, all 0 if everyone wins) or ``gold_diff`` (own gold minus the others' mean, over
        ``gold_diff_scale``). Zero-sum; zeros before the end."""
        n = self.num_players
        out = np.zeros(n, np.float64)
        if state.phase != Phase.OVER:
            return out
        if self.config.reward_scheme == "gold_diff":
            total = sum(state.gold)
            for seat in range(n):
                others = (total - state.gold[seat]) / (n - 1)
                out[seat] = (state.gold[seat] - others) / self.config.gold_diff_scale
            return out
        won = scoring.winners(state)
        if len(won) < n:
            out[:] = -1.0 / (n - len(won))
            out[won] = 1.0 / len(won)
        return out

    def idle_seats(self) -> tuple[int, ...]:
        """Seats that never decide: none (every seat decides every round)."""
        return ()

    def team_of(self, seat: int) -> tuple[int, ...]:
        """No teams: ``(seat,)``."""
        return (seat,)

    def action_to_string(self, action: int) -> str:
        return A.action_to_string(action, self.pyramid_names, self.spec.num_actions)

    def final_info(self, state: MayaQuarryState) -> dict[str, Any]:
        """Lists are indexed by seat: ``gold``, ``pool`` (the tie-break: fewer wins),
        ``blocks_on_board``; ``winners`` (seats); ``components_canonical``; ``end``
        (``"last_round"``: the game's only end, after the third round's scoring)."""
        n = self.num_players
        on_board = [sum(state.board[i] for i in range(seat, len(state.board), n)) for seat in range(n)]
        return {
            "gold": list(state.gold),
            "pool": list(state.pool),
            "blocks_on_board": on_board,
            "winners": scoring.winners(state) if state.phase == Phase.OVER else [],
            "end": "last_round" if state.phase == Phase.OVER else None,
            "components_canonical": self.components.canonical,
        }

    # -- serialisation --------------------------------------------------------------------

    def state_to_dict(self, state: MayaQuarryState) -> dict[str, Any]:
        """JSON-able dict of ``state`` (:func:`maya_envs.maya_quarry.rules.serialize.to_dict`, schema
        ``maya_quarry.state`` version 3)."""
        return serialize.to_dict(state)

    def state_from_dict(self, data: Any) -> MayaQuarryState:
        """Rebuild and validate a state for this config (versions 1 and 2 load too).

        Raises:
            StateError: a bad field (named), or a state these rules cannot play: a broken
                invariant of :func:`maya_envs.maya_quarry.rules.invariants.check_invariants`.
        """
        return serialize.from_dict(data, self)

    # -- legality and transitions: one handler pair per phase ---------------------------------

    def _compute_legal(self, s: MayaQuarryState) -> list[int]:
        if s.phase == Phase.OVER:
            return []
        legal, _apply = HANDLERS[s.phase]
        return legal(self, s, s.actor)

    def _settle(self, s: MayaQuarryState, rng: np.random.Generator | None) -> MayaQuarryState:
        """With ``skip_forced``, take every decision that has a single legal action."""
        s._cache = {}
        if not self.config.skip_forced:
            return s
        while s.phase != Phase.OVER:
            legal = self._compute_legal(s)
            if len(legal) != 1:
                s._cache["legal"] = legal
                break
            self._step(s, legal[0], rng)
        return s

    def _step(self, s: MayaQuarryState, action: int, rng: np.random.Generator | None) -> None:
        """Apply a validated ``action`` to ``s`` (a state this object has just cloned)."""
        _legal, apply = HANDLERS[s.phase]
        apply(self, s, s.actor, action, rng)

    # -- game flow (the phase handlers call these; each mutates a cloned state) ----------------

    def next_seat(self, s: MayaQuarryState, eligible: Callable[[int], bool]) -> int:
        """First eligible seat clockwise after ``turn`` (``turn`` itself last), else -1."""
        n = self.num_players
        for k in range(1, n + 1):
            seat = (s.turn + k) % n
            if eligible(seat):
                return seat
        return -1

    def begin_round(self, s: MayaQuarryState, round_index: int, rng: np.random.Generator | None) -> None:
        """Round ``round_index`` starts: fresh hands and quarries, markers back; the advanced
        variant's auction first.

        Raises:
            ValueError: the advanced variant must draw blue markers (3 or 4 players) and ``rng``
                is ``None``.
        """
        n = self.num_players
        s.round = round_index
        s.phase = Phase.WORKERS
        s.hands = list(A.CARD_COUNTS) * n
        s.passed = [False] * n
        s.columns = [[] for _ in range(self.num_quarries)]
        s.resolving = self.num_quarries
        s.deduct = [0] * n
        s.pending = []
        s.protect_q = s.protect_seat = -1
        s.holder = [-1] * 7
        s.turn = s.actor = s.start
        if self.advanced:
            self._begin_auction(s, rng)

    def _begin_auction(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        """Advanced variant: a fresh auction of ``n - 1`` blue markers before the round."""
        n = self.num_players
        s.bids = [-1] * n
        s.blue_holder = [-1] * A.NUM_BLUE
        s.choosers = []
        s.plus2_q = s.plus2_seat = s.joker_seat = s.joker_as = s.joker_protect_q = -1
        if n - 1 >= A.NUM_BLUE:
            s.blue_offer = list(range(A.NUM_BLUE))
        else:
            if rng is None:
                raise ValueError(
                    f"the advanced variant draws {n - 1} of the {A.NUM_BLUE} blue markers each round: "
                    "pass a numpy Generator as rng"
                )
            s.blue_offer = sorted(
                draw_sequence(
                    rng,
                    range(A.NUM_BLUE),
                    n - 1,
                    lambda g: [int(m) for m in g.choice(A.NUM_BLUE, n - 1, replace=False)],
                    "blue marker",
                )
            )
        s.phase = Phase.BID

    def begin_placement(self, s: MayaQuarryState) -> None:
        """Worker placement starts (after the advanced variant's auction)."""
        s.phase = Phase.WORKERS
        s.turn = s.actor = s.start

    def end_placement(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        """Everyone passed: the advanced markers used now (+2 points, then the joker), then the
        reveal."""
        seat = s.blue_holder[C.BLUE_PLUS_2]
        if seat >= 0 and auction.plus2_quarries(self, s):
            s.phase, s.actor = Phase.PLUS2_CHOICE, seat
            return
        self.after_plus2(s, rng)

    def after_plus2(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        """The joker's holder chooses next, else the reveal starts."""
        seat = s.blue_holder[C.BLUE_JOKER]
        if seat >= 0:
            s.phase, s.actor = Phase.JOKER_CHOICE, seat
            return
        self.reveal_next(s, rng)

    def reveal_next(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        """Reveal the next quarry to the left that holds cards, or move on to transport."""
        q = s.resolving - 1
        while q >= 0 and not s.columns[q] and s.plus2_q != q:
            q -= 1
        s.deduct = [0] * self.num_players
        if q < 0:
            s.resolving = -1
            s.protect_q = s.protect_seat = -1
            s.plus2_q = s.plus2_seat = s.joker_protect_q = -1
            if s.joker_as == C.PROTECT:
                s.joker_as = s.joker_seat = -1
            quarry.transport(s)
            self._begin_building(s, rng)
            return
        s.resolving = q
        reading = self.config.minus3_targets
        s.pending = [o for o in quarry.minus3_owners(s, q) if quarry.minus3_targets(s, q, o, reading)]
        if s.pending:
            s.phase, s.actor = Phase.MINUS3, s.pending[0]
        else:
            self.finish_quarry(s, rng)

    def finish_quarry(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        """Distribute the quarry being resolved; its marker's decision, or the next reveal."""
        winner = quarry.distribute(s, self.components, self.config, s.resolving)
        marker = self.components.quarries[s.resolving].marker
        if winner < 0 or marker < 0 or not quarry.take_marker(self, s, winner, marker):
            self.reveal_next(s, rng)

    def _begin_building(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        s.phase = Phase.BUILD
        s.turn = (s.start - 1) % self.num_players
        first = self.next_seat(s, lambda t: s.held[t] > 0)
        if first < 0:
            self.end_building(s, rng)
        else:
            s.turn = s.actor = first

    def end_building(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        """Score the round (with erosion before rounds 2 and 3); the next round, or the end."""
        last = s.round == NUM_ROUNDS - 1
        scoring.score_round(s, self.components, erode=not last)
        if last:
            s.phase, s.actor = Phase.OVER, -1
        else:
            self.begin_round(s, s.round + 1, rng)


#: Per phase: ``(legal(rules, state, seat) -> ids, apply(rules, state, seat, action, rng))``,
#: written in the phase's module.
HANDLERS: dict[Phase, tuple[Callable[..., list[int]], Callable[..., None]]] = {
    Phase.SETUP: (building.setup_legal, building.setup_apply),
    Phase.WORKERS: (quarry.workers_legal, quarry.workers_apply),
    Phase.MINUS3: (quarry.minus3_legal, quarry.minus3_apply),
    Phase.PROTECT_CHOICE: (quarry.protect_legal, quarry.protect_apply),
    Phase.RELOCATE_SRC: (quarry.relocate_src_legal, quarry.relocate_src_apply),
    Phase.RELOCATE_DST: (quarry.relocate_dst_legal, quarry.relocate_dst_apply),
    Phase.FREE_BLOCK_CHOICE: (quarry.free_block_legal, quarry.free_block_apply),
    Phase.APPOINT: (quarry.appoint_legal, quarry.appoint_apply),
    Phase.BUILD: (building.build_legal, building.build_apply),
    Phase.DOUBLE: (building.build_legal, building.build_apply),
    Phase.BID: (auction.bid_legal, auction.bid_apply),
    Phase.BLUE_CHOICE: (auction.blue_legal, auction.blue_apply),
    Phase.PLUS2_CHOICE: (auction.plus2_legal, auction.plus2_apply),
    Phase.JOKER_CHOICE: (auction.joker_legal, auction.joker_apply),
}
