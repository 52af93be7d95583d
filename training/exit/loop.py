"""The expert-iteration loop (``algo: exit``): imitation start, then self-play with guided
search, learning and gating, iteration after iteration; then the evaluation.

Iteration 0 (``exit.imitation``): the teacher (the heuristic bot, or a rollout search bot)
plays ``imitation_games`` games against itself; the network learns its choices and the
final returns. Each later iteration:

1. **Self-play**: the actors play ``games_per_iteration`` games with the last kept network
   and guided search (``simulations`` per move), drawing each game's kind from
   ``exit.opponents`` (self-play, or one network seat against the heuristic, random or an
   older kept network); every searched decision of the network's seats is recorded with its
   search policy, and each seat's final value once the game ends.
2. **Learning**: ``n_epochs`` passes over the replay buffer (the last ``replay_iterations``
   iterations), or with ``window_games`` one pass over a bounded-reuse draw from the window of
   the last games (:mod:`training.exit.window`), with the policy cross-entropy and value loss
   (:mod:`training.exit.learner`; value target: ``value_target_hook`` / ``value_target_q``).
   Forced moves are not trained on (``keep_forced``); with ``holdout_fraction`` a share of the
   new games is held out, and the value loss stops when their value loss stops improving.
3. **Gating**: the new network, raw (no search), plays ``gate_games`` seat-rotated games
   against the last kept network and against each of ``gate_opponents``; it is kept when its
   parity score against the last kept network reaches ``gate_threshold``
   (:mod:`training.exit.gating`). Self-play always uses the last kept network; the learner
   keeps training its own weights either way.

The run directory receives ``config.yaml``, TensorBoard scalars (``tb/``), ``history.json``
(one row per iteration; from iteration 1 with ``new_games_policy_loss``/``new_games_value_loss``,
the losses on the iteration's new games before the learner sees them, and
``new_games_value_mse_{net,hook,mix,residual}``, the own-seat error of each leaf value on them, with
``leaf_value``, the leaf the searches use from then on: ``exit.leaf_value``; every row with
``forced_rows_dropped``, ``holdout_rows``, ``rows_trained`` and, with held-out games,
``holdout_value_losses`` and ``value_stopped_after``; with ``exit.margin_weight`` > 0,
``margin_loss``, ``new_games_margin_loss`` and ``holdout_margin_losses``, the score-margin head's
losses), the learning curve
(``learning_curve.json``/``.png``: the gate matches against the bots),
``networks/iter_NNNN.pt`` (each kept network), ``checkpoint.pt`` (everything ``--resume``
needs, rewritten each iteration; not with ``exit.checkpoint: false``), ``model.pt`` (the last kept
network, :func:`maya_envs.nn.model.load_network`; plays as ``policy:<path>`` and
``az:<path>``) and the evaluation (``evaluation.jsonl``, a row per match as it ends, then
``evaluation.json``/``.md``: :mod:`training.exit.evaluation`).
"""

from __future__ import annotations

import copy
import json
import signal
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from training.config import TrainConfig, check_env
from training.run_dirs import new_run_dir, run_name


def opponent_lineups(kinds: list[str], num_players: int, older: list[str]) -> list[list[str]]:
    """Self-play lineups (agent specs, :mod:`training.exit.actors`) for games of the given
    kinds: ``self`` puts the learner in every seat; ``heuristic``/``random`` put it in seat
    ``g % num_players`` and the bot elsewhere; ``older`` puts an older kept network (with
    search) elsewhere, drawn in turn from ``older`` (self-play while there is none)."""
    lineups = []
    for game, kind in enumerate(kinds):
        if kind == "self" or (kind == "older" and not older):
            lineups.append(["learner"] * num_players)
            continue
        other = f"search:{older[game % len(older)]}" if kind == "older" else f"bot:{kind}"
        lineup = [other] * num_players
        lineup[game % num_players] = "learner"
        lineups.append(lineup)
    return lineups


