"""``python -m training.exit.match``: seat-rotated network matches (raw and with guided search)
against bots, the measurement behind the README's expert-iteration rows."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from maya_envs.bots.guided import GuidedConfig
from maya_envs.games import find_game
from tests.conformance import shipped_network
from training.exit.gating import score_match
from training.exit.match import main, match_search, measure, pair_lineups

TWO_SEATS, _ = shipped_network(lambda info: info.num_players == 2 and info.leaf_value == "hook")
"""A shipped two-seat network whose registry entry records the hook leaf (no teams at two seats)."""
TEAMS, _ = shipped_network(lambda info: bool(find_game(info.game).teams(info.num_players)))
"""A shipped network of a game with teams at its size (``--pair``)."""


def test_pair_lineups_seat_the_network_as_the_team_of_seat_g_mod_n():
    teams = ((0, 2), (1, 3))
    lineups = pair_lineups("net", "bot", 4, teams)
    assert lineups == [
        ["net", "bot", "net", "bot"],
        ["bot", "net", "bot", "net"],
        ["net", "bot", "net", "bot"],
        ["bot", "net", "bot", "net"],
    ]
    # score_match reads seat g % n, which is always one of the network's seats
    values = np.array([[1, -1, 1, -1], [1, -1, 1, -1], [0, 0, 0, 0], [-1, 1, -1, 1]], float)
    match = score_match("bot", values, 0.5)
    assert (match.wins, match.draws, match.games) == (2, 1, 4)


def test_pair_needs_a_team_game():
    with pytest.raises(ValueError, match="--pair needs a team game"):
        pair_lineups("net", "bot", 2, ())


def test_a_shipped_network_raw_and_with_search_is_seeded_and_counted():
    rows = measure(TWO_SEATS, ["random"], games=4, simulations=(0, 2), seed=3)
    assert [(r["simulations"], r["opponent"], r["games"], r["fair_share"]) for r in rows] == [
        (0, "random", 4, 0.5),
        (2, "random", 4, 0.5),
    ]
    for r in rows:
        assert 0 <= r["wins"] + r["draws"] <= 4
        low, high = r["win_rate_ci95"]
        assert low <= r["win_rate"] <= high
        # two conventions: draws as half a win (the gate's), wins alone (MatchResult's)
        assert r["win_rate"] == (r["wins"] + 0.5 * r["draws"]) / 4 and r["wins_only_rate"] == r["wins"] / 4
        assert r["win_rate_convention"] == "draws_half"  # the row says which
    again = measure(TWO_SEATS, ["random"], games=4, simulations=(0, 2), seed=3)
    assert [(r["wins"], r["draws"]) for r in again] == [(r["wins"], r["draws"]) for r in rows]
    # the search's leaf: the one the network records (its registry entry: hook), or --leaf
    assert [r["leaf"] for r in rows] == [None, "hook"]
    (mixed,) = measure(TWO_SEATS, ["random"], games=2, simulations=(2,), seed=3, leaf="mix")
    assert mixed["leaf"] == "mix"


def test_search_options_are_the_az_options_of_the_match_search():
    assert match_search(8, "hook", ("m=4", "memo=100", "c_scale=0.3")) == GuidedConfig(
        8, max_considered=4, gumbel_scale=0.0, c_scale=0.3, leaf="hook", memo=100
    )
    assert match_search(8, None) == GuidedConfig(8, gumbel_scale=0.0)  # what az:<network>:8 plays
    (row,) = measure(TWO_SEATS, ["random"], games=2, simulations=(2,), seed=3, search_options=("m=1",))
    assert row["search"] == "m=1"
    with pytest.raises(ValueError, match="give the leaf value with --leaf"):
        match_search(8, "hook", ("leaf=net",))


def test_the_cli_prints_the_table_and_writes_json(tmp_path, capsys):
    out = tmp_path / "rows.json"
    assert main([TEAMS, "--pair", "--games", "4", "--opponents", "random", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"| {TEAMS} (pair) | raw | random | 4 |" in printed and "wins only" in printed
    (row,) = json.loads(out.read_text())
    assert row["pair"] and row["games"] == 4 and row["fair_share"] == 0.5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([TWO_SEATS, "--opponents", "strongest"], "unknown bot 'strongest'"),
        ([TWO_SEATS, "--games", "0"], r"games=0; allowed: an int >= 1"),
        ([TWO_SEATS, "--simulations", "-1"], r"simulations=\[-1\]; allowed: ints >= 0"),
        ([TWO_SEATS, "--pair"], "--pair needs a team game"),
        (["no_such_network"], "neither a .pt checkpoint nor a shipped network"),
        ([TWO_SEATS, "--search", "m=0"], "bad value '0' for 'm'"),
    ],
)
def test_bad_arguments_are_clear_errors(args, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    assert re.search(message, capsys.readouterr().err)
