"""What every state of Yaxha that the rules reach keeps true: the one check a loaded state must
pass (:func:`check_invariants`, called by :func:`maya_envs.yaxha.serialize.from_dict` once each
field has its type and range).

A state that passes can be played to the end: the seat to move has a legal action, the bag
holds the cubes the remaining rounds draw, and the observation stays inside ``Box(0, 1)``. The
invariants (``N`` seats, ``r`` the round, ``cpc`` the config's ``cubes_per_colour``):

* **Round and phase.** ``over`` exactly in round 10 (``r = NUM_ROUNDS``); initiative a
  permutation of 1..N; the 3 bonus cards sorted, distinct and the config's (its explicit list,
  or from its pool).
* **Cubes conserved.** Every round draws ``3 N`` cubes, so the bag holds ``5 cpc - 3 N (r + 1)``
  cubes while the game runs (``5 cpc - 30 N`` once over); per colour the bag, this round's
  market and the cubes placed before this round together hold at most ``cpc``. Every market
  tile holds 3 cubes. Each seat has placed or discarded ``3`` cubes per finished round plus its
  building steps of this round (``build_step`` counts the micro-steps, seat ``k`` making steps
  ``k, k + N, k + 2 N``), and in ``build`` its hand holds the rest of its tile: per colour the
  hand and the cubes placed this round at most the tile's.
* **Pyramids.** A cube above level 1 rests on its 4 supports and touches a cube of its colour
  (a same-level orthogonal neighbour or a support); the base is orthogonally connected, within
  4 x 4 and, with the floating footprint, holds the anchor cell once it holds a cube. ``fresh``
  (the cells placed this round) lists distinct occupied cells, only in ``build``.
* **What a phase holds.** ``select``: a seat still to choose, no tile taken, nobody pending.
  ``pending``: every choice in, at least 2 pending seats (the last pick is made by the rules),
  the other seats holding one tile each and as many tiles untaken as pending seats. ``build``:
  every tile taken, one per seat. Outside ``build`` hands are empty and ``build_step`` is 0;
  once over the round's choices and tiles are cleared.
* **A live state has a move**: the seat to move has at least one legal action.

Raises :class:`~maya_envs.core.errors.StateError` naming the first field that breaks one.

Pure: standard library only.
"""

from __future__ import annotations

from typing import Any

from maya_envs.core.errors import StateError
from maya_envs.yaxha.actions import NUM_COLOURS
from maya_envs.yaxha.state import BUILD, CUBES_PER_TILE, NUM_ROUNDS, OVER, PENDING, PHASES, SELECT, YaxhaState

BASE_SIDE = 4
"""A base fits in 4 x 4 cells (section 5)."""


def check_invariants(state: YaxhaState, rules: Any) -> None:
    """Raise unless ``state`` keeps every invariant of the module docstring under ``rules``
    (a :class:`~maya_envs.yaxha.rules.YaxhaRules`).

    Raises:
        StateError: the first broken invariant; ``field`` names the state field.
    """
    n = rules.num_players
    _check_round(state, rules)
    _check_phase(state, n)
    for seat in range(n):
        _check_pyramid(state, rules, seat)
    _check_cubes(state, rules)
    if state.phase != OVER and not rules.legal_actions(state):
        raise StateError("phase", f"{PHASES[state.phase]!r} leaves seat {rules.current_player(state)} without a move")


def steps_done(state: YaxhaState, seat: int, n: int) -> int:
    """Building micro-steps ``seat`` has made this round (0 outside ``build``)."""
    if state.phase != BUILD:
        return 0
    return (state.build_step + n - 1 - seat) // n


def _check_round(s: YaxhaState, rules: Any) -> None:
    n, config = rules.num_players, rules.config
    if sorted(s.initiative) != list(range(1, n + 1)):
        raise StateError("initiative", f"{list(s.initiative)} is not a permutation of 1..{n}")
    if (s.phase == OVER) != (s.round == NUM_ROUNDS):
        raise StateError("phase", f"{PHASES[s.phase]!r} does not match round {s.round}")
    cards = list(s.bonus_cards)
    allowed = config.bonus_cards if isinstance(config.bonus_cards, tuple) else config.bonus_pool()
    if cards != sorted(set(cards)) or not set(cards) <= set(allowed):
        raise StateError("bonus_cards", f"{cards}: 3 sorted distinct cards of {sorted(allowed)}")
    if isinstance(config.bonus_cards, tuple) and tuple(cards) != config.bonus_cards:
        raise StateError("bonus_cards", f"{cards}; these rules play {list(config.bonus_cards)}")


