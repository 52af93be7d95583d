"""Refit iteration 0 with other training seeds: new networks learned from the same imitation
games as a finished run, one per seed (design D5/D7 of the strong-agents study: raw strength
varies with the training seed on the same data, quarry 3p 14-52%, so a shipped network is
picked from several seeds and its raw figure reported as their mean).

Usage::

    python -m training.exit.refit runs/<run> --seeds 2 3        # writes runs/<run>/refits/seed_2.pt, seed_3.pt
    python -m training.exit.refit runs/<run> --seeds 1 2 --set exit.imitation_epochs=6 --tag epochs6
                                                                # runs/<run>/refits/epochs6/seed_1.pt, seed_2.pt

The run must have stopped after iteration 0 (``exit.iterations: 0``: its ``checkpoint.pt``
holds exactly the rows iteration 0 learned from). Each refit is the run's own iteration-0
learning with the config's ``seed`` replaced: the network's initial weights, the held-out
games and the minibatch order follow the seed; the teacher's games are the run's. A refit
with the run's own seed repeats its network exactly. The teacher's games cost minutes to
hours (a rollout-search teacher); a refit costs only the learning. ``--set`` changes a learning
setting (:data:`LEARNING_KEYS`; never one that would have changed the games) for a sweep, whose
networks go under ``refits/<tag>/`` with the overrides in their meta.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from maya_envs.core.errors import shorten
from training.exit.data import Positions

REFITS = "refits"
"""The folder of a run that receives the refitted networks."""

LEARNING_KEYS = (
    "learning_rate",
    "batch_size",
    "exit.imitation_epochs",
    "exit.hidden",
    "exit.weight_decay",
    "exit.value_weight",
)
"""Config keys a refit may override: how iteration 0 learns, not which games it learns from."""

TAG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A sweep's folder name under ``refits/`` (no path separators, no leading dot)."""


def imitation_rows(checkpoint: dict) -> Positions:
    """The rows iteration 0 learned from, out of an expert-iteration checkpoint's replay data.

    Raises:
        ValueError: the checkpoint is past iteration 0, or holds no rows.
    """
    if checkpoint.get("iteration") != 0:
        raise ValueError(
            f"the checkpoint is at iteration {checkpoint.get('iteration')!r}; a refit needs a run stopped after "
            "iteration 0 (exit.iterations: 0), whose replay data is exactly iteration 0's rows"
        )
    replay = checkpoint["replay"]
    if isinstance(replay, dict):  # the replay window (exit.window_games)
        if replay["data"] is None:
            raise ValueError("the checkpoint's replay window holds no rows")
        return Positions(**replay["data"])
    if not replay:
        raise ValueError("the checkpoint's replay buffer holds no rows")
    return Positions.concat([Positions(**chunk) for chunk in replay])


def refit(run_dir: Path, seeds: list[int], overrides: Sequence[str] = (), tag: str | None = None) -> list[Path]:
    """One network per seed in ``run_dir/refits/seed_<S>.pt``, or ``run_dir/refits/<tag>/seed_<S>.pt``
    with ``overrides`` (``KEY=VALUE`` of :data:`LEARNING_KEYS`, as ``maya-train --set``)
    (:func:`maya_envs.nn.model.save_network` files whose meta adds ``refit_of``, ``seed`` and any
    ``overrides``); the paths.

    Raises:
        FileNotFoundError: ``run_dir`` lacks ``config.yaml`` or ``checkpoint.pt``.
        ValueError: not an expert-iteration run stopped after iteration 0; a seed that is not an
            int in ``0..2**32-1`` (a training config's seed); an override of another key, or a
            bad value (the config's own error); overrides without a tag, a tag without
            overrides, or a tag that is not a plain name.
    """
    from training.checks import check_int
    from training.config import LIMITS, load_config
    from training.config_names import split_override
    from training.exit.checkpoint import load_checkpoint
    from training.exit.loop import ExitTrainer
    from training.exit.play import Played

    for seed in seeds:  # a training config's seed, bounded as the config bounds it
        check_int("seed", seed, minimum=0, maximum=LIMITS["seed"])
    overrides = list(overrides)
    for item in overrides:
        key, _ = split_override(item)
        if key not in LEARNING_KEYS:
            raise ValueError(
                f"--set {shorten(item)}: a refit changes only how iteration 0 learns; allowed keys: "
                + ", ".join(LEARNING_KEYS)
            )
    if bool(overrides) != (tag is not None):
        raise ValueError("--set and --tag go together: a sweep's networks need their own folder, refits/<tag>/")
    if tag is not None and not TAG.fullmatch(tag):
        raise ValueError(
            f"--tag {shorten(tag)}; allowed: letters, digits, '_', '.', '-', starting with a letter or digit "
            "(at most 64)"
        )
    for name in ("config.yaml", "checkpoint.pt"):
        if not (run_dir / name).is_file():
            raise FileNotFoundError(f"{str(run_dir / name)!r} not found: a refit needs an expert-iteration run")
    config = load_config(str(run_dir / "config.yaml"), overrides)
    if config.algo != "exit":
        raise ValueError(f"{str(run_dir)!r} is a run of algo {config.algo!r}; a refit needs algo: exit")
    checkpoint = load_checkpoint(run_dir / "checkpoint.pt")
    rows = imitation_rows(checkpoint)
    games = 0 if rows.games is None else len(np.unique(rows.games))
    out = run_dir / REFITS if tag is None else run_dir / REFITS / tag
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in seeds:
        started = time.process_time()
        trainer = ExitTrainer(dataclasses.replace(config, seed=seed))
        learned = trainer.refit_imitation(Played(np.zeros((games, trainer.num_players)), rows, len(rows)))
        path = out / f"seed_{seed}.pt"
        extra = {"refit_of": str(run_dir), "seed": seed} | ({"overrides": overrides} if overrides else {})
        trainer.save_model(path, extra)
        paths.append(path)
        print(
            f"seed {seed}: {len(rows):,} rows, policy loss {learned['policy_loss']:.3f}, agreement "
            f"{learned['agreement']:.1%}, {time.process_time() - started:.0f} CPU s -> {path}"
        )
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="an expert-iteration run directory stopped after iteration 0")
    parser.add_argument("--seeds", type=int, nargs="+", required=True, help="training seeds, one network each")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"a learning setting: {', '.join(LEARNING_KEYS)}",
    )
    parser.add_argument("--tag", help="with --set: the sweep's folder under refits/")
    args = parser.parse_args(argv)
    try:
        refit(args.run, args.seeds, args.set, args.tag)
    except (FileNotFoundError, ValueError) as error:
        print(f"refit: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
