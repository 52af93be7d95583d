"""PNG plots (matplotlib, Agg backend): arena ratings and learning curves."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_ratings(result: dict[str, Any], path: Path, title: str = "") -> Path:
    """Bar chart of the arena's OpenSkill ``mu`` with ``± 2 sigma`` error bars, and the win
    rates with their Wilson 95% intervals (and Elo in 2p), from ``ArenaResult.to_dict()``."""
    plt = _pyplot()
    agents = sorted(result["agents"], key=lambda a: -result["openskill"][a["name"]]["ordinal"])
    names = [a["name"] for a in agents]
    panels = 3 if result.get("elo") else 2
    fig, axes = plt.subplots(1, panels, figsize=(4.5 * panels, 0.5 * len(names) + 2.5), squeeze=False)
    ax = axes[0][0]
    mus = [result["openskill"][n]["mu"] for n in names]
    sigmas = [2 * result["openskill"][n]["sigma"] for n in names]
    ax.barh(names, mus, xerr=sigmas, color="tab:blue", alpha=0.8)
    ax.invert_yaxis()
    ax.set_xlabel("OpenSkill mu (± 2 sigma)")
    ax = axes[0][1]
    rates = [a["win_rate"] for a in agents]
    low = [max(a["win_rate"] - a["win_rate_ci95"][0], 0.0) for a in agents]
    high = [max(a["win_rate_ci95"][1] - a["win_rate"], 0.0) for a in agents]
    ax.barh(names, rates, xerr=[low, high], color="tab:green", alpha=0.8)
    ax.axvline(result["fair_share"], color="grey", linestyle="--", label="fair share")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (Wilson 95% CI)")
    ax.legend(loc="lower right", fontsize="small")
    if panels == 3:
        ax = axes[0][2]
        ax.barh(names, [result["elo"][n] for n in names], color="tab:orange", alpha=0.8)
        ax.invert_yaxis()
        ax.set_xlabel("Elo")
        ax.set_xlim(min(result["elo"].values()) - 50, max(result["elo"].values()) + 50)
    fig.suptitle(title or f"arena: {result['games']} games, {result['num_players']} players")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def plot_learning_curve(
    points: list[dict[str, Any]],
    path: Path,
    title: str = "",
    fair_share: float = 0.5,
    x_key: str = "timesteps",
    x_label: str = "training timesteps",
) -> Path:
    """Win rate (with Wilson 95% band) against each bot over training; ``points`` are
    ``{x_key, "opponent", "win_rate", "win_rate_ci95"}`` records (``x_key``: ``"timesteps"``
    for MaskablePPO, ``"iteration"`` for expert iteration)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for opponent in dict.fromkeys(p["opponent"] for p in points):
        series = [p for p in points if p["opponent"] == opponent]
        steps = [p[x_key] for p in series]
        ax.plot(steps, [p["win_rate"] for p in series], marker="o", label=f"vs {opponent}")
        ax.fill_between(
            steps, [p["win_rate_ci95"][0] for p in series], [p["win_rate_ci95"][1] for p in series], alpha=0.2
        )
    ax.axhline(fair_share, color="grey", linestyle="--", label="fair share (1/n; 1/2 in team play)")
    ax.set_ylim(0, 1)
    ax.set_xlabel(x_label)
    ax.set_ylabel("win rate")
    ax.set_title(title or "learning curve")
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