def _check_phase(s: YaxhaState, n: int) -> None:
    phase, name = s.phase, PHASES[s.phase]
    seats = set(range(n))
    if any(sum(tile) != CUBES_PER_TILE for tile in s.market):
        raise StateError("market", f"every market tile holds {CUBES_PER_TILE} cubes, got {s.market}")
    if phase != BUILD and (s.build_step or any(map(any, s.hands)) or any(s.fresh)):
        field = "build_step" if s.build_step else "hands" if any(map(any, s.hands)) else "fresh"
        raise StateError(field, f"set in phase {name!r}; only building uses it")
    if (phase == PENDING) != bool(s.pending):
        raise StateError("pending", f"{list(s.pending)} in phase {name!r}: pending seats exactly in 'pending'")
    if phase in (SELECT, OVER) and any(o >= 0 for o in s.owner):
        raise StateError("owner", f"{list(s.owner)}: no tile is taken in phase {name!r}")
    if phase == SELECT and -1 not in s.choices:
        raise StateError("choices", "'select' with every choice already made")
    if phase in (PENDING, BUILD) and -1 in s.choices:
        raise StateError("choices", f"{list(s.choices)}: every choice is in during {name!r}")
    if phase == OVER and any(c >= 0 for c in s.choices):
        raise StateError("choices", f"{list(s.choices)}: cleared once the game is over")
    owners = [o for o in s.owner if o >= 0]
    if len(set(owners)) != len(owners):
        raise StateError("owner", f"{list(s.owner)}: a seat takes one tile")
    if phase == PENDING:
        pending = list(s.pending)
        if len(pending) < 2 or len(set(pending)) != len(pending) or set(owners) != seats - set(pending):
            raise StateError(
                "pending", f"{pending}: 2 or more distinct seats, exactly those without a tile ({list(s.owner)})"
            )
    if phase == BUILD and sorted(owners) != sorted(seats):
        raise StateError("owner", f"{list(s.owner)}: every seat holds one tile while building")


def _check_pyramid(s: YaxhaState, rules: Any, seat: int) -> None:
    g, pyramid = rules.geometry, s.pyramids[seat]
    field = f"pyramids[{seat}]"
    for cell in g.upper_cells:
        colour = pyramid[cell]
        if colour < 0:
            continue
        if any(pyramid[j] < 0 for j in g.supports[cell]):
            raise StateError(field, f"the cube on {g.cell_name(cell)} lacks a supporting cube")
        if not any(pyramid[j] == colour for j in g.touch[cell]):
            raise StateError(field, f"the cube on {g.cell_name(cell)} touches no cube of its colour")
    base = [i for i in g.base_cells if pyramid[i] >= 0]
    if base:
        xs = [g.coords[i][0] for i in base]
        ys = [g.coords[i][1] for i in base]
        if max(xs) - min(xs) >= BASE_SIDE or max(ys) - min(ys) >= BASE_SIDE:
            raise StateError(field, f"the base spans more than {BASE_SIDE} x {BASE_SIDE} cells")
        if g.anchor is not None and pyramid[g.anchor] < 0:
            raise StateError(field, f"the base does not hold the first cube's cell {g.cell_name(g.anchor)}")
        reached, todo = {base[0]}, [base[0]]
        while todo:
            for j in g.orth[todo.pop()]:
                if pyramid[j] >= 0 and j not in reached:
                    reached.add(j)
                    todo.append(j)
        if len(reached) != len(base):
            raise StateError(field, "the base cubes are not orthogonally connected")
    fresh = s.fresh[seat]
    if len(set(fresh)) != len(fresh) or any(pyramid[cell] < 0 for cell in fresh):
        raise StateError(f"fresh[{seat}]", f"{list(fresh)}: distinct cells holding a cube")


def _check_cubes(s: YaxhaState, rules: Any) -> None:
    n, cpc = rules.num_players, rules.config.cubes_per_colour
    drawn = CUBES_PER_TILE * n * (NUM_ROUNDS if s.phase == OVER else s.round + 1)
    if sum(s.bag) != NUM_COLOURS * cpc - drawn:
        raise StateError("bag", f"{sum(s.bag)} cubes; {drawn} of {NUM_COLOURS * cpc} are drawn by round {s.round + 1}")
    older = [0] * NUM_COLOURS  # cubes placed before this round, per colour
    for seat in range(n):
        pyramid, fresh = s.pyramids[seat], set(s.fresh[seat])
        placed = sum(c >= 0 for c in pyramid)
        steps = steps_done(s, seat, n)
        finished = NUM_ROUNDS if s.phase == OVER else s.round
        if placed + s.discarded[seat] != CUBES_PER_TILE * finished + steps:
            raise StateError(
                f"discarded[{seat}]",
                f"seat {seat} placed {placed} and discarded {s.discarded[seat]} cubes; "
                f"it has had {CUBES_PER_TILE * finished + steps}",
            )
        for cell, colour in enumerate(pyramid):
            if colour >= 0 and cell not in fresh:
                older[colour] += 1
        if s.phase == BUILD:
            hand, tile = s.hands[seat], s.market[s.owner.index(seat)]
            if sum(hand) != CUBES_PER_TILE - steps or len(fresh) > steps:
                raise StateError(f"hands[{seat}]", f"{list(hand)} after {steps} building steps of seat {seat}")
            for colour in range(NUM_COLOURS):
                used = hand[colour] + sum(pyramid[cell] == colour for cell in fresh)
                if used > tile[colour]:
                    raise StateError(f"hands[{seat}]", f"colour {colour}: more cubes than seat {seat}'s tile {tile}")
    market = [sum(tile[c] for tile in s.market) if s.phase != OVER else 0 for c in range(NUM_COLOURS)]
    for colour in range(NUM_COLOURS):
        if s.bag[colour] + market[colour] + older[colour] > cpc:
            raise StateError("bag", f"colour {colour}: bag, market and pyramids hold more than {cpc} cubes")
