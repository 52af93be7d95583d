"""Equal time per move: a guided search (``az:``) against a rollout search at the opponent's own
time per move (issue 28 item 5; reported, never asserted).

1. **Calibrate**: the opponent (default ``mcts:200:depth=2``) decides ``--calibrate`` positions
   where a seat has more than one legal action, sampled from seeded heuristic-vs-heuristic games;
   its mean wall seconds per decision is the matched time ``T`` (``--time`` skips this).
2. **Match**: ``<candidate>:time=T`` against the opponent, ``--games`` games, seats rotated
   (:func:`maya_envs.evaluation.play_match`), both bots timed over their decisions with more
   than one legal action (forced moves cost nothing in either), so the run shows that the
   times matched.

Printed and written (``--out``, one JSON line): the matched time, each side's mean seconds per
decision and the candidate's simulations per search, W/D/L, the score (draws count half) with
its 95% Wilson interval, and the load average before and after (the machine may be shared:
wall time is what ``time=`` spends, so a loaded machine slows both sides alike).

Usage::

    python benchmarks/equal_time_match.py --games 200
    python benchmarks/equal_time_match.py --candidate az:maya2012_2p_exit:leaf=hook:reuse=1 --games 100
    python benchmarks/equal_time_match.py --time 0.012 --games 100 --out /tmp/equal_time.jsonl
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np
from search_ladder import TimedBot as LadderTimedBot
from search_ladder import report

from maya_envs.bots import make_bot
from maya_envs.evaluation import play_match
from maya_envs.evaluation.stats import wilson_interval
from maya_envs.games import DEFAULT_GAME, find_game, game_names
from maya_envs.pretrained import pretrained_for


class TimedBot(LadderTimedBot):
    """The ladder's timed bot, counting only decisions with more than one legal action (the wall
    and CPU seconds they took and, for a guided search, the simulations it ran)."""

    def __init__(self, name: str, rules: Any, seed: int = 0) -> None:
        super().__init__(name, rules, seed)
        self.rules = rules
        self.cpu_seconds = 0.0
        self.simulations = 0

    def act(self, state: Any) -> int:
        start, cpu = time.perf_counter(), time.process_time()
        action = self.bot.act(state)
        spent, spent_cpu = time.perf_counter() - start, time.process_time() - cpu
        if len(self.rules.legal_actions(state)) > 1:
            self.seconds += spent
            self.cpu_seconds += spent_cpu
            self.decisions += 1
            result = getattr(self.bot, "last_result", None)
            self.simulations += getattr(result, "simulations", 0)
        return action

    def per_decision(self, cpu: bool = False) -> float:
        return (self.cpu_seconds if cpu else self.seconds) / max(self.decisions, 1)


def sample_decisions(rules: Any, count: int, seed: int) -> list[Any]:
    """``count`` states with more than one legal action from seeded heuristic self-play games
    (every state of each game, games until there are enough)."""
    rng = np.random.default_rng(seed)
    states: list[Any] = []
    while len(states) < count:
        bots = [make_bot("heuristic", rules, int(rng.integers(2**31))) for _ in range(rules.spec.num_players)]
        state = rules.initial_state(rng)
        while rules.current_player(state) >= 0 and len(states) < count:
            legal = rules.legal_actions(state)
            if len(legal) > 1:
                states.append(state)
            state = rules.apply_action(state, bots[rules.current_player(state)].act(state), rng)
    return states


def calibrate(opponent: str, rules: Any, count: int, seed: int) -> float:
    """The opponent's mean wall seconds per decision over ``count`` sampled decisions."""
    timed = TimedBot(opponent, rules, seed)
    for state in sample_decisions(rules, count, seed):
        timed.act(state)
    return timed.per_decision()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=game_names(), default=DEFAULT_GAME.key)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--candidate", default=None,
        help="an az: spec without time= (default: az:<the shipped default network of --game at --players>:leaf=hook)",
    )
    parser.add_argument("--opponent", default="mcts:200:depth=2")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--calibrate", type=int, default=60, help="decisions the opponent is timed on")
    parser.add_argument("--time", type=float, default=None, help="matched seconds per move (skips calibration)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="append the JSON line here")
    args = parser.parse_args(argv)
    entry = find_game(args.game)

    def env_fn():
        return entry.make_aec_env(num_players=args.players)

    if args.candidate is None:  # the shipped default of this game and size, as a search (az: refuses a PPO one)
        args.candidate = f"az:{pretrained_for(env_fn().spec_card)}:leaf=hook"
    if args.games < 1 or args.calibrate < 1:
        parser.error(f"--games {args.games} / --calibrate {args.calibrate}; allowed: ints >= 1")
    if args.time is not None and not 0 < args.time < 30:
        parser.error(f"--time {args.time}; allowed: seconds in (0, 30)")
    if "time=" in args.candidate:
        parser.error(f"--candidate {args.candidate!r} has its own time=; the script sets it")
    try:  # one torch thread, as each match and self-play process runs (two threads on a loaded
        # two-core machine cost 12x the CPU per decision here)
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    rules = env_fn().rules
    load_before = os.getloadavg()
    matched = args.time if args.time is not None else calibrate(args.opponent, rules, args.calibrate, args.seed)
    candidate = f"{args.candidate}:time={matched:.4f}"
    mine, theirs = TimedBot(candidate, rules, args.seed), TimedBot(args.opponent, rules, args.seed + 1)
    start = time.perf_counter()
    def progress(done: int) -> None:  # a long match on a loaded machine shows where it is
        if done % 10 == 0:
            print(f"{done}/{args.games} games, {time.perf_counter() - start:.0f} s", flush=True)

    result = play_match(
        env_fn, mine, theirs, args.games, args.seed, candidate_name=candidate, opponent_name=args.opponent,
        progress=progress,
    )
    score = result.wins + 0.5 * result.draws
    low, high = wilson_interval(score, result.games)
    row = {
        "game": args.game,
        "players": args.players,
        **result.to_dict(),
        "matched_time": matched,
        "calibrated": args.time is None,
        "candidate_seconds_per_decision": mine.per_decision(),
        "opponent_seconds_per_decision": theirs.per_decision(),
        "candidate_cpu_seconds_per_decision": mine.per_decision(cpu=True),
        "opponent_cpu_seconds_per_decision": theirs.per_decision(cpu=True),
        "candidate_simulations_per_search": mine.simulations / max(mine.decisions, 1),
        "score": score / result.games,
        "score_ci95": [low, high],
        "wall_seconds": time.perf_counter() - start,
        "load_before": list(load_before),
        "load_after": list(os.getloadavg()),
    }
    report(
        f"{candidate} vs {args.opponent}: games {result.games} W/D/L {result.wins}/{result.draws}/{result.losses} "
        f"score {row['score']:.3f} [{low:.3f}, {high:.3f}]; s/decision {row['candidate_seconds_per_decision']:.4f} vs "
        f"{row['opponent_seconds_per_decision']:.4f} (CPU {row['candidate_cpu_seconds_per_decision']:.4f} vs "
        f"{row['opponent_cpu_seconds_per_decision']:.4f}); {row['candidate_simulations_per_search']:.1f} sims/search; "
        f"load {load_before[0]:.1f} -> {row['load_after'][0]:.1f}; {row['wall_seconds']:.0f} s",
        row,
        args.out,
    )
    return row


if __name__ == "__main__":
    main()
