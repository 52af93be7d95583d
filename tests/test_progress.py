"""Progress fits where it goes (maya_envs.cli.progress): a tqdm bar on a terminal, whole lines
(one per 10 % or per minute, no carriage returns) in a log, for every command that reports it."""

from __future__ import annotations

import io

import pytest

from maya_envs.cli.progress import LineProgress, iterate, progress
from maya_envs.games import DEFAULT_GAME


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_lines_every_ten_percent_and_a_last_line():
    stream, clock = io.StringIO(), FakeClock()
    lines = LineProgress(400, "vs random", "game", stream, clock=clock)
    for done in range(1, 401):
        clock.now = done / 100
        lines.update_to(done)
    lines.close()
    lines.close()  # once only
    written = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert len(written) == 10, written
    assert written[0].startswith("vs random: 10% 40/400 games, 0 s elapsed, 100.0 games/s")
    assert written[-1].startswith("vs random: 100% 400/400 games, 4 s elapsed")


def test_a_slow_loop_writes_a_line_per_minute():
    stream, clock = io.StringIO(), FakeClock()
    lines = LineProgress(1000, "arena", "game", stream, clock=clock, extra=lambda: "mean 0.5")
    for done in (1, 2, 3):
        clock.now += 61
        lines.update_to(done)
    assert stream.getvalue().splitlines() == [
        "arena: 0% 1/1,000 games, 1:01 elapsed, 0.0 games/s, mean 0.5",
        "arena: 0% 2/1,000 games, 2:02 elapsed, 0.0 games/s, mean 0.5",
        "arena: 0% 3/1,000 games, 3:03 elapsed, 0.0 games/s, mean 0.5",
    ]


def test_a_note_passed_with_the_count_ends_the_line():
    stream, clock = io.StringIO(), FakeClock()
    lines = LineProgress(4, "vs heuristic", "game", stream, clock=clock, extra=lambda: "mean 0.5")
    lines.update_to(2, "win rate 50.0% [9.5%, 90.5%]")
    lines.update_to(4, "win rate 75.0% [30.1%, 95.4%]")
    lines.close()
    assert stream.getvalue().splitlines() == [
        "vs heuristic: 50% 2/4 games, 0 s elapsed, mean 0.5, win rate 50.0% [9.5%, 90.5%]",
        "vs heuristic: 100% 4/4 games, 0 s elapsed, mean 0.5, win rate 75.0% [30.1%, 95.4%]",
    ]
    terminal = Terminal()
    with progress(4, "vs random", "game", stream=terminal) as update:
        update(4, "win rate 100.0%")
    assert "win rate 100.0%" in terminal.getvalue()


@pytest.mark.parametrize(("stream", "bar"), [(io.StringIO(), False), (Terminal(), True)], ids=["log", "terminal"])
def test_a_bar_only_on_a_terminal(stream, bar):
    with progress(50, "frames", "frame", stream=stream) as update:
        for done in range(1, 51):
            update(done)
    text = stream.getvalue()
    assert ("\r" in text) is bar, text
    assert "50/50" in text
    if not bar:
        assert len(text.splitlines()) == 10


def test_disabled_progress_writes_nothing(capsys):
    with progress(10, "quiet", enabled=False) as update:
        update(5)
    assert list(iterate(range(3), 3, "quiet", enabled=False)) == [0, 1, 2]
    assert capsys.readouterr().err == ""


def test_iterate_yields_every_item_and_reports_on_stderr(capsys):
    assert list(iterate(iter(range(20)), 20, "frames", "frame")) == list(range(20))
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("frames: 100% 20/20 frames") and "\r" not in err


def test_training_reports_progress_lines_in_a_log(tmp_path, capsys):
    """maya-train with stderr not a terminal (pytest captures it): SB3's bar is off, lines
    of steps appear while it trains, and the evaluation reports per opponent; no ``\\r``."""
    pytest.importorskip("sb3_contrib")
    from training.train import main

    overrides = ["total_timesteps=128", "n_envs=1", "n_steps=64", "batch_size=64", "eval_games=2",
                 "eval_opponents=[random]", f"output_dir={tmp_path}", "vec_env=dummy"]  # fmt: skip
    assert main(["--config", f"{DEFAULT_GAME.key}/2p_quick", *[a for o in overrides for a in ("--set", o)]]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err
    steps = [line for line in err.splitlines() if line.startswith("training: ")]
    assert len(steps) >= 4 and steps[-1].startswith("training: 100% 128/128 steps"), err
    assert any(line.startswith("maskable_ppo_quick vs random: 100% 2/2 games") for line in err.splitlines()), err
