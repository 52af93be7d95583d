"""Maya (2012) rules engine for 2, 3 and 4 players (pure: standard library and numpy only).

Sources: the seed rulebook ``shared/seeds/000_ddaf2d912aa0e731.txt`` ("Variant for Two
Players", "Variant for Three Players", "Variant for Four Players", "Alternative Setup") and
``shared/rules/maya2012.md`` sections 1-8. Rule decisions, in one place:

* **Board.** Towers 0-8 row-major on a 3x3 grid; adjacency is orthogonal (12 pairs, see
  :mod:`maya_envs.maya2012.actions`). ``towers[t][i]`` is the colour (0-8) of level ``i+1``.
* **Setup** (section 8): uniform over valid boards (:mod:`maya_envs.maya2012.setup`).
  Two players: ``setup="choose"`` (default): Black (``player_1``) places the Monolith (12
  actions) and then sets the Raven at level 2-5 (4 actions) before White's first exchange.
  ``setup="random"``: both drawn from the env's generator, White moves first (section 4,
  DECISION "seats"). Three and four players: ``setup="random"`` (their default); the
  Monolith starts off the board and there is no Raven.
* **Drafted setup** (``setup="draft"``, seed "Alternative Setup", section 8 DECISION): from
  level 1 up, the env's generator draws a block of the current level and the player to
  move chooses its tower (ids 66-74); placement ``k`` (0-44) is made by seat ``k mod n``
  (DECISION: ``player_0`` starts, turns rotate through all 45 placements). A tower is legal
  only if it is empty at that level, does not hold that colour yet and the rest of the
  level can still be completed (a perfect matching of the remaining blocks to the remaining
  towers). A completed level never blocks the next (the still-allowed tower/colour graph is
  regular, so it has a perfect matching). After the draft: two players go on with Black's
  Monolith and Raven decisions as in ``"choose"`` (DECISION); with three and four players
  the task cards are dealt then (DECISION: the centre card needs the finished board).
* **Exchange legality** (section 4): the pair is not a tower next to the Monolith; the base
  level ``k`` is not the Raven's level (two players only; blocks at the Raven's level may
  still move as part of a lower exchange); no joined colour is split, i.e. ``col[X][k-1] !=
  col[X][k]`` for both towers before the swap; level 1 never moves.
* **After an exchange (two players):** the Monolith moves between the two towers, the Raven
  to ``k``. For each of the two towers where the seam now joins a colour, the mover places
  one ladder if the tower has a free ladder space and the mover has a ladder left. A tower
  that became monochrome gets the mover's priest even when no ladder space is free (seed
  example); PROPOSAL (section 4): with no priest left, none is placed and the tower stays
  complete.
* **Ladder spaces** (section 5, INFERENCE, config ``ladder_spaces``): one per side facing an
  adjacent tower: corner 2, edge 3, centre 4 (``[2,3,2,3,4,3,2,3,2]``). 15 ladders and 5
  priests per player (section 2, DERIVED).
* **Three and four players** (section 7): no ladders, priests or Raven (``ladders`` stay 0,
  ``ladders_left``/``priests_left`` are 0: the pieces stay in the box). The task card of the
  centre tower's base colour lies face up; the other 8 are shuffled by the env's generator;
  each seat gets 2 secret cards (3p: the last 2 lie face down, unused; 4p: all 8 are dealt).
  Seats play clockwise ``player_0, player_1, ...``; in 4p the teams are {0, 2} and {1, 3}.
* **Declaring the end** (section 7): after an exchange, when the mover is eligible (the
  tower of one of its own task colours is complete, i.e. the tower whose base has that
  colour, and the centre tower is complete) the same seat decides: ``declare end`` (64) ends
  the game at once, ``continue`` (65) passes the turn. When the step is asked is a
  DECISION (the rulebook only has a player who may declare say so; nobody else learns
  anything, and the cards stay secret): ``declare_step="possible"`` (default) asks the mover
  after every exchange once the board makes a declaration possible for someone (the centre
  tower and at least one other tower complete: public, and it stays true since a complete tower
  is never exchanged), ``continue`` being the only legal id for a mover who is not eligible;
  ``"always"`` asks after every exchange (the same information, a longer game); ``"eligible"``
  asks only an eligible mover: shorter, but it LEAKS, since every seat sees whose turn it is
  and so learns that the mover holds the colour of a complete tower.
* **Centre bonus** (section 7): +5 VP to the declarer if the exchange of the declaring turn
  completed the centre tower (tower 4 is one of the two exchanged towers: a complete tower
  can never be part of an exchange, so it was completed by that exchange).
* **Task scoring** (section 7, INFERENCE): each task colour is scored separately: the sum
  over its joined groups (maximal vertical runs of >= 2 blocks in one tower) of C(n, 2), so
  5 -> 10, 4 -> 6, 3 -> 3, 2 -> 1, two pairs -> 2. The one case the seed's table leaves open,
  runs [3, 2], scores 4 with ``three_plus_two="sum"`` (default) or 3 with ``"best"`` (the
  best single table line). A seat's score is the sum over its 2 colours (+5 bonus); a 4p
  team's score is the sum of its partners'.
* **End** (section 4): the player to move has no legal exchange, or (3-4p) a declaration.
  House rule (section 4 DECISION): after ``max_turns`` exchanges (default 300) the game ends;
  ``at_max_turns="score"`` (default) scores it as a normal end, ``"truncate"`` cuts it with
  no outcome (Gymnasium truncation). DECISION: a real end wins over the limit: when the
  exchange that reaches ``max_turns`` leaves the next player without a legal exchange (or
  makes the mover eligible to declare, who then declares), the game ends by that rule, is
  scored, and ``info["end"]`` says so (:func:`end_reason`). Measured in the rules file: under random 2p play 158 of
  1,000 games were still running after 5,000 exchanges.
* **Two-player scoring** (section 6): 1 VP per own priest; 1 VP per tower where the player
  has strictly more ladders. Most VP wins; ties broken by (1) more priests, (2) more ladders
  on the board, (3) otherwise a draw.
* **Rewards** (paid once at the end; zero after a truncation). ``reward_scheme="win_loss"``
  (default): 2p +1 win, -1 loss, 0 draw; 3p the seats with the highest score share +1 and
  the others share -1 (all equal: 0 each; DECISION: no tie-break exists for 3-4p); 4p both
  partners of the higher team get +1, the others -1 (equal teams: 0). ``"score_diff"``
  (DECISION): 2p own VP minus the opponent's; 3p own score minus the mean of the other two;
  4p own team's score minus the other team's. Every scheme sums to 0 over the seats.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from maya_envs.core.chance import draw, draw_sequence, uniform
from maya_envs.core.errors import IllegalActionError
from maya_envs.core.legal import LegalActionCache, check_action_id
from maya_envs.core.options import resolve_config
from maya_envs.core.spec import GameSpec
from maya_envs.games import game_of_module
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012 import serialize
from maya_envs.maya2012.setup import draw_towers
from maya_envs.maya2012.state import (
    BLACK,
    CENTRE,
    CENTRE_BONUS,
    DECLARE,
    DECLARE_STEPS,
    DEFAULT_LADDER_SPACES,
    DRAFT,
    EMPTY,
    EXCHANGE,
    MAX_CHANCE_OUTCOMES,
    NO_MONOLITH,
    NO_PRIEST,
    NO_RAVEN,
    NO_SEAT,
    OVER,
    PHASE_NAMES,
    SETUP_MONOLITH,
    SETUP_NAMES,
    SETUP_RAVEN,
    SETUPS,
    TEAMS,
    TRUNCATED,
    WHITE,
    Maya2012Config,
    Maya2012State,
    _replace,
    centre_bonus_seat,
    colour_score,
    colour_scores,
    colour_totals,
    declaration_possible,
    declare_step_follows,
    draft_towers,
    exchange_deltas,
    exchange_joins,
    exchange_totals,
    exchanges_of_seams,
    is_complete,
    joined_runs,
    joins_formed,
    last_exchange_completed_centre,
    legal_exchanges,
    may_declare,
    pack_seams,
    points_by_tower,
    repack_seams,
    score_runs,
    state_exchanges,
    swap,
    task_scores,
    team_scores,
    teams,
    tower_points,
    tower_runs,
    unknown_colours,
    victory_points,
    winner,
)

GAME = game_of_module(__name__)
"""This game's entry in :data:`maya_envs.games.GAMES`: its name, title and version."""

