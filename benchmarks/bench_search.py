"""Search benchmark: the rules engines as tree search uses them, and search simulations/s.

For every game and player count (the cases of ``bench_envs.py``), from positions sampled by
random play (seeded, the same positions in every run):

* ``search steps``: what one search simulation does to the engine: determinize the position
  for the seat to move (the game's ``determinize`` hook; hidden-information games only; states
  are immutable, so that copy is the only clone), then ``legal_actions`` + ``apply_action``
  with random legal actions to the end of the game; counted in applied actions per second;
* ``mcts``: :class:`maya_envs.bots.mcts.MCTSBot` simulations per second at a fixed budget
  (``--sims``, default 100; random rollouts to the end of the game; determinized for
  hidden-information games, i.e. SO-ISMCTS), timed over whole ``act`` calls;
* ``az`` (where torch is installed): the network-guided search (``az:`` bot, Gumbel root, a
  randomly initialised network of the default width on one torch thread, no rollouts)
  simulations per second at the same budget, one position at a time; ``az lock step``: one
  ``search_many`` over all the sampled positions at once (one forward pass per simulation
  round for all of them, as the expert-iteration actors search).

Reference, in the same run (needs the ``openspiel`` extra): OpenSpiel's C++ ``connect_four``
driven from Python the same ways (``clone`` + ``legal_actions`` + ``apply_action`` random
play; ``open_spiel.python.algorithms.mcts.MCTSBot`` with one random rollout per simulation).
Ratios are ours / that reference. Each measurement runs ``--repeats`` times for about
``--seconds``; the median is reported.

Usage::

    python benchmarks/bench_search.py                    # full run, writes benchmarks/results/
    python benchmarks/bench_search.py --quick --out /tmp/bench
    python benchmarks/bench_search.py --only "maya2012 2p" --seconds 2
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from bench_envs import (
    Case,
    _measure,
    add_out_argument,
    bench_meta,
    case_parser,
    reference_missing_lines,
    save,
    select_cases,
)

from maya_envs.bots import make_bot


def sample_positions(rules: Any, count: int, seed: int) -> list[Any]:
    """``count`` positions where a seat must decide, each at a uniformly random move number
    of its own random game (seeded)."""
    rng = np.random.default_rng(seed)
    positions = []
    while len(positions) < count:
        state = rules.initial_state(rng)
        trail = []
        while not (rules.is_terminal(state) or rules.is_truncated(state)):
            trail.append(state)
            legal = rules.legal_actions(state)
            state = rules.apply_action(state, legal[rng.integers(len(legal))], rng)
        positions.append(trail[rng.integers(len(trail))])
    return positions


def search_steps(rules: Any, positions: list[Any], determinize: Callable | None, rng: np.random.Generator):
    """A ``run_once`` for ``_measure``: one random playout from each position, as a search
    simulation makes it; returns (applied actions, playouts)."""

    def run_once() -> tuple[int, int]:
        steps = 0
        for position in positions:
            state = position
            if determinize is not None:
                state = determinize(rules, state, rules.current_player(state), rng)
            while not (rules.is_terminal(state) or rules.is_truncated(state)):
                legal = rules.legal_actions(state)
                state = rules.apply_action(state, legal[rng.integers(len(legal))], rng)
                steps += 1
        return steps, len(positions)

    return run_once


def search_moves(bot: Any, positions: list[Any], simulations: int) -> Callable[[], tuple[int, int]]:
    """A ``run_once`` for ``_measure``: one searched move per position; returns (simulations,
    moves)."""

    def run_once() -> tuple[int, int]:
        for position in positions:
            bot.act(position)
        return simulations * len(positions), len(positions)

    return run_once


def _az_bot(case: Case, rules: Any, simulations: int, seed: int) -> Any | None:
    """The network-guided search bot (``az:``) over a randomly initialised network (seeded; the
    default width, one torch thread, no root noise), or ``None`` without torch."""
    made = _az_parts(rules, simulations, seed)
    if made is None:
        return None
    evaluator, config = made
    from maya_envs.bots.guided import AZBot

    return AZBot(rules, evaluator, config, seed)


def _az_parts(rules: Any, simulations: int, seed: int) -> tuple[Any, Any] | None:
    """``(evaluator, GuidedConfig)`` of a random network, or ``None`` without torch."""
    try:
        import torch

        from maya_envs.bots.guided import GuidedConfig
        from maya_envs.nn.agent import NetworkEvaluator
        from maya_envs.nn.inputs import NetworkInputs
        from maya_envs.nn.model import PolicyValueNet
    except ImportError:
        return None
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    inputs = NetworkInputs(rules)
    net = PolicyValueNet(inputs.board_dim, inputs.feature_dim, inputs.num_actions, inputs.num_players)
    return NetworkEvaluator(net, inputs), GuidedConfig(simulations=simulations, gumbel_scale=0.0)


def search_lock_step(
    rules: Any, positions: list[Any], simulations: int, seed: int
) -> Callable[[], tuple[int, int]] | None:
    """A ``run_once`` for ``_measure``: ONE ``search_many`` over every position in lock step
    (one forward pass per simulation round, as the expert-iteration actors run it); returns
    (simulations, moves); ``None`` without torch."""
    made = _az_parts(rules, simulations, seed)
    if made is None:
        return None
    evaluator, config = made
    from maya_envs.bots.guided import search_many

    seats = [rules.current_player(p) for p in positions]
    rng = np.random.default_rng(seed)

    def run_once() -> tuple[int, int]:
        results = search_many(rules, positions, seats, evaluator, config, rng)
        return sum(r.simulations for r in results), len(positions)

    return run_once


def openspiel_reference(seconds: float, repeats: int, simulations: int, seed: int) -> dict[str, Any] | None:
    """OpenSpiel's C++ connect four: random playout steps/s and Python MCTS simulations/s."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    rng = np.random.default_rng(seed)
    positions = []
    for _ in range(8):
        state = game.new_initial_state()
        trail = []
        while not state.is_terminal():
            trail.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        positions.append(trail[rng.integers(len(trail))])

    def steps_once() -> tuple[int, int]:
        steps = 0
        for position in positions:
            state = position.clone()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                steps += 1
        return steps, len(positions)

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=np.random.RandomState(seed))

    def moves_once() -> tuple[int, int]:
        for position in positions:
            bot.step(position.clone())
        return simulations * len(positions), len(positions)

    return {"steps": _measure(steps_once, seconds, repeats), "mcts": _measure(moves_once, seconds, repeats)}


