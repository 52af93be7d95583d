"""Throughput of the JAX Maya (2012) engine (maya_envs.jax, issue 33) next to its references,
measured in the same run: the batched numpy/numba engine (maya_envs.maya2012.batched, 2p) and
Pgx's own ``connect_four``.

Random play at batch ``--batch`` (default 1024) on the default JAX device: each jitted chunk
is a ``lax.fori_loop`` of ``--chunk`` vmapped steps (as Pgx's own benchmarks time a loop of
steps inside one compiled call: the rates exclude Python dispatch), each step a uniformly random
legal action per game (:func:`_random_actions`, the same for every row) and Pgx's ``step`` with
its observation of the player to move, and then restarts the finished games (their rows get a new
game: the Pgx game's ``init``; Maya (2012): ``init_with_board`` on a relabelled exactly uniform
base board, :func:`maya_envs.jax.relabel_board`, one base per 64 games as the batched engine's
``board_reuse=64``).
Steps are counted only in games that were running (agent-steps). Compile time (``lower`` +
``compile`` of the chunk and of one vmapped ``step``) is reported apart from the rates, and so is
the exact board sampler (``init``) of a whole batch.

The numba/numpy rows are ``bench_envs.measure_batched``'s loop (step and mask, no observation;
the JAX rows build the observation on every step as Pgx's API does, the
``observe_on_step=False`` rows step and mask only, like the numba row). Rates per wall second and
per CPU second of the process (steadier on a shared machine), with the cores the row used (CPU
seconds / wall seconds) and the threads that did the work (those with >= 10% of the busiest
one's CPU time, from ``/proc/self/task``): XLA runs a step's kernels on a pool of one thread per
core, numba on one thread. The "1 thread" rows run in a child process pinned to one core
(``sched_setaffinity``) with ``XLA_FLAGS=--xla_cpu_multi_thread_eigen=false
intra_op_parallelism_threads=1``: JAX and numba on equal cores, per wall second. The load average
is recorded before and after; the verdict lines judge issue 33's CPU targets (batch 1024, 2p):
>= 1.0 M steps/s and >= the numba kernel of the same run.

Usage::

    python benchmarks/bench_jax.py           # 2-4p, ~4 min on the idle 2-core machine: results/bench_jax.{json,md}
    python benchmarks/bench_jax.py --quick   # 2p rows and the verdicts only (~1.5 min), batch 1024
    python benchmarks/bench_jax.py --smoke --out /tmp/bench_jax   # batch 64, 0.2 s: does it run
    python benchmarks/bench_jax.py --sweep --batches 1024 --players 2 --seconds 1   # every engine, Pgx games, rules
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pgx
from bench_envs import RESULTS_DIR, save

from maya_envs.games import find_game
from maya_envs.jax import Maya2012, relabel_board, sample_board
from maya_envs.jax.engines import engine_names
from maya_envs.jax.engines import make as make_engine
from maya_envs.maya2012.batched import BatchedMaya2012

_WORD = 25  # mask bits per packed word (75 actions: 3 words)


def _random_actions(uniform, mask):
    """A uniformly random legal action per row of ``mask`` ``(batch, actions) bool`` from
    ``uniform`` ``(batch,)`` draws in [0, 1): each game takes its ``floor(u * legal)``-th legal
    id. The mask is packed into 25-bit words, popcounts pick the word and a binary search of
    popcounts the bit in it: a few passes over ``(batch,)`` ints (an ``int8`` prefix count over
    the 75 ids took 7 passes over the whole mask, a quarter of a 2p step). (Pgx's benchmarks use
    ``jax.random.categorical`` over ``log(mask)``, a Gumbel draw per action: for 75 actions it
    cost 3x Maya's whole step.)"""
    batch, actions = mask.shape
    words_n = -(-actions // _WORD)
    bits = jnp.pad(mask, ((0, 0), (0, words_n * _WORD - actions))).reshape(batch, words_n, _WORD)
    words = jnp.sum(bits.astype(jnp.uint32) << jnp.arange(_WORD, dtype=jnp.uint32), axis=-1, dtype=jnp.uint32)
    counts = jax.lax.population_count(words).astype(jnp.int32)  # (batch, words)
    total = jnp.sum(counts, axis=1)
    pick = jnp.minimum((uniform * total).astype(jnp.int32), total - 1)
    word, code = jnp.zeros(batch, jnp.int32), words[:, 0]
    before = upto = jnp.zeros(batch, jnp.int32)  # legal ids before the picked word; before word w
    for w in range(1, words_n):
        upto = upto + counts[:, w - 1]
        later = pick >= upto
        before = jnp.where(later, upto, before)
        word = jnp.where(later, w, word)
        code = jnp.where(later, words[:, w], code)
    rank, pos = pick - before, jnp.zeros(batch, jnp.uint32)
    for half in (16, 8, 4, 2, 1):  # bits [0, pos) hold rank legal ids; bit pos is the next one
        window = ((jnp.uint32(1) << half) - 1) << pos
        below = jax.lax.population_count(code & window).astype(jnp.int32)
        go = below <= rank
        rank = jnp.where(go, rank - below, rank)
        pos = jnp.where(go, pos + half, pos)
    return word * _WORD + pos.astype(jnp.int32)


def make_chunk(env, batch: int, chunk: int, reset):
    """A jitted ``(state, key, extra) -> (state, key, live steps)``: ``chunk`` random steps of every
    game, then ``reset(keys, extra)`` states in the finished rows."""
    step = getattr(env, "step_batch", None) or jax.vmap(env.step)  # an engine's batched step where it has one

    def run(state, key, extra):
        # the chunk's random numbers drawn at once (one generator call, not one per step)
        key, k_act, k_step, k_reset = jax.random.split(key, 4)
        uniforms = jax.random.uniform(k_act, (chunk, batch))
        step_keys = jax.random.split(k_step, chunk)

        def body(i, carry):
            state, live = carry
            running = ~(state.terminated | state.truncated)
            actions = _random_actions(uniforms[i], state.legal_action_mask)
            state = step(state, actions, jax.random.split(step_keys[i], batch))  # drafted setup only
            return state, live + jnp.sum(running)

        state, live = jax.lax.fori_loop(0, chunk, body, (state, jnp.int32(0)))
        fresh = reset(jax.random.split(k_reset, batch), extra)
        done = state.terminated | state.truncated
        state = jax.tree_util.tree_map(
            lambda new, old: jnp.where(done.reshape(done.shape + (1,) * (new.ndim - 1)), new, old), fresh, state
        )
        return state, key, live

    return jax.jit(run)


def measure(env, batch: int, chunk: int, seconds: float, repeats: int, reset, extra, state,
            step_compile: bool = True) -> dict[str, Any]:
    """Rates of random play (median of ``repeats`` runs of about ``seconds``) and compile times
    (of one vmapped ``step`` too with ``step_compile``: the 2p rows, to keep the run short)."""
    run = make_chunk(env, batch, chunk, reset)
    key = jax.random.PRNGKey(0)
    start = time.perf_counter()
    compiled = run.lower(state, key, extra).compile()
    compile_chunk = time.perf_counter() - start
    compile_step = None
    if step_compile:
        step = jax.jit(jax.vmap(env.step))
        actions = jnp.zeros(batch, jnp.int32)
        start = time.perf_counter()
        step.lower(state, actions, jax.random.split(key, batch)).compile()
        compile_step = round(time.perf_counter() - start, 2)
    state, key, _ = compiled(state, key, extra)  # warm-up
    jax.block_until_ready(state)
    def run_once():
        nonlocal state, key
        state, key, live = compiled(state, key, extra)
        return int(live)

    return {
        **_rates(run_once, seconds, repeats),
        "compile_chunk_s": round(compile_chunk, 2),
        "compile_step_s": compile_step,
    }


def _thread_ticks() -> dict[str, int]:
    """CPU clock ticks (user + system) of each thread of this process (Linux; else empty)."""
    ticks = {}
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return ticks
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended
        ticks[tid] = int(fields[11]) + int(fields[12])  # utime, stime (stat fields 14, 15)
    return ticks


def _busy_threads(before: dict[str, int], after: dict[str, int]) -> int | None:
    """Threads with at least 10% of the busiest thread's CPU time between two snapshots."""
    used = [after[t] - before.get(t, 0) for t in after]
    top = max(used, default=0)
    return sum(u >= 0.1 * top for u in used) if top > 0 else None


def _rates(run_once, seconds: float, repeats: int) -> dict[str, Any]:
    """Median agent-steps per wall second and per CPU second of this process (all its threads:
    on a shared machine the CPU-second rate is the steadier one) over ``repeats`` runs, the
    cores used (CPU s / wall s, median) and the busy threads (over all runs)."""
    wall, cpu, cores = [], [], []
    ticks = _thread_ticks()
    for _ in range(repeats):
        steps, begin, begin_cpu = 0, time.perf_counter(), time.process_time()
        while True:
            steps += run_once()
            elapsed = time.perf_counter() - begin
            if elapsed >= seconds:
                break
        spent = max(time.process_time() - begin_cpu, 1e-9)
        wall.append(steps / elapsed)
        cpu.append(steps / spent)
        cores.append(spent / elapsed)
    return {
        "steps_per_s": statistics.median(wall),
        "steps_per_cpu_s": statistics.median(cpu),
        "steps_per_s_all": [round(r) for r in wall],
        "cores_used": round(statistics.median(cores), 2),
        "threads": _busy_threads(ticks, _thread_ticks()),
    }


def batched_case(backend: str, batch: int, seconds: float, repeats: int) -> dict[str, Any]:
    """The batched numpy/numba engine (2p), as ``bench_envs.measure_batched``: random legal
    actions, step and mask (no observation), auto-reset."""
    engine = BatchedMaya2012(batch, seed=0, backend=backend)
    engine.reset()
    rng = np.random.default_rng(0)

    def run_once():
        for _ in range(20):
            engine.step(engine.sample_legal(rng))
        return 20 * batch

    run_once()
    return _rates(run_once, seconds, repeats)


def exact_bases(count: int, seed: int) -> jax.Array:
    """``count`` exactly uniform boards from the jitted single-board sampler."""
    board = jax.jit(sample_board)
    return jnp.stack([board(jax.random.PRNGKey(seed * 1000 + k)) for k in range(count)])


def maya_case(num_players: int, batch: int, chunk: int, seconds: float, repeats: int, observe: bool = True):
    env = Maya2012(num_players=num_players, observe_on_step=observe)
    keys = jax.random.split(jax.random.PRNGKey(num_players), batch)
    # one exact base board per 64 games, each game's board a relabelled base (board_reuse=64)
    bases = jnp.repeat(exact_bases(max(batch // 64, 1), num_players), 64, axis=0)[:batch]
    bases = jnp.concatenate([bases, bases[: batch - bases.shape[0]]]) if bases.shape[0] < batch else bases

    def reset(keys, bases):
        boards = jax.vmap(relabel_board)(keys, bases)
        return jax.vmap(env.init_with_board)(keys, boards)

    state = jax.jit(reset)(keys, bases)
    return measure(env, batch, chunk, seconds, repeats, reset, bases, state, step_compile=num_players == 2)


def connect_four_case(batch: int, chunk: int, seconds: float, repeats: int) -> dict[str, Any]:
    env = pgx.make("connect_four")
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    return measure(env, batch, chunk, seconds, repeats, lambda keys, _: jax.vmap(env.init)(keys), jnp.int32(0), state,
                   step_compile=False)


def engine_case(game: str, num_players: int, batch: int, chunk: int, seconds: float, repeats: int,
                observe: bool) -> dict[str, Any]:  # fmt: skip
    """Any engine of :data:`maya_envs.jax.engines.ENGINES`: random play as :func:`maya_case`;
    new games from ``init_like`` on one ``init`` start per 64 games where the engine has it
    (Maya (2012)'s exact board sampler), else from ``init``."""
    env = make_engine(game, num_players=num_players, observe_on_step=observe)
    keys = jax.random.split(jax.random.PRNGKey(num_players), batch)
    if hasattr(env, "init_like"):
        bases = jax.jit(jax.vmap(env.init))(keys[: max(batch // 64, 1)])
        starts = jax.tree_util.tree_map(lambda v: jnp.resize(v, (batch, *v.shape[1:])), bases)

        def reset(keys, starts):
            return jax.vmap(env.init_like)(keys, starts)
    else:
        starts = jnp.int32(0)

        def reset(keys, _):
            return jax.vmap(env.init)(keys)

    state = jax.jit(reset)(keys, starts)
    return measure(env, batch, chunk, seconds, repeats, reset, starts, state, step_compile=False)


def pgx_case(name: str, batch: int, chunk: int, seconds: float, repeats: int) -> dict[str, Any]:
    """One of Pgx's own games (``pgx.make(name)``), random play as :func:`maya_case`."""
    env = pgx.make(name)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    return measure(env, batch, chunk, seconds, repeats, lambda keys, _: jax.vmap(env.init)(keys), jnp.int32(0), state,
                   step_compile=False)  # fmt: skip


def rules_case(game: str, num_players: int, seconds: float, repeats: int, observe: bool) -> dict[str, Any]:
    """The Python rules engine of ``game``: one game at a time, random legal ids, the mover's
    observation (the game's observer) after each step when ``observe``."""
    entry = find_game(game)
    rules = entry.make_rules({"num_players": num_players})
    observer = entry.hook("observer")(rules)
    rng = np.random.default_rng(0)
    state = rules.initial_state(rng)

    def run_once():
        nonlocal state
        for _ in range(200):
            if rules.is_terminal(state):
                state = rules.initial_state(rng)
            legal = rules.legal_actions(state)
            state = rules.apply_action(state, legal[int(rng.integers(len(legal)))], rng)
            if observe and not rules.is_terminal(state):
                observer.encode(state, rules.current_player(state))
        return 200

    return _rates(run_once, seconds, repeats)


def sweep(batches: list[int], players: list[int], chunk: int, seconds: float, repeats: int) -> dict[str, Any]:
    """Every JAX engine at ``players`` (those the game has) and every batch, with and without
    the observation, beside Pgx ``connect_four``, ``othello`` and ``backgammon`` and the Python
    rules engine of the same game (with the observation), all in this process."""
    rows: dict[str, Any] = {}

    def add(name, row):
        rows[name] = row
        print(name, {k: row[k] for k in ("steps_per_cpu_s", "compile_chunk_s") if k in row}, flush=True)

    for game in engine_names():
        for n in (n for n in players if n in find_game(game).player_counts):
            add(f"{game} {n}p python rules (observation)", rules_case(game, n, seconds, repeats, observe=True))
    for batch in batches:
        for name in ("connect_four", "othello", "backgammon"):
            add(f"pgx {name} @ {batch}", pgx_case(name, batch, chunk, seconds, repeats))
        for game in engine_names():
            for n in (n for n in players if n in find_game(game).player_counts):
                for observe in (True, False):
                    label = "observation" if observe else "observe_on_step=False"
                    add(f"{game} {n}p {label} @ {batch}", engine_case(game, n, batch, chunk, seconds, repeats, observe))
    return rows


def sweep_markdown(meta: dict[str, Any], rows: dict[str, Any]) -> str:
    """The sweep as a table: agent-steps per CPU second and the ratio to ``connect_four`` at
    the same batch (to the Python rules engine of the game for its rows)."""
    lines = [f"Measured {meta['time']}, jax {meta['jax']}, pgx {meta['pgx']}, device {meta['device']}, "
             f"{meta['cores']} cores, median of {meta['repeats']} x {meta['seconds']} s; load average "
             f"{meta['loadavg_before']} before, {meta['loadavg_after']} after.", "",
             "| row | agent-steps per CPU s | x connect_four (same batch) | x its Python rules engine "
             "| compile chunk (s) |",
             "|---|---:|---:|---:|---:|"]  # fmt: skip
    for name, row in rows.items():
        cpu = row["steps_per_cpu_s"]
        batch = name.rsplit(" @ ", 1)[1] if " @ " in name else None
        c4 = rows.get(f"pgx connect_four @ {batch}", {}).get("steps_per_cpu_s")
        game_n = " ".join(name.split()[:2])
        python = rows.get(f"{game_n} python rules (observation)", {}).get("steps_per_cpu_s")
        vs_c4 = f"{cpu / c4:.2f}x" if c4 and batch else ""
        vs_py = f"{cpu / python:.1f}x" if python and batch and "observation @" in name else ""
        lines.append(f"| {name} | {cpu:,.0f} | {vs_c4} | {vs_py} | {row.get('compile_chunk_s', '')} |")
    return "\n".join(lines) + "\n"


def _loadavg() -> str:
    try:
        with open("/proc/loadavg") as handle:
            return " ".join(handle.read().split()[:3])
    except OSError:
        return "unknown"


SINGLE_THREAD_FLAGS = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"


def _jax_2p_rows(batch: int, chunk: int, seconds: float, repeats: int, suffix: str = "") -> dict[str, Any]:
    rows = {}
    for observe, name in ((True, "jax 2p"), (False, "jax 2p (observe_on_step=False)")):
        rows[name + suffix] = maya_case(2, batch, chunk, seconds, repeats, observe=observe)
        print(name + suffix, rows[name + suffix], flush=True)
    return rows


def _numba_row(batch: int, seconds: float, repeats: int) -> dict[str, Any]:
    try:
        return batched_case("numba", batch, seconds, repeats)
    except ImportError as error:
        return {"missing": str(error)}


def single_thread_rows(batch: int, chunk: int, seconds: float, repeats: int) -> dict[str, Any]:
    """The 2p JAX rows and the numba row in a child process on one core with XLA's CPU
    thread pool off (:data:`SINGLE_THREAD_FLAGS`), named ``"... , 1 thread"``."""
    core = min(os.sched_getaffinity(0))
    env = dict(os.environ, XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") + " " + SINGLE_THREAD_FLAGS).strip())
    command = [sys.executable, str(Path(__file__).resolve()), "--child-single-thread", "--batch", str(batch),
               "--chunk", str(chunk), "--seconds", str(seconds), "--repeats", str(repeats)]  # fmt: skip
    done = subprocess.run(command, env=env, capture_output=True, text=True,
                          preexec_fn=lambda: os.sched_setaffinity(0, {core}))  # fmt: skip
    if done.returncode:
        raise RuntimeError(f"the 1-thread child failed ({done.returncode}):\n{done.stderr[-3000:]}")
    rows = json.loads(done.stdout.strip().splitlines()[-1])
    for name, row in rows.items():
        print(name, row, flush=True)
    return rows


def _child_single_thread(batch: int, chunk: int, seconds: float, repeats: int) -> None:
    rows = {"batched 2p (numba), 1 thread": _numba_row(batch, seconds, repeats)}
    rows.update(_jax_2p_rows(batch, chunk, seconds, repeats, ", 1 thread"))
    print(json.dumps(rows))


def run(
    batch: int, chunk: int, seconds: float, repeats: int, players: list[int], quick: bool = False
) -> dict[str, Any]:
    results: dict[str, Any] = {
        "meta": {
            "time": time.strftime("%Y-%m-%d %H:%M:%S"),
            "python": platform.python_version(),
            "jax": jax.__version__,
            "pgx": pgx.__version__,
            "device": str(jax.devices()[0]),
            "cores": len(os.sched_getaffinity(0)),
            "xla_flags": os.environ.get("XLA_FLAGS", ""),
            "batch": batch,
            "chunk": chunk,
            "seconds": seconds,
            "repeats": repeats,
            "loadavg_before": _loadavg(),
        },
        "rows": {},
    }
    rows = results["rows"]
    if not quick:
        rows["pgx connect_four"] = connect_four_case(batch, chunk, seconds, repeats)
        print("pgx connect_four", rows["pgx connect_four"], flush=True)
    rows["batched 2p (numba)"] = _numba_row(batch, seconds, repeats)
    print("numba", rows["batched 2p (numba)"], flush=True)
    if not quick:
        try:
            rows["batched 2p (numpy)"] = batched_case("numpy", batch, seconds, repeats)
        except ImportError as error:
            rows["batched 2p (numpy)"] = {"missing": str(error)}
        print("numpy", rows["batched 2p (numpy)"], flush=True)
    for n in players:
        if n == 2:
            rows.update(_jax_2p_rows(batch, chunk, seconds, repeats))
            continue
        rows[f"jax {n}p"] = maya_case(n, batch, chunk, seconds, repeats)
        print(f"jax {n}p", rows[f"jax {n}p"], flush=True)
        name = f"jax {n}p (observe_on_step=False)"  # step and mask only, as the batched engine's rows
        rows[name] = maya_case(n, batch, chunk, seconds, repeats, observe=False)
        print(name, rows[name], flush=True)
    if 2 in players:
        rows.update(single_thread_rows(batch, chunk, seconds, repeats))
    if not quick:
        init = jax.jit(jax.vmap(Maya2012().init))
        keys = jax.random.split(jax.random.PRNGKey(7), batch)
        start = time.perf_counter()
        compiled = init.lower(keys).compile()
        results["meta"]["compile_init_s"] = round(time.perf_counter() - start, 2)
        start, start_cpu = time.perf_counter(), time.process_time()
        jax.block_until_ready(compiled(keys))
        results["meta"]["exact_init_batch_s"] = round(time.perf_counter() - start, 2)
        results["meta"]["exact_init_batch_cpu_s"] = round(time.process_time() - start_cpu, 2)
    results["meta"]["loadavg_after"] = _loadavg()
    results["verdicts"] = verdicts(rows, batch)
    return results


TARGET = 1_000_000  # issue 33: agent-steps per second at batch 1024, 2 players, CPU


def verdicts(rows: dict[str, Any], batch: int) -> list[str]:
    """One line per target and JAX 2p row: >= 1.0 M steps/s (per wall second, per CPU second) and
    >= the numba row of the same run (per CPU second; the 1-thread rows against the 1-thread
    numba row per wall second: equal cores)."""
    lines = []
    if batch != 1024:
        lines.append(f"(batch {batch}: the targets are for batch 1024)")
    numba = rows.get("batched 2p (numba)", {})
    numba_1 = rows.get("batched 2p (numba), 1 thread", {})
    for name, row in rows.items():
        if not name.startswith("jax 2p") or "missing" in row:
            continue
        one = name.endswith("1 thread")
        wall, cpu = row["steps_per_s"], row["steps_per_cpu_s"]
        met = "MET" if (wall >= TARGET and cpu >= TARGET) else ("MET per wall s only" if wall >= TARGET else (
            "MET per CPU s only" if cpu >= TARGET else "NOT MET"))  # fmt: skip
        lines.append(f"{name}: >= 1.0 M steps/s {met} ({wall / 1e6:.2f} M per wall s, {cpu / 1e6:.2f} M per CPU s)")
        ref = numba_1 if one else numba
        if "steps_per_s" not in ref:
            lines.append(f"{name}: >= numba NOT MEASURED ({ref.get('missing', 'no numba row')})")
            continue
        mine, theirs, unit = (wall, ref["steps_per_s"], "per wall s, one core each") if one else (
            cpu, ref["steps_per_cpu_s"], "per CPU s")  # fmt: skip
        verdict = "MET" if mine >= theirs else "NOT MET"
        lines.append(f"{name}: >= numba {verdict} ({mine / theirs:.2f}x numba {unit})")
    return lines


def to_markdown(results: dict[str, Any]) -> str:
    meta, rows = results["meta"], results["rows"]
    c4 = rows.get("pgx connect_four", {}).get("steps_per_s")
    numba = rows.get("batched 2p (numba)", {}).get("steps_per_s")
    numba_cpu = rows.get("batched 2p (numba)", {}).get("steps_per_cpu_s")
    lines = [
        f"Measured {meta['time']}, jax {meta['jax']}, pgx {meta['pgx']}, device {meta['device']}, "
        f"{meta['cores']} cores, batch {meta['batch']}, median of {meta['repeats']} x {meta['seconds']} s; "
        f"load average (1, 5, 15 min) {meta['loadavg_before']} before, {meta['loadavg_after']} after.",
        "",
        "| engine | agent-steps/s | vs Pgx connect_four | vs numba 2p | per CPU second | vs numba 2p (CPU) "
        "| cores used | threads | compile chunk / step (s) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, row in rows.items():
        if "missing" in row:
            lines.append(f"| {name} | missing: {row['missing']} | | | | | | | |")
            continue
        rate, cpu = row["steps_per_s"], row["steps_per_cpu_s"]
        vs_c4 = f"{rate / c4:.2f}x" if c4 else ""
        vs_numba = f"{rate / numba:.2f}x" if numba else ""
        vs_numba_cpu = f"{cpu / numba_cpu:.2f}x" if numba_cpu else ""
        compiled = f"{row['compile_chunk_s']} / {row['compile_step_s'] or '-'}" if "compile_chunk_s" in row else ""
        lines.append(f"| {name} | {rate:,.0f} | {vs_c4} | {vs_numba} | {cpu:,.0f} | {vs_numba_cpu} "
                     f"| {row['cores_used']} | {row['threads']} | {compiled} |")  # fmt: skip
    lines.append("")
    if "compile_init_s" in meta:
        lines.append(f"Exact boards (2p `init`, vmapped over the batch): compile {meta['compile_init_s']} s, "
                     f"run {meta['exact_init_batch_s']} s ({meta['exact_init_batch_cpu_s']} CPU s).")  # fmt: skip
        lines.append("")
    lines.append("Verdicts (issue 33, CPU, batch 1024, 2p):")
    lines.append("")
    lines += [f"- {line}" for line in results["verdicts"]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--chunk", type=int, default=32, help="steps per jitted call")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--quick", action="store_true", help="2p rows (and numba) only, 1 s x 3: the verdicts")
    parser.add_argument("--smoke", action="store_true", help="batch 64, 0.2 s x 1, 2p only: does it run")
    parser.add_argument("--sweep", action="store_true",
                        help="every JAX engine at --batches with and without the observation, Pgx connect_four/othello/"
                             "backgammon and the Python rules engines: results/bench_jax_sweep.{json,md}")  # fmt: skip
    parser.add_argument("--batches", type=int, nargs="+", default=[256, 1024, 4096], help="--sweep's batch sizes")
    parser.add_argument("--child-single-thread", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "bench_jax")
    args = parser.parse_args(argv)
    if args.child_single_thread:
        _child_single_thread(args.batch, args.chunk, args.seconds, args.repeats)
        return 0
    if args.sweep:
        meta = {"time": time.strftime("%Y-%m-%d %H:%M:%S"), "jax": jax.__version__, "pgx": pgx.__version__,
                "device": str(jax.devices()[0]), "cores": len(os.sched_getaffinity(0)), "repeats": args.repeats,
                "seconds": args.seconds, "batches": args.batches, "loadavg_before": _loadavg()}  # fmt: skip
        rows = sweep(args.batches, args.players, args.chunk, args.seconds, args.repeats)
        meta["loadavg_after"] = _loadavg()
        out = args.out if args.out != RESULTS_DIR / "bench_jax" else RESULTS_DIR / "bench_jax_sweep"
        save({"meta": meta, "rows": rows}, sweep_markdown(meta, rows), out)
        return 0
    if args.quick:
        args.seconds, args.players = 1.0, [2]
    if args.smoke:
        args.batch, args.seconds, args.repeats, args.players = 64, 0.2, 1, [2]
    results = run(args.batch, args.chunk, args.seconds, args.repeats, args.players, quick=args.quick or args.smoke)
    save(results, to_markdown(results), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
