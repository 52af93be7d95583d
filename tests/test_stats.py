"""maya-stats: figures on hand-checked cases, reproducibility, the CLI's errors and outputs."""

from __future__ import annotations

import json
import math

import pytest

from maya_envs.evaluation.stats import wilson_interval
from maya_envs.games import DEFAULT_GAME, GAMES
from maya_envs.stats.cli import main
from maya_envs.stats.collect import GameRecord, StatsConfig, Table, collect
from maya_envs.stats.figures import branching_summary, distribution, figures, world_estimate
from maya_envs.stats.report import run, to_json, without_timing
from tests.conformance import default_variant, hidden_at_fewest

#: The first game whose seats play in teams at some player count, and that count.
TEAM_GAME, TEAM_N = next((g, n) for g in GAMES.values() for n in g.player_counts if g.teams(n))
#: A game with face-down cards at its fewest seats (its games are probed for hidden information).
HIDDEN = hidden_at_fewest()
HIDDEN_N = HIDDEN.player_counts[0]
VARIANT = DEFAULT_GAME.variant_option


def near(value):
    """Figures are rounded to 4 decimals."""
    return pytest.approx(value, abs=1e-4)


def record(index, legal, actor, returns, phase=None, end="last_round", seats=("random", "random")):
    """A hand-made record: only the fields the figures read."""
    return GameRecord(
        index=index,
        seats=tuple(seats),
        legal=list(legal),
        actor=list(actor),
        phase=list(phase or ["play"] * len(legal)),
        kind=["move"] * len(legal),
        returns=list(returns),
        scores=None,
        score_name=None,
        end=end,
        truncated=False,
        rounds=None,
        turns=None,
    )


def test_forced_decisions_give_branching_one_and_forced_share_one():
    records = [record(0, [1, 1, 1], [0, 1, 0], [1.0, -1.0]), record(1, [1, 1], [1, 0], [-1.0, 1.0])]
    b = figures(records)["branching"]
    assert b["overall"] == {"decisions": 5, "mean": 1.0, "median": 1.0, "p90": 1.0, "max": 1, "forced_share": 1.0}
    assert b["by_phase"]["play"]["forced_share"] == 1.0 and b["by_phase"]["play"]["share"] == 1.0
    assert all(bin_["mean"] == 1.0 and bin_["forced_share"] == 1.0 for bin_ in b["over_game"])


def test_branching_over_the_game_and_per_phase_by_hand():
    records = [
        record(0, [4, 1, 2], [0, 1, 0], [1.0, -1.0], phase=["a", "b", "b"]),
        record(1, [2, 3], [0, 1], [1.0, -1.0], phase=["a", "b"]),
    ]
    f = figures(records)
    b = f["branching"]
    assert b["overall"]["mean"] == near(12 / 5) and b["overall"]["median"] == 2.0
    assert b["overall"]["forced_share"] == near(1 / 5)
    assert b["by_phase"]["a"]["mean"] == 3.0 and b["by_phase"]["a"]["share"] == near(2 / 5)
    assert b["by_phase"]["b"]["mean"] == 2.0 and b["by_phase"]["b"]["forced_share"] == near(1 / 3)
    assert [(x["start"], x["decisions"], x["games"], x["mean"]) for x in b["over_game"]] == [
        (0, 2, 2, 3.0),
        (1, 2, 2, 2.0),
        (2, 1, 1, 2.0),
    ]
    assert f["length"]["moves"]["mean"] == 2.5
    assert [d["mean"] for d in f["length"]["decisions_per_seat"]] == [1.5, 1.0]


def test_symmetric_two_seat_lineup_balance_and_wilson_intervals_match_evaluation_stats():
    # 10 games: seat 0 wins 6, seat 1 wins 3, one draw
    returns = [[1.0, -1.0]] * 6 + [[-1.0, 1.0]] * 3 + [[0.0, 0.0]]
    records = [record(i, [2], [0], r, end="done" if i < 9 else "max_turns") for i, r in enumerate(returns)]
    balance = figures(records)["balance"]
    assert [s["count"] for s in balance["seats"]] == [6, 3]
    assert balance["seats"][0]["ci95"] == [near(x) for x in wilson_interval(6, 10)]
    assert balance["seats"][1]["ci95"] == [near(x) for x in wilson_interval(3, 10)]
    assert balance["draws"]["count"] == 1 and balance["draws"]["ci95"][0] == near(wilson_interval(1, 10)[0])
    assert balance["fair_share"] == near(9 / 20)
    assert "agents" not in balance  # one spec in every seat
    ends = figures(records)["endings"]["ends"]
    assert list(ends) == ["done", "max_turns"] and ends["done"]["count"] == 9


