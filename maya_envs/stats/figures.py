"""Every figure of a run, computed from its :class:`~maya_envs.stats.collect.GameRecord` list.

:func:`figures` returns a JSON-able dict (no timing: that is :func:`timing`), the same for the
same records in the same order, so a seeded run reproduces it byte for byte. Sections:

* ``length``: moves (decisions) per game, decisions per seat, rounds (or turns), each a
  :func:`distribution`;
* ``branching``: legal actions per decision: overall, per phase (the game serializer's phase
  name), over the course of the game (bins of decision index), and how often each move kind
  (first word of the notation) was played; ``forced_share`` is the share of decisions with one
  legal action;
* ``balance``: wins per seat, per team (games with teams) and per lineup spec (mixed lineups)
  with Wilson 95% intervals (:func:`maya_envs.evaluation.stats.wilson_interval`); a seat wins
  when its final reward is positive, a game is a draw when no seat's is; score distributions
  per seat (``final_info``'s first per-seat list) and the margin (best minus second best);
* ``endings``: ``final_info["end"]`` counts and shares;
* ``hidden``: where probed, hidden fields and world estimates (:func:`world_estimate`),
  overall, per phase and over the game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from maya_envs.evaluation.stats import wilson_interval
from maya_envs.stats.collect import GameRecord

#: Decision-index bins of the "over the game" series (at most this many).
MAX_BINS = 60
#: Histogram bins of a distribution (at most this many; a whole number of integers wide for integer values).
HIST_BINS = 30


def _r(value: float, digits: int = 4) -> float:
    """``value`` rounded (JSON figures stay short and stable)."""
    return round(float(value), digits)


def distribution(values: Sequence[float]) -> dict[str, Any]:
    """``n, mean, sd, min, p10, median, p90, max`` and a histogram (``edges``, ``counts``) of
    ``values`` (``{"n": 0}`` when empty). ``sd`` is the population standard deviation. Integer
    values get at most :data:`HIST_BINS` bins of the same whole number of integers each (edges at
    half-integers); other values :data:`HIST_BINS` equal bins from min to max."""
    if len(values) == 0:
        return {"n": 0}
    a = np.asarray(values, dtype=np.float64)
    low, high = float(a.min()), float(a.max())
    if np.all(a == np.round(a)):
        # integer counts: bins of a whole number of integers each, edges at half-integers, so no
        # bin holds one integer more than its neighbour (bins of width 3.3 over integers alternate
        # 3 and 4 of them: a comb that is not in the data)
        width = math.ceil((high - low + 1) / HIST_BINS)
        edges = low - 0.5 + width * np.arange(math.ceil((high - low + 1) / width) + 1)
    else:
        edges = np.linspace(low, high if high > low else low + 1, HIST_BINS + 1)
    counts, edges = np.histogram(a, bins=edges)
    return {
        "n": int(a.size),
        "mean": _r(a.mean()),
        "sd": _r(a.std()),
        "min": _r(low),
        "p10": _r(np.percentile(a, 10)),
        "median": _r(np.median(a)),
        "p90": _r(np.percentile(a, 90)),
        "max": _r(high),
        "histogram": {"edges": [_r(e) for e in edges], "counts": [int(c) for c in counts]},
    }


def rate(successes: int, trials: int) -> dict[str, Any]:
    """``{count, of, share, ci95}``: a proportion with its Wilson 95% interval."""
    low, high = wilson_interval(successes, trials) if trials else (0.0, 1.0)
    return {
        "count": int(successes),
        "of": int(trials),
        "share": _r(successes / trials if trials else 0.0),
        "ci95": [_r(low), _r(high)],
    }


def branching_summary(counts: Sequence[int]) -> dict[str, Any]:
    """``decisions, mean, median, max, forced_share`` of legal-action counts."""
    if len(counts) == 0:
        return {"decisions": 0}
    a = np.asarray(counts)
    return {
        "decisions": int(a.size),
        "mean": _r(a.mean()),
        "median": _r(np.median(a)),
        "p90": _r(np.percentile(a, 90)),
        "max": int(a.max()),
        "forced_share": _r(np.mean(a == 1)),
    }


def world_estimate(distinct: int, pairs: int, samples: int) -> tuple[float, str]:
    """An estimate of the number of worlds a seat's determinizer draws from, from ``samples``
    draws with ``distinct`` different worlds and ``pairs`` coinciding draw pairs. Not the size of
    the seat's information set: it saturates at ``C(samples, 2) / 3`` (165 for 32 draws), and a
    determinizer that is not uniform reads below its support.

    Returns ``(worlds, how)``: ``how = "exact"`` when one world was drawn (nothing hidden);
    ``"collisions"``: ``C(samples, 2) / pairs``, the inverse collision rate, unbiased for a
    determinizer that draws uniformly among ``W`` worlds (each pair coincides with probability
    ``1/W``), and at least ``distinct``; ``"lower_bound"`` when no two draws coincided: then
    ``W`` is likely above ``C(samples, 2) / 3`` (with ``W`` smaller no collision has probability
    below 5%), which is returned. A determinizer that is not uniform (Yaxha's replayed cube
    placements) gives fewer collisions' worth: an effective number of worlds, below its support.
    """
    if distinct <= 1:
        return 1.0, "exact"
    total = samples * (samples - 1) / 2
    if pairs == 0:
        return max(float(distinct), total / 3), "lower_bound"
    return max(float(distinct), total / pairs), "collisions"


def _bins(length: int) -> int:
    return max(1, math.ceil(length / MAX_BINS))


def _over_game(series: list[list[float]], width: int) -> list[dict[str, Any]]:
    """Per bin of ``width`` decision indices: how many decisions, mean, quartiles, forced share."""
    out = []
    for start in range(0, max((len(s) for s in series), default=0), width):
        values = [v for s in series for v in s[start : start + width]]
        if not values:
            continue
        a = np.asarray(values, dtype=np.float64)
        out.append(
            {
                "start": start,
                "end": start + width,
                "decisions": int(a.size),
                "games": sum(1 for s in series if len(s) > start),
                "mean": _r(a.mean()),
                "p25": _r(np.percentile(a, 25)),
                "median": _r(np.median(a)),
                "p75": _r(np.percentile(a, 75)),
                "forced_share": _r(np.mean(a == 1)),
            }
        )
    return out


def _by_phase(records: Sequence[GameRecord]) -> dict[str, dict[str, Any]]:
    grouped: dict[str, list[int]] = {}
    for record in records:
        for phase, count in zip(record.phase, record.legal, strict=True):
            grouped.setdefault(phase, []).append(count)
    total = sum(len(v) for v in grouped.values())
    return {
        phase: {"share": _r(len(values) / total), **branching_summary(values)} for phase, values in grouped.items()
    }


def _balance(records: Sequence[GameRecord], teams: Sequence[Sequence[int]]) -> dict[str, Any]:
    n = len(records[0].returns)
    games = len(records)
    wins = [sum(1 for r in records if r.returns[seat] > 0) for seat in range(n)]
    draws = sum(1 for r in records if not any(v > 0 for v in r.returns))
    out: dict[str, Any] = {
        "games": games,
        "seats": [rate(wins[seat], games) for seat in range(n)],
        "draws": rate(draws, games),
        "fair_share": _r(sum(wins) / (games * n)),
    }
    if teams:
        out["teams"] = [
            {"seats": list(team), **rate(sum(1 for r in records if r.returns[team[0]] > 0), games)} for team in teams
        ]
    specs = list(dict.fromkeys(spec for r in records for spec in r.seats))
    if len(specs) > 1:
        out["agents"] = {
            spec: rate(
                sum(1 for r in records for seat, s in enumerate(r.seats) if s == spec and r.returns[seat] > 0),
                sum(1 for r in records for s in r.seats if s == spec),
            )
            for spec in specs
        }
    scored = [r.scores for r in records if r.scores is not None]
    if scored:
        out["score_name"] = next(r.score_name for r in records if r.scores is not None)
        out["scores"] = [distribution([s[seat] for s in scored]) for seat in range(n)]
        if n >= 2:
            out["margin"] = distribution([sorted(s)[-1] - sorted(s)[-2] for s in scored])
    return out


def win_groups(balance: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """``(name, rate)`` of every win figure of a run's ``balance``, the informative first: per
    lineup spec where the lineup is mixed (with ``rotate`` every seat's rate tends to the fair
    share by construction, so the specs' rates are what differ), then per seat, then per team."""
    groups = [(f"{spec} (all seats)", r) for spec, r in balance.get("agents", {}).items()]
    groups += [(f"seat {i}", r) for i, r in enumerate(balance["seats"])]
    groups += [("team " + "+".join(map(str, t["seats"])), t) for t in balance.get("teams", [])]
    return groups


def _endings(records: Sequence[GameRecord]) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for record in records:
        counts[record.end] = counts.get(record.end, 0) + 1
    order = sorted(counts, key=lambda end: (-counts[end], end))
    return {
        "ends": {end: rate(counts[end], len(records)) for end in order},
        "truncated": rate(sum(r.truncated for r in records), len(records)),
    }


def _hidden(records: Sequence[GameRecord], samples: int) -> dict[str, Any] | None:
    probed = [r for r in records if r.hidden]
    if not probed:
        return None
    rows = []  # (phase, index, fields, log10 worlds, how)
    for record in probed:
        for index, fields, distinct, pairs in record.hidden:
            worlds, how = world_estimate(distinct, pairs, samples)
            rows.append((record.phase[index], index, fields, math.log10(worlds), how))

    def summary(group: list[tuple]) -> dict[str, Any]:
        fields = np.asarray([g[2] for g in group], dtype=np.float64)
        logs = np.asarray([g[3] for g in group])
        return {
            "decisions": len(group),
            "fields_mean": _r(fields.mean()),
            "fields_max": int(fields.max()),
            "worlds_median": _r(10 ** np.median(logs), 2),
            "log10_worlds_mean": _r(logs.mean()),
            "share_nothing_hidden": _r(np.mean([g[4] == "exact" for g in group])),
            "share_lower_bound": _r(np.mean([g[4] == "lower_bound" for g in group])),
        }

    phases: dict[str, list[tuple]] = {}
    for row in rows:
        phases.setdefault(row[0], []).append(row)
    width = _bins(max(r.moves for r in probed))
    series = []
    for start in range(0, max(r.moves for r in probed), width):
        group = [row for row in rows if start <= row[1] < start + width]
        if group:
            series.append({"start": start, "end": start + width, **summary(group)})
    return {
        "games": len(probed),
        "samples_per_decision": samples,
        "overall": summary(rows),
        "by_phase": {phase: summary(group) for phase, group in phases.items()},
        "over_game": series,
    }


def figures(records: Sequence[GameRecord], teams: Sequence[Sequence[int]] = (), samples: int = 32) -> dict[str, Any]:
    """Every figure of a run (module docstring) from its records, in game order.

    Args:
        teams: the game's teams at this player count (:meth:`maya_envs.games.Game.teams`).
        samples: the determinizations per probed decision (``StatsConfig.world_samples``).

    Raises:
        ValueError: no records.
    """
    if not records:
        raise ValueError("figures need at least one game record")
    n = len(records[0].returns)
    length: dict[str, Any] = {
        "moves": distribution([r.moves for r in records]),
        "decisions_per_seat": [distribution([r.actor.count(seat) for r in records]) for seat in range(n)],
    }
    if all(r.rounds is not None for r in records):
        length["rounds"] = distribution([r.rounds for r in records])
    if all(r.turns is not None for r in records):
        length["turns"] = distribution([r.turns for r in records])
    all_counts = [c for r in records for c in r.legal]
    kinds: dict[str, int] = {}
    for record in records:
        for kind in record.kind:
            kinds[kind] = kinds.get(kind, 0) + 1
    branching = {
        "overall": branching_summary(all_counts),
        "per_game_mean": distribution([float(np.mean(r.legal)) for r in records if r.legal]),
        "by_phase": _by_phase(records),
        "over_game": _over_game([r.legal for r in records], _bins(max(r.moves for r in records))),
        "moves_played": {k: rate(kinds[k], len(all_counts)) for k in sorted(kinds, key=lambda k: (-kinds[k], k))},
    }
    out = {
        "games": len(records),
        "length": length,
        "branching": branching,
        "balance": _balance(records, teams),
        "endings": _endings(records),
    }
    hidden = _hidden(records, samples)
    if hidden is not None:
        out["hidden"] = hidden
    return out


def timing(records: Sequence[GameRecord], wall_seconds: float) -> dict[str, Any]:
    """Cost of the run: rules steps per second (time inside the rules: ``initial_state``,
    ``current_player``, ``legal_actions``, ``apply_action`` and the end checks), decisions per
    second with the lineup's bots and the probes, games per second of wall-clock time."""
    steps = sum(r.rules_steps for r in records)
    rules_seconds = sum(r.rules_seconds for r in records)
    game_seconds = sum(r.seconds for r in records)
    return {
        "rules_steps_per_s": _r(steps / rules_seconds, 1) if rules_seconds else None,
        "decisions_per_s": _r(steps / game_seconds, 1) if game_seconds else None,
        "games_per_s_wall": _r(len(records) / wall_seconds, 2) if wall_seconds else None,
        "wall_seconds": _r(wall_seconds, 2),
    }
