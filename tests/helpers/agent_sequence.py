"""The turn-order check for hidden information (:func:`check_game`): the true and a resampled
state played on in lock step must select the same agent while the seat cannot tell them apart
(tests/test_agent_sequence.py explains the check)."""

from __future__ import annotations

import numpy as np

from maya_envs.bots import make_bot
from maya_envs.games import game_of_rules
from tests.conformance import play_states

EVERY = 8  # a lockstep starts at every 8th state of a game ...


HORIZON = 16  # ... and runs on for at most 16 steps (from the first state: the whole game)


def view(rules, state, seat: int):
    """What ``seat`` sees of ``state`` (besides the turn order): observation, mask when it
    moves, and the final ``info`` (every agent's ``info`` is empty during play)."""
    moves = rules.current_player(state) == seat
    mask = rules.legal_mask(state).tobytes() if moves else None
    info = repr(rules.final_info(state)) if rules.current_player(state) < 0 else None
    return game_of_rules(rules).hook("observer")(rules).encode(state, seat).tobytes(), mask, info


def lockstep(rules, bots, state, other, seat: int, seed: int, horizon: int) -> tuple[int, int]:
    """Play ``state`` and ``other`` (a resample for ``seat``) on together for at most
    ``horizon`` steps while ``seat``'s view agrees; assert the same agent is selected at every
    such step. Returns (steps compared, the phases of the compared states)."""
    rng = np.random.default_rng(seed)
    phases = set()
    for step in range(horizon):
        if view(rules, state, seat) != view(rules, other, seat):
            return step, phases
        mover = rules.current_player(state)
        assert rules.current_player(other) == mover, (
            f"seat {seat} sees the same game, but player_{mover} is selected in one and "
            f"player_{rules.current_player(other)} in the other: the turn order leaks hidden data"
        )
        if mover < 0:
            return step, phases
        phases.add(state.phase)
        both = sorted(set(rules.legal_actions(state)) & set(rules.legal_actions(other)))
        if not both:  # another seat's options differ: no shared public history from here
            return step, phases
        action = bots[mover].act(state)
        if action not in both:
            action = both[int(rng.integers(len(both)))]
        chance = int(rng.integers(2**31))
        state = rules.apply_action(state, action, np.random.default_rng(chance))
        other = rules.apply_action(other, action, np.random.default_rng(chance))
    return horizon, phases


def check_game(rules, games: int, seed: int, every: int = EVERY, horizon: int = HORIZON) -> dict:
    """Bot games (heuristic and random seats mixed): from the first state a lockstep over the
    whole game; then, at least ``every`` states apart, from each state where the resample (the
    game's ``determinize`` hook) for the seat in rotation changed something, one over
    ``horizon`` steps; counts of what was covered, and the phases played and compared."""
    n = rules.spec.num_players
    determinize = game_of_rules(rules).hook("determinize")
    rng = np.random.default_rng(seed)
    counts = {"starts": 0, "resampled": 0, "steps": 0, "phases_played": set(), "phases_compared": set()}
    for game in range(games):
        kinds = ["heuristic" if (seat + game) % 2 else "random" for seat in range(n)]
        bots = [make_bot(kind, rules, 100 * game + seat) for seat, kind in enumerate(kinds)]
        last = -every
        for index, state in enumerate(play_states(rules, bots, np.random.default_rng(seed + game))):
            if rules.current_player(state) < 0:
                break
            counts["phases_played"].add(state.phase)
            seat = (game + index) % n
            if index - last < every:
                continue
            other = determinize(rules, state, seat, rng)
            if other == state and index:
                continue  # nothing hidden from this seat here: wait for a state with hidden data
            last = index
            steps, phases = lockstep(
                rules, bots, state, other, seat, int(rng.integers(2**31)), horizon if index else 10**6
            )
            counts["starts"] += 1
            counts["resampled"] += other != state
            counts["steps"] += steps
            counts["phases_compared"] |= phases
    return counts
