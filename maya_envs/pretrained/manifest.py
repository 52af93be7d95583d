"""The manifest of the shipped models: each ``registry.json`` entry ties its file to its bytes and
to the game it was trained for, checked before the file is loaded.

Per entry: ``file``, ``sha256`` (of the file's bytes), ``game`` (the game table's
``"<key>_v<version>"`` when it was trained), ``num_actions`` and ``observation_shape`` (the
action and observation sizes it was trained on), ``training_command`` (how to train it again).
:func:`check_shipped` refuses a file whose hash differs (replaced in place without republishing),
an entry whose game version is not the game table's now (a rules change bumps the version: the
network was trained on other rules), or whose shapes are not what the game with the entry's
options gives now. ``python -m training.publish`` writes these fields
(:func:`manifest_fields`) when it publishes a model; its ``--refresh NAME`` rewrites them for a
shipped file after checking that it still loads and fits (e.g. after a version bump that left
the observations as they were).

Pure stdlib plus the game table; the shapes come from the game's rules and observer hooks.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

_CHUNK = 1 << 20


class ManifestMismatch(ValueError):
    """A shipped model whose file or game does not match its manifest entry; the message lists
    every difference."""


def file_sha256(path: str | Path) -> str:
    """The SHA-256 hex digest of the file at ``path`` (read in 1 MiB pieces; cached per path,
    modification time and size)."""
    stat = Path(path).stat()
    return _sha256(str(path), stat.st_mtime_ns, stat.st_size)


@cache
def _sha256(path: str, mtime_ns: int, size: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def current_game(env_id: str, game_options: dict[str, Any]) -> dict[str, Any]:
    """``{"game", "num_actions", "observation_shape"}`` of the game ``env_id`` with
    ``game_options`` as the game table plays it now (its default observer's shape)."""
    from maya_envs.games import find_game

    game = find_game(env_id)
    rules = game.make_rules(game_options)
    shape = game.hook("observer")(rules).layout.shape
    return {"game": game.name, "num_actions": rules.spec.num_actions, "observation_shape": [int(n) for n in shape]}


def manifest_fields(path: str | Path, env_id: str, game_options: dict[str, Any]) -> dict[str, Any]:
    """The manifest fields of a model file about to be shipped: its hash and the game it fits now."""
    return {"sha256": file_sha256(path), **current_game(env_id, game_options)}


def differences(entry: dict[str, Any], path: str | Path) -> list[str]:
    """What differs between the manifest ``entry`` (a registry entry as JSON) and the file at
    ``path`` and the game table now, one phrase each; empty when everything matches."""
    found = []
    recorded = entry.get("sha256")
    actual = file_sha256(path)
    if recorded != actual:
        found.append(f"the file's SHA-256 is {actual[:16]}..., the manifest says {str(recorded)[:16]}...")
    now = current_game(entry["env_id"], entry.get("game_options", {}))
    for key, value in now.items():
        mine = list(entry[key]) if key == "observation_shape" else entry[key]
        if mine != value:
            found.append(f"{key} {mine!r} in the manifest, {value!r} in this maya-envs")
    return found


def check_shipped(name: str, entry: dict[str, Any], path: str | Path) -> None:
    """Refuse the shipped model ``name`` (registry ``entry``, file ``path``) unless it matches
    its manifest entry (module docstring).

    Raises:
        ManifestMismatch: the message names the model and lists what differs.
    """
    found = differences(entry, path)
    if found:
        raise ManifestMismatch(
            f"shipped model {name!r} ({Path(path).name}) does not match its manifest entry: {'; '.join(found)}. "
            "A shipped file is replaced, or a game's rules change, only with its entry rewritten "
            f"(python -m training.publish --refresh {name}, or republished)"
        )
