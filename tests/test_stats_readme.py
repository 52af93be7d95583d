"""The game-statistics tables of docs/results/game_stats.md are the output of ``maya-stats --readme`` and still
describe the current rules and bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from maya_envs.games import GAMES
from maya_envs.stats.collect import StatsConfig, Table
from maya_envs.stats.readme import (
    BEGIN,
    END,
    README_LINEUPS,
    RESULTS,
    load_results,
    markdown_tables,
    readme_block,
    readme_configs,
    replace_block,
    stale,
)

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "docs" / "results" / "game_stats.md"
STORED = ROOT / RESULTS  # the stored results of this checkout (maya-stats --results)


def test_readme_tables_are_current():
    assert stale(README, STORED) == "", (
        "regenerate with `maya-stats --readme docs/results/game_stats.md --games 1000 --workers 2`"
    )


def test_every_config_of_the_game_table_has_a_row_with_at_least_1000_games():
    runs = load_results(STORED)["runs"]
    configs = [StatsConfig(**{**r["config"], "lineup": tuple(r["config"]["lineup"])}) for r in runs]
    assert [c.to_dict() for c in configs] == [c.to_dict() for c in readme_configs()]
    keys = {(c.game, c.options["num_players"], c.options[GAMES[c.game].variant_option]) for c in configs}
    for game in GAMES.values():
        for n in game.player_counts:
            assert any((game.key, n, v) in keys for v in game.hook("variants"))
    assert {c.lineup[0] for c in configs} == set(README_LINEUPS)
    assert min(r["games"] for r in runs) >= 1000


def _replay_cases():
    runs = load_results(STORED)["runs"] if STORED.exists() else []
    return [pytest.param(r, id=r["label"]) for r in runs]


@pytest.mark.parametrize("stored", _replay_cases())
def test_replaying_a_rows_unprobed_sample_game_gives_its_stored_digest(stored):
    config = StatsConfig(**{**stored["config"], "lineup": tuple(stored["config"]["lineup"])})
    index = max(int(i) for i in stored["sample_games"])  # the first game without probes: cheap
    record = Table(config).play(stored["seed"], index)
    assert record.digest() == stored["sample_games"][str(index)], (
        f"{stored['label']}: game {index} plays differently now (rules or bots changed); "
        "rerun `maya-stats --readme docs/results/game_stats.md --games 1000 --workers 2`"
    )


def test_replaying_one_probed_game_per_game_gives_its_stored_digest():
    runs = load_results(STORED)["runs"]
    for game in GAMES.values():
        stored = next(r for r in runs if r["config"]["game"] == game.key and r["config"]["lineup"][0] == "random")
        config = StatsConfig(**{**stored["config"], "lineup": tuple(stored["config"]["lineup"])})
        assert Table(config).play(stored["seed"], 0).digest() == stored["sample_games"]["0"], stored["label"]


def test_replace_block_rewrites_only_between_the_markers():
    report = load_results(STORED)
    text = f"before\n{BEGIN}\nold\n{END}\nafter\n"
    new = replace_block(text, markdown_tables(report))
    assert new.startswith(f"before\n{BEGIN}\n") and new.endswith(f"{END}\nafter\n")
    assert readme_block(new) == markdown_tables(report)
    with pytest.raises(ValueError, match="no game-statistics block"):
        readme_block("no markers")


def test_check_readme_command_exits_1_on_a_stale_copy(tmp_path, capsys):
    from maya_envs.stats.cli import main

    assert main(["--check-readme", str(README), "--results", str(STORED)]) == 0
    copy = tmp_path / "README.md"
    copy.write_text(README.read_text(encoding="utf-8").replace("| 1000 |", "| 999 |", 1), encoding="utf-8")
    assert main(["--check-readme", str(copy), "--results", str(STORED)]) == 1
    assert "differ" in capsys.readouterr().out


def test_the_installed_code_reads_the_stored_results_only_where_it_is_told(tmp_path, monkeypatch, capsys):
    """The package names no file of a checkout (issue 45): the results default is relative to the
    current directory, so from another folder the check reads that folder's copy (here a moved
    one) or fails naming what is missing, never the checkout beside the code."""
    from maya_envs.stats.cli import main

    assert not RESULTS.is_absolute()
    moved = tmp_path / "benchmarks" / "results"
    moved.mkdir(parents=True)
    (moved / "game_stats.json").write_text(STORED.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["--check-readme", str(README)]) == 0
    (moved / "game_stats.json").unlink()
    with pytest.raises(SystemExit):
        main(["--check-readme", str(README)])
    assert "game_stats.json" in capsys.readouterr().err
