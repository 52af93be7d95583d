"""What each evaluation match of an expert-iteration run costs: CPU seconds per game of every
(candidate, opponent) pair the config's evaluation could play, on one core, so that a config's
evaluation can be chosen to fit a time budget (issue 45: the main job in 10 minutes).

The candidate is a finished run's network (``RUN_DIR/model.pt``, the config ``RUN_DIR/config.yaml``),
raw (``policy:``) and with ``exit.eval_simulations`` guided simulations (``az:``), played exactly
as the run's evaluation plays it (:meth:`training.exit.loop.ExitTrainer.match`, one actor in this
process, ``exit.games_in_flight`` games in lock step). CPU time is ``time.process_time`` of the
actor (what a loaded machine does not change); the estimate of the wall time assumes the actors
share the games evenly on idle cores.

Usage::

    python benchmarks/bench_main_eval.py RUN_DIR [--games 50] [--opponents random heuristic mcts:200:depth=2]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def match_costs(run_dir: Path, games: int, opponents: list[str] | None = None) -> list[dict]:
    """One row per (candidate, opponent): ``cpu_per_game`` (CPU seconds), ``decisions_per_game``
    and the candidate's ``win_rate`` over ``games`` seat-rotated games."""
    import numpy as np

    from maya_envs.nn.model import load_network
    from training.config import load_config
    from training.exit.actors import Actors
    from training.exit.gating import match_lineups
    from training.exit.loop import ExitTrainer

    config = load_config(run_dir / "config.yaml", ["exit.actors=1"])
    trainer = ExitTrainer(config)
    net, meta = load_network(run_dir / "model.pt")
    trainer.best, trainer.leaf = net.state_dict(), meta.get("leaf_value", trainer.leaf)
    candidates = [("raw", "policy:best")]
    if config.exit.eval_simulations:
        candidates.append((f"+{config.exit.eval_simulations} sims", "az:best"))
    rows = []
    with Actors(trainer.actor_settings(), 1) as actors:
        for name, spec in candidates:
            for opponent in opponents or config.eval_opponents:
                lineups = match_lineups(spec, f"bot:{opponent}", games, trainer.num_players)
                played = actors.play(lineups, trainer._seeds(games), {"best": trainer.best}, 0, trainer.leaf)
                mine = played.values[np.arange(games), np.arange(games) % trainer.num_players]
                rows.append({
                    "candidate": name, "opponent": opponent, "games": games,
                    "cpu_per_game": played.cpu_seconds / games, "decisions_per_game": played.decisions / games,
                    "win_rate": float((mine > 0).mean()),
                })  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", type=Path, help="a finished expert-iteration run (model.pt, config.yaml)")
    parser.add_argument("--games", type=int, default=50, help="games per match (default 50)")
    parser.add_argument("--opponents", nargs="+", help="bots (default: the run's eval_opponents)")
    parser.add_argument("--eval-games", type=int, default=400, help="games per match of the estimate (400)")
    parser.add_argument("--actors", type=int, default=2, help="idle cores of the estimate (2)")
    args = parser.parse_args(argv)
    rows = match_costs(args.run_dir, args.games, args.opponents)
    print(f"| candidate | opponent | CPU s / game | decisions / game | win rate ({args.games} games) "
          f"| est. wall s for {args.eval_games} games on {args.actors} cores |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|")
    for r in rows:
        wall = r["cpu_per_game"] * args.eval_games / args.actors
        print(f"| {r['candidate']} | {r['opponent']} | {r['cpu_per_game']:.3f} | {r['decisions_per_game']:.1f} "
              f"| {r['win_rate']:.1%} | {wall:.0f} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
