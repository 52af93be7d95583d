"""CPU time to load each shipped MaskablePPO baseline with the safe reader
(:func:`maya_envs.sb3_zip.load_maskable_ppo`, nothing unpickled) against Stable-Baselines3's own
``MaskablePPO.load`` (the reference, measured in the same run), as a ratio.

Usage::

    python benchmarks/bench_model_load.py [--repeats 5] [--out benchmarks/results]

Writes ``bench_model_load.json`` and ``.md``: per baseline, the median CPU milliseconds of each
loader over ``--repeats`` loads (after one warm-up load each) and safe / SB3.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from bench_envs import add_out_argument, save


def _cpu_ms(load: Any, repeats: int) -> float:
    load()  # imports and caches out of the measurement
    times = []
    for _ in range(repeats):
        started = time.process_time()
        load()
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times)


def measure(repeats: int) -> dict[str, Any]:
    """``{"rows": [{name, safe_ms, sb3_ms, ratio}], "repeats"}`` for every shipped ``sb3`` entry."""
    import torch
    from sb3_contrib import MaskablePPO

    from maya_envs import pretrained

    torch.set_num_threads(1)  # CPU time of one thread: other threads' spinning on a busy machine is noise
    from maya_envs.sb3_zip import load_maskable_ppo

    rows = []
    for name in pretrained.list_pretrained():
        info = pretrained.pretrained_info(name)
        if info.kind != "sb3":
            continue
        path = Path(pretrained.__file__).parent / info.file
        sb3 = _cpu_ms(lambda: MaskablePPO.load(path, device="cpu"), repeats)  # noqa: B023
        safe = _cpu_ms(lambda: load_maskable_ppo(path), repeats)  # noqa: B023
        rows.append({"name": name, "safe_ms": round(safe, 1), "sb3_ms": round(sb3, 1), "ratio": round(safe / sb3, 3)})
    return {"rows": rows, "repeats": repeats}


def to_markdown(results: dict[str, Any]) -> str:
    lines = [
        f"Median CPU ms of {results['repeats']} loads; ratio = safe / SB3 (below 1: the safe reader is cheaper).",
        "",
        "| baseline | safe reader (ms) | MaskablePPO.load (ms) | ratio |",
        "|---|---:|---:|---:|",
    ]
    lines += [f"| {r['name']} | {r['safe_ms']} | {r['sb3_ms']} | {r['ratio']} |" for r in results["rows"]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed loads per loader and baseline (default 5)")
    add_out_argument(parser)
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error(f"--repeats {args.repeats}; allowed: an int >= 1")
    results = measure(args.repeats)
    save(results, to_markdown(results), args.out / "bench_model_load")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
