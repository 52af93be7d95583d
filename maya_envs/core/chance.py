"""Explicit chance: every random draw of the rules as a sequence of small chance outcomes.

The rules draw from a ``numpy.random.Generator`` passed to ``initial_state`` and
``apply_action``. Every draw goes through :func:`draw` or :func:`draw_sequence`, which give the
generator exactly the calls the rules always made (the generator path is unchanged), and
which also accept, in place of the generator:

* an :class:`OutcomeScript`: the draws take their outcomes from a given list of outcome ids
  instead; when the list runs out, :class:`ChanceNeeded` is raised with the next draw's
  outcomes and their exact probabilities. Replaying ``initial_state`` or ``apply_action`` with
  a longer and longer script walks the chance nodes one outcome at a time, which is how
  :mod:`maya_envs.openspiel` shows the true game tree (chance nodes with their probabilities)
  to OpenSpiel's algorithms. Pure: nothing else changes, the rules stay free of side effects.
* an :class:`OutcomeRecorder`: a generator whose draws are also written down as the outcome
  ids the script path would take (tests replay them and compare the states with ``==``).

Outcome ids are small non-negative ints whose meaning is the draw's (a colour, a card, a seat).

Pure: standard library and numpy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from maya_envs.core.errors import IllegalActionError

Outcomes = list[tuple[int, float]]


class ChanceNeeded(Exception):
    """Raised by a draw from an exhausted :class:`OutcomeScript`.

    Attributes:
        outcomes: ``[(outcome id, probability), ...]`` of the next chance node, sorted by id,
            probabilities > 0 summing to 1.
        label: what is drawn (``"block"``, ``"card"``, ...), for readable outcome strings.
    """

    def __init__(self, outcomes: Outcomes, label: str) -> None:
        super().__init__(f"a chance outcome is needed: {label} from {[o for o, _ in outcomes]}")
        self.outcomes = outcomes
        self.label = label


class OutcomeScript:
    """Stands in for the generator: the draws take these outcome ids, in order.

    Args:
        outcomes: outcome ids, one per chance node, in the order the rules draw.

    Attributes:
        used: how many outcomes were taken so far.
    """

    def __init__(self, outcomes: Sequence[int] = ()) -> None:
        self.outcomes = tuple(int(o) for o in outcomes)
        self.used = 0

    def take(self, outcomes: Callable[[], Outcomes], label: str) -> int:
        """The next scripted outcome.

        Raises:
            ChanceNeeded: the script is used up (carries ``outcomes()``).
            IllegalActionError: the scripted id is not a possible outcome here.
        """
        if self.used == len(self.outcomes):
            raise ChanceNeeded(outcomes(), label)
        outcome = self.outcomes[self.used]
        possible = outcomes()
        if outcome not in {o for o, p in possible if p > 0}:
            raise IllegalActionError(
                f"chance outcome {outcome} is not possible for this {label}; possible: {[o for o, _ in possible]}"
            )
        self.used += 1
        return outcome


class OutcomeRecorder:
    """A generator whose draws are also recorded as outcome ids.

    Args:
        rng: the generator actually drawn from (with exactly the rules' usual calls).

    Attributes:
        outcomes: the outcome ids drawn so far, as an :class:`OutcomeScript` would take them.
    """

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.outcomes: list[int] = []


def uniform(values: Sequence[int]) -> Outcomes:
    """Each of ``values`` (distinct ids) with probability ``1/len(values)``."""
    p = 1.0 / len(values)
    return [(int(v), p) for v in sorted(values)]


def weighted(counts: Sequence[int]) -> Outcomes:
    """Outcome ``i`` with probability ``counts[i] / sum(counts)`` (ids with count 0 left out)."""
    total = sum(counts)
    return [(i, c / total) for i, c in enumerate(counts) if c > 0]


def draw(rng, outcomes: Callable[[], Outcomes], sample: Callable[[np.random.Generator], int], label: str) -> int:
    """One draw: ``sample(rng)`` from a generator, else the script's next outcome.

    Args:
        rng: a ``numpy.random.Generator``, an :class:`OutcomeScript` or an :class:`OutcomeRecorder`.
        outcomes: the possible outcome ids with their exact probabilities (called only on
            the script path).
        sample: the rules' own generator call, returning the outcome id.
        label: what is drawn, for messages and outcome strings.
    """
    if isinstance(rng, OutcomeScript):
        return rng.take(outcomes, label)
    if isinstance(rng, OutcomeRecorder):
        value = sample(rng.rng)
        rng.outcomes.append(value)
        return value
    return sample(rng)


def draw_sequence(
    rng, pool: Sequence[int], count: int, sample: Callable[[np.random.Generator], list[int]], label: str
) -> list[int]:
    """``count`` distinct values of ``pool`` in a uniformly random order (a shuffle or a draw
    without replacement): ``sample(rng)`` from a generator; on the script path ``count``
    chance nodes, each uniform over the values not drawn yet."""
    if isinstance(rng, OutcomeScript):
        left = list(pool)
        drawn = []
        for _ in range(count):
            value = rng.take(lambda: uniform(left), label)
            left.remove(value)
            drawn.append(value)
        return drawn
    if isinstance(rng, OutcomeRecorder):
        values = sample(rng.rng)
        rng.outcomes.extend(values)
        return values
    return sample(rng)


def generator_of(rng) -> np.random.Generator | None:
    """The real generator behind ``rng`` (``None`` on the script path)."""
    if isinstance(rng, OutcomeRecorder):
        return rng.rng
    if isinstance(rng, OutcomeScript):
        return None
    return rng
