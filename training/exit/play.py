"""Many games in lock step: each seat of each game is an agent, and an agent decides for all
the games waiting on it at once (the network agents in one batched forward pass per step).

:func:`play_games` is the one game loop of the trainer: self-play, the teacher's games of
iteration 0, the gating matches and the games against older networks all run through it.
Agents that ``record`` leave one :class:`Positions` row per decision: the network inputs of
the position (:class:`maya_envs.nn.inputs.NetworkInputs`, what the acting seat may see), the
policy target over its legal actions and, once the game is over, every seat's final value and
final score margin (the score-margin head's target).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import numpy as np

from maya_envs.bots.search_common import terminal_margins
from maya_envs.core.protocol import Rules
from maya_envs.core.rng import make_rng
from maya_envs.core.values import terminal_values
from training.exit.data import Positions, Recorder


class Decision(NamedTuple):
    """One decision of an :class:`Agent`: the legal ``action`` id and, to record a row, the
    policy ``target`` (``float32`` over ``rules.legal_actions(state)``, same order, summing to 1;
    ``None``: no row), the search's ``value`` (``(num_players,)``, absolute seats; ``None``: no
    search) and the row's loss weights (:class:`~training.exit.data.Positions`)."""

    action: int
    target: np.ndarray | None = None
    value: np.ndarray | None = None
    policy_weight: float = 1.0
    value_weight: float = 1.0


class Agent:
    """Decides for one seat in many games at once.

    ``decide(states, seats, plies)`` returns one :class:`Decision` (or a plain ``(action,
    target)`` pair) per state: a legal action id and, for an agent that records, the policy
    target as ``float32`` over ``rules.legal_actions(state)`` (same order), summing to 1;
    ``None`` otherwise. ``plies[i]`` counts the decisions that seat already took in that game.
    """

    record: bool = False

    def decide(self, states: list[Any], seats: list[int], plies: list[int]) -> list[tuple[int, np.ndarray | None]]:
        raise NotImplementedError


class BotAgent(Agent):
    """A bot (``act(state)``) that plays each game in turn. Recording (a teacher), its target is
    the root visit distribution when the bot keeps one (``last_visits`` of the search bots),
    else a one-hot of its action; with ``epsilon`` > 0 that share of its moves is replaced by
    a uniformly random legal move (the target stays the bot's choice)."""

    def __init__(self, rules: Rules, bot: Any, record: bool = False, epsilon: float = 0.0, rng=None) -> None:
        self.rules, self.bot, self.record, self.epsilon = rules, bot, record, epsilon
        self.rng = make_rng(rng)

    def decide(self, states, seats, plies):
        out = []
        for state in states:
            action = int(self.bot.act(state))
            target = None
            legal = self.rules.legal_actions(state)
            if self.record:
                target = np.zeros(len(legal), np.float32)
                visits = getattr(self.bot, "last_visits", None)
                if visits:
                    for i, a in enumerate(legal):
                        target[i] = visits.get(a, 0)
                    target /= target.sum()
                else:
                    target[legal.index(action)] = 1.0
            if self.epsilon and self.rng.random() < self.epsilon:
                action = int(legal[int(self.rng.integers(len(legal)))])
            out.append((action, target))
        return out


class PolicyAgent(Agent):
    """The raw network: ``evaluator(states, seats)`` once for all its games; the most probable
    legal action (``deterministic``) or one drawn from the priors."""

    def __init__(self, rules: Rules, evaluator: Any, deterministic: bool = True, rng=None) -> None:
        self.rules, self.evaluator, self.deterministic = rules, evaluator, deterministic
        self.rng = make_rng(rng)

    def decide(self, states, seats, plies):
        priors, _ = self.evaluator(states, seats)
        out = []
        for state, prior in zip(states, priors, strict=True):
            legal = self.rules.legal_actions(state)
            if self.deterministic:
                index = int(np.argmax(prior))
            else:
                p = np.asarray(prior, np.float64)
                index = int(self.rng.choice(len(legal), p=p / p.sum()))
            out.append((int(legal[index]), None))
        return out


class SearchAgent(Agent):
    """The network with guided search (:func:`maya_envs.bots.guided.search_many`) over all its
    games at once. Its target is the search policy (recorded with the search's value of the
    chosen action); its move is drawn from that policy for the first ``sample_moves`` decisions
    of its seat in a game, then the search's choice.

    ``playout_cap`` ``(p, small, value_weight)`` (recording agents only; KataGo's playout-cap
    randomisation, ``cheapSearchProb`` / ``cheapSearchVisits`` / ``cheapSearchTargetWeight``):
    each decision gets the full ``config.simulations`` with probability ``p`` and is recorded as
    a training row; otherwise a cheap search of ``small`` simulations decides the move, which is
    played but gives no policy row: with ``value_weight`` 0 no row at all, else a row of policy
    weight 0 and that value weight. ``None``: every decision searches fully.
    """

    def __init__(
        self,
        rules: Rules,
        evaluator: Any,
        config: Any,
        record: bool = False,
        sample_moves: int = 0,
        rng=None,
        playout_cap: tuple[float, int, float] | None = None,
    ) -> None:
        from maya_envs.bots.guided import EvaluationMemo, TreeKeeper

        memo = getattr(config, "memo", 0)
        self.rules, self.config = rules, config
        self.evaluator = EvaluationMemo(evaluator, memo) if memo else evaluator
        self.record, self.sample_moves = record, sample_moves
        self.rng = make_rng(rng)
        self.playout_cap = playout_cap if record else None
        # config.reuse: each search starts from the kept subtree of the position it reaches
        self.keeper = TreeKeeper() if getattr(config, "reuse", False) else None

    def decide(self, states, seats, plies):
        from maya_envs.bots.guided import search_many

        full = np.ones(len(states), bool)
        if self.playout_cap is not None:
            full = self.rng.random(len(states)) < self.playout_cap[0]
        trees = [None] * len(states) if self.keeper is None else self.keeper.find(states)
        results: list[Any] = [None] * len(states)
        for chosen, config in ((full, self.config), (~full, None)):
            index = np.flatnonzero(chosen)
            if not len(index):
                continue
            config = config or replace(self.config, simulations=self.playout_cap[1])
            found = search_many(
                self.rules, [states[i] for i in index], [seats[i] for i in index], self.evaluator, config, self.rng,
                [trees[i] for i in index],
            )
            for i, result in zip(index, found, strict=True):
                results[i] = result
        if self.keeper is not None:
            self.keeper.keep(results)
        out = []
        for state, result, ply, is_full in zip(states, results, plies, full, strict=True):
            legal = self.rules.legal_actions(state)
            target = np.asarray(result.policy, np.float64)[legal]
            total = target.sum()
            target = target / total if total > 0 else np.full(len(legal), 1.0 / len(legal))
            action = int(result.action)
            if ply < self.sample_moves:
                action = int(legal[int(self.rng.choice(len(legal), p=target))])
            if not self.record or (not is_full and self.playout_cap[2] == 0):
                out.append(Decision(action))
            elif is_full:
                out.append(Decision(action, target.astype(np.float32), result.value))
            else:
                out.append(Decision(action, target.astype(np.float32), result.value, 0.0, self.playout_cap[2]))
        return out