def test_mixed_rotated_lineup_gives_every_spec_every_seat_and_team_results():
    lineup = ("heuristic",) + ("random",) * (TEAM_N - 1)
    config = StatsConfig(TEAM_GAME.key, {"num_players": TEAM_N}, lineup, rotate=True, hidden_games=0)
    records = collect(config, 2 * TEAM_N, seed=1)
    assert [r.seats.index("heuristic") for r in records] == list(range(TEAM_N)) * 2
    balance = figures(records, TEAM_GAME.teams(TEAM_N))["balance"]
    assert balance["agents"]["heuristic"]["of"] == 2 * TEAM_N
    assert balance["agents"]["random"]["of"] == 2 * TEAM_N * (TEAM_N - 1)
    assert [t["seats"] for t in balance["teams"]] == [list(team) for team in TEAM_GAME.teams(TEAM_N)]
    assert [t["count"] for t in balance["teams"]] == [balance["seats"][0]["count"], balance["seats"][1]["count"]]


def test_world_estimate_cases():
    assert world_estimate(1, 496, 32) == (1.0, "exact")
    assert world_estimate(32, 0, 32) == (near(496 / 3), "lower_bound")
    assert world_estimate(20, 8, 32) == (62.0, "collisions")
    assert world_estimate(30, 496, 32)[0] == 30.0  # never below the worlds actually drawn


def test_hidden_figures_are_recorded_for_probed_games_only():
    lineup = ("random",) * HIDDEN_N
    config = StatsConfig(HIDDEN.key, {"num_players": HIDDEN_N}, lineup, hidden_games=1, world_samples=4, probe_every=10)
    records = collect(config, 2, seed=0)
    assert records[0].hidden and not records[1].hidden
    assert [h[0] for h in records[0].hidden] == list(range(0, records[0].moves, 10))
    hidden = figures(records, samples=4)["hidden"]
    assert hidden["games"] == 1 and hidden["overall"]["decisions"] == len(records[0].hidden)


def test_parallel_workers_give_the_same_records_as_serial():
    lineup = ("heuristic",) + ("random",) * (HIDDEN_N - 1)
    config = StatsConfig(HIDDEN.key, {"num_players": HIDDEN_N}, lineup, rotate=True,
                         hidden_games=2, world_samples=4, probe_every=8)  # fmt: skip
    serial = collect(config, 7, seed=3)
    parallel = collect(config, 7, seed=3, workers=2)
    assert [r.digest() for r in serial] == [r.digest() for r in parallel]
    assert [r.index for r in parallel] == list(range(7))


def test_same_seed_same_json_and_another_seed_differs():
    options = {"num_players": HIDDEN_N, HIDDEN.variant_option: list(HIDDEN.hook("variants"))[-1]}
    config = StatsConfig(HIDDEN.key, options, ("random",) * HIDDEN_N, hidden_games=1,
                         world_samples=4, probe_every=10)  # fmt: skip
    a, b, c = (json.loads(to_json([run(config, 4, seed=s)])) for s in (2, 2, 3))
    assert a["runs"][0]["timing"].keys() == {"rules_steps_per_s", "decisions_per_s", "games_per_s_wall", "wall_seconds"}
    assert json.dumps(without_timing(a), sort_keys=True) == json.dumps(without_timing(b), sort_keys=True)
    assert a["runs"][0]["digest"] != c["runs"][0]["digest"]


def test_distribution_and_branching_summary_by_hand():
    d = distribution([1, 2, 3, 4])
    assert (d["n"], d["mean"], d["median"], d["min"], d["max"]) == (4, 2.5, 2.5, 1.0, 4.0)
    assert d["sd"] == near(math.sqrt(1.25)) and d["histogram"]["counts"] == [1, 1, 1, 1]
    assert distribution([]) == {"n": 0}
    assert branching_summary([1, 5])["forced_share"] == 0.5


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--option", "colour=red"], f"unknown {DEFAULT_GAME.title} option(s) ['colour']"),
        (["--players", "7"], "num_players=7 is not allowed"),
        (["--lineup", "wizard"], "unknown bot 'wizard'"),
        (["--lineup", "random,random,random"], "has 3 specs"),
        (["--lineup", "human"], "'human' is not a lineup spec"),
        (["--games", "0"], "must be >= 1"),
        (["--world-samples", "1"], "must be >= 2"),
        (["--players", "2", "--option", "num_players=3"], "disagree"),
        (["--compare", f"{VARIANT}=sideways"], f"{VARIANT}='sideways' is not allowed"),
        (["--results", "stats.json"], "--results 'stats.json' is read only with --readme or --check-readme"),
    ],
)
def test_cli_bad_input_is_a_clear_error(argv, message, tmp_path, capsys):
    games = [] if "--games" in argv else ["--games", "2"]
    with pytest.raises(SystemExit) as exit_:
        main([*argv, *games, "--out", str(tmp_path), "--no-plots"])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "report.json").exists()


