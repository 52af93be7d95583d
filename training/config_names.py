"""Shipped configs by name: ``maya2012/2p_quick`` is ``configs/maya2012/2p_quick.yaml``.

The configs are the package :mod:`training.configs` (the repository's top-level ``configs/``
directory; package data of the wheel), so a name works from an installed wheel in any
directory. :func:`resolve_config` is the one place that turns a ``--config`` argument into a
file for ``maya-train``, ``maya-eval``, ``maya-arena`` and ``training/rllib_train.py``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from maya_envs.core.errors import ConfigError, did_you_mean, shorten


def _configs_dir() -> Path:
    """The configs of the code that runs: ``training/configs/`` of an installed wheel, else
    ``configs/`` beside the ``training`` package of a checkout (also where an editable install
    of another checkout would map :mod:`training.configs` to that checkout's files)."""
    here = Path(__file__).resolve().parent
    for folder in (here / "configs", here.parent / "configs"):
        if (folder / "__init__.py").is_file():
            return folder
    import training.configs

    return Path(training.configs.__file__).resolve().parent


#: The directory of the shipped configs (``configs/`` in the repository).
CONFIGS_DIR = _configs_dir()


def config_names(group: str | None = None) -> list[str]:
    """Sorted names of the shipped configs: paths below the configs directory without ``.yaml``.

    Args:
        group: only the names in this folder (``"maya2012"``, ``"maya_quarry"``, ``"yaxha"``,
            ``"rllib"``); ``None`` (default): every name.
    """
    names = sorted(path.relative_to(CONFIGS_DIR).with_suffix("").as_posix() for path in CONFIGS_DIR.rglob("*.yaml"))
    if group is None:
        return names
    return [name for name in names if name.startswith(f"{group}/")]


def path_name(path: str | os.PathLike[str] | None) -> str:
    """The shipped name of a config file (``rllib/yaxha_2p``), or the path itself for any other file."""
    path = Path(str(path))
    try:
        return path.resolve().relative_to(CONFIGS_DIR).with_suffix("").as_posix()
    except ValueError:
        return str(path)


def resolve_config(spec: str | os.PathLike[str]) -> Path:
    """The config file ``spec`` refers to: an existing file first, else a shipped config's name.

    A name may carry the repository prefix ``configs/`` and the suffix ``.yaml``, so
    ``configs/yaxha/2p_quick.yaml`` also works from an installed wheel outside the checkout.

    Args:
        spec: a path to a YAML file, or a name from :func:`config_names` (``"maya2012/2p_quick"``).

    Returns:
        The path of the file (not yet read).

    Raises:
        ConfigError: ``spec`` is neither an existing file nor a shipped name; the message
            suggests the closest names (``maya2012/2p_quik``: ``'maya2012/2p_quick'``) and
            lists them all.
    """
    path = Path(spec)
    if path.is_file():
        return path
    name = path.as_posix()
    name = name.removeprefix("configs/").removesuffix(".yaml")
    candidate = CONFIGS_DIR / f"{name}.yaml"
    if name in config_names():
        return candidate
    raise ConfigError(
        f"config {str(spec)!r} is neither a file nor a shipped config name{did_you_mean(name, config_names())}"
        f"; shipped names: {config_names()}"
    )


def split_override(item: str) -> tuple[str, str]:
    """One ``--set`` override, ``"key=value"``, as ``(key, value)``: the key stripped, the value
    the raw YAML text after the first ``=``.

    Raises:
        ConfigError: no ``=`` in ``item``.
    """
    key, sep, raw = item.partition("=")
    if not sep:
        raise ConfigError(f"override {shorten(item)} must look like key=value")
    return key.strip(), raw


def whole_floats_to_ints(data: dict[str, Any], keys: tuple[str, ...]) -> None:
    """In place: each of ``keys`` whose value is a whole float becomes that int (a YAML
    ``2.0e+5`` or ``200000.0`` counts as ``200000``); other values are left for validation."""
    for key in keys:
        if isinstance(data.get(key), float) and data[key].is_integer():
            data[key] = int(data[key])
