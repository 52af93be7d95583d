"""What a page of ``maya-web`` may see and ask for, checked before anything is built (no Flask here).

What a page can get (every response is the requesting seat's view, or refused):

* Views: a live game's view is drawn for one viewer seat (:func:`check_viewer`); while the game
  is running and a seat is human, only a human seat's view is served (a person at the page must
  not see what their seat may not); agent-only games, finished games and replays may be seen
  from any seat or whole (:class:`HiddenViewError` otherwise).
* The seed: one the page gives (:func:`page_seed`) is used and shown as given (as a string, so
  that JavaScript does not round a 30-digit seed). Without one, the game draws a 64-bit seed
  from :mod:`secrets`; where that seed rebuilds draws a seat may not see (hidden information or
  chance in the game's ``GameSpec``: :func:`maya_envs.core.rng.seed_hides_draws`) the view's
  ``seed`` is ``None`` (the page shows the game id) until the game is over.
* The record holds every seat's moves and the seed, so it is refused (:class:`HiddenViewError`)
  while a human plays a hidden-information game or while the seed is secret, and given whole
  once the game is over. A replay shows what its record holds.

What a page cannot do:

* Name a file. Seats (:func:`check_seat`) come from the bot registry (``random``,
  ``heuristic``, ``mcts:...``, ``ismcts:...``), shipped networks and baselines by name
  (``policy:<name>``, ``az:<name>[...]``, ``pretrained[:<name>]``) or ``checkpoint:<name>`` for
  a checkpoint given on the command line at start; the quarry option ``components`` is a name
  given at start (``maya-web --components NAME=FILE``; the table is recorded inline); an
  uploaded record's config may hold no file name and no env keyword (:func:`page_options`). No
  error names a server path or says whether a file exists.
* Ask for unbounded work. A search seat's numbers are at most :data:`PAGE_LIMITS` (the error
  names the maximum), a request nests at most :data:`MAX_NESTING` deep, a game takes at most
  :data:`MAX_OPTIONS` options, a replay at most :data:`MAX_RECORD_MOVES` moves; every seat is
  checked before any is built. A move being computed stops when its game is closed
  (:mod:`maya_envs.web.seats`).

Which requests are answered at all (the page's own, on its own host) is :mod:`maya_envs.web.origin`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from maya_envs.bot_kinds import BOT_KINDS
from maya_envs.core.errors import shorten
from maya_envs.core.rng import check_seed
from maya_envs.players import HUMAN

CHECKPOINT_PREFIX = "checkpoint:"
SHIPPED_NETWORK = "<shipped network>"
PAGE_LIMITS: dict[str, dict[str, tuple[str, float]]] = {
    "mcts": {
        "simulations": ("simulations", 2000),
        "time_limit": ("time", 30.0),
        "depth": ("depth", 1000),
        "exploration": ("c", 100.0),
    },
    "az": {
        "simulations": ("simulations", 800),
        "max_considered": ("m", 64),
        "gumbel_scale": ("noise", 10.0),
        "c_puct": ("c", 100.0),
        "time_limit": ("time", 30.0),
        "memo": ("memo", 100000),
    },
}
"""The most a seat from a page may ask of a search: ``{budget group: {config field: (name in the
spec, maximum)}}`` (a row's :attr:`maya_envs.bot_kinds.BotKind.budget`) for ``mcts``/``ismcts``
(:class:`maya_envs.bots.mcts.MCTSConfig`) and ``az``
(:class:`maya_envs.bots.guided.GuidedConfig`). Measured on this project's games (early moves,
one CPU): ``mcts:200`` takes 0.13-0.29 s a move, ``mcts:200:heuristic`` 0.8-6 s, so a move at
the limits takes about a minute at most."""
PAGE_BOTS = tuple(kind.name for kind in BOT_KINDS.values() if kind.budget is None or kind.budget in PAGE_LIMITS)
"""The bot kinds a page may seat: every row of :data:`maya_envs.bot_kinds.BOT_KINDS` with
nothing to limit or with its limits in :data:`PAGE_LIMITS`."""
PAGE_KINDS = (*PAGE_BOTS, "pretrained", "checkpoint")
"""The seat kinds (the part before the first ``:``) a page may ask for, besides ``human``."""
AGENT_SPECS = (
    HUMAN,
    *(
        row.example if row.model is None else row.syntax.replace("<model>", SHIPPED_NETWORK)
        for row in map(BOT_KINDS.get, PAGE_BOTS)
    ),
    "pretrained",
    "pretrained:<name>",
    "checkpoint:<name given with --checkpoint>",
)
"""What a page may seat, in words (the page's suggestions and the errors), from the table: a
kind's example, or its syntax where it names a network (a shipped one)."""
ENV_KEYWORDS = ("render_mode", "illegal_action", "render_observer")
"""Keywords of a game's ``env()`` that are not game options: the server sets them."""
MAX_SEED_DIGITS = 40
MAX_NESTING = 32
"""Deepest nesting of objects and lists in a request body or a record's header
(a component table needs 7)."""
MAX_SPEC_CHARS = 200
MAX_OPTIONS = 32
"""The most game options a page or a record may give (every game has fewer): more is refused
before any is read."""
MAX_RECORD_MOVES = 20_000
_FILE_SIGNS = ("/", "\\", "..", "~")
_FILE_ENDINGS = (".zip", ".pt", ".json", ".pkl", ".jsonl")


class HiddenViewError(PermissionError):
    """A view the page may not have now (another seat's, or the record, while a human plays)."""


def small_int(value: Any, digits: int = 9) -> int | None:
    """``value`` as an int if it is one (not a bool) or a string of at most ``digits`` decimal
    digits (an optional ``-``), else ``None``. Nothing is rounded or truncated."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(rf"-?[0-9]{{1,{digits}}}", value.strip()):
        return int(value)
    return None


def nesting(value: Any) -> int:
    """How deep objects and lists nest in ``value`` (``0`` for a scalar), counted without
    recursion and stopping past :data:`MAX_NESTING`."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_NESTING:
                break
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def page_seed(value: Any) -> int | None:
    """A seed as a page (or a record) gives it: ``None``, an int or a string of digits, in
    ``0..MAX_SEED`` (:func:`maya_envs.core.rng.check_seed`, the bound every command and record
    shares; kept exact: no float on the way).

    Raises:
        ValueError: anything else (the message names the value and what is allowed).
    """
    if value is None:
        return None
    seed = small_int(value, MAX_SEED_DIGITS)
    return check_seed(value if seed is None else seed, "seed")


def page_options(options: Any, components: Mapping[str, Any], where: str = "options") -> dict[str, Any]:
    """The game options a page (or an uploaded record's ``config``) gives, checked: an object,
    without env keywords (:data:`ENV_KEYWORDS`), with the quarry option ``components`` as a
    name given at start, replaced by that table (or, in a record, a table held inline).

    Args:
        options: the options sent (``None``: none).
        components: ``name -> component table`` given at start (``maya-web --components``).
        where: ``"options"`` for a page's new game, ``"config"`` for a record (there an
            inline table is what a record written by maya-web holds).

    Raises:
        ValueError: not an object, more than :data:`MAX_OPTIONS` options, an env keyword, a
            ``components`` value that is not a known name (nor, in a record, a table); the
            message names the option.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError(f"{where} must be an object of game options, got {shorten(options)}")
    if len(options) > MAX_OPTIONS:
        raise ValueError(f"{where}: {len(options):,} game options; at most {MAX_OPTIONS} (a game has fewer)")
    out = dict(options)
    keywords = sorted(set(out) & set(ENV_KEYWORDS))
    if keywords:
        raise ValueError(f"{where} {keywords}: the server sets these env keywords itself; give only game options")
    table = out.get("components")
    if table is not None:
        if isinstance(table, str) and table in components:
            out["components"] = copy.deepcopy(dict(components[table]))
        elif not (where == "config" and isinstance(table, Mapping)):
            known = ", ".join(sorted(components)) or "none were given at start (maya-web --components NAME=FILE)"
            raise ValueError(
                f"{where} components={shorten(table)}: a page names no file; give the name of a component "
                f"table given at start; known: {known}"
            )
    return out


def check_budget(spec: str) -> None:
    """Refuse a search seat asking for more than :data:`PAGE_LIMITS` (``mcts``, ``ismcts``,
    ``az``; other specs pass).

    Raises:
        ValueError: a malformed search spec (the parser's message) or a number over its maximum
            (the message names it and the maximum).
    """
    kind = spec.split(":", 1)[0]
    row = BOT_KINDS.get(kind)
    if row is None or row.budget is None:
        return
    _, config = row.read(spec)
    limits = PAGE_LIMITS[row.budget]
    for field, (written, most) in limits.items():
        value = getattr(config, field)
        if value is not None and value > most:
            raise ValueError(f"seat {shorten(spec)}: {written} {value:g} is over the page limit for {kind}, {most:g}")


def _names_a_file(spec: str) -> bool:
    kind = spec.split(":", 1)[0]
    return kind == "rllib" or any(sign in spec for sign in _FILE_SIGNS) or spec.lower().endswith(_FILE_ENDINGS)


def check_seat(spec: Any, checkpoints: Mapping[str, str]) -> str:
    """A seat spec from a page, checked without building anything (no network, no file read):
    the spec stripped.

    Allowed (:data:`PAGE_KINDS`): ``human``, ``random``, ``heuristic``,
    ``mcts...``/``ismcts...``/``az...`` within :data:`PAGE_LIMITS`, ``policy:<name>``/``az:<name>``
    with a shipped network's name, ``pretrained[:<name>]`` with a shipped baseline's name, and
    ``checkpoint:<name>`` for a checkpoint registered under ``name`` at start (``maya-web
    --checkpoint name=path``). Anything that names a file is refused before any file is looked
    at, and no message shows a registered path.

    Raises:
        ValueError: not a string, a path, an unknown bot or baseline or checkpoint name, a
            budget over its maximum (the message lists what is allowed).
    """
    from maya_envs.players import check_player_spec
    from maya_envs.pretrained import network_names

    if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC_CHARS:
        raise ValueError(f"seat {shorten(spec)}; allowed: {', '.join(AGENT_SPECS)}")
    spec = spec.strip()
    if spec == HUMAN:
        return spec
    if spec.startswith(CHECKPOINT_PREFIX):
        name = spec[len(CHECKPOINT_PREFIX) :]
        if name not in checkpoints:
            known = ", ".join(sorted(checkpoints)) or "none were given at start (maya-web --checkpoint NAME=PATH)"
            raise ValueError(f"unknown checkpoint {shorten(name)}; known: {known}")
        return spec
    if _names_a_file(spec):
        raise ValueError(
            f"seat {shorten(spec)}: a page cannot name a file; agents come from the registry "
            f"({', '.join(AGENT_SPECS[1:-1])}) or from checkpoints given at start (checkpoint:<name>)"
        )
    kind = spec.split(":", 1)[0]
    if kind not in PAGE_KINDS:
        raise ValueError(f"unknown bot {shorten(spec)}; a page may seat: {', '.join(AGENT_SPECS)}")
    row = BOT_KINDS.get(kind)
    if row is not None and row.model is not None:
        model = row.read(spec)[0]
        if model not in network_names():
            raise ValueError(
                f"seat {shorten(spec)}: a page cannot name a file; a network seat takes a shipped network: "
                f"{', '.join(network_names())}"
            )
    check_budget(spec)
    try:
        check_player_spec(spec)
    except ValueError as error:
        raise ValueError(f"seat {shorten(spec)}: {error}") from None
    return spec


def check_viewer(seat: Any, n: int) -> int | None:
    """The seat a view is asked for: ``None`` for everything (``None``, ``""``, ``"all"``), else
    a seat ``0..n-1`` (an int or a string of digits).

    Raises:
        ValueError: anything else (the message names it and what is allowed).
    """
    if seat is None or seat == "" or seat == "all":
        return None
    value = small_int(seat)
    if value is None or not 0 <= value < n:
        raise ValueError(f"view {shorten(seat)}; allowed: 'all' or a seat 0..{n - 1}")
    return value
