"""SB3 callbacks of ``maya-train``: illegal actions in rollouts, the learning curve, and
progress lines for a log.

Imported by :func:`training.train.train` only (it needs stable-baselines3 and torch), so
``maya-train --list-configs`` and ``--help`` stay fast.
"""

from __future__ import annotations

import json
from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback

from maya_envs.games import find_game
from training.config import TrainConfig
from training.evaluate import aec_factory, evaluate_against_bots
from training.progress import LineProgress


class IllegalActionCounter(BaseCallback):
    """Counts, over the rollouts, the learner's illegal actions (an env ``info`` naming the
    learner as ``offender``) and the episodes started in each learner seat."""

    def __init__(self) -> None:
        super().__init__()
        self.illegal = 0
        self.seats: dict[str, int] = {}

    def _on_step(self) -> bool:
        for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
            if info.get("offender") is not None and info.get("offender") == info.get("learner"):
                self.illegal += 1
            if done:
                learner = str(info.get("learner"))
                self.seats[learner] = self.seats.get(learner, 0) + 1
        return True


class ProgressLines(BaseCallback):
    """Training progress as plain lines, for a log where SB3's bar (``progress_bar=True``, a
    terminal only) would write one carriage-return line: ``training: 12% 12,288/100,000 steps,
    0:31 elapsed, 396.4 steps/s, ep_rew_mean 0.08`` every 10 % of the steps or every minute
    (:class:`training.progress.LineProgress`), on stderr.

    Args:
        total: the steps this ``learn`` call trains (the count starts at the model's
            ``num_timesteps`` when training begins, as for a resumed run).
    """

    def __init__(self, total: int) -> None:
        super().__init__()
        self.total = total
        self.lines: LineProgress | None = None
        self.first = 0

    def _on_training_start(self) -> None:
        self.first = self.model.num_timesteps
        self.lines = LineProgress(self.total, "training", "step", extra=self._reward)

    def _reward(self) -> str:
        episodes = self.model.ep_info_buffer
        return f"ep_rew_mean {sum(e['r'] for e in episodes) / len(episodes):.3g}" if episodes else ""

    def _on_step(self) -> bool:
        self.lines.update_to(self.model.num_timesteps - self.first)
        return True

    def _on_training_end(self) -> None:
        self.lines.close()


class LearningCurveCallback(BaseCallback):
    """Every ``config.eval_every`` steps (and at the end), play ``config.eval_curve_games``
    games against each bot of ``config.eval_opponents`` (seats rotated; the model's
    ``predict`` gets each position's mask) and rewrite ``learning_curve.json`` and ``.png``.

    A point is taken when a rollout starts (the weights have just been updated), never in the
    middle of one, so no two points come from the same weights: the last point, at the end of
    training, follows the last update."""

    def __init__(self, config: TrainConfig, run_dir: Path) -> None:
        super().__init__()
        self.config = config
        self.run_dir = Path(run_dir)
        self.points: list[dict] = []
        self.next_at = 0

    def _evaluate(self) -> None:
        from training.plots import plot_learning_curve

        config = self.config
        results = evaluate_against_bots(
            self.model, config, name=config.exp_name, games=config.eval_curve_games, progress=False
        )
        for result in results:
            self.points.append({"timesteps": self.num_timesteps, **result.to_dict()})
        players = aec_factory(config)().rules.spec.num_players
        (self.run_dir / "learning_curve.json").write_text(json.dumps(self.points, indent=2))
        title = f"{config.env_id.split('/')[-1]} {players}p {config.exp_name}"
        teams = find_game(config.env_id).teams(players)
        fair = 1 / len(teams) if teams else 1 / players
        plot_learning_curve(self.points, self.run_dir / "learning_curve.png", title, fair_share=fair)
        self.next_at = self.num_timesteps + config.eval_every

    def _on_training_start(self) -> None:
        self.next_at = self.num_timesteps + self.config.eval_every

    def _on_rollout_start(self) -> None:
        if self.num_timesteps >= self.next_at:
            self._evaluate()

    def _on_step(self) -> bool:
        return True

    def _on_training_end(self) -> None:
        if not self.points or self.points[-1]["timesteps"] != self.num_timesteps:
            self._evaluate()
