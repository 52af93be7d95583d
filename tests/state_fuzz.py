"""The state fuzz: saved states are untrusted input (issue 29): ``state_from_dict`` of a mutated save either
refuses it with a :class:`~maya_envs.core.errors.StateError` naming a field, or returns a state
the rules can play to the end.

Each case saves the states of a few seeded random and heuristic games, then mutates one field
of one saved dict at a time (an int +-1, -1, 0 or huge; a bool flipped; a phase name swapped; a
list shortened, lengthened, emptied, reversed or given a mutated item; a field copied from
another saved state of the same game; a list copied from another field). For every mutation:

* anything but a ``StateError`` is a failure (a raw ``IndexError``, ``ValueError``, ...);
* an accepted state is played to the end with random legal moves: while the game runs the
  current player has a legal action, the action mask is 1 exactly at the legal actions (in the
  loaded state: exactly at the actions ``apply_action`` accepts), every legal action chosen
  applies, every seat's observation stays inside the observation bounds
  (``Box(0, 1)``), and the game ends within ``max_game_length`` moves.

Each game's cases and sizes are in ``tests/<key>/test_state_fuzz.py`` (:func:`fuzz_tests`).
The default cases run in well under a minute on one core (fixed seeds); ``-m extended`` runs
a larger sweep. The counts (tried, accepted, refused) are printed (``pytest -s``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from maya_envs.core.errors import StateError
from maya_envs.games import find_game
from tests.conformance import assert_mask_matches_rules
from tests.fuzz_mutations import mutate_value


class Game:
    """The rules, observer and bots of one case."""

    def __init__(self, key: str, options: dict[str, Any]) -> None:
        entry = find_game(key)
        self.rules = entry.make_rules(options)
        self.observer = entry.hook("observer")(self.rules)
        self.heuristic = entry.hook("heuristic_bot")

    def saved_states(self, games: int, every: int, seed: int) -> list[dict[str, Any]]:
        """Every ``every``-th state (and the last) of ``games`` seeded games, half random and
        half heuristic, as saved dicts (through JSON)."""
        rules, out = self.rules, []
        for game in range(games):
            rng = np.random.default_rng(seed + game)
            bot = self.heuristic(rules, seed + game) if game % 2 else None
            state, step = rules.initial_state(rng), 0
            while True:
                over = rules.is_terminal(state) or rules.is_truncated(state)
                if step % every == 0 or over:
                    out.append(json.loads(json.dumps(rules.state_to_dict(state))))
                if over:
                    break
                legal = rules.legal_actions(state)
                action = bot.act(state) if bot is not None else int(rng.choice(legal))
                state = rules.apply_action(state, action, rng)
                step += 1
        return out

    def check_playable(self, state: Any, rng: np.random.Generator) -> None:
        """Play ``state`` to the end with random legal moves, checking masks, moves and the
        observation bounds of every seat on the way (AssertionError or the rules' own error
        otherwise). In ``state`` itself every legal action applies and no other does."""
        rules, observer = self.rules, self.observer
        if not (rules.is_terminal(state) or rules.is_truncated(state)):
            assert_mask_matches_rules(rules, state)
        n, low, high = rules.spec.num_players, 0.0, 1.0
        for _ in range(rules.spec.max_game_length + 1):
            for seat in range(n):
                obs = observer.encode(state, seat)
                assert obs.shape == tuple(observer.layout.shape), "observation shape"
                assert np.all(obs >= low) and np.all(obs <= high), f"seat {seat}: observation outside [0, 1]"
            if rules.is_terminal(state) or rules.is_truncated(state):
                return
            legal = rules.legal_actions(state)
            assert legal, "a live state without a legal action"
            assert rules.current_player(state) in range(n)
            mask = rules.legal_mask(state)
            assert set(np.flatnonzero(mask).tolist()) == set(legal), "mask != legal actions"
            state = rules.apply_action(state, int(rng.choice(legal)), rng)
        raise AssertionError("the game did not end within max_game_length")


def mutations(saved: list[dict[str, Any]], rng: np.random.Generator, per_state: int) -> Iterator[tuple[str, dict]]:
    """``(field, mutated dict)`` pairs: up to ``per_state`` per saved state, each changing one
    field (header fields left alone: their checks are plain)."""
    for data in saved:
        keys = [k for k in data if k not in ("schema", "version")]
        candidates: list[tuple[str, Any]] = []
        for key in keys:
            same_field = [other[key] for other in saved if other[key] != data[key]]
            picks = rng.choice(len(same_field), size=min(len(same_field), 3), replace=False) if same_field else []
            copied = [same_field[i] for i in picks]
            other_fields = [data[k] for k in keys if k != key and isinstance(data[k], list)]
            for value in [*copied, *mutate_value(data[key], other_fields + copied, rng)]:
                candidates.append((key, value))
        order = rng.permutation(len(candidates))[:per_state]
        for i in order:
            key, value = candidates[i]
            mutated = copy.deepcopy(data)
            mutated[key] = copy.deepcopy(value)
            yield key, mutated


def fuzz(
    key: str,
    options: dict[str, Any],
    games: int,
    every: int,
    per_state: int,
    seed: int = 0,
    failures: list | None = None,
) -> dict[str, int]:
    """Run the fuzz of game ``key`` with ``options``; the counts of mutations tried, accepted and
    refused. A failure raises ``AssertionError``, or is appended to ``failures`` when a list is given."""
    case = f"{key} {options}"
    game = Game(key, options)
    rng = np.random.default_rng(seed)
    saved = game.saved_states(games, every, seed)
    for data in saved:  # no false alarm: every state the rules reach loads back unchanged
        assert game.rules.state_to_dict(game.rules.state_from_dict(data)) == data
    counts = {"tried": 0, "accepted": 0, "refused": 0}
    for field, data in mutations(saved, rng, per_state):
        counts["tried"] += 1
        try:
            try:
                state = game.rules.state_from_dict(data)
            except StateError as error:
                assert str(error).startswith(f"state.{error.field}" if error.field else "state:"), error
                counts["refused"] += 1
                continue
            except Exception as error:  # noqa: BLE001 - any other exception type is the failure
                raise AssertionError(f"{case}: {field} mutated: {error!r} instead of a StateError") from error
            counts["accepted"] += 1
            try:
                game.check_playable(state, np.random.default_rng(counts["tried"]))
            except Exception as error:  # noqa: BLE001
                raise AssertionError(f"{case}: accepted {field} mutated, which cannot be played: {error!r}") from error
        except AssertionError as failure:
            if failures is None:
                raise
            failures.append((field, str(failure), data))
    return counts


#: ``label -> (game options, (games, every, per_state))`` of one game's cases.
FuzzCases = dict[str, tuple[dict[str, Any], tuple[int, int, int]]]


def fuzz_tests(key: str, cases: FuzzCases) -> tuple[Callable[[str], None], Callable[[str], None]]:
    """The default and the ``extended`` fuzz test over ``cases`` of game ``key``, for the game's
    own ``tests/<key>/test_state_fuzz.py`` to bind (each case's sizes give 1,000-4,000 mutations,
    under 20 s of one idle core; the extended sweep plays 4x the games, saves twice as often and
    mutates twice as much)."""

    @pytest.mark.parametrize("case", sorted(cases))
    def default(case: str) -> None:
        options, (games, every, per_state) = cases[case]
        counts = fuzz(key, options, games, every, per_state)
        print(f"{case}: {counts}")
        assert counts["tried"] >= 1000
        assert counts["accepted"] and counts["refused"]

    @pytest.mark.extended
    @pytest.mark.parametrize("case", sorted(cases))
    def extended(case: str) -> None:
        options, (games, every, per_state) = cases[case]
        counts = fuzz(key, options, games * 4, max(1, every // 2), per_state * 2, seed=1)
        print(f"{case}: {counts}")
        assert counts["accepted"] and counts["refused"]

    return default, extended