def run(
    cases: tuple[Case, ...], seconds: float, repeats: int, simulations: int, positions: int, seed: int = 0
) -> dict[str, Any]:
    """Measure everything; returns the JSON-able results dict."""
    warnings.filterwarnings("ignore")
    rng = np.random.default_rng(seed)
    results: dict[str, Any] = {
        "meta": bench_meta(seconds=seconds, repeats=repeats, simulations=simulations, positions=positions),
        "reference": openspiel_reference(seconds, repeats, simulations, seed),
        "games": {},
    }
    if results["reference"] is None:
        results["reference_missing"] = "OpenSpiel not installed: pip install -e '.[openspiel]'"
    for case in cases:
        rules = case.game.make_rules(case.options)
        hidden = rules.spec.information != "perfect"
        determinize = case.game.hook("determinize") if hidden else None
        sampled = sample_positions(rules, positions, seed)
        entry: dict[str, Any] = {"options": case.options, "hidden_information": hidden}
        entry["steps"] = _measure(search_steps(rules, sampled, determinize, rng), seconds, repeats)
        mcts_bot = make_bot(f"mcts:{simulations}", rules, seed)
        entry["mcts"] = _measure(search_moves(mcts_bot, sampled, simulations), seconds, repeats)
        az_bot = _az_bot(case, rules, simulations, seed)
        if az_bot is not None:
            entry["az"] = _measure(search_moves(az_bot, sampled, simulations), seconds, repeats)
            entry["az_lock_step"] = _measure(search_lock_step(rules, sampled, simulations, seed), seconds, repeats)
        results["games"][case.label] = entry
        line = (
            f"{case.label:26s} steps {entry['steps']['steps_per_s']:10.0f}/s"
            f"  mcts {entry['mcts']['steps_per_s']:8.0f} sims/s"
        )
        if "az" in entry:
            line += f"  az {entry['az']['steps_per_s']:8.0f} sims/s"
            line += f"  az lock step {entry['az_lock_step']['steps_per_s']:8.0f} sims/s"
        print(line, flush=True)
    return results


def to_markdown(results: dict[str, Any]) -> str:
    """The README table of ``results``."""
    meta, ref = results["meta"], results.get("reference") or {}

    def ratio(value: float, kind: str) -> str:
        return f"{value / ref[kind]['steps_per_s']:.2f}x" if kind in ref else "n/a"

    def rate(entry: dict[str, Any] | None) -> str:
        return "" if entry is None else f"{entry['steps_per_s']:,.0f}"

    lines = [
        f"Measured {meta['time']}, Python {meta['python']}, numpy {meta['numpy']}, median of "
        f"{meta['repeats']} x {meta['seconds']} s; {meta['positions']} sampled positions per game, "
        f"{meta['simulations']} simulations per move.",
        "",
        "| game | search steps/s | vs C4 | MCTS sims/s | vs C4 | az sims/s | az lock-step sims/s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    if ref:
        lines.append(
            f"| OpenSpiel C++ connect_four (reference) | {rate(ref['steps'])} | 1.00x | {rate(ref['mcts'])} | 1.00x "
            "| | |"
        )
    for label, entry in results["games"].items():
        steps, mcts = entry["steps"]["steps_per_s"], entry["mcts"]["steps_per_s"]
        name = label + (" (IS-MCTS)" if entry["hidden_information"] else "")
        lines.append(
            f"| {name} | {steps:,.0f} | {ratio(steps, 'steps')} | {mcts:,.0f} | {ratio(mcts, 'mcts')} "
            f"| {rate(entry.get('az'))} | {rate(entry.get('az_lock_step'))} |"
        )
    lines += reference_missing_lines(results)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = case_parser(__doc__, "smoke mode: one case per game, 1 short repeat", only=True, repeats_default=3)
    parser.add_argument("--sims", type=int, default=None, help="simulations per searched move (default 100; quick 8)")
    parser.add_argument("--positions", type=int, default=None, help="sampled positions per case (default 8; quick 2)")
    add_out_argument(parser)
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.05 if args.quick else 2.0)
    repeats = args.repeats if args.repeats is not None else (1 if args.quick else 3)
    simulations = args.sims if args.sims is not None else (8 if args.quick else 100)
    positions = args.positions if args.positions is not None else (2 if args.quick else 8)
    cases = select_cases(parser, args.only, args.quick)
    results = run(cases, seconds, repeats, simulations, positions)
    save(results, to_markdown(results), args.out / ("bench_search_quick" if args.quick else "bench_search"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
