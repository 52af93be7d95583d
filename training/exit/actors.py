"""Actor processes: they play the games of an iteration (self-play, the teacher's games,
gating matches) with :func:`training.exit.play.play_games`, each on one core (torch threads
1), and return the results. The weights of the networks a batch of games needs travel with
it, once per call.

Agent specs in a lineup (one string per seat; equal strings are one agent, so its games share
each forward pass):

=====================  ==============================================================
``learner``            the network ``"best"`` with guided search, recording the search
                       policy; its first ``sample_moves`` moves per game drawn from it
``search:<net>``       network ``<net>`` with guided search (``search``)
``az:<net>``           network ``<net>`` with guided search (``eval_search``: no root
                       noise, what the ``az:`` bot spec plays)
``policy:<net>``       network ``<net>`` raw: its most probable legal action
``teacher:<bot>``      a bot spec (``heuristic``, ``mcts:...``; resolved by
                       :mod:`maya_envs.players`) recording its choice as the target,
                       with ``imitation_epsilon`` random moves
``bot:<bot>``          a bot (``random``, ``heuristic``, ``mcts:...``)
=====================  ==============================================================
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from training.exit.data import Positions
from training.exit.play import Played, play_games


@dataclass(frozen=True)
class ActorSettings:
    """What every actor needs to build its game, networks and agents: ``search`` is the
    self-play search (``learner``, ``search:``), ``eval_search`` the match search (``az:``),
    each one :class:`maya_envs.bots.guided.GuidedConfig` built by the caller
    (:meth:`training.exit.config.ExitConfig.search_config`)."""

    game: str
    game_options: dict[str, Any]
    net_kwargs: dict[str, Any]
    search: Any
    eval_search: Any
    sample_moves: int = 0
    imitation_epsilon: float = 0.0
    in_flight: int = 32
    torch_threads: int = 1


@dataclass
class Games:
    """One batch of games for one actor: ``lineups[g][seat]`` agent specs, ``seeds[g]`` and the
    weights (``{name: state dict of numpy arrays}``) of the networks they name; ``leaf`` the
    searches' leaf value in these games (``None``: the settings' own)."""

    lineups: list[list[str]]
    seeds: list[int]
    weights: dict[str, dict[str, np.ndarray]]
    leaf: str | None = None


class _Actor:
    """The games side of one process (built once per process by :func:`_init`)."""

    def __init__(self, settings: ActorSettings) -> None:
        import torch

        from maya_envs.games import find_game
        from maya_envs.nn.inputs import NetworkInputs

        if settings.torch_threads:
            torch.set_num_threads(settings.torch_threads)
        self.settings = settings
        self.rules = find_game(settings.game).make_rules(settings.game_options)
        self.inputs = NetworkInputs(self.rules)

    def play(self, games: Games, seed: int) -> Played:
        import torch

        from maya_envs.players import resolve_player
        from maya_envs.nn.agent import NetworkEvaluator
        from maya_envs.nn.model import PolicyValueNet
        from training.exit.play import BotAgent, PolicyAgent, SearchAgent

        s, rules = self.settings, self.rules
        search, eval_search = s.search, s.eval_search
        if games.leaf is not None:
            search, eval_search = replace(search, leaf=games.leaf), replace(eval_search, leaf=games.leaf)
        rng = np.random.default_rng(seed)
        evaluators = {}
        for name, weights in games.weights.items():
            net = PolicyValueNet(**s.net_kwargs)
            net.load_state_dict({k: torch.from_numpy(np.asarray(v)) for k, v in weights.items()})
            net.eval()
            evaluators[name] = NetworkEvaluator(net, self.inputs)
        agents: dict[str, Any] = {}

        def agent(spec: str):
            if spec in agents:
                return agents[spec]
            kind, _, rest = spec.partition(":")
            if kind == "learner":
                made = SearchAgent(rules, evaluators["best"], search, True, s.sample_moves, rng)
            elif kind == "search":
                made = SearchAgent(rules, evaluators[rest], search, rng=rng)
            elif kind == "az":  # a match: no root noise, as the az: bot spec plays
                made = SearchAgent(rules, evaluators[rest], eval_search, rng=rng)
            elif kind == "policy":
                made = PolicyAgent(rules, evaluators[rest], deterministic=True, rng=rng)
            elif kind == "teacher":
                made = BotAgent(rules, resolve_player(rest, rules, rng), True, s.imitation_epsilon, rng)
            elif kind == "bot":
                made = BotAgent(rules, resolve_player(rest, rules, rng), rng=rng)
            else:
                raise ValueError(f"unknown agent spec {spec!r}")
            agents[spec] = made
            return made

        lineups = [[agent(spec) for spec in lineup] for lineup in games.lineups]
        return play_games(rules, lineups, games.seeds, self.inputs, s.in_flight)


_ACTOR: _Actor | None = None


def _init(settings: ActorSettings) -> None:
    global _ACTOR
    _ACTOR = _Actor(settings)


def _play(args: tuple[Games, int]) -> Played:
    return _ACTOR.play(*args)


class Actors:
    """``count`` actor processes (``count == 1``: the games run in this process, no pool).

    Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, settings: ActorSettings, count: int) -> None:
        self.count = count
        if count == 1:
            self._local = _Actor(settings)
            self._pool = None
        else:
            self._local = None
            context = multiprocessing.get_context("spawn")  # no fork after torch's threads start
            self._pool = context.Pool(count, initializer=_init, initargs=(settings,))

    def play(
        self,
        lineups: Sequence[Sequence[str]],
        seeds: Sequence[int],
        weights: dict[str, Any],
        seed: int,
        leaf: str | None = None,
    ) -> Played:
        """Play one game per lineup, split over the actors; the results in ``lineups`` order.

        Args:
            lineups: agent specs per seat (see the module docstring).
            seeds: one game seed per lineup.
            weights: ``{name: state dict}`` of the networks the specs name (tensors or arrays).
            seed: seeds the actors' own generators (search, sampling, bots).
            leaf: the searches' leaf value (``net``, ``hook``, ``mix``; ``None``: the settings').
        """
        arrays = {name: {k: np.asarray(v.detach().cpu() if hasattr(v, "detach") else v) for k, v in sd.items()}
                  for name, sd in weights.items()}  # fmt: skip
        parts = min(self.count, len(lineups)) or 1
        bounds = np.linspace(0, len(lineups), parts + 1).astype(int)
        jobs = [
            (Games([list(x) for x in lineups[a:b]], [int(x) for x in seeds[a:b]], arrays, leaf), seed + i)
            for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:], strict=True))
        ]
        if self._pool is None:
            results = [self._local.play(*job) for job in jobs]
        else:
            results = self._pool.map(_play, jobs)
        values = np.concatenate([r.values for r in results])
        recorded = [r.positions for r in results if r.positions is not None]
        positions = Positions.concat(recorded) if recorded else None
        return Played(values, positions, sum(r.decisions for r in results), sum(r.cpu_seconds for r in results))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None

    def __enter__(self) -> Actors:
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None and exc[0] is not None:
            self._pool.terminate()
        self.close()