__all__ = [
    "BLACK",
    "CENTRE",
    "CENTRE_BONUS",
    "DECLARE",
    "DECLARE_STEPS",
    "DEFAULT_LADDER_SPACES",
    "DRAFT",
    "EMPTY",
    "EXCHANGE",
    "MAX_CHANCE_OUTCOMES",
    "Maya2012Config",
    "Maya2012Rules",
    "Maya2012State",
    "NO_MONOLITH",
    "NO_PRIEST",
    "NO_RAVEN",
    "NO_SEAT",
    "OVER",
    "PHASE_NAMES",
    "SETUPS",
    "SETUP_MONOLITH",
    "SETUP_NAMES",
    "SETUP_RAVEN",
    "TEAMS",
    "TRUNCATED",
    "WHITE",
    "centre_bonus_seat",
    "colour_score",
    "colour_scores",
    "colour_totals",
    "declaration_possible",
    "declare_step_follows",
    "draft_towers",
    "exchange_deltas",
    "exchange_joins",
    "exchange_totals",
    "exchanges_of_seams",
    "is_complete",
    "joined_runs",
    "joins_formed",
    "last_exchange_completed_centre",
    "legal_exchanges",
    "may_declare",
    "pack_seams",
    "points_by_tower",
    "repack_seams",
    "reward_range",
    "score_runs",
    "state_exchanges",
    "swap",
    "task_scores",
    "team_scores",
    "teams",
    "tower_points",
    "tower_runs",
    "unknown_colours",
    "victory_points",
    "winner",
]


