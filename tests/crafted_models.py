"""Crafted model files for the trust tests: each would create a marker file if a loader ran the
pickle inside it (the kinds of issue 44, after DLR-RM/stable-baselines3#2281).

* :func:`zip_with_serialized_entry`: a MaskablePPO ``.zip`` whose ``data`` JSON carries one more
  ``:serialized:`` value (or a replaced ``policy_class``), as ``cloudpickle`` would write it;
  SB3's own ``load`` unpickles every such value.
* :func:`pt_with_payload`: a torch file whose dict holds an object with a ``__reduce__`` that
  opens the marker for writing; ``torch.load(weights_only=False)`` runs it.

The payload only creates an empty file: the tests check that it never appears.
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import zipfile
from pathlib import Path
from typing import Any


class Payload:
    """Unpickling this object opens ``marker`` for writing (creates the file)."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return open, (self.marker, "w")


def serialized(marker: Path) -> dict[str, str]:
    """A ``data`` JSON value as SB3 writes a pickled object, holding :class:`Payload`."""
    blob = base64.b64encode(pickle.dumps(Payload(marker))).decode()
    return {":type:": "<class 'builtins.object'>", ":serialized:": blob}


def zip_with_serialized_entry(source: Path, target: Path, marker: Path, key: str = "extra_entry") -> Path:
    """``source`` (a MaskablePPO ``.zip``) copied to ``target`` with ``data[key]`` replaced by a
    pickled :class:`Payload` (``key="policy_class"`` keeps the readable fields beside it)."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for item in old.infolist():
            content = old.read(item.filename)
            if item.filename == "data":
                data = json.loads(content)
                readable = {k: v for k, v in data.get(key, {}).items() if k != ":serialized:"}
                data[key] = (
                    {**readable, **serialized(marker)} if isinstance(data.get(key), dict) else serialized(marker)
                )
                content = json.dumps(data).encode()
            new.writestr(item, content)
    return target


def zip_with_member(source: Path, target: Path, name: str, content: bytes) -> Path:
    """``source`` copied to ``target`` with the zip member ``name`` set to ``content``."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for item in old.infolist():
            if item.filename != name:
                new.writestr(item, old.read(item.filename))
        new.writestr(name, content)
    return target


def torch_bytes_with_payload(marker: Path, base: dict[str, Any] | None = None) -> bytes:
    """A torch file (bytes) of ``base`` plus ``{"payload": Payload(marker)}``."""
    import torch

    buffer = io.BytesIO()
    torch.save({**(base or {}), "payload": Payload(marker)}, buffer)
    return buffer.getvalue()


def pt_with_payload(target: Path, marker: Path, base: dict[str, Any] | None = None) -> Path:
    """:func:`torch_bytes_with_payload` written to ``target``."""
    target.write_bytes(torch_bytes_with_payload(marker, base))
    return target


def ray_checkpoint_with_payload(target: Path, marker: Path, metadata: dict[str, Any]) -> Path:
    """A checkpoint directory of ``training.rllib_train`` as Ray lays it out, without the
    weights-only export: ``maya_rllib.json`` (``metadata``), and every pickle Ray restores an
    RLModule or algorithm from (``class_and_ctor_args.pkl``, ``module_state.pkl``, ...) holding
    :class:`Payload`."""
    (target / "learner_group" / "learner").mkdir(parents=True)
    (target / "maya_rllib.json").write_text(json.dumps(metadata))
    folders = [target, target / "learner_group", target / "learner_group" / "learner"]
    for module_id in set(metadata["modules"].values()):
        folders.append(target / "learner_group" / "learner" / "rl_module" / module_id)
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("class_and_ctor_args.pkl", "module_state.pkl", "state.pkl"):
            (folder / name).write_bytes(pickle.dumps(Payload(marker)))
    return target
