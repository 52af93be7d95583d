"""Value error of each leaf value on fresh games: the network's value head, the game's
``leaf_values`` estimate, their mix and the residual head (design D2 of the strong-agents study).

For one game and player count this plays ``--train`` heuristic self-play games (recorded as the
trainer's iteration 0 records them: ``imitation_epsilon`` random moves, the heuristic's choice as
the policy target), fits a ``PolicyValueNet(residual=True)`` to them with the trainer's learner
(``--epochs`` passes, AdamW, the exit configs' learning rate 1e-3, weight decay 1e-4, batch
256), then plays ``--fresh`` new heuristic games (other seeds) and prints the own-seat mean
squared error against the final result of each leaf value on their positions
(:meth:`training.exit.learner.Learner.measure_values`, what ``exit.leaf_value: auto`` reads),
and the same on the training games. A constant 0 scores the mean of z^2 (the last column).

``--margin-weight W`` gives the fitted network the score-margin head too (``margin_head=True``,
built after every other layer: under one ``--seed`` the other layers start as without it) and
trains it with that weight, on the same games: two calls that differ only in ``W`` are a paired
measurement of what the head does to the value error on fresh games (issue 28 item 2).
``--models PATH ...`` fits nothing and measures those saved networks on the fresh games (one row
each; ``-`` where a network has no residual head).

Usage::

    python benchmarks/leaf_errors.py --game maya2012 --players 2 --train 300 --fresh 200
    python benchmarks/leaf_errors.py --train 600 --fresh 200 --margin-weight 0.5
    python benchmarks/leaf_errors.py --fresh 200 --models runs/a/model.pt runs/b/model.pt
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np


def main(argv: Sequence[str] | None = None) -> int:
    import torch

    from maya_envs.bots import make_bot
    from maya_envs.games import DEFAULT_GAME, find_game
    from maya_envs.nn.inputs import NetworkInputs
    from maya_envs.nn.model import PolicyValueNet, load_network
    from training.exit.learner import Learner
    from training.exit.play import BotAgent, play_games
    from training.exit.replay import ReplayBuffer

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--game", default=DEFAULT_GAME.key)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default=None, help="a value of the game's variant option")
    parser.add_argument("--train", type=int, default=300, help="heuristic games to learn from")
    parser.add_argument("--fresh", type=int, default=200, help="new heuristic games to measure on")
    parser.add_argument("--epochs", type=int, default=4, help="passes over the training games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--margin-weight", type=float, default=0.0, help="> 0: with the score-margin head")
    parser.add_argument("--models", nargs="+", default=None, help="measure these networks; fit none")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    game = find_game(args.game)
    options = {"num_players": args.players}
    if args.variant is not None:
        options[game.variant_option] = args.variant
    rules = game.make_rules(options)
    inputs = NetworkInputs(rules)

    def games(count: int, first_seed: int):
        rng = np.random.default_rng(first_seed)
        teacher = BotAgent(rules, make_bot("heuristic", rules, rng), record=True, epsilon=0.1, rng=rng)
        seeds = [first_seed + g for g in range(count)]
        return play_games(rules, [[teacher] * args.players] * count, seeds, inputs).positions

    started = time.process_time()
    fresh = games(args.fresh, args.seed + 1_000_000)
    if args.models:
        rows = [(f"{path} (fresh games)", Learner(load_network(path)[0], 1e-3, 0.0, 1.0, 256), fresh)
                for path in args.models]  # fmt: skip
        print(f"{args.game} {options}: {args.fresh} fresh games ({len(fresh)} positions)")
    else:
        train = games(args.train, args.seed)
        net = PolicyValueNet(
            inputs.board_dim, inputs.feature_dim, inputs.num_actions, args.players, residual=True,
            margin_head=args.margin_weight > 0,
        )  # fmt: skip
        learner = Learner(net, 1e-3, 1e-4, 1.0, 256, margin_weight=args.margin_weight)
        buffer = ReplayBuffer(1)
        buffer.add(train)
        learner.train(buffer, args.epochs, np.random.default_rng(args.seed))
        rows = [("training games", learner, train), ("fresh games", learner, fresh)]
        print(f"{args.game} {options}: {args.train} training games ({len(train)} positions), {args.epochs} epochs, "
              f"margin weight {args.margin_weight:g}; {args.fresh} fresh games ({len(fresh)} positions); "
              f"{time.process_time() - started:.0f} CPU s")  # fmt: skip
    print("| positions | net | hook | mix | residual | 0 |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, learner, positions in rows:
        errors = learner.measure_values(positions)[2]
        zero = float(np.mean(positions.values[np.arange(len(positions)), positions.seats].astype(np.float64) ** 2))
        cells = " | ".join(f"{errors[k]:.3f}" if k in errors else "-" for k in ("net", "hook", "mix", "residual"))
        print(f"| {name} | {cells} | {zero:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
