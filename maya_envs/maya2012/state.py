"""Maya (2012): the state, the config and the board's pure functions (legal exchanges, runs,
scores, the draft), apart from the rules object (:mod:`maya_envs.maya2012.rules`, which
re-exports every name here) so that :mod:`maya_envs.maya2012.serialize` and the observation can
read them without importing the rules object. Rule decisions and sources:
:mod:`maya_envs.maya2012.rules`.

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from maya_envs.core.errors import ConfigError, shorten
from maya_envs.core.options import check_choice, check_int, config_from_mapping
from maya_envs.maya2012 import actions as A

# Phases (ints for speed; names for humans and to_dict). Live phases come before OVER.
SETUP_MONOLITH, SETUP_RAVEN, EXCHANGE, DECLARE, DRAFT, OVER, TRUNCATED = range(7)
PHASE_NAMES = ("setup_monolith", "setup_raven", "exchange", "declare", "draft", "over", "truncated")

WHITE, BLACK = 0, 1
NO_PRIEST = -1
NO_MONOLITH = -1
NO_RAVEN = 0
NO_SEAT = -1
EMPTY = -1  # an unbuilt slot during the drafted setup
CENTRE = 4
CENTRE_BONUS = 5
TEAMS = ((0, 2), (1, 3))  # four players: partners sit opposite each other

DEFAULT_LADDER_SPACES = (2, 3, 2, 3, 4, 3, 2, 3, 2)
SETUPS = {2: ("choose", "random", "draft"), 3: ("random", "draft"), 4: ("random", "draft")}
MAX_CHANCE_OUTCOMES = 12
"""Largest chance outcome id + 1: block colours 0-8, Monolith pairs 0-11, Raven levels 2-5."""
SETUP_NAMES = tuple(dict.fromkeys(s for per_n in SETUPS.values() for s in per_n))
"""Every ``setup`` value, in the order the README's table lists them."""
#: Values of ``declare_step`` (3-4p), the default first; ``"eligible"`` leaks (module docstring).
DECLARE_STEPS = ("possible", "always", "eligible")


@dataclass(frozen=True)
class Maya2012Config:
    """Game options; every field is validated in ``__post_init__``.

    Attributes:
        num_players: 2, 3 or 4 (rules sections 4 and 7).
        setup: 2p ``"choose"`` (default; Black's setup decisions are actions), ``"random"`` or
            ``"draft"``; 3-4p ``"random"`` (default) or ``"draft"``. ``None`` picks the default.
        max_turns: exchanges after which the house turn limit applies (>= 1).
        at_max_turns: ``"score"`` (the limit ends and scores the game) or ``"truncate"``.
        ladder_spaces: ladder spaces per tower, 9 ints in 0..4 (rules section 5, INFERENCE; 2p).
        ladders_per_player: ladders each player owns (15, rules section 2; 2p).
        priests_per_player: priests each player owns (5, rules section 2; 2p).
        three_plus_two: task scoring of runs [3, 2]: ``"sum"`` (4, default) or ``"best"`` (3)
            (rules section 7, INFERENCE; 3-4p).
        reward_scheme: ``"win_loss"`` (default) or ``"score_diff"`` (see the module docstring).
        declare_step: when the declare/continue decision follows an exchange (3-4p; module
            docstring): ``"possible"`` (default; once the centre tower and another tower are
            complete, for every mover), ``"always"`` (after every exchange) or ``"eligible"``
            (only when the mover may declare; leaks a task card through the turn order).

    Raises:
        ConfigError: a value outside its allowed set (the message names both).
    """

    num_players: int = 2
    setup: str | None = None
    max_turns: int = 300
    at_max_turns: str = "score"
    ladder_spaces: tuple[int, ...] = DEFAULT_LADDER_SPACES
    ladders_per_player: int = 15
    priests_per_player: int = 5
    three_plus_two: str = "sum"
    reward_scheme: str = "win_loss"
    declare_step: str = "possible"

    def __post_init__(self) -> None:
        check_choice("num_players", self.num_players, (2, 3, 4))
        if self.setup is None:
            object.__setattr__(self, "setup", SETUPS[self.num_players][0])
        allowed = SETUPS[self.num_players]
        if self.setup not in allowed:
            suffix = "" if self.num_players == 2 else f" with num_players={self.num_players}"
            raise ConfigError(f"setup={shorten(self.setup)} is not allowed{suffix}; allowed: {list(allowed)}")
        check_choice("at_max_turns", self.at_max_turns, ("score", "truncate"))
        check_choice("three_plus_two", self.three_plus_two, ("sum", "best"))
        check_choice("reward_scheme", self.reward_scheme, ("win_loss", "score_diff"))
        check_choice("declare_step", self.declare_step, DECLARE_STEPS)
        check_int("max_turns", self.max_turns, 1, 100_000)
        check_int("ladders_per_player", self.ladders_per_player, 0, 100)
        check_int("priests_per_player", self.priests_per_player, 0, 100)
        spaces = tuple(self.ladder_spaces) if isinstance(self.ladder_spaces, (list, tuple)) else None
        if spaces is None or len(spaces) != 9:
            raise ConfigError(f"ladder_spaces must be a list of 9 ints in 0..4, got {shorten(self.ladder_spaces)}")
        for tower, count in enumerate(spaces):
            check_int(f"ladder_spaces[{tower}]", count, 0, 4)
        object.__setattr__(self, "ladder_spaces", spaces)

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | None) -> Maya2012Config:
        """Build a config from keyword options, rejecting unknown keys.

        Raises:
            ConfigError: an unknown key (the message lists the known ones) or a bad value.
        """
        return config_from_mapping(cls, options, "Maya (2012)")


