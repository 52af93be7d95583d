"""Evaluators around the search's evaluator (:data:`~maya_envs.bots.guided.config.Evaluator`):
the leaf value a config asks for (:class:`LeafValueEvaluator`), a memory of earlier answers
(:class:`EvaluationMemo`), and the checks of an evaluator's answer."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from maya_envs.bots.guided.config import LEAVES, MIX_WEIGHT, Evaluator, GuidedConfig
from maya_envs.bots.search_common import game_hook
from maya_envs.core.checks import is_int
from maya_envs.core.errors import shorten
from maya_envs.core.protocol import Rules


class LeafValueEvaluator:
    """An evaluator (:mod:`maya_envs.bots.guided`) with ``base``'s priors and, as values, ``base``'s
    (``"net"``), the game's ``leaf_values`` hook (``"hook"``; each game's
    ``<game>/determinize.py``, about 0.005 ms per state), ``MIX_WEIGHT * net + (1 -
    MIX_WEIGHT) * hook`` (``"mix"``) or ``base.residual_values(states, seats)`` (``"residual"``:
    the hook plus the learned correction of a network's residual value head,
    :meth:`maya_envs.nn.agent.NetworkEvaluator.residual_values`; the priors then come from that
    same call). Values: ``float32 (B, num_players)``, absolute seat order, in [-1, 1]. Source:
    designs D1 and D2 of the strong-agents study (the learned value is worse than the hook on
    fresh games in Maya (2012) and Yaxha).

    Raises:
        ValueError: an unknown mode, ``hook``/``mix``/``residual`` for a game without the hook,
            or ``residual`` with a ``base`` that has no residual values (``has_residual``).
    """

    def __init__(self, base: Evaluator, rules: Rules, mode: str) -> None:
        if mode not in LEAVES:
            raise ValueError(f"leaf={shorten(mode)}; allowed: {', '.join(LEAVES)}")
        self.base, self.rules, self.mode = base, rules, mode
        self.hook = game_hook(rules, "leaf_values") if mode != "net" else None
        if mode != "net" and self.hook is None:
            raise ValueError(f"leaf={shorten(mode)}: {type(rules).__name__} has no leaf_values hook (maya_envs.games)")
        if mode == "residual" and not getattr(base, "has_residual", False):
            raise ValueError(
                "leaf='residual': the evaluator has no residual value head (a network built with residual=True, "
                "trained with exit.leaf_value residual or auto)"
            )

    def hook_values(self, states: Sequence[Any]) -> np.ndarray:
        """The hook's values ``float64 (len(states), num_players)`` (``hook``/``mix`` modes)."""
        return np.stack([np.asarray(self.hook(self.rules, state), np.float64) for state in states])

    def __call__(self, states: Sequence[Any], seats: Sequence[int]) -> tuple[Sequence[np.ndarray], np.ndarray]:
        if self.mode == "residual":
            return self.base.residual_values(states, seats)
        priors, values = self.base(states, seats)
        if self.mode == "net":
            return priors, values
        hooked = self.hook_values(states)
        if self.mode == "mix":
            hooked = MIX_WEIGHT * np.asarray(values, np.float64) + (1.0 - MIX_WEIGHT) * hooked
        return priors, hooked.astype(np.float32)


