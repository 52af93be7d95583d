"""Yaxha: the config and the state, apart from the rules object (:mod:`maya_envs.yaxha.rules`,
which re-exports every name here) so that :mod:`maya_envs.yaxha.serialize` and the observation
can read them without importing the rules object. Rule decisions: :mod:`maya_envs.yaxha.rules`.

Pure: standard library and numpy only.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from maya_envs.core.checks import is_int
from maya_envs.core.errors import ConfigError, shorten
from maya_envs.core.options import check_choice, config_from_mapping
from maya_envs.yaxha.actions import FOOTPRINTS
from maya_envs.yaxha.scoring import FIRST_GAME_CARDS, NUM_BONUS_CARDS, PAIRWISE_CARDS

NUM_ROUNDS = 10
CUBES_PER_TILE = 3
NUM_BONUS_IN_PLAY = 3
SCORE_SCALE = 100.0
"""Divisor of ``score_diff`` rewards: a score is at most 73 colour points + 15 bonus points."""
BONUS_MODES = ("random", "first_game", "bga_random")
REWARD_SCHEMES = ("win_loss", "score_diff")

MAX_CHANCE_OUTCOMES = NUM_BONUS_CARDS
"""Largest chance outcome id + 1: bonus cards 0-17 (initiative 0-3 and cube colours 0-4 are fewer)."""

SELECT, PENDING, BUILD, OVER = 0, 1, 2, 3
PHASES = ("select", "pending", "build", "over")


@dataclass(frozen=True)
class YaxhaConfig:
    """A validated Yaxha config (decision 11). Build it with keywords or :meth:`from_dict`.

    Attributes:
        num_players: 2, 3 or 4.
        footprint: ``"floating"`` (default, the published game) or ``"fixed"`` (4 x 4 board
            variant).
        bonus_cards: ``"random"`` (default), ``"first_game"``, ``"bga_random"`` or a list of
            3 distinct card ids in 0..17.
        bonus_zero_ties_score: whether a competitive card scores for a 0 = 0 tie (default
            ``False``, PROPOSAL; ``True`` = BGA).
        reward_scheme: ``"win_loss"`` (default) or ``"score_diff"``.
        cubes_per_colour: cubes of each colour in the bag (default 24, BGA's count; at least
            ``6 * num_players`` so that 10 rounds can be drawn).

    Raises:
        ConfigError: a value outside its allowed set; the message names value and set.
    """

    num_players: int = 2
    footprint: str = "floating"
    bonus_cards: Any = "random"
    bonus_zero_ties_score: bool = False
    reward_scheme: str = "win_loss"
    cubes_per_colour: int = 24

    def __post_init__(self) -> None:
        n = self.num_players
        if not is_int(n):
            raise ConfigError(f"num_players={shorten(n)} is not allowed; allowed: [2, 3, 4]")
        check_choice("num_players", n, (2, 3, 4))
        object.__setattr__(self, "num_players", int(n))
        check_choice("footprint", self.footprint, tuple(FOOTPRINTS))
        if not isinstance(self.bonus_zero_ties_score, bool):
            raise ConfigError(
                f"bonus_zero_ties_score={shorten(self.bonus_zero_ties_score)} is not allowed; allowed: [True, False]"
            )
        check_choice("reward_scheme", self.reward_scheme, REWARD_SCHEMES)
        c = self.cubes_per_colour
        if not is_int(c) or c < 6 * n:
            raise ConfigError(
                f"cubes_per_colour={shorten(c)} is not allowed; allowed: an int >= {6 * n} (10 rounds draw "
                f"{30 * n} cubes)"
            )
        cards = self.bonus_cards
        if isinstance(cards, str):
            if cards not in BONUS_MODES:
                raise ConfigError(
                    f"bonus_cards={shorten(cards)} is not allowed; allowed: {list(BONUS_MODES)} or a list of 3 card ids"
                )
        else:
            try:
                ids = tuple(int(c) for c in cards if not isinstance(c, bool))
            except (TypeError, ValueError):
                ids = ()
            if (
                len(ids) != NUM_BONUS_IN_PLAY
                or len(set(ids)) != NUM_BONUS_IN_PLAY
                or len(ids) != len(list(cards))
                or not all(0 <= i < NUM_BONUS_CARDS for i in ids)
            ):
                raise ConfigError(
                    f"bonus_cards={shorten(cards)} is not allowed; allowed: {list(BONUS_MODES)} or 3 distinct ids in "
                    f"0..{NUM_BONUS_CARDS - 1}"
                )
            if n == 2 and any(i in PAIRWISE_CARDS for i in ids):
                raise ConfigError(f"bonus_cards={shorten(cards)}: cards 5-9 are excluded with 2 players (section 9)")
            object.__setattr__(self, "bonus_cards", tuple(sorted(ids)))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> YaxhaConfig:
        """Config from a mapping (a YAML section, env kwargs).

        Raises:
            ConfigError: an unknown key (the message lists the known keys) or a bad value.
        """
        return config_from_mapping(cls, data, "Yaxha")

    @classmethod
    def from_mapping(cls, options: dict[str, Any] | None) -> YaxhaConfig:
        """:meth:`from_dict` under the name every game's config uses (``None``: defaults)."""
        return cls.from_dict(dict(options or {}))

    def bonus_pool(self) -> tuple[int, ...]:
        """Card ids a random setup draws from (decision 11; 5-9 out with 2 players)."""
        if self.bonus_cards == "first_game":
            return FIRST_GAME_CARDS
        top = 12 if self.bonus_cards == "bga_random" else NUM_BONUS_CARDS
        return tuple(i for i in range(top) if not (self.num_players == 2 and i in PAIRWISE_CARDS))