@dataclass(frozen=True)
class Maya2012State:
    """A full game state; immutable, compared with ``==``, hashed, pickled.

    The number of seats is ``len(ladders)``.

    Attributes:
        towers: 9 tuples of 5 colours (0-8), bottom (level 1) to top (level 5); ``-1`` marks
            a slot not built yet (drafted setup only).
        monolith: pair index 0-11 the Monolith stands between, or -1 (not on the board).
        raven: Raven level 2-5, or 0 (not set; always 0 with 3-4 players).
        ladders: per seat, 9 ladder counts (one per tower); all 0 with 3-4 players.
        priests: per tower, the seat whose priest stands on it, or -1.
        ladders_left, priests_left: pieces each seat still holds (0 with 3-4 players).
        to_move: seat to decide next (meaningless once the game is over).
        phase: one of ``SETUP_MONOLITH, SETUP_RAVEN, EXCHANGE, DECLARE, DRAFT, OVER,
            TRUNCATED``.
        turn: exchanges made so far.
        tasks: 3-4p: per seat, its 2 secret task colours (sorted); ``()`` for 2p and before
            the deal.
        spare: 3p: the 2 face-down cards nobody uses (sorted); ``()`` otherwise.
        declared: the seat that declared the end, or -1.
        draft_block: drafted setup: the colour of the drawn block to place, else -1.
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
    tasks: tuple[tuple[int, ...], ...] = ()
    spare: tuple[int, ...] = ()
    declared: int = NO_SEAT
    draft_block: int = -1
    _cache: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def num_players(self) -> int:
        return len(self.ladders)


def legal_exchanges(towers: tuple[tuple[int, ...], ...], monolith: int, raven: int) -> list[int]:
    """Sorted ids of the exchanges allowed by the Monolith, Raven and no-split rules.

    Args:
        towers: 9 towers of 5 colours, bottom to top.
        monolith: pair index the Monolith stands between, or -1 (no restriction).
        raven: level 2-5 whose exchanges are barred, or 0 (no restriction).
    """
    return list(exchanges_of_seams(pack_seams(towers), monolith, raven))


def pack_seams(towers: tuple[tuple[int, ...], ...]) -> int:
    """The open seams of all 9 towers as one int: bits ``4t .. 4t+3`` are tower ``t``'s, bit
    ``j`` set when it may be cut between levels j+1 and j+2 (no joined colour split)."""
    packed = 0
    for shift, column in zip(range(0, 36, 4), towers, strict=True):
        packed |= _OPEN_SEAMS[column] << shift
    return packed


def repack_seams(packed: int, towers: tuple[tuple[int, ...], ...], action: int) -> int:
    """:func:`pack_seams` of ``towers`` (after exchange ``action``) from ``packed``, the value
    before it: only the two exchanged towers change."""
    a, b = A.PAIRS[action >> 2]
    a4, b4 = 4 * a, 4 * b
    kept = packed & ~(15 << a4 | 15 << b4)
    return kept | _OPEN_SEAMS[towers[a]] << a4 | _OPEN_SEAMS[towers[b]] << b4


def exchanges_of_seams(packed: int, monolith: int, raven: int) -> list[int]:
    """The legal exchange ids for packed seams (:func:`pack_seams`), the Monolith and the Raven:
    an exchange from base level j+2 needs seam j open in both towers. Memoised (bounded); a
    shared list: do not modify it."""
    key = packed | (monolith + 1) << 36 | raven << 40
    found = _EXCHANGES.get(key)
    if found is None:
        allowed = _RAVEN_ALLOWED[raven]
        found = []
        for ids, a4, b4 in _FREE_PAIRS[monolith]:
            both = packed >> a4 & packed >> b4 & allowed
            if both:
                found += ids[both]
        if len(_EXCHANGES) >= _MAX_EXCHANGES:
            _EXCHANGES.clear()
        _EXCHANGES[key] = found
    return found


_EXCHANGES: dict[int, list[int]] = {}
_MAX_EXCHANGES = 1 << 17


def state_exchanges(state: Maya2012State) -> list[int]:
    """The exchanges legal on ``state``'s board with its Monolith and Raven (a shared list: do
    not modify it): in the exchange phase the legal list the rules cached on the state, else
    :func:`legal_exchanges` (the declare phase: the exchanges the next mover would have)."""
    if state.phase == EXCHANGE:
        cached = state._cache.get("legal")
        if cached is not None:
            return cached
    return legal_exchanges(state.towers, state.monolith, state.raven)


class _SeamTable(dict):
    """Column -> its open-seam bits, filled on first use (at most 9**5 columns)."""

    def __missing__(self, column: tuple[int, ...]) -> int:
        c0, c1, c2, c3, c4 = column
        bits = self[column] = (c0 != c1) | (c1 != c2) << 1 | (c2 != c3) << 2 | (c3 != c4) << 3
        return bits


_OPEN_SEAMS = _SeamTable()
_SEAM_BITS = tuple(tuple(j for j in range(4) if seams >> j & 1) for seams in range(16))
# Per Monolith position (-1: none), ``(ids, 4 a, 4 b)`` of the pairs it does not block, where
# ``ids[bits]`` lists the exchange ids of the pair open at the seam ``bits``.
_FREE_PAIRS = {
    monolith: tuple(
        (tuple([4 * pair + j for j in _SEAM_BITS[bits]] for bits in range(16)), 4 * a, 4 * b)
        for pair, (a, b) in enumerate(A.PAIRS)
        if monolith < 0 or not {a, b} & set(A.PAIRS[monolith])
    )
    for monolith in range(-1, len(A.PAIRS))
}
# Seam bits allowed by the Raven at level 0 (not set) or 2-5.
_RAVEN_ALLOWED = {0: 15, 1: 15, **{level: 15 & ~(1 << (level - 2)) for level in A.EXCHANGE_LEVELS}}


def swap(towers: tuple[tuple[int, ...], ...], action: int) -> tuple[tuple[int, ...], ...]:
    """The towers after exchange ``action`` (0-47), legal or not (rules section 4)."""
    pair, offset = divmod(action, 4)
    i = offset + 1
    a, b = A.PAIRS[pair]
    result = list(towers)
    result[a], result[b] = towers[a][:i] + towers[b][i:], towers[b][:i] + towers[a][i:]
    return tuple(result)


def joins_formed(towers: tuple[tuple[int, ...], ...], action: int) -> int:
    """Number of the two towers whose seam joins a colour after exchange ``action`` (0-47)
    on ``towers`` (before the swap): the event that earns a ladder (rules section 4)."""
    a, b, i = _JOIN_OPERANDS[action]
    return (towers[a][i - 1] == towers[b][i]) + (towers[b][i - 1] == towers[a][i])  # bool + bool: an int


# Exchange id -> (tower a, tower b, index of the base level k = offset + 2): joins_formed's
# operands, looked up once (it runs for every legal exchange of every searched leaf).
_JOIN_OPERANDS = tuple((*A.PAIRS[action // 4], action % 4 + 1) for action in range(A.NUM_EXCHANGES))


def exchange_joins(
    towers: tuple[tuple[int, ...], ...],
    action: int,
    ladders: tuple[tuple[int, ...], ...],
    ladders_left: int,
    ladder_spaces: tuple[int, ...],
) -> list[tuple[int, bool, bool]]:
    """Two players, after an exchange (rules section 4): what exchange ``action`` earns its
    mover on ``towers`` (the towers after the swap). The one source of this rule for the rules
    and the observation (the batched engines repeat it as arrays, under their parity test).

    Args:
        towers: the towers after the swap.
        action: the exchange id.
        ladders: both seats' ladder counts per tower before the exchange.
        ladders_left: the mover's ladders still in hand.
        ladder_spaces: ladder spaces per tower (config).

    Returns:
        For each tower of the swapped pair, in pair order, that has a new join at the seam:
        ``(tower, ladder, complete)``. ``ladder``: a ladder of the mover goes on it (a free
        ladder space and a ladder left after the pair's earlier tower took one); ``complete``:
        the tower is now one colour (the mover's priest goes on it if one is left).
    """
    pair, offset = divmod(action, 4)
    seam = offset + 1
    out = []
    for tower in A.PAIRS[pair]:
        column = towers[tower]
        if column[seam - 1] != column[seam]:
            continue  # no new join at the seam: nothing to place
        ladder = ladders_left > 0 and ladders[0][tower] + ladders[1][tower] < ladder_spaces[tower]
        ladders_left -= int(ladder)
        out.append((tower, ladder, column.count(column[0]) == 5))
    return out


def points_by_tower(state: Maya2012State) -> list[tuple[int, int]]:
    """``(white, black)`` victory points earned at each tower (rules section 6): 1 for the
    priest on it, 1 for a strict ladder majority (a tie, 0-0 included, scores nothing)."""
    return [tower_points(state, tower) for tower in range(9)]


def tower_points(state: Maya2012State, tower: int) -> tuple[int, int]:
    """``(white, black)`` victory points earned at ``tower`` (:func:`points_by_tower`'s entry)."""
    l0, l1 = state.ladders
    priest = state.priests[tower]
    return int(priest == WHITE) + int(l0[tower] > l1[tower]), int(priest == BLACK) + int(l1[tower] > l0[tower])


def victory_points(state: Maya2012State) -> list[int]:
    """Two players: victory points per seat ``[white, black]``, the sum of
    :func:`points_by_tower`."""
    points = points_by_tower(state)
    return [sum(p[WHITE] for p in points), sum(p[BLACK] for p in points)]


def winner(state: Maya2012State) -> int | None:
    """Two players: winning seat by VP and the two tie-breaks of rules section 6, or ``None``
    for a draw."""
    keys = [(vp, state.priests.count(seat), sum(state.ladders[seat])) for seat, vp in enumerate(victory_points(state))]
    if keys[WHITE] == keys[BLACK]:
        return None
    return WHITE if keys[WHITE] > keys[BLACK] else BLACK


# -- three and four players: task scoring (rules section 7) ---------------------------------


def score_runs(runs: list[int], three_plus_two: str = "sum") -> int:
    """Task score of one colour from the lengths of its joined groups (runs >= 2).

    ``"sum"``: the sum of C(n, 2) (5 -> 10, 4 -> 6, 3 -> 3, 2 -> 1, two pairs -> 2, [3, 2] ->
    4). ``"best"``: the best single table line, which differs only for [3, 2] (3).

    Raises:
        ValueError: an unknown ``three_plus_two``.
    """
    total = sum(n * (n - 1) // 2 for n in runs)
    if three_plus_two == "sum":
        return total
    if three_plus_two == "best":
        longest = max(runs, default=0)
        return longest * (longest - 1) // 2 if longest >= 3 else total
    raise ValueError(f"three_plus_two={shorten(three_plus_two)}; allowed: ['sum', 'best']")


def tower_runs(column: tuple[int, ...]) -> list[tuple[int, int]]:
    """``(colour, length)`` of each joined group in one tower: maximal vertical runs of >= 2
    same-colour blocks (rules section 3 (5))."""
    runs = []
    start = 0
    for i in range(1, 6):
        if i == 5 or column[i] != column[start]:
            if i - start >= 2:
                runs.append((column[start], i - start))
            start = i
    return runs


def joined_runs(towers: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    """Per colour (0-8), the lengths of its joined groups over the whole board."""
    runs: list[list[int]] = [[] for _ in range(9)]
    for column in towers:
        for colour, length in tower_runs(column):
            runs[colour].append(length)
    return runs


def colour_scores(towers: tuple[tuple[int, ...], ...], three_plus_two: str = "sum") -> list[int]:
    """Task score of each colour 0-8 on ``towers`` (see :func:`score_runs`; computed as
    :func:`colour_score` of :func:`colour_totals`).

    Raises:
        ValueError: an unknown ``three_plus_two``.
    """
    if three_plus_two not in ("sum", "best"):
        raise ValueError(f"three_plus_two={shorten(three_plus_two)}; allowed: ['sum', 'best']")
    return [colour_score(total, three_plus_two) for total in colour_totals(towers)]


def colour_totals(towers: tuple[tuple[int, ...], ...]) -> list[int]:
    """Per colour (0-8), the sum over its joined groups of C(n, 2) (the ``"sum"`` task score);
    additive over towers, so an exchange changes it only through its two towers
    (:func:`exchange_totals`). Unbuilt slots (drafted setup) belong to no colour."""
    totals = [0] * 9
    points = _TOWER_POINTS
    for column in towers:
        for colour, value in points[column]:
            totals[colour] += value
    return totals


def exchange_deltas(towers: tuple[tuple[int, ...], ...], action: int) -> tuple[tuple[int, int], ...]:
    """``(colour, change)`` of each colour whose :func:`colour_totals` entry exchange ``action``
    (0-47) on ``towers`` changes: only the two exchanged towers' groups change. Memoised by the
    two columns and the level (a board changes two towers a move, so most recur next move)."""
    pair, offset = divmod(action, 4)
    a, b = A.PAIRS[pair]
    column_a, column_b = towers[a], towers[b]
    key = (column_a, column_b, offset)
    found = _DELTAS.get(key)
    if found is None:
        i = offset + 1
        points = _TOWER_POINTS
        deltas: dict[int, int] = {}
        for colour, value in points[column_a] + points[column_b]:
            deltas[colour] = deltas.get(colour, 0) - value
        for colour, value in points[column_a[:i] + column_b[i:]] + points[column_b[:i] + column_a[i:]]:
            deltas[colour] = deltas.get(colour, 0) + value
        found = tuple((colour, delta) for colour, delta in deltas.items() if delta)
        if len(_DELTAS) >= _MAX_DELTAS:
            _DELTAS.clear()
        _DELTAS[key] = found
    return found


_DELTAS: dict[tuple[tuple[int, ...], tuple[int, ...], int], tuple[tuple[int, int], ...]] = {}
_MAX_DELTAS = 1 << 17


def exchange_totals(towers: tuple[tuple[int, ...], ...], totals: list[int], action: int) -> list[int]:
    """:func:`colour_totals` after exchange ``action`` (0-47), from ``totals`` of ``towers``."""
    new = totals[:]
    for colour, delta in exchange_deltas(towers, action):
        new[colour] += delta
    return new


def colour_score(total: int, three_plus_two: str = "sum") -> int:
    """Task score of one colour from its :func:`colour_totals` entry: the total itself with
    ``"sum"``; with ``"best"`` one less for runs [3, 2] (total 4). A colour has 5 blocks, so its
    runs are one of [2], [3], [4], [5], [2, 2], [3, 2] (totals 1, 3, 6, 10, 2, 4): the total
    names the runs, and [3, 2] is the one case where the two modes differ (:func:`score_runs`)."""
    return total - 1 if total == 4 and three_plus_two == "best" else total


class _PointTable(dict):
    """Column -> ``((colour, C(n, 2)), ...)`` of its joined groups, filled on first use."""

    def __missing__(self, column: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        points = self[column] = tuple((c, n * (n - 1) // 2) for c, n in tower_runs(column) if c != EMPTY)
        return points


_TOWER_POINTS = _PointTable()


def is_complete(column: tuple[int, ...]) -> bool:
    """Whether a tower is monochrome (all 5 blocks its base colour)."""
    return column.count(column[0]) == 5


def unknown_colours(towers: tuple[tuple[int, ...], ...], mine: tuple[int, ...]) -> list[int]:
    """3-4 players: the 6 colours a seat holding task colours ``mine`` cannot see in any hand:
    neither its own nor the face-up centre card's (the centre tower's base colour)."""
    return [c for c in range(9) if c not in mine and c != towers[CENTRE][0]]


def may_declare(towers: tuple[tuple[int, ...], ...], task_colours: tuple[int, ...]) -> bool:
    """Whether a seat with ``task_colours`` may declare the end (rules section 7): the centre
    tower is complete and so is the tower of one of its task colours (the tower whose base
    has that colour)."""
    if not is_complete(towers[CENTRE]):
        return False
    return any(is_complete(column) for column in towers if column[0] in task_colours)


def declaration_possible(towers: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the board lets some seat declare (public): the centre tower is complete and so
    is another tower (every other tower's base colour is a task card). Stays true once true."""
    return is_complete(towers[CENTRE]) and any(is_complete(c) for t, c in enumerate(towers) if t != CENTRE)


def declare_step_follows(declare_step: str, towers: tuple[tuple[int, ...], ...], task_colours: tuple[int, ...]) -> bool:
    """Whether the declare/continue decision follows an exchange that left ``towers`` (3-4p),
    for a mover holding ``task_colours``, under config ``declare_step`` (module docstring).
    Only ``"eligible"`` reads the mover's cards."""
    if declare_step == "always":
        return True
    if declare_step == "possible":
        return declaration_possible(towers)
    return may_declare(towers, task_colours)


def last_exchange_completed_centre(state: Maya2012State) -> bool:
    """Whether the latest exchange completed the centre tower: tower 4 was one of the two
    exchanged towers (the Monolith stands next to it) and is complete now. A complete tower
    can never be exchanged again, so it was not complete before."""
    return state.monolith >= 0 and CENTRE in A.PAIRS[state.monolith] and is_complete(state.towers[CENTRE])


def centre_bonus_seat(state: Maya2012State) -> int:
    """The seat earning the +5 centre bonus, or -1: the declarer, if the exchange of its
    declaring turn completed the centre tower (rules section 7)."""
    return state.declared if state.declared >= 0 and last_exchange_completed_centre(state) else NO_SEAT


def task_scores(state: Maya2012State, three_plus_two: str = "sum") -> list[int]:
    """Three and four players: each seat's score, its 2 task colours plus the centre bonus."""
    per_colour = colour_scores(state.towers, three_plus_two)
    scores = [sum(per_colour[c] for c in colours) for colours in state.tasks]
    bonus = centre_bonus_seat(state)
    if bonus >= 0:
        scores[bonus] += CENTRE_BONUS
    return scores


def teams(num_players: int) -> tuple[tuple[int, ...], ...]:
    """Seats that share one result: :data:`TEAMS` with four players, else ``()`` (rules section 7)."""
    return TEAMS if num_players == 4 else ()


def team_scores(scores: list[int]) -> list[int]:
    """Four players: ``[team {0, 2}, team {1, 3}]``, the sums of the partners' scores."""
    return [scores[a] + scores[b] for a, b in TEAMS]


def draft_towers(towers: tuple[tuple[int, ...], ...], block: int) -> list[int]:
    """Towers on which the drawn ``block`` may go (section 8 DECISION): empty at the current
    level, not holding ``block`` yet, and the rest of the level still completable."""
    i = min(column.index(EMPTY) for column in towers if EMPTY in column)
    open_towers = [t for t in range(9) if towers[t][i] == EMPTY]
    placed = {towers[t][i] for t in range(9)}
    left = [c for c in range(9) if c not in placed and c != block]
    result = []
    for tower in open_towers:
        if block in towers[tower][:i]:
            continue
        others = [t for t in open_towers if t != tower]
        if _has_perfect_matching([set(towers[t][:i]) for t in others], left):
            result.append(tower)
    return result


def _has_perfect_matching(forbidden: list[set[int]], colours: list[int]) -> bool:
    """Whether each tower (given by its forbidden colours) gets a distinct colour of
    ``colours`` (as many towers as colours); Kuhn's augmenting paths."""
    owner: dict[int, int] = {}

    def augment(tower: int, seen: set[int]) -> bool:
        for colour in colours:
            if colour in forbidden[tower] or colour in seen:
                continue
            seen.add(colour)
            if colour not in owner or augment(owner[colour], seen):
                owner[colour] = tower
                return True
        return False

    return all(augment(tower, set()) for tower in range(len(forbidden)))


def _replace(state: Maya2012State, **changes: Any) -> Maya2012State:
    """A copy of ``state`` with ``changes`` (field name -> value) and an empty cache; the
    fields are copied as they are, without ``__init__`` (the hot path of every move)."""
    values = state.__dict__.copy()
    values.update(changes)
    values["_cache"] = {}
    new = object.__new__(Maya2012State)
    object.__setattr__(new, "__dict__", values)
    return new
