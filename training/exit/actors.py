"""Actors: they play the games of an iteration (self-play, the teacher's games, gating
matches) with :func:`training.exit.play.play_games`, each on one core (torch threads 1), and
return the results to the learner. They run as local processes (``exit.actor_backend:
process``, the default) or as Ray actors (``ray``: a local Ray, or a cluster at
``exit.ray_address``), :data:`BACKENDS`; either plays the same games for the same seeds. The
weights of the networks a batch of games needs travel with it, once per call.

Agent specs in a lineup (one string per seat; equal strings are one agent, so its games share
each forward pass):

=====================  ==============================================================
``learner``            the network ``"best"`` with guided search, recording the search
                       policy; its first ``sample_moves`` moves per game drawn from it
``search:<net>``       network ``<net>`` with guided search (``search``)
``az:<net>``           network ``<net>`` with guided search (``eval_search``: no root
                       noise, what the ``az:`` bot spec plays)
``policy:<net>``       network ``<net>`` raw: its most probable legal action
``teacher:<bot>``      a bot spec (``heuristic``, ``mcts:...``; resolved by
                       :mod:`maya_envs.players`) recording its choice as the target,
                       with ``imitation_epsilon`` random moves
``bot:<bot>``          a bot (``random``, ``heuristic``, ``mcts:...``)
=====================  ==============================================================
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from maya_envs.core.errors import shorten
from training.exit.data import Positions
from training.exit.play import Played, play_games


@dataclass(frozen=True)
class ActorSettings:
    """What every actor needs to build its game, networks and agents: ``search`` is the
    self-play search (``learner``, ``search:``), ``eval_search`` the match search (``az:``),
    each one :class:`maya_envs.bots.guided.GuidedConfig` built by the caller
    (:meth:`training.exit.config.ExitConfig.search_config`)."""

    game: str
    game_options: dict[str, Any]
    net_kwargs: dict[str, Any]
    search: Any
    eval_search: Any
    sample_moves: int = 0
    imitation_epsilon: float = 0.0
    in_flight: int = 32
    torch_threads: int = 1
    playout_cap: tuple[float, int, float] | None = None  # the learner's (p, small, value_weight)


@dataclass
class Games:
    """One batch of games for one actor: ``lineups[g][seat]`` agent specs, ``seeds[g]`` and the
    weights (``{name: state dict of numpy arrays}``) of the networks they name; ``leaf`` the
    searches' leaf value in these games (``None``: the settings' own)."""

    lineups: list[list[str]]
    seeds: list[int]
    weights: dict[str, dict[str, np.ndarray]]
    leaf: str | None = None


class _Actor:
    """The games side of one process (built once per process by :func:`_init`)."""

    def __init__(self, settings: ActorSettings) -> None:
        import torch

        from maya_envs.games import find_game
        from maya_envs.nn.inputs import NetworkInputs

        if settings.torch_threads:
            torch.set_num_threads(settings.torch_threads)
        self.settings = settings
        self.rules = find_game(settings.game).make_rules(settings.game_options)
        self.inputs = NetworkInputs(self.rules)

    def play(self, games: Games, seed: int) -> Played:
        import torch

        from maya_envs.nn.agent import NetworkEvaluator
        from maya_envs.nn.model import PolicyValueNet
        from maya_envs.players import resolve_player
        from training.exit.play import BotAgent, PolicyAgent, SearchAgent

        s, rules = self.settings, self.rules
        search, eval_search = s.search, s.eval_search
        if games.leaf is not None:
            search, eval_search = replace(search, leaf=games.leaf), replace(eval_search, leaf=games.leaf)
        rng = np.random.default_rng(seed)
        evaluators = {}
        for name, weights in games.weights.items():
            net = PolicyValueNet(**s.net_kwargs)
            net.load_state_dict({k: torch.from_numpy(np.asarray(v)) for k, v in weights.items()})
            net.eval()
            evaluators[name] = NetworkEvaluator(net, self.inputs)
        frozen: dict[str, Any] = {}

        def match_evaluator(name: str):
            # Matches (az:, policy:) play as the az:/policy: bots do, on the frozen numpy copy: the
            # same moves, cheaper. Self-play keeps torch, so the training data is as it was. The
            # copy is made only for a network that plays a match in these games.
            if name not in frozen:
                frozen[name] = NetworkEvaluator(evaluators[name].net, self.inputs, frozen=True)
            return frozen[name]

        agents: dict[str, Any] = {}

        def agent(spec: str):
            if spec in agents:
                return agents[spec]
            kind, _, rest = spec.partition(":")
            if kind == "learner":
                made = SearchAgent(rules, evaluators["best"], search, True, s.sample_moves, rng, s.playout_cap)
            elif kind == "search":
                made = SearchAgent(rules, evaluators[rest], search, rng=rng)
            elif kind == "az":  # a match: no root noise, as the az: bot spec plays
                made = SearchAgent(rules, match_evaluator(rest), eval_search, rng=rng)
            elif kind == "policy":
                made = PolicyAgent(rules, match_evaluator(rest), deterministic=True, rng=rng)
            elif kind == "teacher":
                made = BotAgent(rules, resolve_player(rest, rules, rng), True, s.imitation_epsilon, rng)
            elif kind == "bot":
                made = BotAgent(rules, resolve_player(rest, rules, rng), rng=rng)
            else:
                raise ValueError(f"unknown agent spec {shorten(spec)}")
            agents[spec] = made
            return made

        lineups = [[agent(spec) for spec in lineup] for lineup in games.lineups]
        return play_games(rules, lineups, games.seeds, self.inputs, s.in_flight)


_PIECE = 64 << 20
"""Bytes per pipe message of an answer's array data (:func:`send_answer`): the receiving end
holds one message twice while it reads it."""


def send_answer(conn, obj: Any) -> None:
    """``conn.send(obj)`` for objects holding large arrays (an actor's recorded rows): a
    protocol-5 pickle of ``obj`` without its arrays' data, then that data straight from the
    arrays' memory, in pieces of at most :data:`_PIECE` bytes. ``conn.send`` pickled it all
    first: one more copy of every array in the sender, two more in the receiver while it read
    and unpickled. Read with :func:`receive_answer`."""
    buffers: list[pickle.PickleBuffer] = []
    head = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)  # fails before anything is sent
    views = [buffer.raw() for buffer in buffers]
    conn.send((head, [view.nbytes for view in views]))
    for view in views:
        for start in range(0, view.nbytes, _PIECE):
            conn.send_bytes(view[start : start + _PIECE])


def receive_answer(conn) -> Any:
    """The object :func:`send_answer` sent on the other end of ``conn``, its arrays on fresh
    writable memory filled piece by piece."""
    head, sizes = conn.recv()
    buffers = []
    for size in sizes:
        buffer = bytearray(size)
        for start in range(0, size, _PIECE):
            conn.recv_bytes_into(buffer, start)
        buffers.append(buffer)
    return pickle.loads(head, buffers=buffers)


class ActorError(RuntimeError):
    """An actor process ended without answering (killed, out of memory): the games it held
    are lost, so :meth:`Actors.play` raises this instead of waiting for ever."""


def _serve(conn, settings: ActorSettings) -> None:
    """The loop of one actor process: build the games side once, then answer each
    ``(Games, seed)`` on ``conn`` with ``(Played, None)`` or ``(None, (error, traceback))``
    until ``None`` or the end of the pipe."""
    import os
    import signal
    import threading
    import traceback

    # Ctrl-C reaches the whole process group: the parent alone unwinds, then ends this process
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # a parent killed outright (kill -9) leaves no one to read the games: end with it, busy or not
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=lambda: (parent.join(), os._exit(1)), daemon=True).start()
    try:
        actor, failed = _Actor(settings), None
    except Exception as error:  # every job is answered with it (a pool would restart the process for ever)
        actor, failed = None, (error, traceback.format_exc())
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        if failed is not None:
            send_answer(conn, (None, failed))
            continue
        try:
            answer = (actor.play(*job), None)
        except Exception as error:
            answer = (None, (error, traceback.format_exc()))
        try:
            send_answer(conn, answer)
        except Exception as error:  # an error that does not pickle travels as its text
            send_answer(conn, (None, (RuntimeError(repr(error)), traceback.format_exc())))
        del job, answer  # the rows sent are not kept through the wait and the next games


class ProcessActors:
    """``count`` spawned actor processes (``count == 1``: the games run in this process),
    actor ``i`` playing job ``i`` of each call through its own pipe.

    No queue or lock is shared between the processes (:class:`multiprocessing.pool.Pool`'s
    is: a worker that a signal to the process group ended while it waited for work held the
    queue's lock, and ``Pool.terminate`` then waited for it for ever, so that SIGTERM, the
    signal ``timeout`` and job schedulers send to the group, hung the run). An actor that dies
    raises :class:`ActorError` in :meth:`map` (then the actors are spent: :meth:`close` them).

    Attributes:
        processes: the actor processes (:class:`multiprocessing.Process`; none for ``count == 1``).
    """

    def __init__(self, settings: ActorSettings, count: int) -> None:
        self._local = _Actor(settings) if count == 1 else None
        self.processes: list = []
        self._pipes: list = []
        if count == 1:
            return
        context = multiprocessing.get_context("spawn")  # no fork after torch's threads start
        try:
            for i in range(count):
                mine, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(theirs, settings), name=f"actor-{i}", daemon=True)
                process.start()
                theirs.close()
                self.processes.append(process)
                self._pipes.append(mine)
        except BaseException:
            self.close(abort=True)
            raise

    def map(self, jobs: list[tuple[Games, int]]) -> list[Played]:
        """Play job ``i`` on actor ``i`` (``len(jobs) <= count``); the results in job order.

        Raises:
            ActorError: an actor process ended before it answered.
            Exception: the first error an actor raised while playing (its traceback chained).
        """
        from multiprocessing.connection import wait

        if self._local is not None:
            return [self._local.play(*job) for job in jobs]
        for i, job in enumerate(jobs):  # jobs never outnumber the actors
            try:
                self._pipes[i].send(job)
            except OSError as error:  # the process ended since the last call
                raise self._ended(i) from error
        answers = {}
        for i in range(len(jobs)):
            pipe, process = self._pipes[i], self.processes[i]
            while i not in answers:
                ready = wait([pipe, process.sentinel])
                if pipe in ready:
                    try:
                        answers[i] = receive_answer(pipe)
                    except (EOFError, OSError) as error:  # the process ended before or while it answered
                        raise self._ended(i) from error
                elif not process.is_alive():
                    raise self._ended(i)
        results = []
        for i in range(len(jobs)):
            played, failure = answers[i]
            if failure is not None:
                error, text = failure
                raise error from ActorError(f"in actor process {i}:\n{text}")
            results.append(played)
        return results

    def _ended(self, i: int) -> ActorError:
        process = self.processes[i]
        process.join(timeout=1)
        return ActorError(f"actor process {i} (pid {process.pid}) ended with exit code {process.exitcode}")

    def close(self, abort: bool = False) -> None:
        """End the processes: ask them to stop and wait (``abort``: terminate them at once)."""
        for pipe in self._pipes:
            if not abort:
                try:
                    pipe.send(None)
                except OSError:  # already gone
                    pass
            pipe.close()
        for process in self.processes:
            if abort:
                process.terminate()
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
                process.join()
        self.processes, self._pipes = [], []


def import_ray():
    """Import :mod:`ray` for ``exit.actor_backend: ray``.

    Raises:
        ImportError: Ray is not installed (the message says how to install it).
    """
    try:
        import ray
    except ImportError as error:
        raise ImportError(
            f"the ray actor backend needs Ray, which cannot be imported ({error}): pip install "
            "'maya-envs[ray]' (or 'ray>=2.40'); allowed without it: the process backend"
        ) from error
    return ray


class _RayActor:
    """The games side of one Ray actor (:class:`RayActors`)."""

    def __init__(self, settings: ActorSettings) -> None:
        self.actor = _Actor(settings)

    def play(self, games: Games, weights: dict[str, dict[str, np.ndarray]], seed: int) -> Played:
        # the object store's arrays are read-only; torch wants its own (writable) copy
        weights = {name: {k: np.array(v) for k, v in sd.items()} for name, sd in weights.items()}
        return self.actor.play(replace(games, weights=weights), seed)


SHIPPED_PACKAGES = ("maya_envs", "training")
"""The packages a Ray job given an ``address`` ships to its actors (``runtime_env``
``py_modules``), so that every node plays the driver's code; the nodes install the
dependencies (``pip install 'maya-envs[train]'``)."""


class RayActors:
    """``count`` Ray actors (one CPU each), actor ``i`` playing job ``i`` of each call; the
    networks' weights go into Ray's object store once per call, shared by the actors.

    With Ray already initialised (``ray.init`` by the caller) its cluster is used as it is;
    else ``ray.init(address)`` connects to the cluster at ``address`` (``"auto"``: the one
    ``ray start --head`` started on this machine; ``"ray://host:10001"``: Ray Client) and
    ships :data:`SHIPPED_PACKAGES`, or with ``address=None`` starts a local Ray (this
    machine's files, nothing shipped); what this object started, :meth:`close` shuts down.

    Raises:
        ImportError: Ray is not installed.
        ValueError: ``count`` is above the cluster's CPUs (one actor needs one).
    """

    def __init__(self, settings: ActorSettings, count: int, address: str | None = None) -> None:
        ray = self._ray = import_ray()
        self._actors: list = []
        self._started = not ray.is_initialized()
        if self._started:
            runtime_env = None
            if address is not None:  # the packages as imported here (a checkout or site-packages)
                import importlib

                runtime_env = {"py_modules": [importlib.import_module(name) for name in SHIPPED_PACKAGES]}
            import signal
            import threading

            previous = signal.getsignal(signal.SIGTERM)
            ray.init(address=address, include_dashboard=False, runtime_env=runtime_env)
            if callable(previous) and threading.current_thread() is threading.main_thread():
                # ray.init puts its own SIGTERM handler in (it aborts the process): keep the
                # caller's (train_exit's unwinds, so that close() ends the actors and this Ray)
                signal.signal(signal.SIGTERM, previous)
        cpus = ray.cluster_resources().get("CPU", 0)
        if count > cpus:  # the actors beyond the cluster's CPUs would wait for one for ever
            self.close()
            raise ValueError(f"exit.actors={count}; allowed: at most the Ray cluster's {cpus:g} CPUs")
        remote = ray.remote(num_cpus=1)(_RayActor)
        self._actors = [remote.remote(settings) for _ in range(count)]

    def map(self, jobs: list[tuple[Games, int]]) -> list[Played]:
        """Play job ``i`` on actor ``i`` (``len(jobs) <= count``); the results in job order.

        Raises:
            ray.exceptions.RayError: an actor died or raised (Ray's error, naming the cause).
        """
        ray = self._ray
        weights = ray.put(jobs[0][0].weights)  # every job of a call carries the same networks
        refs = [
            actor.play.remote(replace(games, weights={}), weights, seed)
            for actor, (games, seed) in zip(self._actors, jobs)  # zip: jobs never outnumber the actors
        ]
        return ray.get(refs)

    def close(self, abort: bool = False) -> None:
        """End the actors (and the Ray this object started)."""
        for actor in self._actors:
            self._ray.kill(actor)
        self._actors = []
        if self._started:
            self._ray.shutdown()
            self._started = False


BACKENDS = {"process": ProcessActors, "ray": RayActors}
"""``exit.actor_backend`` -> the class that runs the actors: local spawned processes
(the default) or Ray actors (a local Ray, or a cluster: ``exit.ray_address``)."""


class Actors:
    """``count`` actors that play the games of each call, split in ``count`` contiguous
    parts, part ``i`` with generator seed ``seed + i`` on actor ``i``: the results depend on
    the seeds and ``count`` alone, not on the backend (:data:`BACKENDS`: ``process``, ``ray``
    with ``address``, see :class:`RayActors`), nor on which machine plays a part.

    Use as a context manager, or call :meth:`close`.

    Attributes:
        backend: the :data:`BACKENDS` object that runs the actors (``None`` once closed).

    Raises:
        ValueError: an unknown ``backend``, or an ``address`` for the process backend.
        ImportError: ``backend="ray"`` without Ray installed.
    """

    def __init__(
        self, settings: ActorSettings, count: int, backend: str = "process", address: str | None = None
    ) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"actor backend {backend!r}; allowed: {', '.join(BACKENDS)}")
        if address is not None and backend != "ray":
            raise ValueError(f"a Ray address ({address!r}) needs the ray actor backend, not {backend!r}")
        self.count = count
        self.backend = RayActors(settings, count, address) if backend == "ray" else ProcessActors(settings, count)

    def play(
        self,
        lineups: Sequence[Sequence[str]],
        seeds: Sequence[int],
        weights: dict[str, Any],
        seed: int,
        leaf: str | None = None,
    ) -> Played:
        """Play one game per lineup, split over the actors; the results in ``lineups`` order.

        Args:
            lineups: agent specs per seat (see the module docstring).
            seeds: one game seed per lineup.
            weights: ``{name: state dict}`` of the networks the specs name (tensors or arrays).
            seed: seeds the actors' own generators (search, sampling, bots).
            leaf: the searches' leaf value (:data:`maya_envs.bots.guided.LEAVES`; ``None``: the settings').

        Raises:
            ActorError: an actor process ended before it answered (process backend).
        """
        arrays = {name: {k: np.asarray(v.detach().cpu() if hasattr(v, "detach") else v) for k, v in sd.items()}
                  for name, sd in weights.items()}  # fmt: skip
        parts = min(self.count, len(lineups)) or 1
        bounds = np.linspace(0, len(lineups), parts + 1).astype(int)
        jobs = [
            (Games([list(x) for x in lineups[a:b]], [int(x) for x in seeds[a:b]], arrays, leaf), seed + i)
            for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:], strict=True))
        ]
        results = self.backend.map(jobs)
        values = np.concatenate([r.values for r in results])
        recorded = [r.positions for r in results if r.positions is not None]
        positions = None
        if len(recorded) == 1 and all(a.flags.writeable for a in vars(recorded[0]).values() if a is not None):
            positions = recorded[0]  # one actor's own rows (concat copies them, to the same values)
        elif recorded:  # several actors' rows, or read-only views of Ray's object store: copied out
            positions = Positions.concat(recorded)
        return Played(values, positions, sum(r.decisions for r in results), sum(r.cpu_seconds for r in results))

    def close(self, abort: bool = False) -> None:
        """End the actors (``abort``: at once, without letting them finish their games)."""
        if self.backend is not None:
            self.backend.close(abort)
            self.backend = None

    def __enter__(self) -> Actors:
        return self

    def __exit__(self, *exc) -> None:
        self.close(abort=exc[0] is not None)