class ExitTrainer:
    """One expert-iteration run (see the module docstring); :meth:`run` does it all."""

    OLDER_KEPT = 4
    """Older kept networks remembered as ``older`` opponents."""

    def __init__(self, config: TrainConfig, resume: str | Path | None = None) -> None:
        import torch

        from maya_envs.games import find_game
        from maya_envs.nn.inputs import NetworkInputs
        from maya_envs.nn.model import PolicyValueNet
        from training.exit.learner import Learner
        from training.exit.replay import ReplayBuffer

        check_env(config)
        self.config = config
        ex = config.exit
        if config.torch_threads:
            torch.set_num_threads(config.torch_threads)
        torch.manual_seed(config.seed)
        self.game = find_game(config.env_id)
        self.rules = self.game.make_rules(config.game_options)
        self.num_players = self.rules.spec.num_players
        self.inputs = NetworkInputs(self.rules)
        self.net_kwargs = {
            "board_dim": self.inputs.board_dim,
            "feature_dim": self.inputs.feature_dim,
            "num_actions": self.inputs.num_actions,
            "num_values": self.num_players,
            "hidden": ex.hidden,
            "id_bias": ex.id_bias,
            "residual": ex.residual_head(),
        }
        if ex.margin_head():  # only when on: the shape of checkpoints without the head stays as it was
            self.net_kwargs["margin_head"] = True
        self.net = PolicyValueNet(**self.net_kwargs)
        self.learner = Learner(
            self.net, config.learning_rate, ex.weight_decay, ex.value_weight, config.batch_size, ex.value_target_hook,
            ex.value_target_q, ex.margin_weight,
        )  # fmt: skip
        if ex.window_games:
            from training.exit.window import ReplayWindow

            self.replay = ReplayWindow(ex.window_games, ex.max_reuse)
        else:
            self.replay = ReplayBuffer(ex.replay_iterations)
        self.rng = np.random.default_rng(config.seed)
        self.iteration = -1  # the last finished iteration (0: the imitation start)
        self.best = copy.deepcopy(self.net.state_dict())
        self.older: list[dict] = []
        self.history: list[dict[str, Any]] = []
        self.elapsed = 0.0
        self.gate_cpu = 0.0
        self.resumed_from = None
        self.leaf = ex.first_leaf()  # the searches' leaf value now (exit.leaf_value)
        self.leaf_errors: dict[str, float] | None = None  # the last iteration's, for auto
        if resume is not None:
            self._load(Path(resume))

    # -- checkpoints -------------------------------------------------------------------------

    def _save(self, path: Path) -> None:
        from training.exit.checkpoint import save_checkpoint

        data = {
            "config": self.config.to_dict(),
            "net_kwargs": self.net_kwargs,
            "net": self.net.state_dict(),
            "optimizer": self.learner.optimizer.state_dict(),
            "best": self.best,
            "older": self.older,
            "iteration": self.iteration,
            "history": self.history,
            "elapsed": self.elapsed,
            "rng": self.rng.bit_generator.state,
            "replay": self._replay_state(),
            "leaf": self.leaf,
            "leaf_errors": self.leaf_errors,
        }
        save_checkpoint(data, path)  # tensors and plain data, read back with weights_only=True

    def _load(self, path: Path) -> None:
        from training.exit.checkpoint import load_checkpoint
        from training.exit.data import Positions

        data = load_checkpoint(path)  # refuses a file carrying pickled objects
        if {"residual": False, **data["net_kwargs"]} != self.net_kwargs:  # checkpoints from before the residual head
            raise ValueError(
                f"{str(path)!r} holds a network of shape {data['net_kwargs']}, the config's is {self.net_kwargs}"
            )
        self.net.load_state_dict(data["net"])
        self.learner.optimizer.load_state_dict(data["optimizer"])
        self.best, self.older = data["best"], data["older"]
        self.iteration, self.history, self.elapsed = data["iteration"], data["history"], data["elapsed"]
        self.rng.bit_generator.state = data["rng"]
        self.leaf = data.get("leaf", self.leaf)
        self.leaf_errors = data.get("leaf_errors")
        if isinstance(data["replay"], dict) != bool(self.config.exit.window_games):
            raise ValueError(f"{str(path)!r}: its replay data and the config's exit.window_games do not match")
        if isinstance(data["replay"], dict):
            self.replay.load_state_dict(data["replay"])
        else:
            for chunk in data["replay"]:
                self.replay.add(Positions(**chunk))
        self.resumed_from = str(path)

    def _replay_state(self) -> Any:
        if hasattr(self.replay, "state_dict"):
            return self.replay.state_dict()
        return [vars(chunk) for chunk in self.replay.chunks]

    def save_model(self, path: Path, extra: dict[str, Any] | None = None) -> Path:
        """The last kept network as a :func:`maya_envs.nn.model.save_network` file (``extra``:
        more facts for its meta)."""
        from maya_envs.nn.model import PolicyValueNet, save_network

        net = PolicyValueNet(**self.net_kwargs)
        net.load_state_dict(self.best)
        meta = {
            **self.inputs.meta(self.config.game_options),
            "trainer": "exit",
            "iteration": self.iteration,
            "leaf_value": self.leaf,  # what az:<this network> searches with (maya_envs.nn.agent.recorded_leaf)
            **(extra or {}),
        }
        save_network(net, path, meta)
        return path

    # -- one iteration ------------------------------------------------------------------------

    def _seeds(self, count: int) -> list[int]:
        return [int(x) for x in self.rng.integers(0, 2**31 - 1, size=count)]

    def _imitate(self, actors) -> dict[str, Any]:
        ex = self.config.exit
        lineups = [[f"teacher:{ex.imitation}"] * self.num_players for _ in range(ex.imitation_games)]
        played = actors.play(lineups, self._seeds(len(lineups)), {}, self._seeds(1)[0])
        new, recorded = self._rows(played)
        return self._learn(played, recorded, new, ex.imitation_epochs, imitation=True)

    def refit_imitation(self, played) -> dict[str, Any]:
        """Iteration 0's learning from ``played`` (a :class:`~training.exit.play.Played` whose
        positions are the rows a finished run learned from, forced moves already kept or dropped
        as it did), with this trainer's generator drawn as :meth:`_imitate` draws it, so the
        run's own seed repeats its network (:mod:`training.exit.refit`); the history fields."""
        ex = self.config.exit
        self._seeds(ex.imitation_games)  # what the teacher's games and the actors drew
        self._seeds(1)
        learned = self._learn(played, len(played.positions), played.positions, ex.imitation_epochs, imitation=True)
        self.best = copy.deepcopy(self.net.state_dict())
        self.iteration = 0
        return learned

    def _usable(self, positions):
        """The rows to learn from: without forced moves unless ``exit.keep_forced`` (``positions``
        itself when it has none, as in the teacher's quarry games: no copy of them all)."""
        if self.config.exit.keep_forced:
            return positions
        unforced = ~positions.forced()
        return positions if unforced.all() else positions.select(np.flatnonzero(unforced))

    def _rows(self, played) -> tuple[Any, int]:
        """``(the rows to learn from, the number of rows recorded)`` of ``played``
        (:meth:`_usable`); ``played.positions`` lets go of the recorded rows, so that a copy
        without the forced moves does not learn beside them (twice the rows' memory)."""
        recorded = len(played.positions)
        new = self._usable(played.positions)
        played.positions = None
        return new, recorded

    def _learn(self, played, recorded: int, new, passes: int, imitation: bool) -> dict[str, Any]:
        """Hold out a share of the new games (``holdout_fraction``), add the rest to the replay
        data, train (``passes`` passes over the buffer, or over window draws), then add the
        held-out games; the history fields of the iteration's games (``recorded`` rows played,
        ``new`` of them to learn from) and learning."""
        ex = self.config.exit
        held = None
        if ex.holdout_fraction and new.games is not None:
            games = np.unique(new.games)
            count = min(max(1, int(round(ex.holdout_fraction * len(games)))), len(games) - 1)
            if count > 0:
                chosen = self.rng.choice(games, size=count, replace=False)
                out = np.isin(new.games, chosen)
                new, held = new.select(np.flatnonzero(~out)), new.select(np.flatnonzero(out))
        self.replay.add(new)
        learn_cpu = time.process_time()
        if ex.window_games:
            count = len(new) if imitation else ex.max_reuse * len(new)
            orders = [self.replay.draw(self.rng, count) for _ in range(passes)]
        else:
            orders = [self.replay.draw(self.rng) for _ in range(passes)]
        stats = self.learner.fit(self.replay.positions, orders, held, ex.holdout_checks, ex.holdout_stop)
        if held is not None:
            self.replay.extend(held)
        return {
            **_learned(played, recorded, stats, time.process_time() - learn_cpu),
            "forced_rows_dropped": recorded - len(new) - (len(held) if held is not None else 0),
            "holdout_rows": 0 if held is None else len(held),
        }

    def _self_play(self, actors) -> dict[str, Any]:
        ex = self.config.exit
        kinds = list(ex.opponents)
        weights = np.array([ex.opponents[k] for k in kinds], np.float64)
        drawn = [kinds[i] for i in self.rng.choice(len(kinds), size=ex.games_per_iteration, p=weights / weights.sum())]
        older = [f"older{i}" for i in range(len(self.older))]
        lineups = opponent_lineups(drawn, self.num_players, older)
        nets = {"best": self.best, **dict(zip(older, self.older, strict=True))}
        played = actors.play(lineups, self._seeds(len(lineups)), nets, self._seeds(1)[0], self.leaf)
        new, recorded = self._rows(played)
        measured = self.learner.measure_all(new)
        errors = measured.errors
        leaf_played = self.leaf
        if ex.leaf_value == "auto" and errors:
            from training.exit.config import choose_leaf

            self.leaf = choose_leaf(errors, self.leaf_errors)
        self.leaf_errors = errors or None
        return {
            **self._learn(played, recorded, new, 1 if ex.window_games else self.config.n_epochs, imitation=False),
            "new_games_policy_loss": measured.policy_loss,
            "new_games_value_loss": measured.value_loss,
            **({} if measured.margin_loss is None else {"new_games_margin_loss": measured.margin_loss}),
            **{f"new_games_value_mse_{name}": error for name, error in errors.items()},
            "leaf_played": leaf_played,
            "leaf_value": self.leaf,
        }

    def match(self, actors, candidate: str, opponent: str, games: int, nets: dict[str, Any]):
        """A seat-rotated match of agent spec ``candidate`` against ``opponent``
        (:mod:`training.exit.actors`), played by the actors; the
        :class:`~training.exit.gating.Match` and the final values of its games."""
        from training.exit.gating import fair_share, match_lineups, score_match

        fair = fair_share(self.num_players, self.game.teams(self.num_players))
        lineups = match_lineups(candidate, opponent, games, self.num_players)
        played = actors.play(lineups, self._seeds(len(lineups)), nets, self._seeds(1)[0], self.leaf)
        self.gate_cpu += played.cpu_seconds
        return score_match(opponent.partition(":")[2], played.values, fair), played.values

    def _gate(self, actors, against_best: bool) -> tuple[dict[str, Any], bool]:
        from training.exit.gating import keep

        ex = self.config.exit
        opponents = [(name, f"bot:{name}") for name in ex.gate_opponents]
        if against_best:
            opponents.append(("last kept", "policy:best"))
        nets = {"candidate": self.net.state_dict(), "best": self.best}
        matches = {}
        self.gate_cpu = 0.0
        for name, spec in opponents if ex.gate_games else ():
            matches[name], _ = self.match(actors, "policy:candidate", spec, ex.gate_games, nets)
        kept = not against_best or "last kept" not in matches or keep(matches["last kept"], ex.gate_threshold)
        return {name: m.to_dict() for name, m in matches.items()}, kept

    def evaluate(self, actors, label: str, run_dir: Path | None = None) -> list:
        """The last kept network raw and with ``exit.eval_simulations`` guided simulations
        against the bots, as :class:`maya_envs.evaluation.MatchResult` rows
        (:func:`training.exit.evaluation.evaluate`: progress lines, each row written to
        ``run_dir`` as its match ends)."""
        from training.exit.evaluation import evaluate

        return evaluate(self, actors, label, run_dir)

    # -- the run ------------------------------------------------------------------------------

    def actor_settings(self):
        """What the actors of this run need (:class:`training.exit.actors.ActorSettings`)."""
        from training.exit.actors import ActorSettings

        ex = self.config.exit
        return ActorSettings(
            game=self.game.key,
            game_options=dict(self.config.game_options),
            net_kwargs=self.net_kwargs,
            search=ex.search_config(),
            eval_search=ex.eval_search_config(),
            sample_moves=ex.sample_moves,
            imitation_epsilon=ex.imitation_epsilon,
            in_flight=ex.games_in_flight,
            torch_threads=1,
            playout_cap=ex.playout_cap_settings(),
        )

    def run(self, run_dir: Path) -> dict[str, Any]:
        """Train until ``exit.iterations`` (or, where a config sets it, ``exit.max_seconds``),
        writing into ``run_dir``; return a summary for the results file."""
        from torch.utils.tensorboard import SummaryWriter
        from tqdm import tqdm

        from training.evaluate import evaluating
        from training.exit.actors import Actors
        from training.progress import is_terminal

        config, ex = self.config, self.config.exit
        settings = self.actor_settings()
        (run_dir / "networks").mkdir(exist_ok=True)
        writer = SummaryWriter(str(run_dir / "tb"))
        start_iteration = self.iteration + 1
        started = time.perf_counter() - self.elapsed
        first = 0 if ex.imitation != "none" else 1
        with Actors(settings, ex.actors, ex.actor_backend, ex.ray_address) as actors, tqdm(
            total=ex.iterations + 1, initial=max(start_iteration, first), desc="expert iteration", unit="it",
            disable=not (config.progress_bar and is_terminal()), dynamic_ncols=True,  # a log: the lines below
        ) as bar:  # fmt: skip
            for iteration in range(max(start_iteration, first), ex.iterations + 1):
                t0 = time.perf_counter()
                learned = self._imitate(actors) if iteration == 0 else self._self_play(actors)
                t1 = time.perf_counter()
                gates, kept = self._gate(actors, against_best=iteration > 0)
                if kept:
                    if iteration > 0:
                        self.older = [self.best, *self.older][: self.OLDER_KEPT]
                    self.best = copy.deepcopy(self.net.state_dict())
                    self.save_model(run_dir / "networks" / f"iter_{iteration:04d}.pt")
                self.iteration = iteration
                self.elapsed = time.perf_counter() - started
                row = {
                    "iteration": iteration,
                    "kept": kept,
                    "seconds": self.elapsed,
                    "play_learn_seconds": t1 - t0,
                    "gate_seconds": time.perf_counter() - t1,
                    "gate_cpu_seconds": self.gate_cpu,
                    "replay_positions": len(self.replay),
                    **learned,
                    "gates": gates,
                }
                self.history.append(row)
                self._log(writer, row, run_dir)
                if ex.checkpoint:
                    self._save(run_dir / "checkpoint.pt")
                bar.update(1)
                bar.set_postfix_str(_postfix(row))
                tqdm.write(
                    f"iteration {iteration} ({self.elapsed:.0f} s): {row['positions']:,} positions, {_postfix(row)}"
                )
                if ex.max_seconds and self.elapsed >= ex.max_seconds:
                    tqdm.write(f"stopping after iteration {iteration}: {self.elapsed:.0f} s >= max_seconds")
                    break
            writer.close()
            self.save_model(run_dir / "model.pt")
            bar.close()
            print(f"trained {self.iteration} iterations in {self.elapsed:.0f} s; " + evaluating(config))
            started, self.gate_cpu = time.perf_counter(), 0.0
            self.results = self.evaluate(actors, config.exp_name, run_dir)
            eval_seconds = time.perf_counter() - started
        return {
            "eval_seconds": eval_seconds,
            "eval_cpu_seconds": self.gate_cpu,  # the actors' (the games'), as play_cpu_seconds in the history
            "train_seconds": self.elapsed,
            "iterations": self.iteration,
            "positions": int(sum(r["positions"] for r in self.history)),
            "decisions": int(sum(r["decisions"] for r in self.history)),
            "kept_iterations": [r["iteration"] for r in self.history if r["kept"]],
            "resumed_from": self.resumed_from,
        }

    def _log(self, writer, row: dict[str, Any], run_dir: Path) -> None:
        from training.plots import plot_learning_curve

        step = row["iteration"]
        for key in ("policy_loss", "value_loss", "agreement", "positions", "replay_positions", "seconds"):
            writer.add_scalar(f"exit/{key}", row[key], step)
        mse = [key for key in row if key.startswith("new_games_value_mse_")]
        for key in ("new_games_policy_loss", "new_games_value_loss", "new_games_margin_loss", *mse):  # not always
            if key in row:
                writer.add_scalar(f"exit/{key}", row[key], step)
        if row.get("holdout_value_losses"):  # the held-out games' value loss after training
            writer.add_scalar("exit/holdout_value_loss", row["holdout_value_losses"][-1], step)
        if row.get("holdout_margin_losses"):
            writer.add_scalar("exit/holdout_margin_loss", row["holdout_margin_losses"][-1], step)
        if row.get("margin_loss") is not None:
            writer.add_scalar("exit/margin_loss", row["margin_loss"], step)
        writer.add_scalar("exit/kept", float(row["kept"]), step)
        for name, match in row["gates"].items():
            writer.add_scalar(f"gate/win_rate_vs_{name.replace(' ', '_')}", match["win_rate"], step)
        writer.flush()
        (run_dir / "history.json").write_text(json.dumps(self.history, indent=2))
        points = [
            {"iteration": r["iteration"], **match}
            for r in self.history
            for name, match in r["gates"].items()
            if name != "last kept"
        ]
        if points:
            (run_dir / "learning_curve.json").write_text(json.dumps(points, indent=2))
            fair = next(iter(self.history[-1]["gates"].values()))["fair_share"]
            title = f"{self.config.env_id} {self.config.exp_name}: raw network at each gate"
            plot_learning_curve(points, run_dir / "learning_curve.png", title, fair, "iteration", "iteration")


