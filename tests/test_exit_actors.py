"""The expert-iteration actors (training/exit/actors.py): the process and Ray backends play the
same games for the same seeds (a tiny run with Ray actors equals one with process actors), the
backend settings' errors, a dead actor raises instead of hanging, and SIGTERM / Ctrl-C / kill -9
end a run and its actor processes.

The Ray test starts a local Ray (xdist group ``ray``) and runs in the compat stage
(``scripts/test_compat.sh``, the venv with Ray); elsewhere it is skipped, unless
``MAYA_REQUIRE_RLLIB=1`` (set by that script): then it runs and fails without Ray.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from maya_envs.bots.guided import GuidedConfig
from maya_envs.core.errors import ConfigError
from maya_envs.games import DEFAULT_GAME
from maya_envs.nn.model import load_network
from tests.helpers import ROOT
from tests.helpers.exit import run_exit
from training.config import load_config
from training.exit.actors import ActorError, Actors, ActorSettings

GAME = DEFAULT_GAME.key
HAVE_RAY = importlib.util.find_spec("ray") is not None
needs_ray = pytest.mark.skipif(
    not HAVE_RAY and os.environ.get("MAYA_REQUIRE_RLLIB") != "1",
    reason="Ray is not in this venv: bash scripts/test_compat.sh tests/test_exit_actors.py",
)
SETTINGS = ActorSettings(
    game=GAME,
    game_options={"num_players": 2, "max_turns": 16},
    net_kwargs={},
    search=GuidedConfig(simulations=2),
    eval_search=GuidedConfig(simulations=2),
)
RANDOM_GAMES = [["bot:random", "bot:random"]] * 2


@pytest.fixture(scope="module")
def local_ray():
    """One small local Ray for this module; the trainer's Ray actors join it."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False)
    yield ray
    ray.shutdown()


def _without_times(value):
    """``value`` (a history or evaluation JSON) without its wall and CPU times."""
    if isinstance(value, dict):
        return {k: _without_times(v) for k, v in value.items() if "seconds" not in k}
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    return value


