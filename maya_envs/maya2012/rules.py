"""Maya (2012) rules engine, two players (pure: standard library and numpy only).

Sources: the seed rulebook ``shared/seeds/000_ddaf2d912aa0e731.txt`` ("Variant for Two
Players") and ``shared/rules/maya2012.md`` sections 1-6 and 8. Rule decisions, in one place:

* **Board.** Towers 0-8 row-major on a 3x3 grid; adjacency is orthogonal (12 pairs, see
  :mod:`maya_envs.maya2012.actions`). ``towers[t][i]`` is the colour (0-8) of level ``i+1``.
* **Setup** (section 8): uniform over valid boards (:mod:`maya_envs.maya2012.setup`).
  ``setup="choose"`` (default): Black (``player_1``) places the Monolith (12 actions) and then
  sets the Raven at level 2-5 (4 actions) before White's first exchange. ``setup="random"``:
  both drawn from the env's generator, White moves first (section 4, DECISION "seats").
* **Exchange legality** (section 4): the pair is not a tower next to the Monolith; the base
  level ``k`` is not the Raven's level (blocks at the Raven's level may still move as part of
  a lower exchange); no joined colour is split, i.e. ``col[X][k-1] != col[X][k]`` for both
  towers before the swap; level 1 never moves.
* **After an exchange:** the Monolith moves between the two towers, the Raven to ``k``. For
  each of the two towers where the seam now joins a colour, the mover places one ladder if
  the tower has a free ladder space and the mover has a ladder left. A tower that became
  monochrome gets the mover's priest even when no ladder space is free (seed example);
  PROPOSAL (section 4): with no priest left, none is placed and the tower stays complete.
* **Ladder spaces** (section 5, INFERENCE, config ``ladder_spaces``): one per side facing an
  adjacent tower: corner 2, edge 3, centre 4 (``[2,3,2,3,4,3,2,3,2]``). 15 ladders and 5
  priests per player (section 2, DERIVED).
* **End** (section 4): the player to move has no legal exchange. House rule (section 4
  DECISION): after ``max_turns`` exchanges (default 300) the game ends; ``at_max_turns=
  "score"`` (default) scores it as a normal end, ``"truncate"`` cuts it with no outcome
  (Gymnasium truncation). Measured in the rules file: under random play 158 of 1,000 games
  were still running after 5,000 exchanges.
* **Scoring** (section 6): 1 VP per own priest; 1 VP per tower where the player has strictly
  more ladders. Most VP wins; ties broken by (1) more priests, (2) more ladders on the board,
  (3) otherwise a draw. Returns: +1 win, -1 loss, 0 draw, for both seats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from maya_envs.core.errors import ConfigError, IllegalActionError
from maya_envs.core.spec import GameSpec
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.setup import random_towers

# Phases (ints for speed; names for humans and to_dict).
SETUP_MONOLITH, SETUP_RAVEN, EXCHANGE, OVER, TRUNCATED = range(5)
PHASE_NAMES = ("setup_monolith", "setup_raven", "exchange", "over", "truncated")

WHITE, BLACK = 0, 1
NO_PRIEST = -1
NO_MONOLITH = -1
NO_RAVEN = 0

DEFAULT_LADDER_SPACES = (2, 3, 2, 3, 4, 3, 2, 3, 2)


@dataclass(frozen=True)
class Maya2012Config:
    """Game options; every field is validated in ``__post_init__``.

    Attributes:
        num_players: 2 (the 3- and 4-player variants are issue 3).
        setup: ``"choose"`` (Black's setup decisions are actions) or ``"random"``.
        max_turns: exchanges after which the house turn limit applies (>= 1).
        at_max_turns: ``"score"`` (the limit ends and scores the game) or ``"truncate"``.
        ladder_spaces: ladder spaces per tower, 9 ints in 0..4 (rules section 5, INFERENCE).
        ladders_per_player: ladders each player owns (15, rules section 2).
        priests_per_player: priests each player owns (5, rules section 2).

    Raises:
        ConfigError: a value outside its allowed set (the message names both).
    """

    num_players: int = 2
    setup: str = "choose"
    max_turns: int = 300
    at_max_turns: str = "score"
    ladder_spaces: tuple[int, ...] = DEFAULT_LADDER_SPACES
    ladders_per_player: int = 15
    priests_per_player: int = 5

    def __post_init__(self) -> None:
        _check_choice("num_players", self.num_players, (2,))
        _check_choice("setup", self.setup, ("choose", "random"))
        _check_choice("at_max_turns", self.at_max_turns, ("score", "truncate"))
        _check_int("max_turns", self.max_turns, 1, 100_000)
        _check_int("ladders_per_player", self.ladders_per_player, 0, 100)
        _check_int("priests_per_player", self.priests_per_player, 0, 100)
        spaces = tuple(self.ladder_spaces) if isinstance(self.ladder_spaces, (list, tuple)) else None
        if spaces is None or len(spaces) != 9:
            raise ConfigError(f"ladder_spaces must be a list of 9 ints in 0..4, got {self.ladder_spaces!r}")
        for tower, count in enumerate(spaces):
            _check_int(f"ladder_spaces[{tower}]", count, 0, 4)
        object.__setattr__(self, "ladder_spaces", spaces)

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | None) -> Maya2012Config:
        """Build a config from keyword options, rejecting unknown keys.

        Raises:
            ConfigError: an unknown key (the message lists the known ones) or a bad value.
        """
        options = dict(options or {})
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ConfigError(f"unknown Maya (2012) option(s) {unknown}; known options: {known}")
        return cls(**options)


def _check_choice(name: str, value: Any, allowed: tuple) -> None:
    if value not in allowed or isinstance(value, bool):
        raise ConfigError(f"{name}={value!r} is not allowed; allowed: {list(allowed)}")


def _check_int(name: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise ConfigError(f"{name}={value!r} is not allowed; allowed: an int in {low}..{high}")


@dataclass(frozen=True)
class Maya2012State:
    """A full game state; immutable, compared with ``==``, hashed, pickled.

    Attributes:
        towers: 9 tuples of 5 colours (0-8), bottom (level 1) to top (level 5).
        monolith: pair index 0-11 the Monolith stands between, or -1 (not placed yet).
        raven: Raven level 2-5, or 0 (not set yet).
        ladders: per seat, 9 ladder counts (one per tower).
        priests: per tower, the seat whose priest stands on it, or -1.
        ladders_left, priests_left: pieces each seat still holds.
        to_move: seat to decide next (meaningless once the game is over).
        phase: one of ``SETUP_MONOLITH, SETUP_RAVEN, EXCHANGE, OVER, TRUNCATED``.
        turn: exchanges made so far.
    """

    towers: tuple[tuple[int, ...], ...]
    monolith: int = NO_MONOLITH
    raven: int = NO_RAVEN
    ladders: tuple[tuple[int, ...], ...] = ((0,) * 9, (0,) * 9)
    priests: tuple[int, ...] = (NO_PRIEST,) * 9
    ladders_left: tuple[int, ...] = (15, 15)
    priests_left: tuple[int, ...] = (5, 5)
    to_move: int = WHITE
    phase: int = EXCHANGE
    turn: int = 0
    _cache: dict = field(default_factory=dict, compare=False, hash=False, repr=False)


def legal_exchanges(towers: tuple[tuple[int, ...], ...], monolith: int, raven: int) -> list[int]:
    """Sorted ids of the exchanges allowed by the Monolith, Raven and no-split rules.

    Args:
        towers: 9 towers of 5 colours, bottom to top.
        monolith: pair index the Monolith stands between, or -1 (no restriction).
        raven: level 2-5 whose exchanges are barred, or 0 (no restriction).
    """
    blocked = A.PAIRS[monolith] if monolith >= 0 else ()
    result = []
    for pair, (a, b) in enumerate(A.PAIRS):
        if a in blocked or b in blocked:
            continue
        tower_a, tower_b = towers[a], towers[b]
        for level in A.EXCHANGE_LEVELS:
            i = level - 1
            if level != raven and tower_a[i - 1] != tower_a[i] and tower_b[i - 1] != tower_b[i]:
                result.append(4 * pair + level - 2)
    return result


def points_by_tower(state: Maya2012State) -> list[tuple[int, int]]:
    """``(white, black)`` victory points earned at each tower (rules section 6): 1 for the
    priest on it, 1 for a strict ladder majority (a tie, 0-0 included, scores nothing)."""
    l0, l1 = state.ladders
    points = []
    for tower in range(9):
        priest = state.priests[tower]
        points.append(
            (int(priest == WHITE) + int(l0[tower] > l1[tower]), int(priest == BLACK) + int(l1[tower] > l0[tower]))
        )
    return points


def victory_points(state: Maya2012State) -> list[int]:
    """Victory points per seat ``[white, black]``: the sum of :func:`points_by_tower`."""
    points = points_by_tower(state)
    return [sum(p[WHITE] for p in points), sum(p[BLACK] for p in points)]


def winner(state: Maya2012State) -> int | None:
    """Winning seat by VP and the two tie-breaks of rules section 6, or ``None`` for a draw."""
    keys = [(vp, state.priests.count(seat), sum(state.ladders[seat])) for seat, vp in enumerate(victory_points(state))]
    if keys[WHITE] == keys[BLACK]:
        return None
    return WHITE if keys[WHITE] > keys[BLACK] else BLACK


class Maya2012Rules:
    """The :class:`~maya_envs.core.protocol.Rules` of Maya (2012) at one config.

    Args:
        config: a :class:`Maya2012Config`, a mapping of its fields, or ``None`` for defaults.

    Raises:
        ConfigError: see :meth:`Maya2012Config.from_mapping`.
    """

    def __init__(self, config: Maya2012Config | Mapping[str, Any] | None = None) -> None:
        if not isinstance(config, Maya2012Config):
            config = Maya2012Config.from_mapping(config)
        self.config = config
        from maya_envs.maya2012.observation import observation_shape

        setup_steps = 2 if config.setup == "choose" else 0
        self.spec = GameSpec(
            name="maya2012_v0",
            title="Maya (2012)",
            version=0,
            num_players=config.num_players,
            num_actions=A.NUM_ACTIONS,
            observation_shape=observation_shape(config),
            max_game_length=config.max_turns + setup_steps,
            reward_range=(-1.0, 1.0),
            chance=False,
            information="perfect",
        )

    # -- protocol --------------------------------------------------------------------------

    def initial_state(self, rng: np.random.Generator) -> Maya2012State:
        cfg = self.config
        pieces = dict(
            towers=random_towers(rng),
            ladders_left=(cfg.ladders_per_player,) * 2,
            priests_left=(cfg.priests_per_player,) * 2,
        )
        if cfg.setup == "choose":
            return Maya2012State(**pieces, to_move=BLACK, phase=SETUP_MONOLITH)
        monolith = int(rng.integers(len(A.PAIRS)))
        raven = int(rng.integers(2, 6))
        return self._start_exchanges(Maya2012State(**pieces, monolith=monolith, raven=raven, phase=EXCHANGE))

    def current_player(self, state: Maya2012State) -> int:
        return -1 if state.phase >= OVER else state.to_move

    def legal_actions(self, state: Maya2012State) -> list[int]:
        cached = state._cache.get("legal")
        if cached is None:
            cached = self._compute_legal(state)
            state._cache["legal"] = cached
        return list(cached)

    def legal_mask(self, state: Maya2012State) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        mask[self.legal_actions(state)] = 1
        return mask

    def apply_action(self, state: Maya2012State, action: int, rng: np.random.Generator | None = None) -> Maya2012State:
        if action not in self._legal_set(state):
            raise IllegalActionError(
                f"action {action!r} ({_describe(action)}) is illegal in phase "
                f"{PHASE_NAMES[state.phase]}; legal ids: {self.legal_actions(state)}"
            )
        if state.phase == SETUP_MONOLITH:
            return _replace(state, monolith=action - A.MONOLITH_BASE, phase=SETUP_RAVEN)
        if state.phase == SETUP_RAVEN:
            placed = _replace(state, raven=action - A.RAVEN_BASE + 2, to_move=WHITE, phase=EXCHANGE)
            return self._start_exchanges(placed)
        return self._exchange(state, action)

    def is_terminal(self, state: Maya2012State) -> bool:
        return state.phase == OVER

    def is_truncated(self, state: Maya2012State) -> bool:
        return state.phase == TRUNCATED

    def returns(self, state: Maya2012State) -> np.ndarray:
        result = np.zeros(2)
        if state.phase == OVER:
            win = winner(state)
            if win is not None:
                result[win], result[1 - win] = 1.0, -1.0
        return result

    def observe(self, state: Maya2012State, seat: int) -> np.ndarray:
        from maya_envs.maya2012.observation import encode_observation

        return encode_observation(state, seat, self.config)

    def action_to_string(self, action: int) -> str:
        return A.action_to_string(action)

    def final_info(self, state: Maya2012State) -> dict[str, Any]:
        """Lists are indexed by seat; ``winner`` is a seat or ``None`` (draw or truncation)."""
        return {
            "victory_points": victory_points(state),
            "priests": [state.priests.count(seat) for seat in (WHITE, BLACK)],
            "ladders": [sum(row) for row in state.ladders],
            "winner": winner(state) if state.phase == OVER else None,
            "turns": state.turn,
            "end": "no_legal_exchange" if state.turn < self.config.max_turns else "max_turns",
            "truncated": state.phase == TRUNCATED,
        }

    # -- internals -------------------------------------------------------------------------

    def _legal_set(self, state: Maya2012State) -> frozenset[int]:
        cached = state._cache.get("legal_set")
        if cached is None:
            cached = frozenset(self.legal_actions(state))
            state._cache["legal_set"] = cached
        return cached

    def _compute_legal(self, state: Maya2012State) -> list[int]:
        if state.phase == EXCHANGE:
            return legal_exchanges(state.towers, state.monolith, state.raven)
        if state.phase == SETUP_MONOLITH:
            return list(range(A.MONOLITH_BASE, A.MONOLITH_BASE + len(A.PAIRS)))
        if state.phase == SETUP_RAVEN:
            return list(range(A.RAVEN_BASE, A.RAVEN_BASE + len(A.EXCHANGE_LEVELS)))
        return []

    def _start_exchanges(self, state: Maya2012State) -> Maya2012State:
        """End the game at once if the player to move has no legal exchange."""
        if not legal_exchanges(state.towers, state.monolith, state.raven):
            return _replace(state, phase=OVER)
        return state

    def _exchange(self, state: Maya2012State, action: int) -> Maya2012State:
        pair, level = divmod(action, 4)
        level += 2
        a, b = A.PAIRS[pair]
        i = level - 1
        towers = list(state.towers)
        towers[a], towers[b] = (
            state.towers[a][:i] + state.towers[b][i:],
            state.towers[b][:i] + state.towers[a][i:],
        )
        mover = state.to_move
        ladders = [list(row) for row in state.ladders]
        priests = list(state.priests)
        ladders_left = list(state.ladders_left)
        priests_left = list(state.priests_left)
        spaces = self.config.ladder_spaces
        for tower in (a, b):
            column = towers[tower]
            if column[i - 1] != column[i]:
                continue  # no new join at the seam: nothing to place
            if ladders_left[mover] and ladders[0][tower] + ladders[1][tower] < spaces[tower]:
                ladders[mover][tower] += 1
                ladders_left[mover] -= 1
            if column.count(column[0]) == 5 and priests_left[mover]:
                priests[tower] = mover
                priests_left[mover] -= 1
        turn = state.turn + 1
        next_state = Maya2012State(
            towers=tuple(towers),
            monolith=pair,
            raven=level,
            ladders=tuple(tuple(row) for row in ladders),
            priests=tuple(priests),
            ladders_left=tuple(ladders_left),
            priests_left=tuple(priests_left),
            to_move=1 - mover,
            phase=EXCHANGE,
            turn=turn,
        )
        if turn >= self.config.max_turns:
            return _replace(next_state, phase=OVER if self.config.at_max_turns == "score" else TRUNCATED)
        return self._start_exchanges(next_state)


def _replace(state: Maya2012State, **changes: Any) -> Maya2012State:
    values = {f.name: getattr(state, f.name) for f in fields(state) if f.name != "_cache"}
    values.update(changes)
    return Maya2012State(**values)


def _describe(action: Any) -> str:
    try:
        return A.action_to_string(int(action))
    except (ValueError, TypeError):
        return "not an action id"
