"""The report of one or two runs: :func:`run` (play and compute), :func:`to_json` and
:func:`markdown`.

A run dict holds the config, the seed, the game count, every figure
(:func:`maya_envs.stats.figures.figures`), a digest of all game records and the digests of two
sample games (what ``tests/test_stats_readme.py`` replays), and under ``"timing"`` the cost
(:func:`maya_envs.stats.figures.timing`). Everything but ``"timing"`` depends only on the config,
the seed and the game count: :func:`to_json` of the same run is byte-identical apart from it,
whatever ``workers`` was.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from maya_envs.games import find_game
from maya_envs.stats.collect import StatsConfig, collect
from maya_envs.stats.figures import figures, timing, win_groups

SCHEMA = "maya_envs.stats"
VERSION = 1


def label(config: StatsConfig) -> str:
    """A short title: ``"maya2012 3p setup=random, heuristic x3"``."""
    options = dict(config.options)
    n = options.pop("num_players", len(config.lineup))
    parts = [f"{config.game} {n}p", *(f"{k}={v}" for k, v in sorted(options.items()))]
    specs = list(dict.fromkeys(config.lineup))
    lineup = f"{specs[0]} x{n}" if len(specs) == 1 else ",".join(config.lineup) + (" (rotated)" if config.rotate else "")
    return " ".join(parts) + ", " + lineup


def sample_games(config: StatsConfig, digests: list[str]) -> dict[str, str]:
    """``{index: digest}`` of game 0 and of the first game without hidden-information probes
    (where there is one): what ``tests/test_stats_readme.py`` replays."""
    indices = sorted({0, min(config.hidden_games, len(digests) - 1)})
    return {str(i): digests[i] for i in indices}


def run(
    config: StatsConfig,
    games: int,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` seeded games of ``config`` and return the run dict (module docstring).

    Raises:
        ValueError: see :func:`maya_envs.stats.collect.collect`.
    """
    start = time.perf_counter()
    records = collect(config, games, seed=seed, workers=workers, progress=progress)
    wall = time.perf_counter() - start
    game = find_game(config.game)
    digests = [r.digest() for r in records]
    return {
        "label": label(config),
        "config": config.to_dict(),
        "seed": seed,
        "games": games,
        "figures": figures(records, game.teams(len(config.lineup)), config.world_samples),
        "digest": hashlib.sha256("".join(digests).encode()).hexdigest()[:16],
        "sample_games": sample_games(config, digests),
        "timing": timing(records, wall),
    }


_INNERMOST = re.compile(r"[\[{][^\[\]{}]*[\]}]")


def to_json(runs: Sequence[dict[str, Any]], command: str = "") -> str:
    """The JSON report: sorted keys, 1-space indent, each innermost list or object (a histogram's
    counts, one bin of a series) on one line, trailing newline."""
    text = json.dumps({"schema": SCHEMA, "version": VERSION, "command": command, "runs": list(runs)},
                      indent=1, sort_keys=True)  # fmt: skip
    return _INNERMOST.sub(lambda m: re.sub(r"\s*\n\s*", " ", m.group(0)), text) + "\n"


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    """A parsed JSON report without its timing fields (what reproducibility compares)."""
    return {**report, "runs": [{k: v for k, v in r.items() if k != "timing"} for r in report["runs"]]}


def pct(share: float) -> str:
    return f"{100 * share:.1f}%"


def ci(rate: dict[str, Any]) -> str:
    """``"52.3% [49.2, 55.4]"``: a share with its Wilson interval, in percent."""
    low, high = rate["ci95"]
    return f"{pct(rate['share'])} [{100 * low:.1f}, {100 * high:.1f}]"


