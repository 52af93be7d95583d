"""Maya (2012) per-action features: for each legal action, every quantity the heuristic bot
(:mod:`maya_envs.maya2012.bots`) computes to decide, from what the acting seat may see
(issue 16 item 1; the ``features`` hook of :mod:`maya_envs.games`).

:class:`ActionFeatures` ``(state, seat, actions)`` returns ``float32`` of shape
``(len(actions), F)``, one row per action id, each feature divided by its largest possible
magnitude under the rules' config, so every value lies in ``[-1, 1]``. A feature that does
not apply to an action's kind is 0.

Two players (``F = 13``; everything is public). ``after`` is the state after the action
(:meth:`Maya2012Rules.apply_action`); "me" is ``seat``, "opp" the other seat:

==================  ==================================================================
name                value (scale)
==================  ==================================================================
is_exchange         1 for an exchange id (0-47)
is_monolith         1 for a Monolith placement (48-59)
is_raven            1 for a Raven placement (60-63)
is_draft            1 for a drafted-setup placement (66-74)
ends_game           1 when ``after`` is a finished game (rules section 4 end)
win                 1 when ``after`` is finished and I won (rules section 6 tie-breaks)
loss                1 when ``after`` is finished and I lost
vp_diff             my VP - opp VP in ``after`` (section 6), / (9 + priest scale)
priest_diff         my priests - opp priests on the board in ``after``, / priest scale
                    (``min(priests_per_player, 9)``)
ladder_diff         my ladders - opp ladders on the board in ``after``, / ladder scale
                    (``min(ladders_per_player, sum(ladder_spaces))``)
reply_joins         when opp makes the next exchange: the most joins (0-2) any of its
                    legal exchanges would form (:func:`best_reply_joins`), / 2
reply_vp_swing      when opp makes the next exchange: the most its (VP - my VP) would
                    grow by one of its legal exchanges
                    (:func:`~maya_envs.maya2012.observation.exchange_consequences`), / 6
setup_white_joins   a Monolith placement: the joins White's best first exchange would form
                    with the Raven set as badly for White as possible
                    (:func:`white_setup_joins`, -1 when White would have no exchange), / 2
==================  ==================================================================

Three and four players (``F = 10``): the features read the board, the Monolith, the phase and
only ``state.tasks[seat]`` (the other hands and the spare pair are hidden; the centre card is
the centre tower's base colour). "Unknown" colours are the 6 that are neither mine nor the
centre card's (:func:`~maya_envs.maya2012.rules.unknown_colours`); each lies in a given other
hand with probability 1/3. ``board`` is the board after an exchange, the board now for the
declare and continue decisions:

==================  ==================================================================
name                value (scale)
==================  ==================================================================
is_exchange         1 for an exchange id
is_declare          1 for ``declare end`` (64)
is_continue         1 for ``continue`` (65)
is_draft            1 for a drafted-setup placement
my_score            my task score on ``board`` (2 colours, no bonus; section 7), / 20
rival_score         the summed task scores of the unknown colours on ``board``, / 3
                    (an average rival's expected score), / 20
margin              my_score - rival_score (the heuristic's value of a board), / 20
can_declare         1 when I may declare on ``board`` (exchange: right after it; declare:
                    now; continue: 0, the turn passes)
centre_bonus        1 when declaring on ``board`` earns me the +5 centre bonus (the
                    exchange completes the centre tower; declare: the last one did)
win_chance          where ``can_declare``: the exact chance that the game ending on
                    ``board`` by my declaration is won (ties count half), over all 90
                    equally likely deals of the unknown colours to the 3 other hands
                    (:data:`ALL_DEALS`, :func:`win_probability`); else 0. In [0, 1]
==================  ==================================================================

The heuristic bot is a fixed function of these rows (``tests/test_features_maya2012.py``):
two players ``1000 (win - loss)`` for a finished game, else ``10 vp + 3 priests + ladders - 2
reply_joins`` (raw units), ``-setup_white_joins`` at the Monolith decision; three and four
players ``1000 win_chance`` for an exchange after which I may declare with ``win_chance >=
0.5``, else ``margin``, and at the declare decision ``declare`` exactly when ``win_chance >=
0.5``. The bot estimates the chance from 32 sampled deals by default; ``HeuristicBot(...,
samples=None)`` uses the exact value these features hold. Drafted setup: the bot draws a tower
at random, so only the kind flag is set.

Pure: numpy only; imports the rules and the observation, never the other way round.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from maya_envs.core.checks import is_int
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012.observation import exchange_consequences, seat_outlook
from maya_envs.maya2012.rules import (
    CENTRE,
    CENTRE_BONUS,
    EXCHANGE,
    OVER,
    Maya2012Rules,
    Maya2012State,
    colour_score,
    colour_scores,
    colour_totals,
    exchange_totals,
    is_complete,
    joins_formed,
    last_exchange_completed_centre,
    legal_exchanges,
    points_by_tower,
    state_exchanges,
    swap,
    tower_points,
    unknown_colours,
    victory_points,
    winner,
)

NAMES_2P = (
    "is_exchange",
    "is_monolith",
    "is_raven",
    "is_draft",
    "ends_game",
    "win",
    "loss",
    "vp_diff",
    "priest_diff",
    "ladder_diff",
    "reply_joins",
    "reply_vp_swing",
    "setup_white_joins",
)
NAMES_MULTI = (
    "is_exchange",
    "is_declare",
    "is_continue",
    "is_draft",
    "my_score",
    "rival_score",
    "margin",
    "can_declare",
    "centre_bonus",
    "win_chance",
)
MAX_JOINS = 2  # an exchange closes at most the two swapped towers' seams
MAX_SWING = 6  # two towers, each at most +1 ladder majority won, +1 lost by the other, +1 priest
TASK_SCALE = 20  # two task colours score at most 10 each; 6 unknown colours at most 60, / 3


def _all_deals() -> np.ndarray:
    """Every split of 6 positions into 3 ordered hands of 2, as ``(90, 6)`` int indices
    (columns ``2k, 2k+1`` the k-th hand, each hand sorted)."""
    deals = set()
    for order in itertools.permutations(range(6)):
        deals.add(tuple(x for k in range(3) for x in sorted(order[2 * k : 2 * k + 2])))
    return np.array(sorted(deals), np.intp)


ALL_DEALS = _all_deals()
"""``(90, 6)``: the equally likely deals of a seat's 6 unknown colours (positions in
:func:`~maya_envs.maya2012.rules.unknown_colours`) to the 3 other hands, in seat order after
it (3p: two rivals and the face-down pair; 4p: left rival, partner, right rival)."""


def best_reply(state: Maya2012State, ladder_spaces: tuple[int, ...]) -> tuple[int, int]:
    """Two players: ``(best_reply_joins(state), best_reply_swing(state, ladder_spaces))`` in one
    pass over the mover's legal exchanges (the features need both for every action)."""
    towers = state.towers
    mover = state.to_move
    joins = swing = 0
    for move in state_exchanges(state):
        formed = joins_formed(towers, move)
        if formed:
            joins = max(joins, formed)
            swing = max(swing, exchange_consequences(state, move, mover, ladder_spaces)[2])
    return joins, swing