@dataclass(frozen=True)
class YaxhaState:
    """One Yaxha position. Immutable; every field is an int or a tuple.

    Attributes:
        round: 0..9 (10 rounds), ``NUM_ROUNDS`` once over.
        phase: ``SELECT``, ``PENDING``, ``BUILD`` or ``OVER`` (names in :data:`PHASES`).
        bag: cubes left per colour, shape (5,).
        market: this round's tiles, ``N`` tuples of 5 colour counts (3 cubes each).
        initiative: initiative number 1..N per seat (lower picks first).
        choices: tile chosen by each seat this round, -1 not yet; hidden until all are in.
        owner: seat holding each tile, -1 while untaken.
        pending: seats still to pick after a clash, in pick order.
        hands: cubes each seat still has to place this round, N x 5 counts.
        build_step: micro-steps done in this round's building, 0..3N-1.
        pyramids: per seat, one colour per cell (-1 empty), ``num_cells`` long.
        fresh: per seat, cells placed this round (hidden from the others until the round ends).
        discarded: cubes each seat has discarded so far.
        bonus_cards: the 3 cards in play, sorted.
    """

    round: int
    phase: int
    bag: tuple[int, ...]
    market: tuple[tuple[int, ...], ...]
    initiative: tuple[int, ...]
    choices: tuple[int, ...]
    owner: tuple[int, ...]
    pending: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    build_step: int
    pyramids: tuple[tuple[int, ...], ...]
    fresh: tuple[tuple[int, ...], ...]
    discarded: tuple[int, ...]
    bonus_cards: tuple[int, ...]
    _cache: dict = dataclasses.field(default_factory=dict, init=False, compare=False, hash=False, repr=False)
    """Memo of the legal actions (:mod:`maya_envs.core.legal`); not part of the position, so
    ``dataclasses.replace`` starts every new state with an empty one."""


def evolve(state: YaxhaState, **changes: Any) -> YaxhaState:
    """``dataclasses.replace(state, **changes)`` without re-running ``__init__`` (the rules'
    hot path: a shallow copy of the fields, ``changes`` set, an empty ``_cache``). ``changes``
    must name fields of :class:`YaxhaState`; nothing is validated, as with the constructor."""
    new = object.__new__(YaxhaState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    fields["_cache"] = {}
    return new