class EvaluationMemo:
    """An evaluator (:mod:`maya_envs.bots.guided`) that answers a ``(state, seat)`` it has answered before
    from memory and asks ``base`` only about the others (in one call, each state once). A
    guided search meets the same state again in later moves (the subtree below the move
    played) and through transpositions: about a quarter of the evaluations of a Maya (2012) 2p
    game at 32 simulations repeat an earlier one. States must be hashable; an unhashable one
    is passed through.

    Args:
        base: the evaluator (deterministic: the memo returns its first answer).
        entries: the most evaluations kept (>= 1); the least recently used goes first.

    Attributes:
        hits, misses: answers from memory / from ``base`` so far.
    """

    def __init__(self, base: Evaluator, entries: int) -> None:
        if not is_int(entries) or entries < 1:
            raise ValueError(f"entries={shorten(entries)}; allowed: an int >= 1")
        self.base, self.entries = base, entries
        self._memo: OrderedDict[Any, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self.hits = self.misses = 0

    @property
    def has_residual(self) -> bool:
        """Whether ``base`` has residual values (``leaf="residual"`` reads them through the memo)."""
        return bool(getattr(self.base, "has_residual", False))

    def __call__(self, states: Sequence[Any], seats: Sequence[int]) -> tuple[list[np.ndarray], np.ndarray]:
        return self._answer(self.base, "value", states, seats)

    def residual_values(self, states: Sequence[Any], seats: Sequence[int]) -> tuple[list[np.ndarray], np.ndarray]:
        """``base.residual_values``, kept apart from the plain evaluations (another value)."""
        return self._answer(self.base.residual_values, "residual", states, seats)

    def _answer(self, ask_base, kind: str, states: Sequence[Any], seats: Sequence[int]):
        try:
            keys = [(kind, state, int(seat)) for state, seat in zip(states, seats, strict=True)]
            found = [self._memo.get(key) for key in keys]
        except TypeError:  # an unhashable state
            return ask_base(states, seats)
        ask = list(dict.fromkeys(k for k, f in zip(keys, found, strict=True) if f is None))
        if ask:
            priors, values = ask_base([k[1] for k in ask], [k[2] for k in ask])
            values = np.asarray(values)
            for key, prior, value in zip(ask, priors, values, strict=True):
                self._memo[key] = (prior, value)
        out = []
        for key, answer in zip(keys, found, strict=True):
            if answer is None:
                self.misses += 1
            else:
                self.hits += 1
            out.append(self._memo[key])
            self._memo.move_to_end(key)
        while len(self._memo) > self.entries:
            self._memo.popitem(last=False)
        return [p for p, _ in out], np.stack([v for _, v in out])


def leaf_evaluator(rules: Rules, config: GuidedConfig, evaluator: Evaluator) -> Evaluator:
    """The evaluator a search with ``config`` asks: ``evaluator`` itself, or its
    :class:`LeafValueEvaluator` where ``config.leaf`` is another leaf value than the evaluator's.

    Raises:
        ValueError: ``prior_depth`` without ``leaf="hook"``, or a leaf the game or the evaluator
            cannot give (:class:`LeafValueEvaluator`).
    """
    if config.prior_depth is not None and config.leaf != "hook":
        raise ValueError(f"prior_depth={config.prior_depth} needs leaf='hook', got leaf={shorten(config.leaf)}")
    if config.leaf not in (None, "net"):
        return LeafValueEvaluator(evaluator, rules, config.leaf)
    return evaluator


def evaluate(
    evaluator: Evaluator, states: list[Any], seats: list[int], num_players: int
) -> tuple[Sequence[np.ndarray], np.ndarray]:
    """``evaluator(states, seats)`` with its values as ``float64 (len(states), num_players)``.

    Raises:
        ValueError: an answer of another length or shape.
    """
    priors, values = evaluator(states, seats)
    values = np.asarray(values, np.float64)
    if values.shape != (len(states), num_players) or len(priors) != len(states):
        raise ValueError(
            f"evaluator answered {len(priors)} priors and values of shape {values.shape} for {len(states)} states; "
            f"expected {len(states)} and {(len(states), num_players)}"
        )
    return priors, values


def check_priors(prior: Sequence[float], count: int) -> None:
    """Refuse an evaluator's prior that is not one entry per legal action (``count`` of them).

    Raises:
        ValueError: ``len(prior) != count``.
    """
    if len(prior) != count:
        raise ValueError(f"evaluator gave {len(prior)} priors for a state with {count} legal actions")
