"""Maya (2012) search hooks for both searches
(:mod:`maya_envs.bots.mcts`, :mod:`maya_envs.bots.guided`): ``determinize`` and ``leaf_values``;
and ``score_margins``, the score-margin head's target.

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

from maya_envs.core.values import relative_leads
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
#: Lead (:func:`leaf_leads`) worth tanh(1) in the leaf value, per player count: the VP lead in
#: two players, the task-score lead in three and four. Three and four players: fitted by least
#: squares of ``tanh(lead / scale)`` against the acting seat's final result over 200 heuristic
#: self-play games each (``python benchmarks/fit_leaf_scales.py --games 200``): 3p 5.0 -> 8.1
#: (MSE 0.330 -> 0.309; predicting 0: 0.499), 4p 5.0 -> 3.5 (0.382 -> 0.374; 0: 0.953). Two
#: players keep the hand-set 2.0 (MSE 0.412; 0: 0.973): the fit runs to 0.12 (0.359), a sign of
#: the lead that ranks a 1-VP lead with a 5-VP one, and this scale is also the leaf of
#: ``mcts:200:depth=2``, the reference opponent of the two-player measurements.
LEAF_SCALES = {2: 2.0, 3: 8.1, 4: 3.5}


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


def leaf_leads(rules: Maya2012Rules, state: Maya2012State) -> np.ndarray:
    """``float64 (num_players,)``: each seat's lead as if the game ended now: two players the
    VP lead (+ a tenth of the priest lead, the first tie-break); three players the task-score
    lead over the others' mean; four players the team lead (both partners get it). Before the
    cards are dealt (drafted setup) every lead is 0."""
    n = rules.config.num_players
    if n == 2:
        vp = victory_points(state)
        priests = [state.priests.count(seat) for seat in range(2)]
        lead = vp[0] - vp[1] + 0.1 * (priests[0] - priests[1])
        return np.array([lead, -lead], np.float64)
    if not state.tasks:
        return np.zeros(n)
    scores = rules.victory_points(state)
    if n == 4:
        team = [scores[a] + scores[b] for a, b in TEAMS]
        lead = float(team[0] - team[1])
        return np.array([lead, -lead, lead, -lead], np.float64)
    return relative_leads(scores)


def leaf_values(rules: Maya2012Rules, state: Maya2012State) -> np.ndarray:
    """Per-seat values in (-1, 1) of an unfinished (full) state: ``tanh`` of
    :func:`leaf_leads` over the player count's :data:`LEAF_SCALES`."""
    return np.tanh(leaf_leads(rules, state) / LEAF_SCALES[rules.config.num_players])


def score_margins(rules: Maya2012Rules, state: Maya2012State) -> np.ndarray:
    """``float64 (num_players,)``: each seat's score margin as the scores stand (two players the
    VP lead plus a tenth of the priest lead, the tie-break; three players the task-score lead
    over the others' mean; four players the team lead, both partners alike: :func:`leaf_leads`),
    over the player count's :data:`LEAF_SCALES`. Once the game is over: the final margins the
    network's score-margin head learns (:mod:`maya_envs.nn.model`, ``margin_head=True``).

    Why this scale: it is the hook's, the lead worth ``tanh(1)`` (about a decided game), so the
    head's target is in the units of the hook's pre-tanh lead and of order 1. Over 40 heuristic
    self-play games the root mean square of the final margins is 1.12 (2p), 0.82 (3p), 2.05 (4p).
    """
    return leaf_leads(rules, state) / LEAF_SCALES[rules.config.num_players]