class Maya2012Rules(LegalActionCache):
    """The :class:`~maya_envs.core.protocol.Rules` of Maya (2012) at one config.

    Args:
        config: a :class:`Maya2012Config`, a mapping of its fields, or ``None`` for defaults.
        **options: further fields as keywords (``Maya2012Rules(num_players=3)``).

    Raises:
        ConfigError: see :func:`maya_envs.core.options.resolve_config` and
            :meth:`Maya2012Config.from_mapping`.
    """

    final_info_seat_keys = ("winner", "declared_by", "centre_bonus")
    """:meth:`final_info` keys holding a seat or ``None`` (Gymnasium views write ``-1``)."""

    def __init__(self, config: Maya2012Config | Mapping[str, Any] | None = None, **options: Any) -> None:
        self.config = config = resolve_config(Maya2012Config, config, options)
        n = config.num_players
        self._n = n
        setup_steps = 2 if n == 2 and config.setup != "random" else 0
        if config.setup == "draft":
            setup_steps += A.NUM_TOWERS * A.NUM_LEVELS
        declare_steps = config.max_turns if n > 2 else 0
        self.spec = GameSpec(
            **GAME.identity,
            num_players=n,
            num_actions=A.NUM_ACTIONS,
            max_game_length=config.max_turns + declare_steps + setup_steps,
            reward_range=reward_range(config),
            chance=config.setup == "draft",
            information="perfect" if n == 2 else "imperfect",
        )

    # -- protocol --------------------------------------------------------------------------

    def initial_state(self, rng: np.random.Generator) -> Maya2012State:
        cfg, n = self.config, self._n
        if n == 2:
            pieces = dict(ladders_left=(cfg.ladders_per_player,) * 2, priests_left=(cfg.priests_per_player,) * 2)
        else:
            pieces = dict(ladders=((0,) * 9,) * n, ladders_left=(0,) * n, priests_left=(0,) * n)
        if cfg.setup == "draft":
            empty = ((EMPTY,) * A.NUM_LEVELS,) * A.NUM_TOWERS
            block = draw(rng, lambda: uniform(range(9)), lambda g: int(g.integers(9)), "block")
            return Maya2012State(towers=empty, **pieces, phase=DRAFT, draft_block=block)
        towers = draw_towers(rng)
        if n > 2:
            return self._deal(Maya2012State(towers=towers, **pieces), rng)
        if cfg.setup == "choose":
            return Maya2012State(towers=towers, **pieces, to_move=BLACK, phase=SETUP_MONOLITH)
        monolith = draw(rng, lambda: uniform(range(len(A.PAIRS))), lambda g: int(g.integers(len(A.PAIRS))), "Monolith")
        raven = draw(rng, lambda: uniform(A.EXCHANGE_LEVELS), lambda g: int(g.integers(2, 6)), "Raven")
        return self._start_exchanges(Maya2012State(towers=towers, **pieces, monolith=monolith, raven=raven))

    def current_player(self, state: Maya2012State) -> int:
        return -1 if state.phase >= OVER else state.to_move

    def apply_action(self, state: Maya2012State, action: int, rng: np.random.Generator | None = None) -> Maya2012State:
        """The state after the current player takes ``action``.

        ``action`` is an int or a numpy integer, taken as a Python ``int``
        (:func:`~maya_envs.core.legal.check_action_id`), so the new state holds no numpy scalar.

        Raises:
            IllegalActionError: ``action`` is not an integer id in ``0..num_actions - 1`` (the
                message names the value and the range) or is not legal now (the message lists
                the legal ids).
            ValueError: a draft placement or the last one (which deals the cards) without
                ``rng``.
        """
        action = check_action_id(action, A.NUM_ACTIONS)
        legal = state._cache.get("legal")
        if legal is None:
            legal = state._cache["legal"] = self._compute_legal(state)
        if action not in legal:
            raise IllegalActionError(
                f"action {action} ({A.action_to_string(action)}) is illegal in phase "
                f"{PHASE_NAMES[state.phase]}; legal ids: {self.legal_actions(state)}"
            )
        phase = state.phase
        if phase == EXCHANGE:
            return self._exchange(state, action) if self._n == 2 else self._exchange_multi(state, action)
        if phase == DECLARE:
            if action == A.DECLARE_END:
                return _replace(state, phase=OVER, declared=state.to_move)
            passed = _replace(state, phase=EXCHANGE, to_move=(state.to_move + 1) % self._n)
            return self._start_exchanges(passed, state._cache.get("seams"))
        if phase == DRAFT:
            return self._draft(state, action, rng)
        if phase == SETUP_MONOLITH:
            return _replace(state, monolith=action - A.MONOLITH_BASE, phase=SETUP_RAVEN)
        placed = _replace(state, raven=action - A.RAVEN_BASE + 2, to_move=WHITE, phase=EXCHANGE)
        return self._start_exchanges(placed)

    def is_terminal(self, state: Maya2012State) -> bool:
        return state.phase == OVER

    def is_truncated(self, state: Maya2012State) -> bool:
        return state.phase == TRUNCATED

    def victory_points(self, state: Maya2012State) -> list[int]:
        """Each seat's victory points now: 2p ladders and priests (section 6), 3-4p task
        scores with the centre bonus (section 7)."""
        if self._n == 2:
            return victory_points(state)
        return task_scores(state, self.config.three_plus_two)

    def winners(self, state: Maya2012State) -> list[int]:
        """Seats that won a finished game (both partners of a winning 4p team); ``[]`` for a
        draw, a truncation or a game still running."""
        if state.phase != OVER:
            return []
        if self._n == 2:
            win = winner(state)
            return [] if win is None else [win]
        scores = self.victory_points(state)
        if self._n == 4:
            teams = team_scores(scores)
            return [] if teams[0] == teams[1] else sorted(TEAMS[int(teams[1] > teams[0])])
        best = max(scores)
        top = [seat for seat, score in enumerate(scores) if score == best]
        return [] if len(top) == self._n else top

    def idle_seats(self) -> tuple[int, ...]:
        """Seats that never decide under this config (:func:`idle_seats`)."""
        return idle_seats(self.config)

    def team_of(self, seat: int) -> tuple[int, ...]:
        """4p: both partners (:data:`TEAMS`); 2-3p: ``(seat,)``."""
        return TEAMS[seat % 2] if self._n == 4 else (seat,)

    def returns(self, state: Maya2012State) -> np.ndarray:
        n = self._n
        result = np.zeros(n)
        if state.phase != OVER:
            return result
        if self.config.reward_scheme == "score_diff":
            scores = np.asarray(self.victory_points(state), np.float64)
            if n == 4:
                teams = team_scores(scores.tolist())
                return np.array([teams[s % 2] - teams[1 - s % 2] for s in range(4)], np.float64)
            return scores - (scores.sum() - scores) / (n - 1)
        win = self.winners(state)
        if win:
            losers = n - len(win)
            result[:] = -1.0 / losers if n == 3 else -1.0
            result[win] = 1.0 / len(win) if n == 3 else 1.0
        return result

    def state_to_dict(self, state: Maya2012State) -> dict[str, Any]:
        """JSON-able dict of ``state`` (:func:`maya_envs.maya2012.serialize.to_dict`, schema
        ``maya2012.state`` version 2)."""
        return serialize.to_dict(state)

    def state_from_dict(self, data: Any) -> Maya2012State:
        """Rebuild and validate a state for this config (version 1 dicts load too).

        Raises:
            StateError: see :func:`maya_envs.maya2012.serialize.from_dict`.
        """
        return serialize.from_dict(data, self.config)

    def action_to_string(self, action: int) -> str:
        return A.action_to_string(action)

    def final_info(self, state: Maya2012State) -> dict[str, Any]:
        """Lists are indexed by seat; 2p ``winner`` is a seat or ``None`` (draw or
        truncation). 3-4p reveal every card: ``tasks``, ``spare``, ``centre_card``, and give
        ``colour_scores`` (per colour), ``declared_by``, ``centre_bonus`` (a seat or
        ``None``), ``winners`` and, in 4p, ``team_scores`` (``[team {0,2}, team {1,3}]``). The
        single-agent Gymnasium view writes ``-1`` for those ``None`` (:attr:`final_info_seat_keys`)."""
        over = state.phase == OVER
        common = {"turns": state.turn, "end": end_reason(state), "truncated": state.phase == TRUNCATED}
        if self._n == 2:
            return {
                "victory_points": victory_points(state),
                "priests": [state.priests.count(seat) for seat in (WHITE, BLACK)],
                "ladders": [sum(row) for row in state.ladders],
                "winner": winner(state) if over else None,
                **common,
            }
        scores = self.victory_points(state)
        bonus = centre_bonus_seat(state)
        info = {
            "victory_points": scores,
            "winners": self.winners(state),
            "tasks": [list(colours) for colours in state.tasks],
            "spare": list(state.spare),
            "centre_card": state.towers[CENTRE][0],
            "colour_scores": colour_scores(state.towers, self.config.three_plus_two),
            "declared_by": state.declared if state.declared >= 0 else None,
            "centre_bonus": bonus if bonus >= 0 else None,
            **common,
        }
        if self._n == 4:
            info["team_scores"] = team_scores(scores)
        return info

    # -- internals -------------------------------------------------------------------------

    def _compute_legal(self, state: Maya2012State) -> list[int]:
        phase = state.phase
        if phase == EXCHANGE:
            return legal_exchanges(state.towers, state.monolith, state.raven)
        if phase == DECLARE:
            can = may_declare(state.towers, state.tasks[state.to_move])
            return [A.DECLARE_END, A.CONTINUE] if can else [A.CONTINUE]
        if phase == DRAFT:
            return [A.DRAFT_BASE + t for t in draft_towers(state.towers, state.draft_block)]
        if phase == SETUP_MONOLITH:
            return list(range(A.MONOLITH_BASE, A.MONOLITH_BASE + len(A.PAIRS)))
        if phase == SETUP_RAVEN:
            return list(range(A.RAVEN_BASE, A.RAVEN_BASE + len(A.EXCHANGE_LEVELS)))
        return []

    def _start_exchanges(self, state: Maya2012State, seams: int | None = None) -> Maya2012State:
        """The exchange phase of the player to move, or the end of the game: a real end (no
        legal exchange) is checked before the house turn limit, so it wins when both happen
        on the same step. The legal list is kept in the state's cache (:meth:`legal_actions`
        does not compute it again), with the packed open seams (``seams``, when the caller
        has them: :func:`repack_seams`) that the next exchange updates."""
        if seams is None:
            seams = pack_seams(state.towers)
        state._cache["seams"] = seams
        legal = exchanges_of_seams(seams, state.monolith, state.raven)
        if not legal:
            return _replace(state, phase=OVER)
        if state.turn >= self.config.max_turns:
            return _replace(state, phase=OVER if self.config.at_max_turns == "score" else TRUNCATED)
        state._cache["legal"] = legal
        return state

    def _exchange(self, state: Maya2012State, action: int) -> Maya2012State:
        """Two players: swap, move Monolith and Raven, place ladders and a priest."""
        pair, offset = divmod(action, 4)
        towers = swap(state.towers, action)
        mover = state.to_move
        joins = exchange_joins(towers, action, state.ladders, state.ladders_left[mover], self.config.ladder_spaces)
        pieces = {}
        if joins:  # only an exchange that joins a colour places pieces
            ladders = [list(row) for row in state.ladders]
            priests = list(state.priests)
            ladders_left = list(state.ladders_left)
            priests_left = list(state.priests_left)
            for tower, ladder, complete in joins:
                if ladder:
                    ladders[mover][tower] += 1
                    ladders_left[mover] -= 1
                if complete and priests_left[mover]:
                    priests[tower] = mover
                    priests_left[mover] -= 1
            pieces = dict(
                ladders=tuple(tuple(row) for row in ladders),
                priests=tuple(priests),
                ladders_left=tuple(ladders_left),
                priests_left=tuple(priests_left),
            )
        next_state = _replace(
            state, towers=towers, monolith=pair, raven=offset + 2, to_move=1 - mover, turn=state.turn + 1, **pieces
        )
        return self._start_exchanges(next_state, _child_seams(state, towers, action))

    def _exchange_multi(self, state: Maya2012State, action: int) -> Maya2012State:
        """Three and four players: swap and move the Monolith; then the declare decision
        when :func:`declare_step_follows` (config ``declare_step``), else the next seat."""
        towers = swap(state.towers, action)
        moved = dict(towers=towers, monolith=action // 4, turn=state.turn + 1)
        seams = _child_seams(state, towers, action)
        if declare_step_follows(self.config.declare_step, towers, state.tasks[state.to_move]):
            declaring = _replace(state, **moved, phase=DECLARE)
            declaring._cache["seams"] = seams
            return declaring
        return self._start_exchanges(_replace(state, **moved, to_move=(state.to_move + 1) % self._n), seams)

    def _draft(self, state: Maya2012State, action: int, rng: np.random.Generator | None) -> Maya2012State:
        if rng is None:
            raise ValueError("a draft placement draws the next block: apply_action needs a numpy Generator")
        tower = action - A.DRAFT_BASE
        i = state.towers[tower].index(EMPTY)
        towers = list(state.towers)
        towers[tower] = towers[tower][:i] + (state.draft_block,) + towers[tower][i + 1 :]
        towers = tuple(towers)
        left = [c for c in range(9) if c not in {column[i] for column in towers}]
        if not left and i + 1 < A.NUM_LEVELS:
            left = list(range(9))  # the level is complete: draw from the next one
        if left:
            count = sum(A.NUM_LEVELS - column.count(EMPTY) for column in towers)
            block = draw(rng, lambda: uniform(left), lambda g: left[int(g.integers(len(left)))], "block")
            return _replace(state, towers=towers, draft_block=block, to_move=count % self._n)
        built = _replace(state, towers=towers, draft_block=-1)
        if self._n == 2:
            return _replace(built, phase=SETUP_MONOLITH, to_move=BLACK)
        return self._deal(built, rng)

    def _deal(self, state: Maya2012State, rng: np.random.Generator) -> Maya2012State:
        """Three and four players: set the centre card aside, deal 2 cards a seat (3p: 2 lie
        face down), and start the exchanges with ``player_0``."""
        centre = state.towers[CENTRE][0]
        pool = [c for c in range(9) if c != centre]
        count = min(2 * self._n, len(pool) - 1)  # 4p: the last card is the one left
        drawn = draw_sequence(rng, pool, count, lambda g: [int(c) for c in g.permutation(pool)][:count], "card")
        cards = drawn + [c for c in pool if c not in drawn]
        tasks = tuple(tuple(sorted(cards[2 * s : 2 * s + 2])) for s in range(self._n))
        spare = tuple(sorted(cards[2 * self._n :]))
        dealt = _replace(state, tasks=tasks, spare=spare, to_move=0, phase=EXCHANGE)
        return self._start_exchanges(dealt)


def _child_seams(state: Maya2012State, towers: tuple[tuple[int, ...], ...], action: int) -> int | None:
    """The packed open seams after exchange ``action`` (``towers``: the board after it), from
    those cached on ``state`` (``None`` when it has none: computed afresh)."""
    seams = state._cache.get("seams")
    return None if seams is None else repack_seams(seams, towers, action)


def idle_seats(config: Maya2012Config) -> tuple[int, ...]:
    """Seats that never get a decision under ``config``: without a setup decision (2p
    ``setup="random"``, 3-4p ``"random"``) seat ``s`` first moves at exchange ``s + 1``, so
    the seats ``s >= max_turns`` never move. The drafted setup and 2p ``"choose"`` give
    every seat a decision."""
    if config.setup in ("draft", "choose"):
        return ()
    return tuple(range(min(config.max_turns, config.num_players), config.num_players))


END_REASONS = ("declared", "no_legal_exchange", "max_turns")


def end_reason(state: Maya2012State) -> str | None:
    """Which end a finished game had (``info["end"]``), ``None`` while it runs: ``"declared"``
    (3-4p declaration), ``"no_legal_exchange"`` (the player to move is stuck; this real end
    wins over the turn limit reached on the same step) or ``"max_turns"`` (the house turn
    limit, scored or truncated)."""
    if state.phase < OVER:
        return None
    if state.declared >= 0:
        return "declared"
    if not legal_exchanges(state.towers, state.monolith, state.raven):
        return "no_legal_exchange"
    return "max_turns"


def reward_range(config: Maya2012Config) -> tuple[float, float]:
    """Bounds of one seat's final reward under ``config`` (see the module docstring)."""
    if config.reward_scheme == "win_loss":
        return (-1.0, 1.0)
    most = {2: 9 + config.priests_per_player, 3: 20 + CENTRE_BONUS, 4: 40 + CENTRE_BONUS}[config.num_players]
    return (-float(most), float(most))
