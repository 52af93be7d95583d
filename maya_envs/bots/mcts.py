"""Monte Carlo tree search over the shared rules protocol: UCT for perfect information and
single-observer information-set MCTS (SO-ISMCTS) with determinization for hidden information.

One algorithm serves both (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo
Tree Search"). Each simulation:

1. **Determinize.** Sample a full state consistent with what the acting seat (the *observer*)
   knows, with the game's ``determinize(rules, state, observer, rng)`` hook (in the game
   table, :mod:`maya_envs.games`). Perfect-information games skip this step, and the search
   is then plain UCT.
2. **Select.** From the root, follow tree edges (keyed by action ids, so the tree is
   open-loop: chance outcomes and hidden values are not part of a node) while every action
   legal in the sampled state already has a child; at each node take the child maximising
   ``mean[mover] + c * sqrt(ln(available) / visits)``, where ``mover`` is the seat to move in
   the sampled state and ``available`` counts the simulations in which that child was legal.
3. **Expand** one untried legal action (uniformly at random).
4. **Roll out** with the random or the game's heuristic policy, for at most ``depth`` steps;
   a finished game is scored by ``rules.returns``, an unfinished one by the game's
   ``leaf_values(rules, state)`` hook (zeros when the game has none).
5. **Back up** the vector of all seats' values: every node on the path adds it, and
   selection reads the entry of the seat that moves there, so multi-player games back up
   each seat's own return (max-n style), and 4-player teams come out of ``returns`` as is.

Values are divided by the largest absolute reward of ``rules.spec.reward_range``, so the
exploration constant means the same in every game. Chance: the rules draw from the
generator passed to ``apply_action``, and simulations pass the bot's own generator, never
the env's.

Information discipline: the bot reads the true state only through the game's
``determinize`` hook (which keeps exactly what the observer may know) and the legal actions
of the acting seat, so it never plays on hidden values. Known limits of SO-ISMCTS: opponents'
nodes in the tree see the observer's (sampled) private data ("strategy fusion"), and the
tree does not model what opponents infer.

Bot names (see :func:`parse_spec`): ``"mcts"``, ``"mcts:200"``, ``"mcts:200:heuristic"``,
``"mcts:400:time=0.5"``, ``"ismcts:200:depth=30"``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from maya_envs.bots.heuristic import heuristic_bot
from maya_envs.bots.search_common import determinizer, game_hook, with_overrides
from maya_envs.core.checks import is_int, is_number
from maya_envs.core.errors import shorten
from maya_envs.core.protocol import Rules
from maya_envs.core.rng import make_rng
from maya_envs.core.specs import Grammar, number, one_of, parse_parts, positive_count
from maya_envs.core.values import relative_values, terminal_values  # noqa: F401  (relative_values: the old import path)

ROLLOUTS = ("random", "heuristic")
SEARCH_NAMES = ("mcts", "ismcts")
SPEC_SYNTAX = (
    "mcts[:SIMULATIONS][:ROLLOUT][:KEY=VALUE...] (or ismcts...), with SIMULATIONS a positive int "
    "(default 200), ROLLOUT one of random|heuristic (default random) and KEY one of "
    "time (seconds > 0), depth (int >= 0), c (float >= 0); e.g. 'mcts:200', "
    "'mcts:200:heuristic', 'mcts:1000:time=0.5', 'ismcts:400:depth=30'"
)


@dataclass(frozen=True)
class MCTSConfig:
    """Search settings.

    Attributes:
        simulations: simulations per move (>= 1); the search stops at this count or at
            ``time_limit``, whichever comes first. ``None`` with a ``time_limit``: no count limit.
        time_limit: seconds per move, or ``None`` (no clock; reproducible from the seed).
        rollout: ``"random"`` or ``"heuristic"`` (the game's ``HeuristicBot`` as the
            rollout policy; about 10x slower per step).
        depth: rollout steps before the game's ``leaf_values`` evaluation (0: evaluate the new
            leaf at once). Measured: two-player Maya (2012) plays much better with short
            rollouts (``depth=2``: 19 of 20 wins against the heuristic at 800 simulations,
            against 4 of 20 for ``mcts:100`` at the default depth).
        exploration: UCT constant ``c`` (values are scaled to [-1, 1]).
        determinize: sample hidden information (``None``: when ``rules.spec.information``
            is not ``"perfect"``).
    """

    simulations: int | None = 200
    time_limit: float | None = None
    rollout: str = "random"
    depth: int = 40
    exploration: float = 1.0
    determinize: bool | None = None

    def __post_init__(self) -> None:
        if self.simulations is None and self.time_limit is None:
            raise ValueError("MCTSConfig needs simulations or a time_limit (both are None)")
        if self.simulations is not None and (not is_int(self.simulations) or self.simulations < 1):
            raise ValueError(f"simulations={shorten(self.simulations)}; allowed: an int >= 1 or None")
        if self.time_limit is not None and not (is_number(self.time_limit) and 0 < self.time_limit < math.inf):
            raise ValueError(f"time_limit={shorten(self.time_limit)}; allowed: seconds > 0 (finite) or None")
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"rollout={shorten(self.rollout)}; allowed: {', '.join(ROLLOUTS)}")
        if not is_int(self.depth) or self.depth < 0:
            raise ValueError(f"depth={shorten(self.depth)}; allowed: an int >= 0")
        if not is_number(self.exploration) or not 0 <= self.exploration < math.inf:
            raise ValueError(f"exploration={shorten(self.exploration)}; allowed: a finite number >= 0")


SEARCH_GRAMMAR = Grammar(
    SPEC_SYNTAX,
    positional=(("simulations", positive_count("simulations")), ("rollout", one_of("rollout", ROLLOUTS))),
    options={
        "time": ("time_limit", number(strict=True, finite=True)),
        "depth": ("depth", number(integer=True)),
        "c": ("exploration", number(finite=True)),
    },
)
"""The parts of a search bot spec (:mod:`maya_envs.core.specs`)."""


def parse_spec(name: str) -> tuple[str, MCTSConfig]:
    """Parse a search bot name into ``(kind, config)`` (syntax: :data:`SPEC_SYNTAX`).

    ``kind`` is ``"mcts"`` (determinize only for hidden-information games) or ``"ismcts"``
    (always determinize; a game without the hook is then an error).

    Raises:
        ValueError: a malformed name; the message names the bad part and gives the syntax.
    """
    kind = name.split(":", 1)[0]
    if kind not in SEARCH_NAMES:
        raise ValueError(f"bot {shorten(name)} is not a search bot; syntax: {SPEC_SYNTAX}")
    parts = parse_parts(name, SEARCH_GRAMMAR)
    options = parts.values
    if "time_limit" in options and not parts.positional:
        options["simulations"] = None
    if kind == "ismcts":
        options["determinize"] = True
    return kind, MCTSConfig(**options)


def read_spec(name: str) -> tuple[None, MCTSConfig]:
    """``(None, config)`` of a search bot spec: the row parser of :data:`maya_envs.bot_kinds.BOT_KINDS`
    (a search names no model).

    Raises:
        ValueError: as :func:`parse_spec`.
    """
    return None, parse_spec(name)[1]


class _Node:
    """A tree node: children by action id, visit and availability counts, value sums per seat."""

    __slots__ = ("children", "visits", "available", "value")

    def __init__(self, num_players: int) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 0
        self.value = [0.0] * num_players


class MCTSBot:
    """UCT / SO-ISMCTS bot (see the module docstring).

    Args:
        rules: the game's rules.
        seed: an int, ``None`` or a generator: the bot's own stream (determinizations,
            expansion, rollouts, chance in simulations).
        config: an :class:`MCTSConfig`; keyword overrides of its fields may follow.

    Attributes:
        last_simulations: simulations run by the latest :meth:`act` (0 when the move was
            forced).
        last_visits: ``{action: visits}`` of the root's children after the latest search.

    Raises:
        ValueError: a bad setting, or determinization asked for a game without the hook.
    """

    def __init__(
        self,
        rules: Rules,
        seed: int | np.random.Generator | None = None,
        config: MCTSConfig | None = None,
        **overrides: Any,
    ) -> None:
        config = with_overrides(config or MCTSConfig(), overrides, "MCTS")
        self.rules = rules
        self.config = config
        self.rng = make_rng(seed)
        self.num_players = rules.spec.num_players
        self._determinize = determinizer(rules, config.determinize)
        self._leaf_values = game_hook(rules, "leaf_values")
        if config.rollout == "heuristic":
            heuristic_bot(rules, 0)  # fail now, not in the middle of a game
        self.last_simulations = 0
        self.last_visits: dict[int, int] = {}

    def act(self, state: Any) -> int:
        """Search from ``state`` and return the most visited legal action of the seat to move.

        Raises:
            ValueError: the game is over.
        """
        rules = self.rules
        legal = rules.legal_actions(state)
        if not legal:
            raise ValueError("MCTSBot.act called on a state with no legal action (the game is over)")
        if len(legal) == 1:
            self.last_simulations, self.last_visits = 0, {}
            return int(legal[0])
        observer = rules.current_player(state)
        root = _Node(self.num_players)
        policy = self._rollout_policy()
        cfg = self.config
        deadline = None if cfg.time_limit is None else time.perf_counter() + cfg.time_limit
        count = 0
        while cfg.simulations is None or count < cfg.simulations:
            if deadline is not None and count and time.perf_counter() >= deadline:
                break
            sampled = state if self._determinize is None else self._determinize(rules, state, observer, self.rng)
            self._simulate(root, sampled, policy)
            count += 1
        self.last_simulations = count
        self.last_visits = {a: child.visits for a, child in root.children.items()}
        # Only the true state's legal actions are candidates (a determinization never changes
        # the observer's own legal set, but the choice must not depend on that).
        visits = [self.last_visits.get(a, 0) for a in legal]
        best = max(visits)
        candidates = [a for a, v in zip(legal, visits, strict=True) if v == best]
        return int(candidates[self.rng.integers(len(candidates))])

    # -- one simulation -------------------------------------------------------------------

    def _simulate(self, root: _Node, state: Any, policy: Callable[[Any], int]) -> None:
        rules, rng, c = self.rules, self.rng, self.config.exploration
        node = root
        path = [root]
        while True:
            mover = rules.current_player(state)
            if mover < 0:
                break
            legal = rules.legal_actions(state)
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[int(rng.integers(len(untried)))]
                children[action] = _Node(self.num_players)
            else:
                action = -1
                best = -math.inf
                for a in legal:
                    child = children[a]
                    score = child.value[mover] / child.visits + c * math.sqrt(
                        math.log(child.available + 1) / child.visits
                    )
                    if score > best:
                        best, action = score, a
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.available += 1
            node = children[action]
            path.append(node)
            state = rules.apply_action(state, action, rng)
            if untried:
                break
        values = self._rollout(state, policy)
        for visited in path:
            visited.visits += 1
            acc = visited.value
            for seat, v in enumerate(values):
                acc[seat] += v

    def _rollout(self, state: Any, policy: Callable[[Any], int]) -> list[float]:
        rules, rng = self.rules, self.rng
        for _ in range(self.config.depth):
            if rules.current_player(state) < 0:
                break
            state = rules.apply_action(state, policy(state), rng)
        if rules.current_player(state) < 0:
            return [float(v) for v in terminal_values(rules, state)]
        if self._leaf_values is None:
            return [0.0] * self.num_players
        return [float(v) for v in self._leaf_values(rules, state)]

    def _rollout_policy(self) -> Callable[[Any], int]:
        rules, rng = self.rules, self.rng
        if self.config.rollout == "heuristic":
            return heuristic_bot(rules, rng).act  # shares the search's generator

        def random_policy(state: Any) -> int:
            legal = rules.legal_actions(state)
            return legal[int(rng.integers(len(legal)))]

        return random_policy


def make_search_bot(name: str, rules: Rules, seed: int | np.random.Generator | None = None) -> MCTSBot:
    """Build the search bot called ``name`` (syntax: :data:`SPEC_SYNTAX`) for ``rules``.

    Raises:
        ValueError: a malformed name, or ``ismcts`` for a game without a determinize hook.
    """
    _, config = parse_spec(name)
    return MCTSBot(rules, seed, config)

