"""The expert-iteration checkpoint file (``checkpoint.pt``): tensors and plain data, never code.

What ``--resume`` and :mod:`training.exit.refit` read is written by :func:`save_checkpoint` and
read by :func:`load_checkpoint` with ``torch.load(weights_only=True)``, whose unpickler builds
only tensors, ``dict``/``list``/``tuple``, ``str``, ``int``, ``float``, ``bool`` and ``None``:
a file carrying any other pickled object (a ``__reduce__`` payload) is refused before anything
of it runs. The trainer's numpy arrays (replay rows, the window's use counts) are written as
tensors under a one-key dict ``{NUMPY: tensor}`` and come back as writable numpy arrays of the
same dtype and shape; numpy scalars are written as Python numbers. Each array's bytes go
straight into the file (torch writes a tensor's storage as it is, outside the pickle), so saving
copies no rows.

Format ``maya_envs.exit_checkpoint/2``; version 1 (before issue 44) pickled the arrays and can
only be read by unpickling: :func:`convert` (``python -m training.exit.checkpoint OLD NEW``)
rewrites one, for a file you made yourself.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

from maya_envs.torch_errors import torch_load_reason

FORMAT = "maya_envs.exit_checkpoint/2"
OLD_FORMAT = "maya_envs.exit_checkpoint/1"
NUMPY = "__numpy__"
"""The key of the one-key dict that stands for a numpy array in the file."""
CONVERT = "python -m training.exit.checkpoint OLD.pt NEW.pt"
"""The command that rewrites a format-1 checkpoint (it unpickles the old file: only your own)."""
_PLAIN = (str, int, float, bool, type(None))


def to_plain(value: Any, where: str = "checkpoint") -> Any:
    """``value`` with numpy arrays as ``{NUMPY: tensor}`` and numpy scalars as Python numbers;
    tensors, plain values, dicts (string keys), lists and tuples kept.

    Raises:
        TypeError: anything else (the message names where it sits): it would need pickling.
    """
    import torch

    if isinstance(value, np.ndarray):
        if value.dtype == object:
            raise TypeError(f"{where}: an object array cannot be saved as weights")
        return {NUMPY: torch.from_numpy(np.ascontiguousarray(value))}
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (torch.Tensor, *_PLAIN)):
        return value
    if isinstance(value, dict):
        if not all(isinstance(key, (str, int)) for key in value):
            raise TypeError(f"{where}: a dict with keys other than str/int")
        return {key: to_plain(item, f"{where}[{key!r}]") for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_plain(item, f"{where}[{i}]") for i, item in enumerate(value))
    raise TypeError(f"{where}: a {type(value).__name__} cannot be saved as weights (tensors and plain data only)")


def from_plain(value: Any) -> Any:
    """The inverse of :func:`to_plain`: every ``{NUMPY: tensor}`` back to a numpy array."""
    if isinstance(value, dict):
        if set(value) == {NUMPY}:
            return value[NUMPY].numpy()
        return {key: from_plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(from_plain(item) for item in value)
    return value


def save_checkpoint(data: dict[str, Any], path: Path) -> Path:
    """Write ``data`` (tensors, numpy arrays, plain data) with ``"format": FORMAT`` to ``path``,
    through a temporary file replaced at the end (a crash leaves the old checkpoint).

    Raises:
        TypeError: a value that is neither (see :func:`to_plain`).
    """
    import torch

    plain = to_plain({**data, "format": FORMAT})
    torch.save(plain, path.with_suffix(".tmp"))
    path.with_suffix(".tmp").replace(path)
    return path


def load_checkpoint(path: Path) -> dict[str, Any]:
    """The data :func:`save_checkpoint` wrote to ``path``, numpy arrays restored, on the CPU;
    read with ``weights_only=True`` (no pickled object is ever built).

    Raises:
        ValueError: not a checkpoint of this format: a file carrying pickled objects (a crafted
            file, or format 1: the message gives :data:`CONVERT`), or another file entirely.
    """
    import torch

    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, OSError, EOFError) as error:
        raise ValueError(
            f"{str(path)!r} is not an expert-iteration checkpoint of format {FORMAT} (it holds more than tensors "
            f"and plain data, so it is not read: {torch_load_reason(error)}); a checkpoint you wrote "
            f"yourself with an older maya-envs converts with: {CONVERT}"
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ValueError(f"{str(path)!r} is not an expert-iteration checkpoint of format {FORMAT} (found {found!r})")
    return from_plain(data)


def convert(old: Path, new: Path) -> Path:
    """Rewrite the format-1 checkpoint ``old`` as ``new`` (format 2). This unpickles ``old``
    (``weights_only=False``): run it only on a file you wrote yourself.

    Raises:
        ValueError: ``old`` is not a format-1 checkpoint.
    """
    import torch

    data = torch.load(old, map_location="cpu", weights_only=False)  # the user vouches for this file
    if not isinstance(data, dict) or data.get("format") != OLD_FORMAT:
        raise ValueError(f"{str(old)!r} is not a format-1 expert-iteration checkpoint")
    return save_checkpoint(data, new)


def main(argv: list[str] | None = None) -> int:
    from maya_envs.sb3_zip import conversion_main

    return conversion_main(
        "python -m training.exit.checkpoint",
        "Rewrite an expert-iteration checkpoint.pt of an older maya-envs (format 1, pickled arrays) as tensors "
        "and plain data (format 2). It unpickles the old file: only for files you wrote yourself.",
        convert,
        argv,
    )


if __name__ == "__main__":
    sys.exit(main())
