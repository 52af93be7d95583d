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
from maya_envs.registration import resolve_env_id
from training.config import TrainConfig

#: How many same-second names :func:`new_run_dir` tries before it gives up.
MAX_SAME_SECOND_RUNS = MAX_SAME_SECOND


def _timestamp() -> str:
    """The local time to the second, ``YYYYmmdd-HHMMSS``."""
    return timestamp()


def run_name(config: TrainConfig) -> str:
    """``{env}__{exp_name}__{seed}`` of a ``maya-train`` config; :func:`new_run_dir` adds the time.

    ``env`` is the name of the registered Gymnasium id with its version, ``<gym_name>-v<N>``,
    also where the config writes the versionless id (resolved by
    :func:`maya_envs.registration.resolve_env_id`): a run directory says which env version
    it trained, and the names stay those of the runs made before configs left the version out.

    Raises:
        ConfigError: ``config.env_id`` names no registered id.
    """
    env = resolve_env_id(config.env_id).split("/")[-1]
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