def _learned(played, recorded: int, stats, learn_cpu: float) -> dict[str, Any]:
    """The history fields of one iteration's games and learning: positions recorded,
    decisions played, the actors' and the learner's CPU seconds, and the learner's means."""
    return {
        "positions": recorded,
        "decisions": played.decisions,
        "play_cpu_seconds": played.cpu_seconds,
        "learn_cpu_seconds": learn_cpu,
        **vars(stats),
    }


def _postfix(row: dict[str, Any]) -> str:
    parts = [f"pol {row['policy_loss']:.2f}", f"val {row['value_loss']:.3f}"]
    if "new_games_value_loss" in row:
        parts.append(f"val on new games {row['new_games_value_loss']:.3f}")
    parts += [f"{name} {m['win_rate']:.0%}" for name, m in row["gates"].items()]
    return ", ".join(parts) + ("" if row["kept"] else " (not kept)")


def exit_on_signal(signum, frame) -> None:
    """A signal handler that unwinds like Ctrl-C (``SystemExit(128 + signum)``), so that
    context managers (the actor pool) clean up."""
    raise SystemExit(128 + signum)


def train_exit(config: TrainConfig, resume: str | Path | None = None) -> Path:
    """Run expert iteration from ``config`` (or continue the ``checkpoint.pt`` ``resume`` up
    to ``exit.iterations`` in all) into a new run directory, evaluate the kept network raw and
    with ``exit.eval_simulations`` guided simulations against ``eval_opponents``
    (:meth:`ExitTrainer.evaluate`; the table and ``evaluation.json``/``.md`` of
    :func:`training.evaluate.write_results`), and return the directory.

    Raises:
        ConfigError: the env cannot be built from the config (nothing is written then).
        ValueError: ``resume`` is not a checkpoint of an exit run of the same network shape.
    """
    import yaml

    from training.evaluate import write_results

    trainer = ExitTrainer(config, resume)
    run_dir = new_run_dir(config.output_dir, run_name(config))
    (run_dir / "config.yaml").write_text(yaml.safe_dump(config.to_dict(), sort_keys=False))
    print(f"run directory: {run_dir}")
    # SIGTERM (kill, a job scheduler) unwinds like Ctrl-C, so the actor processes end with the run
    previous = (
        signal.signal(signal.SIGTERM, exit_on_signal) if threading.current_thread() is threading.main_thread() else None
    )
    try:
        summary = trainer.run(run_dir)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    write_results(trainer.results, run_dir, summary)
    return run_dir
