"""Maya (2012) search hooks for both searches
(:mod:`maya_envs.bots.mcts`, :mod:`maya_envs.bots.guided`): ``determinize`` and ``leaf_values``.

Hidden information (rules section 7, three and four players): the other seats' two task cards
each and, with three players, the two face-down spare cards. The observer knows the board, its
own two cards and the face-up centre card (the centre tower's base colour), so the unknown
cards are the other ``9 - 3 = 6`` colours, dealt uniformly among the other seats' hands and
the spare pile.

One more thing the observer knows with the (leaking) option ``declare_step="eligible"``: a seat
is asked to declare only when it may (its turn order shows it), so a state in the declare phase
of another seat keeps only deals under which that seat may declare (rejection sampling). With
``"possible"`` (default) and ``"always"`` the declare phase depends on the board only.
Inferences from the history (a seat that could have declared and went on) are not used: the
state holds no history.

Two players: everything is public; ``determinize`` returns the state unchanged. The drafted
setup's future blocks are drawn from the generator passed to ``apply_action`` (nothing to
resample), and before the deal nobody holds a card.

Pure: standard library and numpy.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from maya_envs.bots.search_common import relative_values
from maya_envs.maya2012.rules import (
    CENTRE,
    DECLARE,
    TEAMS,
    Maya2012Rules,
    Maya2012State,
    may_declare,
    victory_points,
)

MAX_TRIES = 10_000
#: VP lead worth tanh(1) in the two-player leaf value.
VP_SCALE_2P = 2.0
#: Task-score lead worth tanh(1) in the three/four-player leaf value.
SCORE_SCALE_MULTI = 5.0


def hidden_cards(state: Maya2012State, observer: int) -> list[int]:
    """Colours of the task cards ``observer`` cannot see (other hands and the spare), sorted."""
    known = set(state.tasks[observer]) | {state.towers[CENTRE][0]}
    return [c for c in range(9) if c not in known]


def determinize(rules: Maya2012Rules, state: Maya2012State, observer: int, rng: np.random.Generator) -> Maya2012State:
    """A full state that ``observer`` cannot tell from ``state``: the other seats' task cards
    and the spare dealt again uniformly from the cards ``observer`` cannot see, subject to
    the declare-phase constraint (module docstring). ``state`` itself is returned when
    nothing is hidden.

    Raises:
        RuntimeError: no consistent deal was found (cannot happen for a reachable state).
    """
    n = rules.config.num_players
    if n == 2 or not state.tasks:
        return state
    unknown = hidden_cards(state, observer)
    others = [seat for seat in range(n) if seat != observer]
    must_declare = state.phase == DECLARE and state.to_move != observer and rules.config.declare_step == "eligible"
    for _ in range(MAX_TRIES):
        cards = [unknown[i] for i in rng.permutation(len(unknown))]
        tasks = list(state.tasks)
        for k, seat in enumerate(others):
            tasks[seat] = tuple(sorted(cards[2 * k : 2 * k + 2]))
        if must_declare and not may_declare(state.towers, tasks[state.to_move]):
            continue
        spare = tuple(sorted(cards[2 * len(others) :]))
        return dataclasses.replace(state, tasks=tuple(tasks), spare=spare, _cache={})
    raise RuntimeError(f"no deal consistent with seat {observer}'s view after {MAX_TRIES} tries")


def leaf_values(rules: Maya2012Rules, state: Maya2012State) -> np.ndarray:
    """Per-seat values in (-1, 1) of an unfinished (full) state, as if the game ended now:
    two players ``tanh`` of the VP lead (+ a tenth of the priest lead, the first tie-break)
    over :data:`VP_SCALE_2P`; three players the task-score lead over the others' mean; four
    players the team lead (both partners get it), over :data:`SCORE_SCALE_MULTI`. Before the
    cards are dealt (drafted setup) every value is 0."""
    n = rules.config.num_players
    if n == 2:
        vp = victory_points(state)
        priests = [state.priests.count(seat) for seat in range(2)]
        lead = vp[0] - vp[1] + 0.1 * (priests[0] - priests[1])
        value = float(np.tanh(lead / VP_SCALE_2P))
        return np.array([value, -value])
    if not state.tasks:
        return np.zeros(n)
    scores = rules.victory_points(state)
    if n == 4:
        team = [scores[a] + scores[b] for a, b in TEAMS]
        lead = float(np.tanh((team[0] - team[1]) / SCORE_SCALE_MULTI))
        return np.array([lead, -lead, lead, -lead])
    return relative_values(scores, SCORE_SCALE_MULTI)
