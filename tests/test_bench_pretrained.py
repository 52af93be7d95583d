"""``benchmarks/bench_pretrained.py --spec``: a candidate default is timed in the configs it fits,
and a candidate that fits none is reported (exit 2), not left as an empty table."""

from __future__ import annotations

from maya_envs.games import DEFAULT_GAME
from tests.helpers.bench import run_benchmark


def test_a_candidate_is_timed_in_every_config_it_fits(capsys):
    assert run_benchmark("bench_pretrained", ["--games", "1", "--only", DEFAULT_GAME.key, "--spec", "random"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "`random`" in line]
    assert rows and all(float(line.split("|")[4]) >= 0 for line in rows)


def test_a_candidate_that_fits_no_config_is_an_error_naming_why(capsys):
    argv = ["--games", "1", "--only", DEFAULT_GAME.key, "--spec", "az:no_such_network:4"]
    assert run_benchmark("bench_pretrained", argv) == 2
    err = capsys.readouterr().err
    assert "'az:no_such_network:4' fits no config here" in err
    assert "neither a .pt checkpoint nor a shipped network" in err


def test_torch_timing_runs_the_network_by_torch_on_the_same_games(capsys):
    # A tiny search of a shipped network of the default game: the torch run plays the same moves
    # (the frozen copy computes what torch computes), so each row shows 100% of them.
    from maya_envs.pretrained import network_names, pretrained_info

    name = next(name for name in network_names() if pretrained_info(name).game == DEFAULT_GAME.name)
    network = f"az:{name}:2:memo=0"
    argv = ["--games", "1", "--only", DEFAULT_GAME.key, "--spec", network, "random", "--torch"]
    assert run_benchmark("bench_pretrained", argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("| torch ms | torch / frozen | same moves |")
    searched = [line.split("|") for line in lines if f"`{network}`" in line]
    assert searched and all(float(cells[6]) > 0 and cells[8].strip() == "100.0%" for cells in searched)
    bots = [line.split("|") for line in lines if "`random`" in line]  # no network: nothing to time by torch
    assert bots and all(cells[6].strip() == "" for cells in bots)
