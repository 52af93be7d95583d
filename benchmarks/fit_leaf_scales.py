"""Fit each game's leaf-value scale: ``tanh(lead / scale)`` against the final result.

The guided search can back up a game's ``leaf_values`` estimate at its leaves
(``az:<model>:N:leaf=hook``, design D1 of the strong-agents study) and the rollout search
``mcts:...:depth=N`` does; both read ``tanh(lead / scale)``, ``lead`` from the game's
``leaf_leads`` (``maya_envs/<game>/determinize.py``). For each game and player count this plays
heuristic self-play games (seeded), takes every decision's lead of the seat to move and that
seat's final result (``terminal_values``, in [-1, 1]), and finds the scale that minimises the
mean squared error (a 1-D least squares: a log grid, then a golden-section refinement). The
fitted scales are the ``LEAF_SCALES`` constants in each ``determinize.py``.

Usage::

    python benchmarks/fit_leaf_scales.py --games 300            # every game and player count
    python benchmarks/fit_leaf_scales.py --only maya2012 --games 100
    python benchmarks/fit_leaf_scales.py --only maya_quarry --players 5 --variant advanced

Measured (``--games 300 --seed 0``, 2026-12-01; MSE of the acting seat's leaf value against its
final result; a constant 0 scores the mean of z^2, near 1 in two-player games):

see the ``LEAF_SCALES`` comments of each game and the table this script prints.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
from collections.abc import Sequence

import numpy as np

from maya_envs.core.values import terminal_values
from maya_envs.games import GAMES


def configs(
    only: Sequence[str] = (), players: Sequence[int] = (), variant: str | None = None
) -> list[tuple[str, dict]]:
    """``(game key, game options)`` of every game and player count of the game table (or only
    the games ``only`` and the player counts ``players``), in the game's default variant or in
    ``variant`` (a value of the game's ``variant_option``; games without it are skipped): the
    fitted ``LEAF_SCALES`` are per player count, a variant is fitted to check that one scale
    serves both."""
    chosen = [(key, game) for key, game in GAMES.items() if not only or key in only]
    out = []
    for key, game in chosen:
        if variant is not None and variant not in (game.hook("variants") or ()):
            continue
        extra = {} if variant is None else {game.variant_option: variant}
        out += [(key, {"num_players": n, **extra}) for n in game.player_counts if not players or n in players]
    return out


def leads_and_results(key: str, options: dict, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(leads, results)``, ``float64 (N,)`` each: every decision of ``games`` heuristic
    self-play games (game ``g`` seeded ``seed + g``): the lead of the seat to move
    (``<game>.determinize.leaf_leads``) and that seat's final result."""
    game = GAMES[key]
    rules = game.make_rules(options)
    leaf_leads = importlib.import_module(f"maya_envs.{key}.determinize").leaf_leads
    leads, results = [], []
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        bots = [game.hook("heuristic_bot")(rules, seed + g + 1000 * seat) for seat in range(rules.spec.num_players)]
        state = rules.initial_state(rng)
        rows = []
        while (seat := rules.current_player(state)) >= 0:
            rows.append((seat, float(leaf_leads(rules, state)[seat])))
            state = rules.apply_action(state, bots[seat].act(state), rng)
        final = terminal_values(rules, state)
        leads += [lead for _, lead in rows]
        results += [float(final[seat]) for seat, _ in rows]
    return np.array(leads), np.array(results)


def mse(leads: np.ndarray, results: np.ndarray, scale: float) -> float:
    """Mean squared error of ``tanh(leads / scale)`` against ``results``."""
    return float(np.mean((np.tanh(leads / scale) - results) ** 2))


def fit_scale(leads: np.ndarray, results: np.ndarray) -> float:
    """The scale minimising :func:`mse` (a log grid over 0.1..1000, then golden section)."""
    grid = np.geomspace(0.1, 1000, 81)
    best = int(np.argmin([mse(leads, results, s) for s in grid]))
    low, high = math.log(grid[max(best - 1, 0)]), math.log(grid[min(best + 1, len(grid) - 1)])
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if mse(leads, results, math.exp(a)) < mse(leads, results, math.exp(b)):
            high = b
        else:
            low = a
    return float(math.exp((low + high) / 2))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=300, help="heuristic games per config (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", default=(), help="game keys (default: all)")
    parser.add_argument("--players", nargs="*", type=int, default=(), help="player counts (default: all)")
    parser.add_argument("--variant", default=None, help="a variant of the game's variant option (default: its default)")
    args = parser.parse_args(argv)
    print("| game | options | positions | scale now | MSE now | fitted scale | MSE fitted | MSE of 0 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for key, options in configs(args.only, args.players, args.variant):
        leads, results = leads_and_results(key, options, args.games, args.seed)
        scales = importlib.import_module(f"maya_envs.{key}.determinize").LEAF_SCALES
        now = scales[options["num_players"]]
        fitted = fit_scale(leads, results)
        print(
            f"| {key} | {options} | {len(leads)} | {now:g} | {mse(leads, results, now):.4f} | {fitted:.2f} | "
            f"{mse(leads, results, fitted):.4f} | {float(np.mean(results**2)):.4f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