@needs_ray
@pytest.mark.xdist_group("ray")
def test_a_tiny_run_with_ray_actors_equals_one_with_process_actors(local_ray, tmp_path, monkeypatch):
    import json

    from training.exit import actors

    calls = []
    ray_map = actors.RayActors.map
    monkeypatch.setattr(actors.RayActors, "map", lambda self, jobs: calls.append(len(jobs)) or ray_map(self, jobs))
    two = ["--set", "exit.actors=2", "--set", "exit.opponents={self: 1, heuristic: 1}"]
    by_process = run_exit(tmp_path / "process", *two)
    assert not calls
    by_ray = run_exit(tmp_path / "ray", *two, "--set", "exit.actor_backend=ray")
    assert calls and max(calls) == 2  # the games went to two Ray actors
    for name in ("history.json", "evaluation.json"):
        a, b = (json.loads((run / name).read_text()) for run in (by_process, by_ray))
        assert _without_times(a) == _without_times(b), name
    assert json.loads((by_ray / "history.json").read_text())[1]["positions"] > 0
    with pytest.raises(ValueError, match=r"exit.actors=3; allowed: at most the Ray cluster's 2 CPUs"):
        Actors(SETTINGS, 3, "ray")  # a third actor would wait for a CPU for ever
    net_a, _ = load_network(by_process / "model.pt")
    net_b, _ = load_network(by_ray / "model.pt")
    for (name, a), b in zip(net_a.state_dict().items(), net_b.state_dict().values(), strict=True):
        assert torch.equal(a, b), name


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["exit.actor_backend=dask"], r"exit.actor_backend='dask'; allowed: process, ray"),
        (["exit.ray_address=auto"], r"exit.ray_address='auto' is only read with exit.actor_backend: ray"),
        (["exit.actor_backend=ray", "exit.ray_address=3"], r"exit.ray_address=3; allowed: null, 'auto'"),
        (["exit.actor_backend=ray", "exit.ray_address=' '"], r"exit.ray_address=' '; allowed: null, 'auto'"),
    ],
)
def test_bad_actor_backend_settings_are_clear_errors(overrides, message, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", object())  # as if Ray were installed, also where it is not
    with pytest.raises(ConfigError, match=message):
        load_config(f"{GAME}/2p_exit", overrides)


def test_the_ray_backend_without_ray_names_the_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # where Ray is installed, its import fails as if it were not
    install = r"the ray actor backend needs Ray, which cannot be imported .*pip install 'maya-envs\[ray\]'"
    with pytest.raises(ConfigError, match=rf"exit.actor_backend='ray': {install}"):
        load_config(f"{GAME}/2p_exit", ["exit.actor_backend=ray"])
    with pytest.raises(ImportError, match=install):
        Actors(SETTINGS, 2, "ray")
    with pytest.raises(ValueError, match=r"actor backend 'dask'; allowed: process, ray"):
        Actors(SETTINGS, 2, "dask")
    with pytest.raises(ValueError, match=r"a Ray address \('auto'\) needs the ray actor backend"):
        Actors(SETTINGS, 1, "process", "auto")


def test_an_actors_error_is_raised_and_a_dead_actor_raises_instead_of_waiting_for_ever():
    with Actors(SETTINGS, 2) as actors:
        played = actors.play(RANDOM_GAMES, [1, 2], {}, 0)
        assert len(played.values) == 2
        with pytest.raises(ValueError, match="unknown agent spec 'nonsense'"):  # an actor's error, raised here
            actors.play([["nonsense", "bot:random"]] * 2, [1, 2], {}, 0)
        victim = actors.backend.processes[1]
        os.kill(victim.pid, signal.SIGKILL)
        victim.join(timeout=30)
        with pytest.raises(ActorError, match=rf"actor process 1 \(pid {victim.pid}\) ended with exit code -9"):
            actors.play(RANDOM_GAMES, [1, 2], {}, 0)


def test_an_answer_crosses_the_pipe_with_its_arrays_whole_and_writable(monkeypatch):
    """:func:`send_answer` / :func:`receive_answer` (how the actors send their rows back): the
    same object, arrays of every layout and size cut into pieces (here 40 bytes) and joined
    again, on writable memory; an error answer too."""
    import multiprocessing

    import numpy as np

    from training.exit import actors as module
    from training.exit.data import Positions
    from training.exit.play import Played

    monkeypatch.setattr(module, "_PIECE", 40)
    rng = np.random.default_rng(0)
    rows = Positions(
        boards=rng.normal(size=(5, 9)).astype(np.float16), actions=np.arange(12),
        features=np.zeros((12, 0), np.float16), policies=rng.random(12).astype(np.float32),
        offsets=np.array([0, 3, 3, 7, 11, 12]), seats=np.arange(5) % 2,
        values=np.asfortranarray(rng.normal(size=(5, 2)).astype(np.float32)), hooks=rng.normal(size=(2, 5)).T,
        root_values=np.full((5, 2), np.nan, np.float32), games=np.array([0, 0, 1, 1, 2]),
        margins=rng.normal(size=(5, 4)).astype(np.float32)[:, ::2],  # not contiguous: inside the pickle
    )  # fmt: skip
    sent = (Played(rng.normal(size=(3, 2)).astype(np.float32), rows, 12, 0.5), None)
    mine, theirs = multiprocessing.Pipe()
    module.send_answer(theirs, sent)
    played, failure = module.receive_answer(mine)
    assert failure is None and (played.decisions, played.cpu_seconds) == (12, 0.5)
    np.testing.assert_array_equal(played.values, sent[0].values)
    for name, value in vars(rows).items():
        got = getattr(played.positions, name)
        if value is None:
            assert got is None, name
            continue
        assert got.dtype == value.dtype and got.shape == value.shape and got.flags.writeable, name
        np.testing.assert_array_equal(got, value, err_msg=name)
    module.send_answer(theirs, (None, (ValueError("bad"), "traceback")))
    assert module.receive_answer(mine)[1][1] == "traceback"
    theirs.close()
    with pytest.raises(EOFError):
        module.receive_answer(mine)


def test_one_actors_rows_are_not_copied_unless_they_are_read_only():
    """:meth:`Actors.play` with one answer keeps its rows as they came (no copy), except
    read-only ones (views of Ray's object store), which it copies out as before; several
    answers are joined."""
    import numpy as np

    from training.exit.data import Positions
    from training.exit.play import Played

    def rows(game: int) -> Positions:
        return Positions(
            boards=np.full((1, 2), game, np.float16), actions=np.arange(2), features=np.zeros((2, 1), np.float16),
            policies=np.full(2, 0.5, np.float32), offsets=np.array([0, 2]), seats=np.zeros(1, np.int64),
            values=np.zeros((1, 2), np.float32), games=np.array([game]),
        )  # fmt: skip

    class Answers:
        def __init__(self, answers):
            self.answers = answers

        def map(self, jobs):
            return self.answers[: len(jobs)]

        def close(self, abort=False):
            pass

    with Actors(SETTINGS, 1) as actors:
        mine = rows(0)
        actors.backend = Answers([Played(np.zeros((1, 2), np.float32), mine, 1)])
        assert actors.play(RANDOM_GAMES[:1], [1], {}, 0).positions is mine
        mine.boards.flags.writeable = False
        copied = actors.play(RANDOM_GAMES[:1], [1], {}, 0).positions
        assert copied is not mine and copied.boards.flags.writeable and np.array_equal(copied.boards, mine.boards)
        actors.count = 2
        actors.backend = Answers([Played(np.zeros((1, 2), np.float32), rows(g), 1) for g in (3, 5)])
        joined = actors.play(RANDOM_GAMES, [1, 2], {}, 0).positions
        assert joined.boards[:, 0].tolist() == [3, 5] and len(joined.games) == 2


# A run's shape while it learns: two actor processes that played and now wait for work.
IDLE_RUN = """
import signal, time
from maya_envs.bots.guided import GuidedConfig
from training.exit.actors import Actors, ActorSettings
from training.exit.loop import exit_on_signal
from maya_envs.games import DEFAULT_GAME

if __name__ == "__main__":
    # as a run started from a shell has it: an ignored SIGINT is inherited through exec (from a
    # parent that ignores it, e.g. a test worker), and Ctrl-C would then not reach this run at all
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, exit_on_signal)  # as train_exit and training.exit.match do
    search = GuidedConfig(simulations=2)
    settings = ActorSettings(DEFAULT_GAME.key, {"num_players": 2, "max_turns": 16}, {}, search, search)
    with Actors(settings, 2) as actors:
        actors.play([["bot:random", "bot:random"]] * 2, [1, 2], {}, 0)
        print(" ".join(str(p.pid) for p in actors.backend.processes), flush=True)
        time.sleep(300)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    ("sent", "code"),
    [("SIGTERM", 128 + signal.SIGTERM), ("SIGINT", None), ("SIGKILL", -signal.SIGKILL)],
)
def test_a_signal_to_the_process_group_ends_the_run_and_its_idle_actors(tmp_path, sent, code):
    """What ``timeout``, a job scheduler (SIGTERM) or Ctrl-C (SIGINT) send reaches every process
    of the group; with ``multiprocessing.Pool``, a worker that died waiting for work held the
    pool's queue lock and SIGTERM hung the run for ever. kill -9 reaches the parent alone (here)."""
    script = tmp_path / "idle_run.py"
    script.write_text(IDLE_RUN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.Popen(
        [sys.executable, str(script)], cwd=tmp_path, env=env, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        pids = [int(x) for x in run.stdout.readline().split()]
        assert len(pids) == 2, run.stderr.read()
        if sent == "SIGKILL":
            run.kill()
        else:
            os.killpg(run.pid, getattr(signal, sent))
        rc = run.wait(timeout=60)
        stderr = run.stderr.read()
        deadline = time.monotonic() + 30
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in pids if _alive(pid)], f"actor processes left after {sent}"
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    if code is not None:
        assert rc == code, stderr
    else:  # Ctrl-C: the run's KeyboardInterrupt, and no traceback from an actor process
        assert rc != 0 and "KeyboardInterrupt" in stderr and "multiprocessing" not in stderr, stderr


def test_matches_play_on_the_frozen_network_and_self_play_on_torch(monkeypatch):
    """In an actor, the match agents (``az:``, ``policy:``) compute with the frozen numpy copy,
    as the ``az:``/``policy:`` bots do (the same moves, cheaper), and self-play (``learner``)
    with torch, so the training data is what it was."""
    import numpy as np

    from maya_envs.nn.frozen import FrozenNet
    from maya_envs.nn.inputs import NetworkInputs
    from maya_envs.nn.model import PolicyValueNet
    from training.exit.actors import Games, _Actor

    inputs = NetworkInputs(DEFAULT_GAME.make_rules(SETTINGS.game_options))
    kwargs = {"board_dim": inputs.board_dim, "feature_dim": inputs.feature_dim, "num_actions": inputs.num_actions,
              "num_values": inputs.num_players, "hidden": 8}  # fmt: skip
    torch.manual_seed(0)
    weights = {k: v.numpy() for k, v in PolicyValueNet(**kwargs).state_dict().items()}
    calls = {"frozen": 0, "torch": 0}
    frozen_call, torch_forward = FrozenNet.__call__, PolicyValueNet.forward

    def count(kind, call):
        def counted(self, *args, **kw):
            calls[kind] += 1
            return call(self, *args, **kw)

        return counted

    monkeypatch.setattr(FrozenNet, "__call__", count("frozen", frozen_call))
    monkeypatch.setattr(PolicyValueNet, "forward", count("torch", torch_forward))
    actor = _Actor(ActorSettings(**{**vars(SETTINGS), "net_kwargs": kwargs}))
    seen = {}
    for lineup in (["az:best", "bot:random"], ["policy:best", "bot:random"], ["learner", "learner"]):
        calls.update(frozen=0, torch=0)
        played = actor.play(Games([lineup], [1], {"best": weights}), seed=0)
        assert np.isfinite(played.values).all()
        seen[lineup[0]] = dict(calls)
    assert seen["az:best"]["frozen"] > 0 and seen["az:best"]["torch"] == 0
    assert seen["policy:best"]["frozen"] > 0 and seen["policy:best"]["torch"] == 0
    assert seen["learner"]["torch"] > 0 and seen["learner"]["frozen"] == 0