def by_count(rates: dict[str, dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """``rates`` items, most frequent first, ties by name (a JSON round trip sorts the keys)."""
    return sorted(rates.items(), key=lambda item: (-item[1]["count"], item[0]))


def _dist(d: dict[str, Any]) -> str:
    if not d.get("n"):
        return "-"
    return f"{d['mean']:.1f} (median {d['median']:g}, {d['min']:g}-{d['max']:g})"


def _rows(runs: Sequence[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """``(figure, one cell per run)`` rows of the summary table."""
    figs = [r["figures"] for r in runs]
    rows = [
        ("games", [str(f["games"]) for f in figs]),
        ("moves per game", [_dist(f["length"]["moves"]) for f in figs]),
    ]
    for unit in ("rounds", "turns"):
        if all(unit in f["length"] for f in figs):
            rows.append((f"{unit} per game", [_dist(f["length"][unit]) for f in figs]))
    rows.append(("decisions per seat (mean)",
                 [" / ".join(f"{d['mean']:.1f}" for d in f["length"]["decisions_per_seat"]) for f in figs]))  # fmt: skip
    rows.append(("legal moves per decision: mean / median / max",
                 [f"{b['mean']:.1f} / {b['median']:g} / {b['max']}" for b in (f["branching"]["overall"] for f in figs)]))  # fmt: skip
    rows.append(("forced decisions", [pct(f["branching"]["overall"]["forced_share"]) for f in figs]))
    groups = [win_groups(f["balance"]) for f in figs]
    for k, (name, _) in enumerate(groups[0]):
        if all(len(g) == len(groups[0]) and g[k][0] == name for g in groups):  # --compare: the runs' shared rows
            rows.append((f"{name} wins (95% CI)", [ci(g[k][1]) for g in groups]))
    rows.append(("draws (no seat rewarded)", [ci(f["balance"]["draws"]) for f in figs]))
    if all("margin" in f["balance"] for f in figs):
        rows.append((f"margin ({figs[0]['balance']['score_name']}, best - second)",
                     [_dist(f["balance"]["margin"]) for f in figs]))  # fmt: skip
    rows.append(("endings", [", ".join(f"{end} {pct(r['share'])}" for end, r in by_count(f["endings"]["ends"]))
                             for f in figs]))  # fmt: skip
    if all("hidden" in f for f in figs):
        rows.append(("hidden fields faced (mean / max)",
                     [f"{h['fields_mean']:.1f} / {h['fields_max']}" for h in (f["hidden"]["overall"] for f in figs)]))  # fmt: skip
        rows.append(("decisions facing hidden information",
                     [pct(1 - h["share_nothing_hidden"]) for h in (f["hidden"]["overall"] for f in figs)]))  # fmt: skip
        rows.append(("collision estimate of worlds (median; not the information-set size)",
                     [f"{h['worlds_median']:g}" for h in (f["hidden"]["overall"] for f in figs)]))  # fmt: skip
    rows.append(("rules steps/s", [f"{r['timing']['rules_steps_per_s']:,.0f}" for r in runs]))
    rows.append(("decisions/s with these bots", [f"{r['timing']['decisions_per_s']:,.0f}" for r in runs]))
    return rows


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], align: str = "---") -> list[str]:
    return [
        "| " + " | ".join(head) + " |",
        "|" + "|".join([align] * len(head)) + "|",
        *("| " + " | ".join(cells) + " |" for cells in rows),
    ]


def markdown(runs: Sequence[dict[str, Any]], command: str = "", plots: Sequence[str] = ()) -> str:
    """The Markdown report: a summary table (one column per run, side by side with
    ``--compare``), then per run the branching per phase, the moves played, the endings,
    balance details and hidden information, and the plots' file names."""
    lines = ["# maya-stats report", ""]
    if command:
        lines += [f"Command: `{command}`", ""]
    lines += [f"Seed {runs[0]['seed']}; digest of the game records: " + ", ".join(r["digest"] for r in runs), ""]
    lines += _table(["figure", *(r["label"] for r in runs)], [[name, *cells] for name, cells in _rows(runs)])
    for r in runs:
        f = r["figures"]
        lines += ["", f"## {r['label']}", "", "### Branching per phase (legal moves per decision)", ""]
        lines += _table(
            ["phase", "share of decisions", "mean", "median", "p90", "max", "forced"],
            [
                [p, pct(b["share"]), f"{b['mean']:.2f}", f"{b['median']:g}", f"{b['p90']:g}", str(b["max"]),
                 pct(b["forced_share"])]
                for p, b in sorted(f["branching"]["by_phase"].items(), key=lambda item: -item[1]["share"])
            ],  # fmt: skip
        )
        lines += ["", "### Moves played (first word of the notation)", ""]
        lines += _table(["move", "count", "share"],
                        [[k, str(v["count"]), pct(v["share"])] for k, v in by_count(f["branching"]["moves_played"])])  # fmt: skip
        lines += ["", "### Endings", ""]
        lines += _table(["end", "games", "share (95% CI)"],
                        [[e, str(v["count"]), ci(v)] for e, v in by_count(f["endings"]["ends"])])  # fmt: skip
        balance = f["balance"]
        if "agents" in balance:
            lines += ["", "### Wins per lineup spec (every seat it filled)", ""]
            lines += _table(["spec", "seat-games", "wins (95% CI)"],
                            [[s, str(v["of"]), ci(v)] for s, v in balance["agents"].items()])  # fmt: skip
        if "scores" in balance:
            lines += ["", f"### Scores ({balance['score_name']})", ""]
            lines += _table(["seat", "mean", "sd", "median", "min-max"],
                            [[str(s), f"{d['mean']:.2f}", f"{d['sd']:.2f}", f"{d['median']:g}", f"{d['min']:g}-{d['max']:g}"]
                             for s, d in enumerate(balance["scores"])])  # fmt: skip
        if "hidden" in f:
            h = f["hidden"]
            lines += ["", "### Hidden information (acting seat, by the game's determinizer)", "",
                      f"{h['games']} games probed, {h['samples_per_decision']} determinizations per decision. "
                      "Fields: serialized-state fields some determinization changed (a lower bound on the hidden "
                      "items). Collision estimate: C(draws, 2) / coinciding draw pairs, the number of worlds a "
                      "uniform determinizer would draw from (1 when one world; when no two draws coincided, a lower "
                      "bound, C(draws, 2) / 3, 165 for 32 draws). It is not the information-set size: a "
                      "determinizer that is not uniform reads fewer, and the median over decisions reads 1 "
                      "where most decisions hide nothing.", ""]  # fmt: skip
            lines += _table(
                ["phase", "decisions", "hidden fields (mean / max)", "collision estimate (median)", "nothing hidden",
                 "lower bound"],
                [[p, str(v["decisions"]), f"{v['fields_mean']:.1f} / {v['fields_max']}", f"{v['worlds_median']:g}",
                  pct(v["share_nothing_hidden"]), pct(v["share_lower_bound"])]
                 for p, v in {"all": h["overall"], **h["by_phase"]}.items()],  # fmt: skip
            )
        t = r["timing"]
        lines += ["", f"Cost: {t['rules_steps_per_s']:,.0f} rules steps/s, {t['decisions_per_s']:,.0f} decisions/s "
                  f"with these bots (and the hidden-information probes), {t['wall_seconds']} s wall."]  # fmt: skip
    if plots:
        lines += ["", "## Plots", "", *(f"![{p}]({p})" for p in plots)]
    return "\n".join(lines) + "\n"