class ReplyTable:
    """Two players: :func:`best_reply` of every state one action after ``state``, from one table
    of what each exchange of ``mover`` (the seat that replies) forms and swings on ``state``'s
    board.

    An exchange changes its own two towers only (their blocks, ladders and priest), and the
    seat that replies keeps its ladders and priests in hand; so a reply that leaves those two
    towers alone forms and swings on the board after the action what it would on ``state``'s.
    The Monolith, moved to the exchanged pair, bars every reply that touches it (rules section
    4), so every legal reply reads the table; one that touches a changed tower would be
    computed on the board after the action. Cost: each reply's value once per ``state``
    instead of once per action (the features of a position with ten actions did ten passes).
    """

    def __init__(self, state: Maya2012State, mover: int, ladder_spaces: tuple[int, ...]) -> None:
        self.state, self.mover, self.ladder_spaces = state, mover, ladder_spaces
        self._values: dict[int, tuple[int, int]] = {}

    def _on_board(self, board: Maya2012State, move: int) -> tuple[int, int]:
        formed = joins_formed(board.towers, move)
        return formed, exchange_consequences(board, move, self.mover, self.ladder_spaces)[2] if formed else 0

    def best(self, after: Maya2012State, action: int) -> tuple[int, int]:
        """:func:`best_reply` ``(after, ladder_spaces)`` for ``after``, the state ``action`` led to
        from ``state`` (``mover`` to move there)."""
        if after.to_move != self.mover:
            return best_reply(after, self.ladder_spaces)
        changed = A.PAIRS[action // 4] if action < A.NUM_EXCHANGES else ()
        values = self._values
        joins = swing = 0
        for move in state_exchanges(after):
            a, b = A.PAIRS[move // 4]
            if a in changed or b in changed:
                formed, gain = self._on_board(after, move)
            else:
                found = values.get(move)
                if found is None:
                    found = values[move] = self._on_board(self.state, move)
                formed, gain = found
            if formed:
                joins = max(joins, formed)
                swing = max(swing, gain)
        return joins, swing


def best_reply_joins(state: Maya2012State) -> int:
    """Most joins any legal exchange of the player to move would form (0-2; 0 without one)."""
    moves = state_exchanges(state)
    return max((joins_formed(state.towers, move) for move in moves), default=0)


def best_reply_swing(state: Maya2012State, ladder_spaces: tuple[int, ...]) -> int:
    """Two players: the most the player to move's (VP - other's VP) grows by one of its
    legal exchanges (0-6; 0 without one). Only an exchange that forms a join can score."""
    return best_reply(state, ladder_spaces)[1]


def white_setup_joins(state: Maya2012State, pair: int) -> int:
    """Two players, Black's Monolith decision: the joins of White's best first exchange with the
    Monolith at ``pair``, under the Raven level that makes it smallest (-1 when White would have
    no legal exchange under some Raven level)."""
    return min(
        max((joins_formed(state.towers, move) for move in legal_exchanges(state.towers, pair, raven)), default=-1)
        for raven in A.EXCHANGE_LEVELS
    )


def result_terms(
    state: Maya2012State, seat: int, reply: int | None = None, vp: Sequence[int] | None = None
) -> tuple[int, int, int, int, int, int]:
    """Two players: ``(ends, result, vp_diff, priest_diff, ladder_diff, reply_joins)`` of
    ``state`` from ``seat``'s point of view: ``ends`` 1 for a finished game, ``result`` +1 win,
    -1 loss, 0 draw or running; the differences are mine minus the other seat's;
    ``reply_joins`` is :func:`best_reply_joins` when the other seat makes the next exchange,
    else 0 (``reply``: that value when the caller has it already; ``vp``: ``state``'s
    :func:`victory_points`, likewise)."""
    opp = 1 - seat
    ends, result = int(state.phase == OVER), 0
    if ends:
        win = winner(state)
        result = 0 if win is None else (1 if win == seat else -1)
    if vp is None:
        vp = victory_points(state)
    priests = state.priests.count(seat) - state.priests.count(opp)
    ladders = sum(state.ladders[seat]) - sum(state.ladders[opp])
    if state.phase != EXCHANGE or state.to_move != opp:
        reply = 0
    elif reply is None:
        reply = best_reply_joins(state)
    return ends, result, vp[seat] - vp[opp], priests, ladders, reply


def win_probability(per_colour: Sequence[int], mine: Sequence[int], bonus: int, deals: np.ndarray, n: int) -> float:
    """Share of ``deals`` (rows of 6 colours: 3 hands in seat order after me; see
    :data:`ALL_DEALS`) in which the game ending now is won by me (3p) or my team (4p), ties
    counting half. ``per_colour``: task score of each colour 0-8; ``bonus``: my centre bonus."""
    scores = np.asarray(per_colour, np.float64)
    hands = scores[deals].reshape(len(deals), 3, 2).sum(axis=2)
    own = scores[list(mine)].sum() + bonus
    if n == 3:
        mine_total, rivals = np.full(len(deals), own), hands[:, :2].max(axis=1)
    else:
        mine_total, rivals = own + hands[:, 1], hands[:, 0] + hands[:, 2]
    return float(((mine_total > rivals) + 0.5 * (mine_total == rivals)).mean())


def exchange_prospects(
    state: Maya2012State, seat: int, config
) -> dict[int, tuple[int, int, bool, bool, list[int] | None]]:
    """Three and four players, once dealt: for each exchange of ``state``, ``action -> (my task
    score after it, the unknown colours' summed task score after it, whether I may declare
    after it, whether it completes the centre tower (checked only where I may declare), the
    per-colour task scores after it where I may declare, else None)``, from ``seat``'s view
    only; built on the cached :func:`~maya_envs.maya2012.observation.seat_outlook` (the
    observation's own per-exchange block), so the bot and these features share it."""
    mode = config.three_plus_two
    towers = state.towers
    mine = state.tasks[seat]
    totals = colour_totals(towers)
    now = [colour_score(total, mode) for total in totals]
    my_now = sum(now[c] for c in mine)
    unknown_now = sum(now[c] for c in unknown_colours(towers, mine))
    prospects = {}
    for action, my_delta, can, unknown_delta in seat_outlook(state, seat, config):
        per_colour, completes = None, False
        if can:
            per_colour = [colour_score(total, mode) for total in exchange_totals(towers, totals, action)]
            completes = CENTRE in A.PAIRS[action // 4] and is_complete(swap(towers, action)[CENTRE])
        prospects[action] = (my_now + my_delta, unknown_now + unknown_delta, can, completes, per_colour)
    return prospects


class ActionFeatures:
    """Per-action features of one :class:`~maya_envs.maya2012.rules.Maya2012Rules` (module
    docstring; the ``features`` hook of :mod:`maya_envs.games`).

    Attributes:
        rules: the rules.
        names: the ``F`` feature names (13 with two players, 10 with three or four).
    """

    def __init__(self, rules: Maya2012Rules) -> None:
        self.rules = rules
        config = rules.config
        self._n = config.num_players
        self.names = NAMES_2P if self._n == 2 else NAMES_MULTI
        self._col = {name: i for i, name in enumerate(self.names)}
        priests = max(1, min(config.priests_per_player, A.NUM_TOWERS))
        self._scales_2p = (
            A.NUM_TOWERS + priests,
            priests,
            max(1, min(config.ladders_per_player, sum(config.ladder_spaces))),
        )

    def __call__(self, state: Maya2012State, seat: int, actions: Sequence[int]) -> np.ndarray:
        """``float32`` ``(len(actions), F)`` in [-1, 1] (module docstring), read only from what
        ``seat`` may see.

        Raises:
            ValueError: ``seat`` is not a seat of this game, or an action id is not legal now.
        """
        if not is_int(seat) or not 0 <= seat < self._n:
            raise ValueError(f"seat {seat!r} out of range 0..{self._n - 1}")
        legal = set(self.rules.legal_actions(state))
        bad = [a for a in actions if a not in legal]
        if bad:
            raise ValueError(f"action ids {bad} are not legal now; legal ids: {sorted(legal)}")
        out = np.zeros((len(actions), len(self.names)), np.float32)
        if len(actions) == 0:
            return out
        if self._n == 2:
            self._fill_2p(out, state, seat, actions)
        else:
            self._fill_multi(out, state, seat, actions)
        return out

    def _fill_2p(self, out: np.ndarray, state: Maya2012State, seat: int, actions: Sequence[int]) -> None:
        col = self._col
        vp_scale, priest_scale, ladder_scale = self._scales_2p
        spaces = self.rules.config.ladder_spaces
        replies = ReplyTable(state, 1 - seat, spaces)
        # An action changes the pieces on its own two towers at most (a setup placement none):
        # the victory points after it are the ones now, those two towers' recounted.
        points = points_by_tower(state)
        vp_now = [sum(p[0] for p in points), sum(p[1] for p in points)]
        for row, action in enumerate(actions):
            if action >= A.DRAFT_BASE:
                out[row, col["is_draft"]] = 1.0
                continue
            if A.MONOLITH_BASE <= action < A.RAVEN_BASE:
                out[row, col["is_monolith"]] = 1.0
                out[row, col["setup_white_joins"]] = white_setup_joins(state, action - A.MONOLITH_BASE) / MAX_JOINS
            else:
                out[row, col["is_exchange" if action < A.NUM_EXCHANGES else "is_raven"]] = 1.0
            after = self.rules.apply_action(state, action)
            replied = after.phase == EXCHANGE and after.to_move != seat
            reply_joins, reply_swing = replies.best(after, action) if replied else (0, 0)
            vp_after = list(vp_now)
            for tower in A.PAIRS[action // 4] if action < A.NUM_EXCHANGES else ():
                (w0, b0), (w1, b1) = points[tower], tower_points(after, tower)
                vp_after[0] += w1 - w0
                vp_after[1] += b1 - b0
            ends, result, vp, priests, ladders, reply = result_terms(after, seat, reply_joins, vp_after)
            out[row, col["ends_game"]] = ends
            out[row, col["win"]] = float(result > 0)
            out[row, col["loss"]] = float(result < 0)
            out[row, col["vp_diff"]] = vp / vp_scale
            out[row, col["priest_diff"]] = priests / priest_scale
            out[row, col["ladder_diff"]] = ladders / ladder_scale
            if replied:
                out[row, col["reply_joins"]] = reply / MAX_JOINS
                out[row, col["reply_vp_swing"]] = reply_swing / MAX_SWING

    def _fill_multi(self, out: np.ndarray, state: Maya2012State, seat: int, actions: Sequence[int]) -> None:
        col = self._col
        mode = self.rules.config.three_plus_two
        if not state.tasks:  # the draft: no cards yet
            for row, action in enumerate(actions):
                out[row, col["is_draft"]] = float(action >= A.DRAFT_BASE)
            return
        mine = state.tasks[seat]
        unknown = unknown_colours(state.towers, mine)
        deals = np.asarray(unknown, np.intp)[ALL_DEALS]

        def board_terms(row: int, my_score: int, unknown_score: int, per_colour, bonus: bool) -> None:
            rival = unknown_score / 3
            out[row, col["my_score"]] = my_score / TASK_SCALE
            out[row, col["rival_score"]] = rival / TASK_SCALE
            out[row, col["margin"]] = (my_score - rival) / TASK_SCALE
            if per_colour is not None:  # I may declare on this board
                out[row, col["can_declare"]] = 1.0
                out[row, col["centre_bonus"]] = float(bonus)
                p_win = win_probability(per_colour, mine, CENTRE_BONUS if bonus else 0, deals, self._n)
                out[row, col["win_chance"]] = p_win

        prospects = exchange_prospects(state, seat, self.rules.config) if state.phase == EXCHANGE else {}
        now = colour_scores(state.towers, mode)
        my_now, unknown_now = sum(now[c] for c in mine), sum(now[c] for c in unknown)
        for row, action in enumerate(actions):
            if action < A.NUM_EXCHANGES:
                out[row, col["is_exchange"]] = 1.0
                my_score, unknown_score, _, completes, per_colour = prospects[action]
                board_terms(row, my_score, unknown_score, per_colour, completes)
            elif action == A.DECLARE_END:
                out[row, col["is_declare"]] = 1.0
                board_terms(row, my_now, unknown_now, now, last_exchange_completed_centre(state))
            elif action == A.CONTINUE:
                out[row, col["is_continue"]] = 1.0
                board_terms(row, my_now, unknown_now, None, False)
            else:
                out[row, col["is_draft"]] = 1.0
