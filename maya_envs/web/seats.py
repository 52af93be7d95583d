"""The players of a live game's seats, built from specs :func:`maya_envs.web.policy.check_seat`
passed, on rules that stop an agent's search once its game is closed (no Flask here).

An agent plays on :func:`cancellable` rules: a copy that checks the game's ``closed`` flag at
every rule call, so a move being computed stops within one rule call of its game being closed
or expiring (:class:`MoveCancelled`), and the game's lock is not held while it thinks.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from maya_envs.core.errors import shorten
from maya_envs.players import HUMAN
from maya_envs.web.policy import CHECKPOINT_PREFIX, check_seat


class MoveCancelled(Exception):
    """Raised inside an agent's search when its game was closed (:func:`cancellable`)."""


def _hide_path(text: str, path: str, name: str) -> str:
    """``text`` with every spelling of the server path ``path`` replaced by ``name``."""
    forms = {str(path), str(Path(path).absolute()), str(Path(path).resolve())}
    for form in sorted(forms, key=len, reverse=True):
        text = text.replace(form, name)
    return text


def check_checkpoint_file(path: str | Path) -> None:
    """Read the ``--checkpoint`` file ``path`` with the reader a seat of it will use, at start,
    so that a file no seat could load is refused before the server answers a page: a ``.pt``
    through :func:`maya_envs.nn.model.load_network` (weights only), anything else through
    :func:`maya_envs.players.load_checkpoint` (a MaskablePPO zip read as data, unpickling
    nothing). About a CPU second per file; what is read is dropped (a seat rebuilds it).

    Raises:
        ValueError: the file cannot be read as its kind of model (the reader's reason, which
            names the file), or the extra the reader needs is missing.
    """
    from maya_envs.players import load_model_file

    if Path(path).suffix != ".pt":
        load_model_file(Path(path))
        return
    try:
        from maya_envs.nn.model import load_network
    except ImportError as error:
        raise ValueError(f"a .pt network needs torch ({error})") from None
    load_network(path)


def build_seat(
    spec: str,
    rules,
    seed: int,
    checkpoints: Mapping[str, str],
    observation_shape: tuple[int, ...] | None = None,
):
    """The player of a seat :func:`check_seat` passed: ``None`` for ``human``, else an opponent
    with ``choose(env, agent)`` (a network seat costs about a CPU second to build).

    Raises:
        ValueError: the agent does not fit the game, or its extra is missing (no message shows
            a registered checkpoint's path).
    """
    from maya_envs.wrappers.opponents import make_opponent

    if spec == HUMAN:
        return None
    if spec.startswith(CHECKPOINT_PREFIX):
        path = checkpoints[spec[len(CHECKPOINT_PREFIX) :]]
        try:
            # a Path: the operator's file as it is, even named like a bot (maya_envs.players)
            return make_opponent(Path(path), rules, seed, observation_shape, files=True)
        except (ValueError, ImportError) as error:  # a page never gets the trust-requiring conversion hint
            words = getattr(error, "reason", "") or str(error)
            raise ValueError(_hide_path(words, path, spec)) from None
    try:
        return make_opponent(spec, rules, seed, observation_shape)
    except ImportError as error:  # a network or baseline seat without the train extra
        raise ValueError(f"seat {shorten(spec)}: {error}") from None


def resolve_seat(spec: Any, rules, seed: int, checkpoints: Mapping[str, str], observation_shape=None):
    """:func:`build_seat` of :func:`check_seat`: one seat's player (``None`` for ``human``).

    Raises:
        ValueError: as :func:`check_seat` and :func:`build_seat`.
    """
    return build_seat(check_seat(spec, checkpoints), rules, seed, checkpoints, observation_shape)


def cancellable(rules, closed: threading.Event):
    """A copy of ``rules`` whose ``apply_action`` and ``legal_actions`` raise
    :class:`MoveCancelled` once ``closed`` is set: an agent built on it stops searching within
    one rule call of its game being closed. The copy shares the rules' read-only tables and is
    of the same class (the game table finds its game)."""
    checked = copy.copy(rules)

    def guard(method):
        def call(*args: Any, **kwargs: Any) -> Any:
            if closed.is_set():
                raise MoveCancelled("the game was closed")
            return method(*args, **kwargs)

        return call

    checked.apply_action = guard(rules.apply_action)
    checked.legal_actions = guard(rules.legal_actions)
    return checked
