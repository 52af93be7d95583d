"""The arena: seat rotation, statistics and ratings against hand-computed values, agent specs,
and the ``maya-arena`` command line."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from maya_envs.bot_kinds import BOT_NAMES
from maya_envs.evaluation import play_arena, resolve_agent, seating_plan, wilson_interval
from maya_envs.evaluation.ratings import EloTable, OpenSkillTable, elo_expected
from maya_envs.games import DEFAULT_GAME
from tests.conformance import first_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("agents", "players"), [(2, 2), (3, 2), (3, 3), (2, 3), (2, 4), (4, 4), (5, 3), (1, 4)])
@pytest.mark.parametrize("design", ["latin", "permutations"])
def test_every_agent_plays_every_seat_equally_often_in_a_block(agents, players, design):
    plan = seating_plan(agents, players, design)
    for agent in range(agents):
        per_seat = [sum(table[seat] == agent for table in plan) for seat in range(players)]
        assert len(set(per_seat)) == 1 and per_seat[0] > 0, (agent, per_seat)
    if agents >= players:  # every agent appears in the same number of games, never twice in one
        appearances = Counter(a for table in plan for a in table)
        assert len(set(appearances.values())) == 1
        assert all(len(set(table)) == players for table in plan)


def test_latin_block_sizes_and_a_bad_design():
    assert seating_plan(2, 2) == [(0, 1), (1, 0)]
    assert seating_plan(2, 4) == [(0, 1, 0, 1), (1, 0, 1, 0), (0, 1, 0, 1), (1, 0, 1, 0)]
    assert len(seating_plan(4, 3)) == 4 * 3 and len(seating_plan(3, 3, "permutations")) == 6
    with pytest.raises(ValueError, match=r"design='swiss'; allowed: latin, permutations"):
        seating_plan(2, 2, "swiss")


def test_arena_seat_counts_are_equal_and_outcomes_add_up():
    game = first_game("three players", lambda g: 3 in g.player_counts)
    agents = {"r": "random", "h": "heuristic", "r2": "random"}
    result = play_arena(lambda: game.make_aec_env(num_players=3), agents, 6, 1)
    assert result.block_size == 3 and result.balanced
    for stats in result.agents:
        assert stats.games_per_seat == [2, 2, 2]
        assert stats.wins + stats.draws + stats.losses == stats.games == 6
        assert stats.illegal_actions == 0
    assert sum(s.wins for s in result.agents) >= 6  # somebody wins every game (ties: several)
    data = json.loads(json.dumps(result.to_dict()))
    wins = sum(a["wins"] for a in data["agents"])
    assert data["fair_share"] == pytest.approx(wins / 18) and data["fair_share"] >= 1 / 3 and data["elo"] is None
    assert set(data["openskill"]) == {"r", "h", "r2"}


def test_two_player_arena_has_elo_and_a_head_to_head_table():
    game = first_game("two players", lambda g: 2 in g.player_counts)
    result = play_arena(lambda: game.make_aec_env(num_players=2), {"h": "heuristic", "r": "random"}, 4, 0)
    h, r = result.agents
    assert h.games_per_seat == [2, 2] and h.wins == 4 and r.losses == 4  # heuristic beats random
    assert result.head_to_head["h"]["r"] == [4, 0, 0] and result.head_to_head["r"]["h"] == [0, 0, 4]
    assert result.elo["h"] > 1500 > result.elo["r"]
    assert result.elo["h"] + result.elo["r"] == pytest.approx(3000)
    assert "| h | 4 | 4 | 0 | 0 | 100.0% |" in result.markdown() and result.fair_share == 0.5


def test_fair_share_is_one_half_in_the_four_player_team_game():
    game = first_game("teams of two at four players", lambda g: 4 in g.player_counts and g.teams(4))
    assert all(len(team) == 2 for team in game.teams(4))
    result = play_arena(lambda: game.make_aec_env(num_players=4), {"h": "heuristic", "r": "random"}, 4, 2)
    assert result.fair_share <= 0.5  # two of four seats win every game, none when the teams tie
    assert all(a.wins % 2 == 0 for a in result.agents)  # partners (the same agent here) win together


def test_wilson_interval_hand_computed():
    # 30 of 40: p = 0.75, z^2 = 3.8415; centre (0.75 + 0.048019) / 1.096037 = 0.728087,
    # half 1.96 * sqrt(0.75 * 0.25 / 40 + 3.8415 / 6400) / 1.096037 = 0.130037
    low, high = wilson_interval(30, 40)
    assert low == pytest.approx(0.5981, abs=1e-4) and high == pytest.approx(0.8581, abs=1e-4)


def test_elo_updates_hand_computed():
    table = EloTable(["a", "b"], start=1500, k=16)
    table.update("a", "b", 1.0)  # expected 0.5: +-8
    assert table.ratings == {"a": 1508.0, "b": 1492.0}
    table.update("b", "a", 1.0)  # b expected 1 / (1 + 10 ** (16 / 400)) = 0.476991
    assert table.ratings["b"] == pytest.approx(1492 + 16 * (1 - 0.476991), abs=1e-4)
    assert table.ratings["a"] == pytest.approx(1508 - 16 * (1 - 0.476991), abs=1e-4)
    assert elo_expected(1900, 1500) == pytest.approx(1 / 1.1)  # 1 / (1 + 10 ** (-400 / 400))
    with pytest.raises(ValueError, match=r"score_a must be in \[0, 1\], got 2"):
        table.update("a", "b", 2)


def test_openskill_plackett_luce_update_hand_computed():
    # Two fresh players (mu 25, sigma 25/3, beta 25/6, tau 25/300), the first wins.
    # sigma'^2 = sigma^2 + tau^2; c = sqrt(2 (sigma'^2 + beta^2)); p = 1/2 each;
    # mu_winner = 25 + sigma'^2 / c * (1 - 1/2); mu_loser = 25 - sigma'^2 / c * 1/2;
    # delta = (sigma' / c) * sigma'^2 / c^2 * p (1 - p); sigma_new = sigma' sqrt(1 - delta).
    s2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * (s2 + (25 / 6) ** 2))
    delta = math.sqrt(s2) / c * s2 / c**2 * 0.25
    table = OpenSkillTable(["w", "l"])
    table.update(["w", "l"], [1.0, -1.0])
    ratings = table.to_dict()
    assert ratings["w"]["mu"] == pytest.approx(25 + s2 / c / 2, abs=1e-9)
    assert ratings["l"]["mu"] == pytest.approx(25 - s2 / c / 2, abs=1e-9)
    for name in "wl":
        assert ratings[name]["sigma"] == pytest.approx(math.sqrt(s2 * (1 - delta)), abs=1e-9)
        assert ratings[name]["ordinal"] == pytest.approx(ratings[name]["mu"] - 3 * ratings[name]["sigma"])


def test_openskill_ties_and_an_agent_in_two_seats():
    table = OpenSkillTable(["a", "b"])
    table.update(["a", "b", "a", "b"], [1.0, -1.0, 1.0, -1.0])  # team game: partners tie
    ratings = table.to_dict()
    assert ratings["a"]["mu"] > 25 > ratings["b"]["mu"]
    before = table.to_dict()
    table.update(["a", "a"], [1.0, -1.0])  # a mirror game changes nothing
    assert table.to_dict() == before


def test_bad_agent_spec_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match=rf"unknown bot 'grandmaster'; known bots: {re.escape(', '.join(BOT_NAMES))}"):
        play_arena(DEFAULT_GAME.make_aec_env, {"g": "grandmaster", "r": "random"}, 2)
    with pytest.raises(ValueError, match=r"agent '.*nope.zip': checkpoint file does not exist"):
        resolve_agent(str(tmp_path / "nope.zip"))
    with pytest.raises(ValueError, match=r"an empty agent spec"):
        resolve_agent("")
    with pytest.raises(ValueError, match=r"games must be > 0, got 0"):
        play_arena(DEFAULT_GAME.make_aec_env, {"r": "random"}, 0)
    assert resolve_agent("strong=mcts:1000:time=0.5") == ("strong", "mcts:1000:time=0.5")
    assert resolve_agent("mcts:1000:time=0.5") == ("mcts:1000:time=0.5", "mcts:1000:time=0.5")


def run_arena(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "training.arena", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_arena_cli_writes_table_json_markdown_and_png(tmp_path):
    game = first_game("an alias and three players", lambda g: g.aliases and 3 in g.player_counts)
    done = run_arena("--env", game.aliases[0], "--players", "3", "--agents", "random", "heuristic",
                     "--games", "2", "--out", str(tmp_path))  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "games rounded up from 2 to 3" in done.stdout and "| heuristic | 3 |" in done.stdout
    data = json.loads((tmp_path / "arena.json").read_text())
    assert data["games"] == 3 and data["balanced"] and data["game_options"] == {"num_players": 3}
    assert [a["games_per_seat"] for a in data["agents"]] == [[2, 2, 2], [1, 1, 1]]
    assert "OpenSkill" in (tmp_path / "arena.md").read_text()
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"


def test_arena_cli_bad_agent_is_a_clear_error(tmp_path):
    done = run_arena("--env", DEFAULT_GAME.key, "--agents", "random", "grandmaster", "--games", "2", "--out", str(tmp_path))
    assert done.returncode == 2 and "unknown bot 'grandmaster'" in done.stderr
    done = run_arena("--env", "chess", "--agents", "random", "--out", str(tmp_path))
    assert done.returncode == 2 and "--env 'chess'; allowed" in done.stderr
