"""Text rendering of a Maya (Abacusspiele 2003) state (``render_mode="ansi"``/``"human"``).

``observer=None`` shows everything (the spectator's view, as in every game). With an observer seat, other seats'
face-down cards show only their back (``?L`` low, ``?H`` high), their hands only as counts
of low and high cards and (advanced variant) their sealed bids as ``?`` until every bid is in,
exactly what that seat may know.
"""

from __future__ import annotations

from maya_envs.maya_quarry.actions import CARD_IS_LOW, CARD_VALUES, MAX_LEVELS
from maya_envs.maya_quarry.notation import BLUE_TITLES, MARKER_TITLES, marker_title
from maya_envs.maya_quarry.rules.state import BID, PHASE_NAMES, MayaQuarryState

LEGEND = (
    "board: player lines give gold, blocks held, blocks left in the pool and the hand. "
    "q<i> = quarry i (left to right): ranks = gold per rank, max = card limit, then its marker and the cards "
    "as seat:value (?L / ?H = another seat's face-down low / high card). Pyramid lines: name, level, "
    "[blocks by seat digit, . free space], points for the first / second majority."
)
"""What the text board's marks mean (``maya-play`` prints it once)."""


def render_text(rules, state: MayaQuarryState, observer: int | None = None) -> str:
    """Multi-line picture of ``state`` as ``observer`` (a seat or ``None``) may see it."""
    comp, n = rules.components, rules.num_players
    canon = "" if comp.canonical else "  [component table: NON-CANONICAL proposal]"
    actor = "-" if state.actor < 0 else f"player_{state.actor}"
    lines = [
        f"Maya (Abacusspiele 2003)  round {state.round + 1}/3  phase {PHASE_NAMES[state.phase]}"
        f"  start player_{state.start}  to act {actor}{canon}",
    ]
    for seat in range(n):
        hand = state.hand(seat)
        if observer is None or observer == seat:
            cards = " ".join(str(CARD_VALUES[t]) for t in range(len(hand)) for _ in range(hand[t]))
        else:
            low = sum(c for c, is_low in zip(hand, CARD_IS_LOW, strict=True) if is_low)
            cards = f"{low} low, {sum(hand) - low} high"
        held = ", ".join(MARKER_TITLES[m] for m, h in enumerate(state.holder) if h == seat)
        lines.append(
            f"player_{seat}: gold {state.gold[seat]}  held {state.held[seat]}  pool {state.pool[seat]}"
            f"  hand [{cards}]" + ("  passed" if state.passed[seat] else "") + (f"  markers: {held}" if held else "")
        )
    if rules.advanced:
        lines.append(_auction_line(state, observer))
    for q, quarry in enumerate(comp.quarries):
        revealed = state.resolving < 0 or q >= state.resolving
        cells = []
        for owner, card in state.columns[q]:
            if revealed or observer is None or observer == owner:
                cells.append(f"{owner}:{CARD_VALUES[card]}")
            else:
                cells.append(f"{owner}:?{'L' if CARD_IS_LOW[card] else 'H'}")
        marker = marker_title(quarry.marker)
        shield = f"  protects player_{state.protect_seat}" if state.protect_q == q else ""
        if state.joker_protect_q == q:
            shield += f"  joker protects player_{state.joker_seat}"
        if state.plus2_q == q:
            shield += f"  +2 points for player_{state.plus2_seat}"
        lines.append(
            f"q{q} ranks {list(quarry.ranks)} max {quarry.max_cards} {marker}: {' '.join(cells) or '.'}{shield}"
        )
    for p, pyramid in enumerate(comp.pyramids):
        for level in range(len(pyramid.levels) - 1, -1, -1):
            spaces, first, second = pyramid.levels[level]
            counts = state.board[(p * MAX_LEVELS + level) * n : (p * MAX_LEVELS + level + 1) * n]
            blocks = "".join(str(seat) * c for seat, c in enumerate(counts))
            lines.append(f"{pyramid.name:>12} L{level + 1} [{blocks:.<{spaces}}] {first}/{second}")
    return "\n".join(lines)


def _auction_line(state: MayaQuarryState, observer: int | None) -> str:
    """Blue markers on offer, bids (sealed while bidding) and who holds which marker."""
    bids = []
    for seat, bid in enumerate(state.bids):
        sealed = state.phase == BID and observer is not None and observer != seat
        bids.append("-" if bid < 0 else "?" if sealed else str(bid))
    offer = ", ".join(BLUE_TITLES[m] for m in state.blue_offer) or "-"
    held = ", ".join(f"{BLUE_TITLES[m]} (player_{h})" for m, h in enumerate(state.blue_holder) if h >= 0) or "-"
    joker = f"  Joker as {MARKER_TITLES[state.joker_as]} (player_{state.joker_seat})" if state.joker_as >= 0 else ""
    return f"auction offer: {offer}  bids [{' '.join(bids)}]  blue held: {held}{joker}"
