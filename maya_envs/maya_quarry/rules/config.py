"""Game options and the component table of Maya (Abacusspiele 2003).

The component numbers the rulebook does not print (quarry yields, card limits, marker
placement, pyramid sizes and gold values) are a labelled, **non-canonical PROPOSAL**
(``shared/rules/maya_quarry.md`` section 4), shipped as package data
``maya_envs/maya_quarry/data/components.json`` (read with :mod:`importlib.resources`, so it works
from an installed wheel) and validated on load. A user may pass another table
(a path or a mapping) as ``components=``; every error names the offending field.

Pure: standard library only.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from maya_envs.core.checks import is_int, is_number
from maya_envs.core.errors import ConfigError, listed, shorten
from maya_envs.core.options import check_choice, config_from_mapping
from maya_envs.core.paths import shown_path
from maya_envs.maya_quarry.actions import MAX_LEVELS, MAX_PYRAMIDS, MAX_QUARRIES

#: The seven green Special Property markers, in the seed's order (rules file section 4).
MARKERS = (
    "PROTECT_FROM_MINUS3",
    "RELOCATE_TO_LEVEL1",
    "FREE_BLOCK_FROM_POOL",
    "FIRST_PLAYER",
    "TRANSPORT_PLUS_2",
    "FREE_PASS",
    "FREE_DOUBLE_MOVE",
)
PROTECT, RELOCATE, FREE_BLOCK, FIRST_PLAYER, TRANSPORT_PLUS_2, FREE_PASS, FREE_DOUBLE = range(7)
NO_MARKER = -1

#: The four blue Special Property markers of the advanced variant (rules file section 4 names,
#: the seed's order).
BLUE_MARKERS = ("BLUE_TRANSPORT_PLUS_4", "BLUE_JOKER", "BLUE_EXTRA_BLOCK", "BLUE_PLUS_2_QUARRY_POINTS")
BLUE_TRANSPORT_PLUS_4, BLUE_JOKER, BLUE_EXTRA_BLOCK, BLUE_PLUS_2 = range(4)
#: Advanced variant: gold each player starts with (seed, FACT).
ADVANCED_STARTING_GOLD = 10
VARIANTS = ("basic", "advanced")
#: The readings of "another player of his choice in this quarry" (the -3 target), default first
#: (rules file section 6 DECISION): ``"scored"``, a seat with a score there (a card, or the
#: advanced variant's BLUE_PLUS_2_QUARRY_POINTS marker), or ``"card"``, a seat with a card there.
MINUS3_TARGET_READINGS = ("scored", "card")

MAX_CARDS_PER_QUARRY = 8
PLAYER_COUNTS = (3, 4, 5)

COMPONENTS_SCHEMA = "maya_quarry.components/1"
#: The shipped table, package data of :mod:`maya_envs.maya_quarry` (an
#: :class:`importlib.resources.abc.Traversable` with ``read_text``; a file path in an installed wheel).
DEFAULT_COMPONENTS_PATH = resources.files("maya_envs.maya_quarry") / "data" / "components.json"
_COMPONENT_KEYS = (
    "schema",
    "canonical",
    "note",
    "blocks_per_color",
    "starting_blocks",
    "pyramid_sets",
    "quarries",
    "pyramids",
)


@dataclass(frozen=True)
class Quarry:
    """One quarry: ``ranks[i]`` blocks for rank ``i+1``, a card limit and its marker id (or -1)."""

    ranks: tuple[int, ...]
    max_cards: int
    marker: int


@dataclass(frozen=True)
class Pyramid:
    """One pyramid: ``levels[l] = (spaces, gold_first, gold_second)``, bottom to top."""

    name: str
    levels: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Components:
    """The component table resolved for one player count.

    Attributes:
        quarries: left to right (distribution resolves right to left).
        pyramids: in table order (action ids use this order).
        blocks_per_color: blocks of each colour (28, FACT).
        starting_blocks: blocks each player places during setup (2, FACT).
        canonical: ``False`` for the shipped proposal; shown wherever the table is shown.
        source: where the table came from (a path or ``"<mapping>"``).
    """

    quarries: tuple[Quarry, ...]
    pyramids: tuple[Pyramid, ...]
    blocks_per_color: int
    starting_blocks: int
    canonical: bool
    source: str

    @functools.cached_property
    def num_levels(self) -> int:
        """Height of the tallest pyramid."""
        return max(len(p.levels) for p in self.pyramids)


def _int_field(path: str, value: Any, low: int, high: int) -> int:
    if not is_int(value, numpy=False) or not low <= value <= high:
        raise ConfigError(f"{path}: must be an int in {low}..{high}, got {shorten(value)}")
    return value


def load_components(components: str | Path | Mapping[str, Any] | None, num_players: int) -> Components:
    """Load and validate a component table for ``num_players``.

    Args:
        components: ``None`` (the shipped non-canonical proposal), a path to a JSON file in
            the ``maya_quarry.components/1`` schema, or a mapping with the same fields.
        num_players: 3, 4 or 5.

    Raises:
        ConfigError: the file is missing or not JSON, or a field is missing, unknown or out of
            range; the message names the field (for example
            ``components.quarries['4'][2].max_cards``) and what is allowed.
    """
    if components is None or isinstance(components, (str, Path)):
        path = Path(components) if components is not None else DEFAULT_COMPONENTS_PATH
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"components: file {shown_path(path)} not found") from None
        except json.JSONDecodeError as err:
            raise ConfigError(f"components: file {shown_path(path)} is not valid JSON ({err})") from None
        except (OSError, ValueError) as err:  # a name too long or with a NUL byte, a folder, no access
            raise ConfigError(f"components: file {shown_path(path)} cannot be read ({type(err).__name__})") from None
        source = str(path)
    elif isinstance(components, Mapping):
        data, source = dict(components), "<mapping>"
    else:
        raise ConfigError(f"components: must be None, a path or a mapping, got {type(components).__name__}")
    return _validate(data, num_players, source)


def _validate(data: Any, n: int, source: str) -> Components:
    if not isinstance(data, Mapping):
        raise ConfigError(f"components: must be a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(_COMPONENT_KEYS))
    if unknown:
        raise ConfigError(f"components: unknown field(s) {listed(unknown)}; known fields: {list(_COMPONENT_KEYS)}")
    for key in ("schema", "canonical", "blocks_per_color", "starting_blocks", "pyramid_sets", "quarries", "pyramids"):
        if key not in data:
            raise ConfigError(f"components.{key}: missing")
    if data["schema"] != COMPONENTS_SCHEMA:
        raise ConfigError(f"components.schema: must be {shorten(COMPONENTS_SCHEMA)}, got {shorten(data['schema'])}")
    if not isinstance(data["canonical"], bool):
        raise ConfigError(f"components.canonical: must be true or false, got {shorten(data['canonical'])}")
    blocks = _int_field("components.blocks_per_color", data["blocks_per_color"], 1, 200)
    starting = _int_field("components.starting_blocks", data["starting_blocks"], 0, MAX_PYRAMIDS)
    key = str(n)

    pyramids_data = data["pyramids"]
    if not isinstance(pyramids_data, Mapping):
        raise ConfigError("components.pyramids: must be an object name -> levels")
    sets = data["pyramid_sets"]
    if not isinstance(sets, Mapping) or key not in sets:
        raise ConfigError(f"components.pyramid_sets: must be an object with a list for {shorten(key)} players")
    names = sets[key]
    path = f"components.pyramid_sets[{shorten(key)}]"
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_PYRAMIDS:
        raise ConfigError(f"{path}: must be a list of 1..{MAX_PYRAMIDS} pyramid names, got {shorten(names)}")
    for index, name in enumerate(names):
        if not isinstance(name, str):
            raise ConfigError(f"{path}[{index}]: must be a pyramid name (a string), got {shorten(name)}")
    if len(set(names)) != len(names):
        raise ConfigError(f"{path}: names a pyramid twice: {shorten(names)}")
    if starting > len(names):
        raise ConfigError(
            f"components.starting_blocks: {starting} starting blocks need as many pyramids "
            f"(no two of a colour in one pyramid), but {path} has {len(names)}"
        )
    pyramids = []
    for name in names:
        if name not in pyramids_data:
            raise ConfigError(f"{path}: unknown pyramid {shorten(name)}; known: {sorted(pyramids_data)}")
        pyramids.append(_pyramid(name, pyramids_data[name], n, starting))

    quarries_data = data["quarries"]
    if not isinstance(quarries_data, Mapping) or key not in quarries_data:
        raise ConfigError(f"components.quarries: must be an object with a list for {shorten(key)} players")
    rows = quarries_data[key]
    path = f"components.quarries[{shorten(key)}]"
    if not isinstance(rows, list) or not 1 <= len(rows) <= MAX_QUARRIES:
        raise ConfigError(f"{path}: must be a list of 1..{MAX_QUARRIES} quarries")
    quarries, seen = [], set()
    for index, row in enumerate(rows):
        quarry = _quarry(f"{path}[{index}]", row, n, blocks)
        if quarry.marker != NO_MARKER and quarry.marker in seen:
            raise ConfigError(f"{path}[{index}].marker: {MARKERS[quarry.marker]} is already on another quarry")
        seen.add(quarry.marker)
        quarries.append(quarry)
    return Components(tuple(quarries), tuple(pyramids), blocks, starting, data["canonical"], source)


def _pyramid(name: str, levels: Any, n: int, starting: int) -> Pyramid:
    path = f"components.pyramids[{shorten(name)}]"
    if not isinstance(levels, list) or not 1 <= len(levels) <= MAX_LEVELS:
        raise ConfigError(f"{path}: must be a list of 1..{MAX_LEVELS} levels [spaces, gold_first, gold_second]")
    out = []
    for index, level in enumerate(levels):
        where = f"{path}[{index}]"
        if not isinstance(level, list) or len(level) != 3:
            raise ConfigError(f"{where}: must be [spaces, gold_first, gold_second], got {shorten(level)}")
        low_spaces = n if index == 0 and starting else 1
        spaces = _int_field(f"{where}.spaces", level[0], low_spaces, 30)
        first = _int_field(f"{where}.gold_first", level[1], 0, 100)
        second = _int_field(f"{where}.gold_second", level[2], 0, first)
        out.append((spaces, first, second))
    return Pyramid(name, tuple(out))


def _quarry(path: str, row: Any, n: int, blocks: int) -> Quarry:
    if not isinstance(row, Mapping):
        raise ConfigError(f"{path}: must be an object {{ranks, max_cards, marker}}")
    unknown = sorted(set(row) - {"ranks", "max_cards", "marker"})
    if unknown:
        raise ConfigError(f"{path}: unknown field(s) {listed(unknown)}; known: ['marker', 'max_cards', 'ranks']")
    for key in ("ranks", "max_cards", "marker"):
        if key not in row:
            raise ConfigError(f"{path}.{key}: missing")
    ranks = row["ranks"]
    if not isinstance(ranks, list) or not 1 <= len(ranks) <= n:
        raise ConfigError(f"{path}.ranks: must be a list of 1..{n} block counts, got {shorten(ranks)}")
    for index, count in enumerate(ranks):
        _int_field(f"{path}.ranks[{index}]", count, 0, blocks)
    max_cards = _int_field(f"{path}.max_cards", row["max_cards"], 1, MAX_CARDS_PER_QUARRY)
    marker = row["marker"]
    if marker is None:
        marker_id = NO_MARKER
    elif marker in MARKERS:
        marker_id = MARKERS.index(marker)
    else:
        raise ConfigError(f"{path}.marker: {shorten(marker)} is not a green marker; allowed: {list(MARKERS)} or null")
    return Quarry(tuple(ranks), max_cards, marker_id)


@dataclass(frozen=True)
class MayaQuarryConfig:
    """Game options; each INFERENCE/PROPOSAL of the rules file is one option with its default.

    Attributes:
        num_players: 3, 4 or 5.
        variant: ``"basic"`` (default) or ``"advanced"`` (seed "Variation for Advanced
            Players": 10 starting gold, a sealed-bid auction of ``n - 1`` blue markers before
            every round; see :mod:`maya_envs.maya_quarry.rules`).
        components: ``None`` (shipped non-canonical proposal), a JSON path or a mapping.
        reward_scheme: ``"win_loss"`` (default) or ``"gold_diff"`` (rules section 6).
        gold_diff_scale: divisor of the ``gold_diff`` reward (finite, > 0).
        first_start_player: seat that starts the game (0 .. n-1), or ``"random"`` (drawn from
            the env's generator). The seed says "the players choose"; default 0.
        minus3_no_target: a -3 owner may choose "no target" (INFERENCE from "can", default
            True).
        minus3_targets: which other seats a -3 may hit at its quarry (never a protected one):
            ``"scored"`` (default, rules file section 6 DECISION: a seat with a score there, so
            a card, or in the advanced variant the BLUE_PLUS_2_QUARRY_POINTS marker placed
            there, whose holder then has 2 points to lose) or ``"card"`` (a seat with at least
            one card there: the +2 marker alone does not make its holder a target). The two
            differ only in the advanced variant.
        pool_shortfall: ``"partial"`` (PROPOSAL, default: a rank gets what is left of its pool)
            or ``"nothing"`` (a rank whose pool cannot pay in full gets no block).
        global_level_rule: ``"current"`` (INFERENCE, default: lower levels of all pyramids must
            be full at that moment, so eroded levels must be refilled) or ``"ever_filled"``
            (a level once full stays open).
        missing_levels_full: a pyramid shorter than level k-1 counts as full there (PROPOSAL,
            default True).
        bonus_block_recipient: ``"placer"`` (default: the rule text, the placer gets the bonus
            if they then hold the strict plurality) or ``"majority"`` (the seed's Copan
            example: whoever holds the strict plurality when the level completes).
        bonus_on_special_placements: completions by ``FREE_BLOCK_FROM_POOL``,
            ``RELOCATE_TO_LEVEL1`` and bonus blocks also earn a bonus block (INFERENCE,
            default True; double-move placements always do).
        relocate_unsupported: ``"forbid"`` (DECISION, default: a block whose removal would
            leave the holder's higher blocks unsupported cannot be relocated) or
            ``"cascade"`` (it can; the unsupported higher blocks go back to the pool).
        skip_forced: a decision with exactly one legal action is taken by the engine
            (default True); with False every such decision is an agent step.
        plus2_empty_quarry: advanced variant only: BLUE_PLUS_2_QUARRY_POINTS may go to a quarry
            where nobody placed a card (INFERENCE, default False: the seed places it "next to
            the concealed column of cards", so the quarry must hold at least one card).

    Raises:
        ConfigError: a value outside its allowed set (the message names both).
    """

    num_players: int = 3
    variant: str = "basic"
    components: Any = None
    reward_scheme: str = "win_loss"
    gold_diff_scale: float = 50.0
    first_start_player: Any = 0
    minus3_no_target: bool = True
    minus3_targets: str = "scored"
    pool_shortfall: str = "partial"
    global_level_rule: str = "current"
    missing_levels_full: bool = True
    bonus_block_recipient: str = "placer"
    bonus_on_special_placements: bool = True
    relocate_unsupported: str = "forbid"
    skip_forced: bool = True
    plus2_empty_quarry: bool = False

    def __post_init__(self) -> None:
        check_choice("num_players", self.num_players, PLAYER_COUNTS)
        check_choice("variant", self.variant, VARIANTS)
        check_choice("reward_scheme", self.reward_scheme, ("win_loss", "gold_diff"))
        scale = self.gold_diff_scale
        if not is_number(scale, numpy=False) or not 0 < scale < math.inf:
            raise ConfigError(f"gold_diff_scale={shorten(scale)} is not allowed; allowed: a finite number > 0")
        start = self.first_start_player
        if start != "random" and not (is_int(start, numpy=False) and 0 <= start < self.num_players):
            raise ConfigError(
                f"first_start_player={shorten(start)} is not allowed; allowed: 'random' or a seat "
                f"0..{self.num_players - 1}"
            )
        flags = ("minus3_no_target", "missing_levels_full", "bonus_on_special_placements", "skip_forced")
        for name in (*flags, "plus2_empty_quarry"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name}={shorten(getattr(self, name))} is not allowed; allowed: True or False")
        check_choice("minus3_targets", self.minus3_targets, MINUS3_TARGET_READINGS)
        check_choice("pool_shortfall", self.pool_shortfall, ("partial", "nothing"))
        check_choice("global_level_rule", self.global_level_rule, ("current", "ever_filled"))
        check_choice("bonus_block_recipient", self.bonus_block_recipient, ("placer", "majority"))
        check_choice("relocate_unsupported", self.relocate_unsupported, ("forbid", "cascade"))

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | None) -> MayaQuarryConfig:
        """Build a config from keyword options, rejecting unknown keys.

        Raises:
            ConfigError: an unknown key (the message lists the known ones) or a bad value.
        """
        return config_from_mapping(cls, options, "Maya (Abacusspiele 2003)")
