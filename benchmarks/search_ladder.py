"""Strength ladder of the search bots in the evaluation arena (reported, never asserted).

For each game: heuristic vs random, then search at two budgets against random and heuristic
opponents, seats rotated by :func:`maya_envs.evaluation.play_match` (the candidate takes one
seat, the opponent spec fills the others). Prints one line per pairing and writes all of
them as JSON lines, with the candidate's mean seconds per decision (forced moves included).

Usage::

    .venv/bin/python benchmarks/search_ladder.py --game maya2012 --games 40 --out ladder.jsonl
    .venv/bin/python benchmarks/search_ladder.py --game maya2012 --players 3 --games 40
    .venv/bin/python benchmarks/search_ladder.py --game yaxha --games 20 --budgets 25 100
    .venv/bin/python benchmarks/search_ladder.py --game yaxha --games 100 --pairings mcts:100,heuristic
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from maya_envs.bots import make_bot
from maya_envs.evaluation import play_match
from maya_envs.games import find_game, game_names


class TimedBot:
    """A bot built by name that counts its decisions and the seconds they took."""

    def __init__(self, name: str, rules, seed: int = 0) -> None:
        self.bot = make_bot(name, rules, seed)
        self.seconds = 0.0
        self.decisions = 0

    @property
    def rng(self):
        return self.bot.rng

    @rng.setter
    def rng(self, value) -> None:  # the arena reseeds bots per episode
        self.bot.rng = value

    def act(self, state: Any) -> int:
        start = time.perf_counter()
        action = self.bot.act(state)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def run_pairing(
    game: str, candidate: str, opponent: str, games: int, seed: int, options: dict | None = None
) -> dict[str, Any]:
    entry = find_game(game)

    def env_fn():
        return entry.make_aec_env(**(options or {}))

    timed = TimedBot(candidate, env_fn().rules)
    start = time.perf_counter()
    result = play_match(env_fn, timed, opponent, games, seed, candidate_name=candidate, opponent_name=opponent)
    row = {"game": game, **result.to_dict()}
    row["seconds_per_move"] = timed.seconds / max(timed.decisions, 1)
    row["wall_seconds"] = time.perf_counter() - start
    return row


def report(line: str, row: dict[str, Any], out: str | None) -> None:
    """Print ``line`` (flushed, so a long match shows its progress) and, with ``out``, append
    ``row`` to that file as one JSON line."""
    print(line, flush=True)
    if out:
        with open(out, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=game_names(), required=True)
    parser.add_argument("--players", type=int, default=None, help="num_players (default: the game's default)")
    parser.add_argument("--games", type=int, default=40, help="games per pairing")
    parser.add_argument("--budgets", type=int, nargs=2, default=(50, 200), help="two simulation budgets")
    parser.add_argument(
        "--pairings", nargs="*", default=None, metavar="CANDIDATE,OPPONENT",
        help="run these pairings instead of the default ladder, e.g. mcts:100,heuristic az:<network>:32,heuristic "
        "(<network>: a .pt checkpoint or a shipped network's name)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="append JSON lines here")
    args = parser.parse_args(argv)
    low, high = args.budgets
    pairings = [
        ("heuristic", "random"),
        (f"mcts:{low}", "random"),
        (f"mcts:{low}", "heuristic"),
        (f"mcts:{high}", "heuristic"),
        (f"mcts:{high}", f"mcts:{low}"),
    ]
    if args.pairings:
        malformed = [p for p in args.pairings if p.count(",") != 1]
        if malformed:
            parser.error(f"a pairing is CANDIDATE,OPPONENT (two bot specs), got {malformed}")
        pairings = [tuple(p.split(",")) for p in args.pairings]
    for candidate, opponent in pairings:
        options = {} if args.players is None else {"num_players": args.players}
        row = run_pairing(args.game, candidate, opponent, args.games, args.seed, options)
        low_ci, high_ci = row["win_rate_ci95"]
        report(
            f"{args.game:12s} {candidate:>12s} vs {opponent:<12s} games {row['games']:3d}  "
            f"W/D/L {row['wins']}/{row['draws']}/{row['losses']}  win {row['win_rate']:.2f} "
            f"[{low_ci:.2f}, {high_ci:.2f}]  {row['seconds_per_move']:.3f} s/move  ({row['wall_seconds']:.0f} s)",
            row,
            args.out,
        )


if __name__ == "__main__":
    main()
