"""SB3 callbacks of ``maya-train``: illegal actions in rollouts, and the learning curve.

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
