"""Throughput of the JAX Maya (2012) engine (maya_envs.jax, issue 33) next to its references,
measured in the same run: the batched numpy/numba engine (maya_envs.maya2012.batched, 2p) and
Pgx's own ``connect_four``.

Random play at batch ``--batch`` (default 1024) on the default JAX device: each jitted chunk
runs ``--chunk`` vmapped steps (uniform random legal actions, Pgx's ``step`` with its
observation of the player to move) and then restarts the finished games (their rows get a new
game: the Pgx game's ``init``; Maya (2012): ``init_with_board`` on a relabelled exactly uniform
base board, :func:`maya_envs.jax.relabel_board`, as the batched engine's ``board_reuse``).
Steps are counted only in games that were running (agent-steps). Compile time (``lower`` +
``compile`` of the chunk and of one vmapped ``step``) is reported apart from the rates, and so is
the exact board sampler (``init``) of a whole batch.

The numba/numpy rows are ``bench_envs.measure_batched`` (step and mask, no observation; the
JAX rows build the observation on every step as Pgx's API does).

Usage::

    python benchmarks/bench_jax.py                     # writes benchmarks/results/bench_jax.{json,md}
    python benchmarks/bench_jax.py --quick --out /tmp/bench_jax
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import pgx

from bench_envs import RESULTS_DIR, measure_batched, save
from maya_envs.jax import Maya2012, relabel_board, sample_board
from maya_envs.maya2012.batched import BatchedMaya2012


def _random_actions(key, mask):
    return jax.random.categorical(key, jnp.log(mask.astype(jnp.float32)), axis=-1).astype(jnp.int32)


def make_chunk(env, batch: int, chunk: int, reset):
    """A jitted ``(state, key, extra) -> (state, key, live steps)``: ``chunk`` random steps of every
    game, then ``reset(keys, extra)`` states in the finished rows."""
    step = jax.vmap(env.step)

    def body(_, carry):
        state, key, live = carry
        key, k_act, k_step = jax.random.split(key, 3)
        running = ~(state.terminated | state.truncated)
        state = step(state, _random_actions(k_act, state.legal_action_mask), jax.random.split(k_step, batch))
        return state, key, live + jnp.sum(running)

    def run(state, key, extra):
        state, key, live = jax.lax.fori_loop(0, chunk, body, (state, key, jnp.int32(0)))
        key, k_reset = jax.random.split(key)
        fresh = reset(jax.random.split(k_reset, batch), extra)
        done = state.terminated | state.truncated
        state = jax.tree_util.tree_map(
            lambda new, old: jnp.where(done.reshape(done.shape + (1,) * (new.ndim - 1)), new, old), fresh, state
        )
        return state, key, live

    return jax.jit(run)


def measure(env, batch: int, chunk: int, seconds: float, repeats: int, reset, extra, state) -> dict[str, Any]:
    """Rates of random play (median of ``repeats`` runs of about ``seconds``) and compile times."""
    run = make_chunk(env, batch, chunk, reset)
    key = jax.random.PRNGKey(0)
    start = time.perf_counter()
    compiled = run.lower(state, key, extra).compile()
    compile_chunk = time.perf_counter() - start
    step = jax.jit(jax.vmap(env.step))
    actions = jnp.zeros(batch, jnp.int32)
    start = time.perf_counter()
    step.lower(state, actions, jax.random.split(key, batch)).compile()
    compile_step = time.perf_counter() - start
    state, key, _ = compiled(state, key, extra)  # warm-up
    jax.block_until_ready(state)
    rates = []
    for _ in range(repeats):
        steps, begin = 0, time.perf_counter()
        while True:
            state, key, live = compiled(state, key, extra)
            steps += int(live)
            elapsed = time.perf_counter() - begin
            if elapsed >= seconds:
                break
        rates.append(steps / elapsed)
    return {
        "steps_per_s": statistics.median(rates),
        "steps_per_s_all": [round(r) for r in rates],
        "compile_chunk_s": round(compile_chunk, 2),
        "compile_step_s": round(compile_step, 2),
    }


def maya_case(num_players: int, batch: int, chunk: int, seconds: float, repeats: int) -> dict[str, Any]:
    env = Maya2012(num_players=num_players)
    keys = jax.random.split(jax.random.PRNGKey(num_players), batch)
    init = jax.jit(jax.vmap(env.init))
    start = time.perf_counter()
    init_compiled = init.lower(keys).compile()
    compile_init = time.perf_counter() - start
    start = time.perf_counter()
    state = jax.block_until_ready(init_compiled(keys))
    init_s = time.perf_counter() - start
    bases = state._x.towers

    def reset(keys, bases):
        boards = jax.vmap(relabel_board)(keys, bases)
        return jax.vmap(env.init_with_board)(keys, boards)

    result = measure(env, batch, chunk, seconds, repeats, reset, bases, state)
    result.update(compile_init_s=round(compile_init, 2), exact_init_batch_s=round(init_s, 3))
    return result


def connect_four_case(batch: int, chunk: int, seconds: float, repeats: int) -> dict[str, Any]:
    env = pgx.make("connect_four")
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    return measure(env, batch, chunk, seconds, repeats, lambda keys, _: jax.vmap(env.init)(keys), jnp.int32(0), state)


def run(batch: int, chunk: int, seconds: float, repeats: int, players: list[int]) -> dict[str, Any]:
    results: dict[str, Any] = {
        "meta": {
            "time": time.strftime("%Y-%m-%d %H:%M:%S"),
            "python": platform.python_version(),
            "jax": jax.__version__,
            "pgx": pgx.__version__,
            "device": str(jax.devices()[0]),
            "batch": batch,
            "chunk": chunk,
            "seconds": seconds,
            "repeats": repeats,
        },
        "rows": {},
    }
    rows = results["rows"]
    rows["pgx connect_four"] = connect_four_case(batch, chunk, seconds, repeats)
    print("pgx connect_four", rows["pgx connect_four"], flush=True)
    for backend in ("numba", "numpy"):
        try:
            rows[f"batched 2p ({backend})"] = measure_batched(_engine(backend), batch, seconds, repeats)
        except ImportError as error:
            rows[f"batched 2p ({backend})"] = {"missing": str(error)}
        print(backend, rows[f"batched 2p ({backend})"], flush=True)
    for n in players:
        rows[f"jax {n}p"] = maya_case(n, batch, chunk, seconds, repeats)
        print(f"jax {n}p", rows[f"jax {n}p"], flush=True)
    board = jax.jit(sample_board)
    board(jax.random.PRNGKey(0)).block_until_ready()
    start = time.perf_counter()
    for k in range(20):
        board(jax.random.PRNGKey(k)).block_until_ready()
    results["meta"]["exact_board_ms"] = round((time.perf_counter() - start) / 20 * 1000, 2)
    return results


def _engine(backend: str):
    def make(num_envs: int, seed: int = 0) -> BatchedMaya2012:
        return BatchedMaya2012(num_envs, seed=seed, backend=backend)

    make(1)  # raises ImportError now when the backend is missing
    return make


def to_markdown(results: dict[str, Any]) -> str:
    meta, rows = results["meta"], results["rows"]
    c4 = rows["pgx connect_four"]["steps_per_s"]
    numba = rows.get("batched 2p (numba)", {}).get("steps_per_s")
    lines = [
        f"Measured {meta['time']}, jax {meta['jax']}, pgx {meta['pgx']}, device {meta['device']}, "
        f"batch {meta['batch']}, median of {meta['repeats']} x {meta['seconds']} s.",
        "",
        "| engine | agent-steps/s | vs Pgx connect_four | vs numba 2p | compile chunk / step (s) |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, row in rows.items():
        if "missing" in row:
            lines.append(f"| {name} | missing | | | |")
            continue
        rate = row["steps_per_s"]
        vs_numba = f"{rate / numba:.2f}x" if numba else ""
        compiled = f"{row['compile_chunk_s']} / {row['compile_step_s']}" if "compile_step_s" in row else ""
        lines.append(f"| {name} | {rate:,.0f} | {rate / c4:.2f}x | {vs_numba} | {compiled} |")
    lines.append("")
    inits = [f"{n}: compile {r['compile_init_s']} s, batch {r['exact_init_batch_s']} s" for n, r in rows.items()
             if "compile_init_s" in r]  # fmt: skip
    lines.append(f"Exact board sampler: {meta['exact_board_ms']} ms a board (one, jitted); vmapped init of a batch: "
                 + "; ".join(inits) + ".")  # fmt: skip
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--chunk", type=int, default=32, help="steps per jitted call")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--quick", action="store_true", help="batch 64, 0.2 s x 1, 2p only")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "bench_jax")
    args = parser.parse_args(argv)
    if args.quick:
        args.batch, args.seconds, args.repeats, args.players = 64, 0.2, 1, [2]
    results = run(args.batch, args.chunk, args.seconds, args.repeats, args.players)
    save(results, to_markdown(results), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