@dataclass
class Played:
    """What :func:`play_games` returns: ``values[g]`` the final values of game ``g`` (its
    ``lineups`` order; :func:`maya_envs.bots.search_common.terminal_values`), ``positions`` the recorded
    decisions, ``decisions`` the number of decisions taken in all and ``cpu_seconds`` the CPU
    time the playing processes spent (what the games cost on dedicated cores)."""

    values: np.ndarray
    positions: Positions | None
    decisions: int
    cpu_seconds: float = 0.0


def play_games(
    rules: Rules,
    lineups: Sequence[Sequence[Agent]],
    seeds: Sequence[int],
    inputs: Any = None,
    in_flight: int = 32,
) -> Played:
    """Play one game per lineup (``lineups[g][seat]`` is the agent of that seat), at most
    ``in_flight`` at a time in lock step: each step, every agent decides at once for all the
    running games in which one of its seats is to move; a finished game's place goes to the
    next lineup.

    Args:
        rules: the game.
        lineups: one agent per seat for each game.
        seeds: one seed per game for its setup and chance draws.
        inputs: a :class:`~maya_envs.nn.inputs.NetworkInputs` (needed when an agent records).
        in_flight: games advanced together.

    Raises:
        ValueError: a lineup of the wrong length, or ``seeds`` of another length than ``lineups``.
    """
    n = rules.spec.num_players
    if len(seeds) != len(lineups):
        raise ValueError(f"{len(seeds)} seeds for {len(lineups)} games")
    for lineup in lineups:
        if len(lineup) != n:
            raise ValueError(f"a lineup of {len(lineup)} agents for {n} seats")
    cpu_start = time.process_time()
    recorder = None
    if any(agent.record for lineup in lineups for agent in lineup):
        if inputs is None:
            raise ValueError("an agent records positions: pass the NetworkInputs as inputs=")
        recorder = Recorder(inputs, n, inputs.feature_dim, inputs.board_dim)
    values = np.zeros((len(lineups), n), np.float32)
    margins: dict[int, np.ndarray | None] = {}
    running: dict[int, list] = {}  # game -> [state, rng, plies per seat]
    upcoming = iter(range(len(lineups)))
    decisions = 0
    limit = rules.spec.max_game_length

    def start_next() -> None:
        for game in upcoming:
            rng = make_rng(int(seeds[game]))
            running[game] = [rules.initial_state(rng), rng, [0] * n, 0]
            return

    for _ in range(min(in_flight, len(lineups))):
        start_next()
    while running:
        waiting: dict[int, list[int]] = {}
        for game, (state, _, _, _) in running.items():
            seat = rules.current_player(state)
            waiting.setdefault(id(lineups[game][seat]), []).append(game)
        for games in waiting.values():
            states = [running[g][0] for g in games]
            seats = [rules.current_player(s) for s in states]
            agent = lineups[games[0]][seats[0]]
            chosen = agent.decide(states, seats, [running[g][2][s] for g, s in zip(games, seats, strict=True)])
            for game, state, seat, decision in zip(games, states, seats, chosen, strict=True):
                action, target, root_value, policy_weight, value_weight = Decision(*decision)
                entry = running[game]
                if recorder is not None and agent.record and target is not None:
                    recorder.add(game, state, seat, target, root_value, policy_weight, value_weight)
                entry[0] = rules.apply_action(state, action, entry[1])
                entry[2][seat] += 1
                entry[3] += 1
                decisions += 1
                if entry[3] > limit:
                    raise RuntimeError(f"a game ran past max_game_length={limit} decisions")
        for game in [g for g, entry in running.items() if rules.current_player(entry[0]) < 0]:
            final = running.pop(game)[0]
            values[game] = terminal_values(rules, final)
            if recorder is not None:
                margins[game] = terminal_margins(rules, final)
            start_next()
    positions = None
    if recorder is not None:
        no_margins = any(m is None for m in margins.values())  # a game without score_margins
        positions = recorder.positions({g: values[g] for g in range(len(lineups))}, None if no_margins else margins)
    return Played(values, positions, decisions, time.process_time() - cpu_start)
