"""The rules object of Maya (Abacusspiele 2003): phase flow, legal actions, returns.

The phase modules (:mod:`.quarry`, :mod:`.building`, :mod:`.scoring`) hold the rules of each
phase; this module strings them together (setup -> 3 x [workers -> distribution -> transport
-> building -> scoring/erosion]) and implements the :class:`~maya_envs.core.protocol.Rules`
protocol. Rule decisions are listed in :mod:`maya_envs.maya_quarry.rules`.

Pure: standard library and numpy only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

import maya_envs.maya_quarry.actions as A
from maya_envs.core.errors import IllegalActionError
from maya_envs.core.legal import LegalActionCache
from maya_envs.core.spec import GameSpec
from maya_envs.maya_quarry.rules import auction, building, quarry, scoring
from maya_envs.maya_quarry.rules.config import (
    ADVANCED_STARTING_GOLD,
    BLUE_JOKER,
    BLUE_PLUS_2,
    FIRST_PLAYER,
    FREE_BLOCK,
    FREE_DOUBLE,
    FREE_PASS,
    PROTECT,
    RELOCATE,
    MayaQuarryConfig,
    load_components,
)
from maya_envs.maya_quarry.rules.state import (
    ADVANCED_NEUTRAL,
    APPOINT,
    BID,
    BLUE_CHOICE,
    BUILD,
    DOUBLE,
    FREE_BLOCK_CHOICE,
    JOKER_CHOICE,
    MINUS3,
    NUM_ROUNDS,
    OVER,
    PHASE_NAMES,
    PLUS2_CHOICE,
    PROTECT_CHOICE,
    RELOCATE_DST,
    RELOCATE_SRC,
    SETUP,
    WORKERS,
    MayaQuarryState,
)

L = A.MAX_LEVELS


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
            (advanced) for every player count; observation shape from
            :func:`maya_envs.maya_quarry.observation.observation_shape`.
        advanced: ``config.variant == "advanced"``.

    Raises:
        ConfigError: an unknown option, a bad value, or a bad component table (the message
            names the field).
    """

    # The public home of the class (re-exported there); ``make_bot`` finds the game's
    # ``bots`` module from it, and pickling resolves it there.
    __module__ = "maya_envs.maya_quarry.rules"

    def __init__(self, config: MayaQuarryConfig | Mapping[str, Any] | None = None) -> None:
        if not isinstance(config, MayaQuarryConfig):
            config = MayaQuarryConfig.from_mapping(config)
        self.config = config
        self.components = comp = load_components(config.components, config.num_players)
        self.num_players = n = config.num_players
        self.num_quarries = len(comp.quarries)
        self.num_pyramids = len(comp.pyramids)
        self.pyramid_names = tuple(p.name for p in comp.pyramids)
        self.advanced = config.variant == "advanced"
        num_actions = A.NUM_ACTIONS_ADVANCED if self.advanced else A.NUM_ACTIONS
        self.starting_gold = ADVANCED_STARTING_GOLD if self.advanced else 0
        from maya_envs.maya_quarry.observation import observation_shape

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
            name="maya_quarry_v0",
            title="Maya (Abacusspiele 2003)",
            version=0,
            num_players=n,
            num_actions=num_actions,
            observation_shape=observation_shape(self),
            max_game_length=n * comp.starting_blocks + NUM_ROUNDS * per_round,
            reward_range=(-bound, bound),
            chance=config.first_start_player == "random" or (self.advanced and n < len(A.BLUE_NAMES)),
            information="imperfect",
        )

    # -- protocol --------------------------------------------------------------------------

    def initial_state(self, rng: np.random.Generator | None = None) -> MayaQuarryState:
        """The state before the first setup placement (start player drawn from ``rng`` only
        with ``first_start_player="random"``).

        Raises:
            ValueError: ``rng`` is ``None`` but a draw is needed.
        """
        cfg, comp, n = self.config, self.components, self.num_players
        if cfg.first_start_player == "random":
            if rng is None:
                raise ValueError("first_start_player='random' needs a generator")
            start = int(rng.integers(n))
        else:
            start = cfg.first_start_player
        s = MayaQuarryState(
            num_players=n,
            round=0,
            phase=SETUP,
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
            self._begin_round(s, 0, rng)
        return self._settle(s, rng)

    def current_player(self, state: MayaQuarryState) -> int:
        return -1 if state.phase == OVER else state.actor

    def apply_action(
        self, state: MayaQuarryState, action: int, rng: np.random.Generator | None = None
    ) -> MayaQuarryState:
        """The state after the current player takes ``action`` (``state`` is not changed).

        With ``skip_forced`` the engine then takes every decision that has exactly one legal
        action.

        Raises:
            IllegalActionError: ``action`` is not legal here; the message names the action, the
                phase and the legal ids.
            ValueError: ``rng`` is ``None`` but the advanced variant must draw the next round's
                blue markers (3 or 4 players).
        """
        if action not in self._legal_set(state):
            try:
                text = self.action_to_string(int(action))
            except (TypeError, ValueError):
                text = "not an action id"
            raise IllegalActionError(
                f"action {action!r} ({text}) is illegal in phase {PHASE_NAMES[state.phase]} for seat "
                f"{self.current_player(state)}; legal ids: {self.legal_actions(state)}"
            )
        s = state.clone()
        self._step(s, int(action), rng)
        return self._settle(s, rng)

    def is_terminal(self, state: MayaQuarryState) -> bool:
        return state.phase == OVER

    def is_truncated(self, state: MayaQuarryState) -> bool:
        return False

    def returns(self, state: MayaQuarryState) -> np.ndarray:
        """Rules file section 6: ``win_loss`` (+1/w to each of the w winners, -1/(n-w) to the
        others, all 0 if everyone wins) or ``gold_diff`` (own gold minus the others' mean, over
        ``gold_diff_scale``). Zero-sum; zeros before the end."""
        n = self.num_players
        out = np.zeros(n, np.float64)
        if state.phase != OVER:
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

    def observe(self, state: MayaQuarryState, seat: int) -> np.ndarray:
        from maya_envs.maya_quarry.observation import encode_observation

        return encode_observation(self, state, seat)

    def action_to_string(self, action: int) -> str:
        return A.action_to_string(action, self.pyramid_names, self.spec.num_actions)

    def final_info(self, state: MayaQuarryState) -> dict[str, Any]:
        """Lists are indexed by seat: ``gold``, ``pool`` (the tie-break: fewer wins),
        ``blocks_on_board``; ``winners`` (seats); ``components_canonical``."""
        n = self.num_players
        on_board = [sum(state.board[i] for i in range(seat, len(state.board), n)) for seat in range(n)]
        return {
            "gold": list(state.gold),
            "pool": list(state.pool),
            "blocks_on_board": on_board,
            "winners": scoring.winners(state) if state.phase == OVER else [],
            "components_canonical": self.components.canonical,
        }

    # -- serialisation --------------------------------------------------------------------

    def state_to_dict(self, state: MayaQuarryState) -> dict[str, Any]:
        """:meth:`MayaQuarryState.to_dict` (schema ``maya_quarry.state/2``)."""
        return state.to_dict()

    def state_from_dict(self, data: Any) -> MayaQuarryState:
        """Rebuild and validate a state for this config.

        Raises:
            ConfigError: a bad field (named), blocks not conserved per colour, or an advanced
                field set in a basic-game state (or a bid above the bidder's gold).
        """
        from maya_envs.core.errors import ConfigError

        state = MayaQuarryState.from_dict(data, self.num_quarries, self.num_pyramids)
        if state.num_players != self.num_players:
            raise ConfigError(f"state.num_players: {state.num_players} but these rules are for {self.num_players}")
        for seat in range(self.num_players):
            total = state.pool[seat] + state.held[seat] + sum(state.board[seat :: self.num_players])
            if total != self.components.blocks_per_color:
                raise ConfigError(
                    f"state.pool/held/board: seat {seat} has {total} blocks, "
                    f"expected {self.components.blocks_per_color}"
                )
        if not self.advanced:
            neutral = {**ADVANCED_NEUTRAL, "bids": [-1] * self.num_players}
            for key, expected in neutral.items():
                if getattr(state, key) != expected:
                    raise ConfigError(
                        f"state.{key}: {getattr(state, key)!r} is set, but these rules play the basic game "
                        f"(expected {expected!r})"
                    )
        elif state.phase == BID:
            for seat, bid in enumerate(state.bids):
                if bid > state.gold[seat]:
                    raise ConfigError(f"state.bids[{seat}]: {bid} exceeds the seat's gold {state.gold[seat]}")
        return state

    # -- legality -------------------------------------------------------------------------

    def _compute_legal(self, s: MayaQuarryState) -> list[int]:
        phase, seat, comp, cfg = s.phase, s.actor, self.components, self.config
        if phase == WORKERS:
            return quarry.worker_actions(s, comp, seat) + [A.WORKER_PASS]
        if phase in (BUILD, DOUBLE):
            return self._build_actions(s, seat)
        if phase == SETUP:
            return [
                A.place_id(p, 0)
                for p in range(self.num_pyramids)
                if s.count(p, 0, seat) == 0 and not building.is_full(s, comp, p, 0)
            ]
        if phase == MINUS3:
            n = self.num_players
            out = [A.MINUS3_BASE + (t - seat) % n - 1 for t in quarry.minus3_targets(s, s.resolving, seat)]
            return out + [A.MINUS3_NONE] if cfg.minus3_no_target else out
        if phase == PROTECT_CHOICE:
            return [A.PROTECT_BASE + q for q in range(s.resolving) if s.columns[q]]
        if phase == RELOCATE_SRC:
            return [A.relocate_src_id(p, lv) for p, lv in self._relocate_sources(s, seat)] + [A.RELOCATE_DECLINE]
        if phase == RELOCATE_DST:
            src_p, src_l = divmod(s.reloc_src, L)
            return [A.RELOCATE_DST_BASE + p for p in self._relocate_targets(s, src_p, src_l)]
        if phase == FREE_BLOCK_CHOICE:
            targets = [
                A.FREE_BLOCK_BASE + p
                for p in range(self.num_pyramids)
                if building.lowest_buildable_level(s, comp, cfg, seat, p) >= 0
            ]
            return targets + [A.FREE_BLOCK_DECLINE]
        if phase == APPOINT:
            return [A.APPOINT_BASE + k for k in range(self.num_players)]
        if phase == BID:
            return [A.BID_BASE + b for b in range(min(s.gold[seat], A.MAX_BID) + 1)]
        if phase == BLUE_CHOICE:
            return [A.BLUE_CHOOSE_BASE + m for m in s.blue_offer if s.blue_holder[m] < 0]
        if phase == PLUS2_CHOICE:
            return [A.PLUS2_BASE + q for q in self._plus2_quarries(s)] + [A.PLUS2_DECLINE]
        if phase == JOKER_CHOICE:
            return [A.JOKER_BASE + i for i, g in enumerate(A.JOKER_GREEN) if self._joker_usable(s, seat, g)] + [
                A.JOKER_DECLINE
            ]
        return []

    def _plus2_quarries(self, s: MayaQuarryState) -> list[int]:
        """Quarries that may take BLUE_PLUS_2_QUARRY_POINTS (all unrevealed at that moment)."""
        if self.config.plus2_empty_quarry:
            return list(range(self.num_quarries))
        return [q for q in range(self.num_quarries) if s.columns[q]]

    def _joker_usable(self, s: MayaQuarryState, seat: int, green: int) -> bool:
        """Whether the joker acting as ``green`` can take effect now (start of the reveal)."""
        if green == PROTECT:
            return any(s.columns)
        if green == RELOCATE:
            return bool(self._relocate_sources(s, seat))
        if green == FREE_BLOCK:
            return self._free_block_usable(s, seat)
        return True  # TRANSPORT_PLUS_2, FREE_PASS, FREE_DOUBLE_MOVE: held for later

    def _free_block_usable(self, s: MayaQuarryState, seat: int) -> bool:
        comp, cfg = self.components, self.config
        return s.pool[seat] > 0 and any(
            building.lowest_buildable_level(s, comp, cfg, seat, p) >= 0 for p in range(self.num_pyramids)
        )

    def _has_free(self, s: MayaQuarryState, seat: int, green: int) -> bool:
        """``seat`` holds ``green`` (FREE_PASS or FREE_DOUBLE_MOVE) or the joker acting as it."""
        return s.holder[green] == seat or (s.joker_seat == seat and s.joker_as == green)

    def _spend_free(self, s: MayaQuarryState, seat: int, green: int) -> None:
        """Use ``green`` once: the green marker first, else the joker acting as it."""
        if s.holder[green] == seat:
            s.holder[green] = -1
        else:
            s.joker_as = s.joker_seat = -1

    def _build_actions(self, s: MayaQuarryState, seat: int) -> list[int]:
        places = [A.place_id(p, lv) for p, lv in building.legal_placements(s, self.components, self.config, seat)]
        if s.phase == DOUBLE:
            return places
        held = s.held[seat]
        out = places
        if places:
            if held >= 3:
                out.append(A.DOUBLE_PAY)
            if held >= 2 and self._has_free(s, seat, FREE_DOUBLE):
                out.append(A.DOUBLE_FREE)
            out.append(A.PASS_PAY)
        if self._has_free(s, seat, FREE_PASS):
            out.append(A.PASS_FREE)
        if not places:
            out.append(A.FORCED_PASS)
        return out

    def _relocate_sources(self, s: MayaQuarryState, seat: int) -> list[tuple[int, int]]:
        out = []
        for p, pyramid in enumerate(self.components.pyramids):
            height = len(pyramid.levels)
            for level in range(height):
                count = s.count(p, level, seat)
                if count == 0:
                    continue
                if self.config.relocate_unsupported == "forbid" and count == 1:
                    if any(s.count(p, above, seat) for above in range(level + 1, height)):
                        continue
                if self._relocate_targets(s, p, level):
                    out.append((p, level))
        return out

    def _relocate_targets(self, s: MayaQuarryState, src_p: int, src_l: int) -> list[int]:
        return [
            p
            for p in range(self.num_pyramids)
            if not (src_l == 0 and p == src_p) and not building.is_full(s, self.components, p, 0)
        ]

    # -- transitions (mutate a state this object has just cloned) ---------------------------

    def _settle(self, s: MayaQuarryState, rng: np.random.Generator | None) -> MayaQuarryState:
        """With ``skip_forced``, take every decision that has a single legal action."""
        s._cache = {}
        if not self.config.skip_forced:
            return s
        while s.phase != OVER:
            legal = self._compute_legal(s)
            if len(legal) != 1:
                s._cache["legal"] = legal
                break
            self._step(s, legal[0], rng)
        return s

    def _step(self, s: MayaQuarryState, action: int, rng: np.random.Generator | None) -> None:
        phase, seat = s.phase, s.actor
        comp, cfg, n = self.components, self.config, self.num_players
        if phase == WORKERS:
            if action == A.WORKER_PASS:
                s.passed[seat] = True
            else:
                q, card = divmod(action - A.WORKER_BASE, len(A.CARD_VALUES))
                s.hands[seat * len(A.CARD_VALUES) + card] -= 1
                s.columns[q].append((seat, card))
            nxt = self._next_seat(s, lambda t: not s.passed[t])
            if nxt < 0:
                self._end_placement(s, rng)
            else:
                s.turn = s.actor = nxt
        elif phase in (BUILD, DOUBLE):
            self._build_step(s, seat, action, rng)
        elif phase == SETUP:
            building.place_block(s, comp, cfg, seat, (action - A.PLACE_BASE) // L, 0)
            nxt = self._next_seat(s, lambda t: s.held[t] > 0)
            if nxt < 0:
                self._begin_round(s, 0, rng)
            else:
                s.turn = s.actor = nxt
        elif phase == MINUS3:
            if action != A.MINUS3_NONE:
                s.deduct[(seat + action - A.MINUS3_BASE + 1) % n] += quarry.MINUS3_POINTS
            s.pending.pop(0)
            if s.pending:
                s.actor = s.pending[0]
            else:
                self._finish_quarry(s, rng)
        elif phase == PROTECT_CHOICE:
            if s.resolving == self.num_quarries:  # the joker acting as PROTECT, before any reveal
                s.joker_protect_q = action - A.PROTECT_BASE
            else:
                s.protect_q, s.protect_seat = action - A.PROTECT_BASE, seat
            self._reveal_next(s, rng)
        elif phase == RELOCATE_SRC:
            if action == A.RELOCATE_DECLINE:
                self._reveal_next(s, rng)
            else:
                s.reloc_src = action - A.RELOCATE_SRC_BASE
                s.phase = RELOCATE_DST
        elif phase == RELOCATE_DST:
            src_p, src_l = divmod(s.reloc_src, L)
            s.board[s.reloc_src * n + seat] -= 1
            if cfg.relocate_unsupported == "cascade":
                building.remove_unsupported(s, comp, seat, src_p)
            s.held[seat] += 1
            building.place_block(s, comp, cfg, seat, action - A.RELOCATE_DST_BASE, 0, special=True)
            s.reloc_src = -1
            self._reveal_next(s, rng)
        elif phase == FREE_BLOCK_CHOICE:
            if action != A.FREE_BLOCK_DECLINE:
                p = action - A.FREE_BLOCK_BASE
                level = building.lowest_buildable_level(s, comp, cfg, seat, p)
                building.place_block(s, comp, cfg, seat, p, level, from_pool=True, special=True)
            self._reveal_next(s, rng)
        elif phase == APPOINT:
            s.start = (seat + action - A.APPOINT_BASE) % n
            self._reveal_next(s, rng)
        elif phase == BID:
            s.bids[seat] = action - A.BID_BASE
            nxt = self._next_seat(s, lambda t: s.bids[t] < 0)
            if nxt >= 0:
                s.turn = s.actor = nxt
            elif auction.resolve(s):
                s.phase, s.actor = BLUE_CHOICE, s.choosers[0]
            else:
                self._begin_placement(s)
        elif phase == BLUE_CHOICE:
            s.blue_holder[action - A.BLUE_CHOOSE_BASE] = seat
            s.choosers.pop(0)
            if s.choosers:
                s.actor = s.choosers[0]
            else:
                self._begin_placement(s)
        elif phase == PLUS2_CHOICE:
            s.blue_holder[BLUE_PLUS_2] = -1
            if action != A.PLUS2_DECLINE:
                s.plus2_q, s.plus2_seat = action - A.PLUS2_BASE, seat
            self._after_plus2(s, rng)
        elif phase == JOKER_CHOICE:
            s.blue_holder[BLUE_JOKER] = -1
            if action == A.JOKER_DECLINE:
                self._reveal_next(s, rng)
                return
            green = A.JOKER_GREEN[action - A.JOKER_BASE]
            s.joker_seat, s.joker_as = seat, green
            if green == PROTECT:
                s.phase = PROTECT_CHOICE
            elif green == RELOCATE:
                s.joker_seat = s.joker_as = -1  # acts at once (decisions follow)
                s.phase = RELOCATE_SRC
            elif green == FREE_BLOCK:
                s.joker_seat = s.joker_as = -1
                s.phase = FREE_BLOCK_CHOICE
            else:  # TRANSPORT_PLUS_2, FREE_PASS, FREE_DOUBLE_MOVE: held for later this round
                self._reveal_next(s, rng)
        else:  # pragma: no cover - apply_action validated the action
            raise IllegalActionError(f"no action is legal in phase {PHASE_NAMES[phase]}")

    def _build_step(self, s: MayaQuarryState, seat: int, action: int, rng: np.random.Generator | None) -> None:
        comp, cfg = self.components, self.config
        if A.PLACE_BASE <= action < A.DOUBLE_PAY:
            p, level = divmod(action - A.PLACE_BASE, L)
            building.place_block(s, comp, cfg, seat, p, level)
            if s.phase == DOUBLE:
                s.double_left -= 1
                if s.double_left and s.held[seat] and building.legal_placements(s, comp, cfg, seat):
                    return
                s.double_left, s.phase = 0, BUILD
        elif action in (A.DOUBLE_PAY, A.DOUBLE_FREE):
            if action == A.DOUBLE_PAY:
                s.held[seat] -= 1
                s.pool[seat] += 1
            else:
                self._spend_free(s, seat, FREE_DOUBLE)
            s.double_left, s.phase = 2, DOUBLE
            return
        elif action == A.PASS_FREE:
            self._spend_free(s, seat, FREE_PASS)
        else:  # PASS_PAY or FORCED_PASS
            s.held[seat] -= 1
            s.pool[seat] += 1
            if action == A.FORCED_PASS:
                s.gold[seat] += 1
        nxt = self._next_seat(s, lambda t: s.held[t] > 0)
        if nxt < 0:
            self._end_building(s, rng)
        else:
            s.turn = s.actor = nxt

    def _next_seat(self, s: MayaQuarryState, eligible) -> int:
        """First eligible seat clockwise after ``turn`` (``turn`` itself last), else -1."""
        n = self.num_players
        for k in range(1, n + 1):
            seat = (s.turn + k) % n
            if eligible(seat):
                return seat
        return -1

    def _begin_round(self, s: MayaQuarryState, round_index: int, rng: np.random.Generator | None) -> None:
        n = self.num_players
        s.round = round_index
        s.phase = WORKERS
        s.hands = list(A.CARD_COUNTS) * n
        s.passed = [False] * n
        s.columns = [[] for _ in range(self.num_quarries)]
        s.resolving = self.num_quarries
        s.deduct = [0] * n
        s.pending = []
        s.protect_q = s.protect_seat = -1
        s.holder = [-1] * 7
        s.turn = s.actor = s.start
        if not self.advanced:
            return
        # Advanced variant: a fresh auction of n - 1 blue markers before the round.
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
            s.blue_offer = sorted(int(m) for m in rng.choice(A.NUM_BLUE, n - 1, replace=False))
        s.phase = BID

    def _begin_placement(self, s: MayaQuarryState) -> None:
        """Worker placement starts (after the advanced variant's auction)."""
        s.phase = WORKERS
        s.turn = s.actor = s.start

    def _end_placement(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        """Everyone passed: the advanced markers used now (+2 points, then the joker), then the
        reveal."""
        seat = s.blue_holder[BLUE_PLUS_2]
        if seat >= 0 and self._plus2_quarries(s):
            s.phase, s.actor = PLUS2_CHOICE, seat
            return
        self._after_plus2(s, rng)

    def _after_plus2(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        seat = s.blue_holder[BLUE_JOKER]
        if seat >= 0:
            s.phase, s.actor = JOKER_CHOICE, seat
            return
        self._reveal_next(s, rng)

    def _reveal_next(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        """Reveal the next quarry to the left that holds cards, or move on to transport."""
        q = s.resolving - 1
        while q >= 0 and not s.columns[q] and s.plus2_q != q:
            q -= 1
        s.deduct = [0] * self.num_players
        if q < 0:
            s.resolving = -1
            s.protect_q = s.protect_seat = -1
            s.plus2_q = s.plus2_seat = s.joker_protect_q = -1
            if s.joker_as == PROTECT:
                s.joker_as = s.joker_seat = -1
            quarry.transport(s)
            self._begin_building(s, rng)
            return
        s.resolving = q
        s.pending = [o for o in quarry.minus3_owners(s, q) if quarry.minus3_targets(s, q, o)]
        if s.pending:
            s.phase, s.actor = MINUS3, s.pending[0]
        else:
            self._finish_quarry(s, rng)

    def _finish_quarry(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        comp, cfg = self.components, self.config
        winner = quarry.distribute(s, comp, cfg, s.resolving)
        marker = comp.quarries[s.resolving].marker
        if winner < 0 or marker < 0:
            self._reveal_next(s, rng)
            return
        s.actor = winner
        if marker == PROTECT:
            if any(s.columns[q] for q in range(s.resolving)):
                s.phase = PROTECT_CHOICE
                return
        elif marker == RELOCATE:
            if self._relocate_sources(s, winner):
                s.phase = RELOCATE_SRC
                return
        elif marker == FREE_BLOCK:
            if self._free_block_usable(s, winner):
                s.phase = FREE_BLOCK_CHOICE
                return
        elif marker == FIRST_PLAYER:
            s.phase = APPOINT
            return
        else:  # TRANSPORT_PLUS_2, FREE_PASS, FREE_DOUBLE_MOVE: kept for later this round
            s.holder[marker] = winner
        self._reveal_next(s, rng)

    def _begin_building(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        s.phase = BUILD
        s.turn = (s.start - 1) % self.num_players
        first = self._next_seat(s, lambda t: s.held[t] > 0)
        if first < 0:
            self._end_building(s, rng)
        else:
            s.turn = s.actor = first

    def _end_building(self, s: MayaQuarryState, rng: np.random.Generator | None) -> None:
        last = s.round == NUM_ROUNDS - 1
        scoring.score_round(s, self.components, erode=not last)
        if last:
            s.phase, s.actor = OVER, -1
        else:
            self._begin_round(s, s.round + 1, rng)
