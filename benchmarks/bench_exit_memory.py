"""Peak memory of an expert-iteration imitation run (``algo: exit``, iteration 0), per process.

Runs ``python -m training.train`` for iteration 0 alone (``exit.iterations=0``, no gate, no
evaluation: the teacher's games, their rows sent back by the actors, the learning and the
checkpoint) in a child process with one thread per process (``OMP_NUM_THREADS=1``), and reports
the peak resident memory of the trainer process (``ru_maxrss`` from ``wait4``, exact) and of each
actor process (``VmHWM`` from ``/proc``, read every ``--interval`` seconds until the process ends),
the wall time, the rows recorded and their size in the checkpoint. The memory a large run needs
is about what a small one takes above the processes' start, scaled by the rows: 2,000 quarry 5p
games record about 553k rows (1.9 GB).

``--checkout DIR`` (repeatable) runs the same command once per checkout (``PYTHONPATH=DIR``), so
that two versions of the trainer compare in one call on the same games (the same seed), in turn.
Linux only (reads ``/proc``).

Usage::

    python benchmarks/bench_exit_memory.py --config maya_quarry/5p_advanced_exit --out /tmp/bench  # 300 games, 2 actors
    python benchmarks/bench_exit_memory.py --config maya_quarry/5p_advanced_exit --games 150 --actors 1 --out /tmp/bench
    python benchmarks/bench_exit_memory.py --config maya_quarry/5p_advanced_exit --checkout ../before --checkout .
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_envs import add_out_argument, save

ROOT = Path(__file__).resolve().parent.parent


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _status(pid: int) -> dict[str, str]:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    return dict(line.split(":\t", 1) for line in lines if ":\t" in line)


def _kib(value: str | None) -> int:
    return int(value.split()[0]) if value else 0


def _read_checkpoint(path: Path) -> dict[str, Any]:
    """The ``checkpoint.pt`` a run of this benchmark just wrote: read as data (format 2), or,
    from a checkout before issue 44 (format 1, pickled arrays), unpickled: the file is the
    benchmark's own, in its temporary folder."""
    import torch

    from training.exit.checkpoint import load_checkpoint

    try:
        return load_checkpoint(path)
    except ValueError:
        return torch.load(path, map_location="cpu", weights_only=False)


def measure(checkout: Path, args: argparse.Namespace) -> dict[str, Any]:
    """One iteration-0 run of ``checkout``'s trainer; its peaks, wall time and rows."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            args.python, "-m", "training.train", "--config", args.config,
            "--set", "exit.iterations=0", "--set", f"exit.imitation_games={args.games}",
            "--set", f"exit.imitation_epochs={args.epochs}", "--set", "exit.gate_games=0",
            "--set", "eval_games=0", "--set", f"exit.actors={args.actors}", "--set", f"seed={args.seed}",
            "--set", f"output_dir={tmp}", "--set", "progress_bar=false",
        ]  # fmt: skip
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(checkout)}
        log = Path(tmp) / "stderr.log"
        started = time.perf_counter()
        with log.open("wb") as stderr:
            child = subprocess.Popen(command, cwd=checkout, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        peaks: dict[int, int] = {}  # pid -> VmHWM in KiB, the trainer's descendants
        kinds: dict[int, str] = {}
        status = rusage = None
        while status is None:
            pid, status, rusage = os.wait4(child.pid, os.WNOHANG)
            if pid == 0:
                status = None
                stack = _children(child.pid)
                while stack:
                    pid = stack.pop()
                    stack += _children(pid)
                    fields = _status(pid)
                    if not fields:
                        continue
                    peaks[pid] = max(peaks.get(pid, 0), _kib(fields.get("VmHWM")))
                    if pid not in kinds:
                        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
                        kinds[pid] = "tracker" if "resource_tracker" in cmdline else "actor"
                time.sleep(args.interval)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            raise RuntimeError(f"the run of {checkout} failed ({child.returncode}):\n{log.read_text()[-3000:]}")
        (run_dir,) = [path for path in Path(tmp).iterdir() if path.is_dir()]
        history = json.loads((run_dir / "history.json").read_text())[0]
        checkpoint = _read_checkpoint(run_dir / "checkpoint.pt")
        replay = checkpoint["replay"]  # a list of chunks (the buffer) or the window's state
        chunks = ([replay["data"]] if replay["data"] else []) if isinstance(replay, dict) else replay
        rows_mb = sum(a.nbytes for chunk in chunks for a in chunk.values() if a is not None) / 2**20
        actors = sorted((peaks[pid] / 2**20 for pid, kind in kinds.items() if kind == "actor"), reverse=True)
        return {
            "checkout": str(checkout),
            "trainer_peak_gib": rusage.ru_maxrss / 2**20,  # KiB on Linux
            "actor_peaks_gib": actors,
            "wall_s": wall,
            "positions": history["positions"],
            "rows_mb": rows_mb,
            "checkpoint_mb": (run_dir / "checkpoint.pt").stat().st_size / 2**20,
        }


def to_markdown(results: dict[str, Any]) -> str:
    s = results["settings"]
    lines = [
        f"Measured {results['date']}, Python {results['python']}: `{s['config']}` iteration 0, "
        f"{s['games']} teacher games, {s['epochs']} passes, {s['actors']} actor(s), seed {s['seed']}, "
        f"load average before {results['load_before']:.2f}, after {results['load_after']:.2f}.",
        "",
        "| checkout | positions | rows MB | trainer peak GiB | actor peaks GiB | wall s | checkpoint MB |",
        "|---|---:|---:|---:|---|---:|---:|",
    ]
    for row in results["runs"]:
        actors = ", ".join(f"{x:.3f}" for x in row["actor_peaks_gib"]) or "(in the trainer)"
        lines.append(
            f"| {row['checkout']} | {row['positions']:,} | {row['rows_mb']:.0f} | {row['trainer_peak_gib']:.3f} "
            f"| {actors} | {row['wall_s']:.1f} | {row['checkpoint_mb']:.0f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", required=True, help="an exit config (name or file), as the usage above")
    parser.add_argument("--games", type=int, default=300, help="teacher games (exit.imitation_games)")
    parser.add_argument("--epochs", type=int, default=2, help="passes over them (exit.imitation_epochs)")
    parser.add_argument("--actors", type=int, default=2, help="actor processes (exit.actors; 1: in the trainer)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkout", type=Path, action="append", help="a checkout to run (default: this one)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter of the runs")
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between reads of the actors' peaks")
    add_out_argument(parser)
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        parser.error("reads /proc: Linux only")
    settings = {k: getattr(args, k) for k in ("config", "games", "epochs", "actors", "seed")}
    load_before = os.getloadavg()[0]
    runs = [measure(checkout.resolve(), args) for checkout in args.checkout or [ROOT]]
    results = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "python": platform.python_version(),
        "settings": settings,
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
        "runs": runs,
    }
    save(results, to_markdown(results), args.out / "bench_exit_memory")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
