"""PNG plots of a report (matplotlib, drawn off screen): :func:`write_plots`.

* ``branching.png``: legal moves per decision over the course of the game (mean line, quartile
  band, per bin of decision index), one colour per run;
* ``length.png``: histogram of moves per game (bins of a whole number of moves each);
* ``seats.png``: win rate with Wilson 95% intervals and the fair share (all seat-wins over
  seat-games): per lineup spec first where the lineup is mixed (the figure that differs when
  ``--rotate`` evens out the seats), then per seat, then per team where the game has them
  (:func:`maya_envs.stats.figures.win_groups`).

matplotlib comes with the ``train`` or ``stats`` extra.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from maya_envs.stats.figures import win_groups

PLOTS = ("branching.png", "length.png", "seats.png")


def _pyplot():
    try:
        import matplotlib
    except ImportError as error:
        raise ImportError("maya-stats plots need matplotlib: pip install 'maya-envs[stats]' (or use --no-plots)") from error
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def write_plots(runs: Sequence[dict[str, Any]], folder: Path) -> list[Path]:
    """Draw the three plots of ``runs`` (run dicts of :func:`maya_envs.stats.report.run`) into
    ``folder`` (created); returns their paths (:data:`PLOTS` order)."""
    plt = _pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / name for name in PLOTS]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for k, r in enumerate(runs):
        bins = r["figures"]["branching"]["over_game"]
        x = [(b["start"] + b["end"] - 1) / 2 for b in bins]
        ax.plot(x, [b["mean"] for b in bins], color=colours[k % len(colours)], label=f"{r['label']} (mean)")
        ax.fill_between(x, [b["p25"] for b in bins], [b["p75"] for b in bins], color=colours[k % len(colours)],
                        alpha=0.2, label="quartiles")  # fmt: skip
    ax.set_xlabel("decision index in the game")
    ax.set_ylabel("legal moves")
    ax.set_title("Branching over the game")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(paths[0], dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for k, r in enumerate(runs):
        hist = r["figures"]["length"]["moves"]["histogram"]
        ax.stairs(hist["counts"], hist["edges"], fill=len(runs) == 1, alpha=0.6 if len(runs) == 1 else 1.0,
                  color=colours[k % len(colours)], label=f"{r['label']} ({r['games']} games)")  # fmt: skip
    ax.set_xlabel("moves (decisions) per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(paths[1], dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / len(runs)
    for k, r in enumerate(runs):
        balance = r["figures"]["balance"]
        groups = win_groups(balance)
        xs = [i + (k - (len(runs) - 1) / 2) * width for i in range(len(groups))]
        shares = [g["share"] for _, g in groups]
        errors = [[g["share"] - g["ci95"][0] for _, g in groups], [g["ci95"][1] - g["share"] for _, g in groups]]
        ax.bar(xs, shares, width, yerr=errors, capsize=4, color=colours[k % len(colours)], alpha=0.8,
               label=f"{r['label']} ({r['games']} games)")  # fmt: skip
        ax.axhline(balance["fair_share"], color=colours[k % len(colours)], linestyle="--", linewidth=1)
        ax.set_xticks(range(len(groups)), [name for name, _ in groups])
    ax.set_ylabel("win rate (Wilson 95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title("Wins per lineup spec, seat and team (dashed: fair share)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(paths[2], dpi=110)
    plt.close(fig)
    return paths
