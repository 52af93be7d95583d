"""Run directories of the trainers (``maya-train`` with MaskablePPO or expert iteration, the
RLlib trainer, ``maya-arena``): one new directory per run, ``<output_dir>/<name>__<time>``
(CleanRL's ``{env}__{exp}__{seed}__{time}``), unique even for two runs of the same config and
seed started in the same second: the second gets ``<name>__<time>-2``, the next ``-3``, ...

The directory is created with ``mkdir(exist_ok=False)`` and the name tried again on a clash,
so two processes never share one (the file system decides which one wins a name).
"""

from __future__ import annotations

from pathlib import Path

from maya_envs.core.paths import MAX_SAME_SECOND, claim_new, timestamp
from training.config import TrainConfig

#: How many same-second names :func:`new_run_dir` tries before it gives up.
MAX_SAME_SECOND_RUNS = MAX_SAME_SECOND


def _timestamp() -> str:
    """The local time to the second, ``YYYYmmdd-HHMMSS``."""
    return timestamp()


def run_name(config: TrainConfig) -> str:
    """``{env}__{exp_name}__{seed}`` of a ``maya-train`` config (``env``: the Gymnasium id's
    name, ``"Maya2012-v1"``); :func:`new_run_dir` adds the time."""
    env = config.env_id.split("/")[-1]
    return f"{env}__{config.exp_name}__{config.seed}"


def new_run_dir(output_dir: str | Path, name: str) -> Path:
    """Create and return a new directory ``<output_dir>/<name>__<YYYYmmdd-HHMMSS>`` (local
    time), with ``-2``, ``-3``, ... appended where a run of the same name started in the same
    second already has it (:func:`maya_envs.core.paths.claim_new`). ``output_dir`` is created if
    missing.

    Raises:
        FileExistsError: :data:`MAX_SAME_SECOND_RUNS` directories of that name and second exist.
    """
    return claim_new(output_dir, f"{name}__{_timestamp()}", Path.mkdir)