def test_cli_writes_report_json_and_plots_with_a_comparison(tmp_path):
    out = tmp_path / "stats"
    key, option = DEFAULT_GAME.key, DEFAULT_GAME.variant_option
    other = next(v for v in DEFAULT_GAME.hook("variants") if v != default_variant(DEFAULT_GAME, 2))
    code = main(["--game", key, "--players", "2", "--games", "4", "--compare", f"{option}={other}",
                 "--out", str(out)])  # fmt: skip
    assert code == 0
    report = json.loads((out / "report.json").read_text())
    labels = [r["label"] for r in report["runs"]]
    assert labels == [f"{key} 2p, random x2", f"{key} 2p {option}={other}, random x2"]
    assert report["runs"][1]["config"]["options"][option] == other
    text = (out / "report.md").read_text()
    assert f"| figure | {labels[0]} | {labels[1]} |" in text
    for name in ("branching.png", "length.png", "seats.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table_checks_probe_settings():
    with pytest.raises(ValueError, match="probe_every=0"):
        Table(StatsConfig(DEFAULT_GAME.key, {"num_players": 2}, ("random", "random"), probe_every=0))




@pytest.mark.parametrize("values", [list(range(100)), list(range(7, 200, 3)), [0, 45, 45, 301], [5] * 3])
def test_integer_histograms_have_bins_of_a_whole_number_of_integers(values):
    """No comb in length.png: each bin spans the same whole number of integers, edges at
    half-integers (bins 3.3 wide over 0..99 held 3 and 4 integers in turn)."""
    hist = distribution(values)["histogram"]
    edges = hist["edges"]
    widths = {round(b - a, 6) for a, b in zip(edges, edges[1:], strict=False)}
    assert len(widths) == 1 and float(widths.pop()).is_integer()
    assert all((e + 0.5).is_integer() for e in edges)
    assert len(hist["counts"]) <= 30 and sum(hist["counts"]) == len(values)
    assert edges[0] < min(values) and edges[-1] > max(values)
    if values == list(range(100)):
        assert len(set(hist["counts"])) == 1  # 25 bins of 4 integers, 4 games each


def test_a_rotated_mixed_lineup_leads_the_summary_and_seats_plot_with_wins_per_spec(tmp_path):
    from maya_envs.stats.figures import win_groups
    from maya_envs.stats.report import markdown

    lineup = ("heuristic",) + ("random",) * (TEAM_N - 1)
    config = StatsConfig(TEAM_GAME.key, {"num_players": TEAM_N}, lineup, rotate=True, hidden_games=0)
    result = run(config, TEAM_N, seed=1)
    balance = result["figures"]["balance"]
    groups = win_groups(balance)
    assert [name for name, _ in groups[:2]] == ["heuristic (all seats)", "random (all seats)"]
    assert groups[0][1] == balance["agents"]["heuristic"] and groups[2] == ("seat 0", balance["seats"][0])
    assert [name for name, _ in groups[-len(balance["teams"]) :]] == [
        "team " + "+".join(map(str, team)) for team in TEAM_GAME.teams(TEAM_N)
    ]
    summary = markdown([result]).split("\n## ")[0]
    assert "| heuristic (all seats) wins (95% CI) |" in summary and "| seat 0 wins (95% CI) |" in summary
    assert summary.index("heuristic (all seats) wins") < summary.index("seat 0 wins")
    one_spec = StatsConfig(TEAM_GAME.key, {"num_players": TEAM_N}, ("random",) * TEAM_N, hidden_games=0)
    assert [name for name, _ in win_groups(run(one_spec, 1)["figures"]["balance"])][0] == "seat 0"


def test_the_hidden_information_rows_say_what_they_measure():
    from maya_envs.stats.report import markdown

    lineup = ("random",) * HIDDEN_N
    config = StatsConfig(HIDDEN.key, {"num_players": HIDDEN_N}, lineup, hidden_games=1, world_samples=4, probe_every=10)
    text = markdown([run(config, 1)])
    assert "| decisions facing hidden information |" in text
    assert "collision estimate of worlds (median; not the information-set size)" in text
    assert "consistent worlds" not in text
