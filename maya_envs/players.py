"""The one player resolver: a player spec (a string) -> the player of a seat.

Every place that takes a player by name resolves it here: gym opponents
(:func:`maya_envs.wrappers.opponents.make_opponent`), the arena
(:func:`maya_envs.evaluation.arena.resolve_agent`), ``maya-play`` and ``maya-stats``
(:func:`maya_envs.cli.play.load_seat`), ``maya-web`` (:func:`maya_envs.web.seats.resolve_seat`,
which adds a page's checks first), the trainer's actors and the training configs' checks
(:func:`check_player_spec`). The specs, tried in this order:

* ``"human"`` (:data:`HUMAN`, where the caller seats humans): ``None``, moves come from a person;
* ``"pretrained"`` / ``"pretrained:raw"`` / ``"pretrained:<name>"``: an agent shipped in
  :mod:`maya_envs.pretrained`: the game's default agent (its registry ``default_spec``, a bot
  spec such as ``"az:maya2012_2p_exit:32:leaf=hook"``), that default's network without search,
  or that entry; a MaskablePPO baseline plays as a model, a shipped network as
  ``"policy:<name>"``;
* ``"<prefix>:<text>"`` for a registered prefix (:func:`register_resolver`, or the
  ``maya_envs.opponents`` entry-point group of an installed package: this project's
  ``training`` package registers ``rllib``): whatever that prefix's resolver returns;
* an explicit model file, where the caller reads files (``files=True``: command lines, never a
  page): ``checkpoint:PATH``, or a spec with a path separator or a model suffix (``.zip``,
  ``.pt``) whose first part is no bot kind nor registered prefix (:func:`names_checkpoint`): a
  ``.pt`` plays as the network bot ``policy:PATH``, anything else as a MaskablePPO checkpoint
  read without unpickling (:func:`load_checkpoint`). A bare word never names a file: a file
  called ``heuristic`` or ``random`` in the working directory changes nothing;
* a bot spec, ``kind[:model][:N...][:KEY=VALUE...]``: a row of the bot-kind table
  :data:`maya_envs.bot_kinds.BOT_KINDS` (:func:`maya_envs.bot_kinds.make_bot`).

Layering: this module sits above the bot-kind table, the shipped agents and the game table and
below the wrappers, the arena, the CLIs, the web app and the trainer; it imports neither ``bots/``
nor ``nn/`` (the table's rows import them on use), so no arrow runs from ``bots/`` up to ``nn/``
or from ``web/`` to ``cli/``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from maya_envs.bot_kinds import BOT_KINDS, TRAIN_EXTRA, bot_kind, bot_syntax, is_bot_spec, make_bot
from maya_envs.core.errors import shorten
from maya_envs.core.paths import names_a_file, shown_path
from maya_envs.games import game_of_rules
from maya_envs.pretrained import (
    PREFIX,
    default_agent,
    is_pretrained_spec,
    list_pretrained,
    load_pretrained,
    pretrained_info,
    raw_agent,
    resolve_pretrained_spec,
)

HUMAN = "human"
"""The spec of a seat played by a person (``maya-play``, ``maya-web``)."""
PRETRAINED_SPECS = ("pretrained", "pretrained:raw", "pretrained:<name>")
Resolver = Callable[[str, Any], Any]
"""``resolver(spec, rules) -> player object or bot spec`` for the specs ``"<prefix>:..."`` of one prefix."""
ENTRY_POINT_GROUP = "maya_envs.opponents"
"""Entry points ``prefix = "module:resolver"`` that installed packages register for specs."""
_RESOLVERS: dict[str, Resolver] = {}


def register_resolver(prefix: str, resolver: Resolver) -> None:
    """Resolve the player specs ``"<prefix>"`` and ``"<prefix>:..."`` with ``resolver``."""
    _RESOLVERS[prefix] = resolver


def resolver_for(spec: Any) -> Resolver | None:
    """The resolver registered (or installed as an entry point) for ``spec``'s prefix, else ``None``."""
    if not isinstance(spec, str):
        return None
    prefix = spec.split(":", 1)[0]
    if prefix not in _RESOLVERS and prefix in _entry_points():
        _RESOLVERS[prefix] = _entry_points()[prefix].load()
    return _RESOLVERS.get(prefix)


@cache
def _entry_points() -> dict[str, Any]:
    return {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}


def default_observation_shape(rules: Any) -> tuple[int, ...]:
    """The observation shape of the default observer of ``rules``' game (its env's
    ``observer_class`` with no options)."""
    return game_of_rules(rules).hook("env").observer_class(rules).layout.shape


def _pretrained(spec: str, rules: Any, observation_shape: tuple[int, ...] | None = None) -> Any:
    """The shipped agent ``spec`` names, matched against the game of ``rules`` as a seat
    observing ``observation_shape`` sees it (default: the game's default observer): for
    ``"pretrained"`` the default entry's ``default_spec`` (a bot spec), else an ``sb3``
    entry's MaskablePPO model or a ``network`` entry's bot ``"policy:<name>"``."""
    if not is_pretrained_spec(spec):
        raise ValueError(f"a pretrained spec looks like 'pretrained' or 'pretrained:<name>', got {shorten(spec)}")
    shape = default_observation_shape(rules) if observation_shape is None else tuple(observation_shape)
    name = resolve_pretrained_spec(spec, replace(rules.spec, observation_shape=shape))
    agent = default_agent(name) if spec == PREFIX else raw_agent(name)
    if pretrained_info(name).kind == "sb3" and agent == name:
        return load_pretrained(name)
    return agent


register_resolver(PREFIX, _pretrained)


CHECKPOINT_PREFIX = "checkpoint:"
"""``checkpoint:PATH``: a model file, whatever ``PATH`` looks like (``checkpoint:model``)."""
MODEL_SUFFIXES = (".zip", ".pt")
"""The suffixes that mark a spec as a model file (:func:`names_checkpoint`)."""


def names_checkpoint(spec: Any) -> bool:
    """Whether ``spec`` names a model file explicitly: ``checkpoint:PATH``, a path object, or a
    string with a path separator (``/``, or the system's) or a :data:`MODEL_SUFFIXES` suffix
    whose first part is no bot kind and no registered prefix (``policy:runs/x.pt`` is a bot).

    Decided from the text alone, never from the file system: a bare word (``heuristic``,
    ``random``, ``model``) is never a file, whatever files the working directory holds.
    """
    if isinstance(spec, os.PathLike):
        return True
    if not isinstance(spec, str) or is_bot_spec(spec) or resolver_for(spec) is not None:
        return False
    if spec.startswith(CHECKPOINT_PREFIX):
        return True
    return "/" in spec or os.sep in spec or spec.lower().endswith(MODEL_SUFFIXES)


def checkpoint_path(spec: Any) -> Path:
    """The file a :func:`names_checkpoint` spec names (``checkpoint:`` removed)."""
    return Path(spec.removeprefix(CHECKPOINT_PREFIX) if isinstance(spec, str) else spec)


def load_checkpoint(spec: str, what: str = "checkpoint") -> Any:
    """The MaskablePPO model saved at ``spec`` (a path, or ``checkpoint:PATH``), on the CPU,
    rebuilt without unpickling anything (:func:`maya_envs.sb3_zip.load_maskable_ppo`; needs
    the ``train`` extra).

    Raises:
        ValueError: no such file (``"<what> 'x.zip' does not exist"``), the train extra missing,
            or a file that cannot be read as data
            (:class:`~maya_envs.sb3_zip.UnreadableModel`, naming the conversion command).
    """
    path = checkpoint_path(spec)
    if not names_a_file(path):
        raise ValueError(f"{what} {shown_path(path)} does not exist")
    try:
        import sb3_contrib  # noqa: F401  (the train extra)
    except ImportError as error:
        raise ValueError(f"a checkpoint needs the train extra: {TRAIN_EXTRA}") from error
    from maya_envs.sb3_zip import load_maskable_ppo

    return load_maskable_ppo(path, device="cpu")


def load_model_file(spec: Any) -> Any:
    """The player a :func:`names_checkpoint` spec names: the network bot spec ``"policy:PATH"``
    for a ``.pt`` (built by :func:`maya_envs.bot_kinds.make_bot`), else the MaskablePPO model
    of :func:`load_checkpoint`.

    Raises:
        ValueError: as :func:`load_checkpoint`.
    """
    path = checkpoint_path(spec)
    return f"policy:{path}" if path.suffix == ".pt" else load_checkpoint(spec)


def expand_spec(spec: Any, rules: Any, observation_shape: tuple[int, ...] | None = None, *, files: bool = False) -> Any:
    """One step of resolution: a shipped agent, a registered prefix or (with ``files``) a
    checkpoint path becomes what it names (a bot spec string or a player object); anything
    else comes back as it is (a bot spec is built by :func:`maya_envs.bot_kinds.make_bot`).

    Raises:
        ValueError: an unknown or unfitting shipped agent, a missing checkpoint.
        ImportError: the train extra missing for a shipped agent.
    """
    if files and names_checkpoint(spec):
        return load_model_file(spec)
    if not isinstance(spec, str):
        return spec
    if is_pretrained_spec(spec):  # built in: the baseline must fit the shape this seat observes
        return _pretrained(spec, rules, observation_shape)
    resolver = resolver_for(spec)
    if resolver is not None:
        return resolver(spec, rules)
    return spec


def resolve_player(
    spec: Any,
    rules: Any,
    seed: Any = None,
    observation_shape: tuple[int, ...] | None = None,
    *,
    humans: bool = False,
    files: bool = False,
) -> Any:
    """The player ``spec`` names (module docstring): ``None`` for a human (with ``humans``),
    else a bot (``act(state)``), a model (``predict``), an object with ``choose(env, agent)``,
    or the object given.

    Args:
        spec: a player spec or a player object.
        rules: the game's rules.
        seed: the bot's own generator seed.
        observation_shape: the observations the seat gets (a shipped model must fit them;
            default: the game's default observer).
        humans: ``"human"`` means a person (else it is an unknown bot).
        files: an explicit file names a model (:func:`names_checkpoint`; command lines,
            never a page).

    Raises:
        ValueError: an unknown bot (the closest names suggested), a malformed spec, an unknown
            or unfitting shipped agent or model, a missing checkpoint.
        ImportError: the train extra missing for a network bot or a shipped agent.
    """
    if humans and spec == HUMAN:
        return None
    player = expand_spec(spec, rules, observation_shape, files=files)
    return make_bot(player, rules, seed) if isinstance(player, str) else player


def check_player_spec(spec: Any, *, shipped: bool = True, models: bool = True) -> None:
    """Refuse a spec that cannot name a player, before anything is built (no torch, no file
    read but a model's existence): a bot spec is parsed by its row (and its model looked up),
    a ``pretrained:<name>`` must name a shipped agent.

    Args:
        shipped: ``pretrained[...]`` specs are allowed.
        models: network kinds (``policy:``, ``az:``) are allowed.

    Raises:
        ValueError: not a spec of an allowed kind (the message lists them), a malformed spec,
            an unknown shipped agent or a missing model.
    """
    if shipped and is_pretrained_spec(spec):
        name = spec.partition(":")[2]
        if name and name not in ["raw", *list_pretrained()]:
            raise ValueError(f"no such pretrained baseline; known: {list_pretrained()}")
        return
    if not is_bot_spec(spec):
        raise ValueError(f"{shorten(spec)}; allowed: {player_syntax(shipped=shipped, models=models)}")
    kind = bot_kind(spec)
    if kind.model is not None and not models:
        raise ValueError(f"{shorten(spec)} plays a network; allowed: {player_syntax(shipped=shipped, models=False)}")
    kind.check(spec)


def player_syntax(*, shipped: bool = True, models: bool = True, model: str = "<model>") -> str:
    """The specs a place accepts, in words, from the table (help texts and errors)."""
    kinds = [k.syntax.replace("<model>", model) for k in BOT_KINDS.values() if models or k.model is None]
    return ", ".join(kinds + (list(PRETRAINED_SPECS) if shipped else []))


__all__ = [
    "CHECKPOINT_PREFIX",
    "ENTRY_POINT_GROUP",
    "HUMAN",
    "bot_syntax",
    "check_player_spec",
    "checkpoint_path",
    "default_observation_shape",
    "expand_spec",
    "load_checkpoint",
    "load_model_file",
    "names_checkpoint",
    "player_syntax",
    "register_resolver",
    "resolve_player",
    "resolver_for",
]


def one_torch_thread() -> None:
    """Let torch use one intra-op thread, unless ``OMP_NUM_THREADS`` says otherwise: called first
    by the commands that play games move by move (``maya-play``, ``maya-arena``, ``maya-eval``,
    ``maya-web``), before a seat imports torch (which reads the variable when imported). Their
    networks are small and see one position at a time, where more threads mostly wait on each
    other: a quarry 4p game of ``maya-play`` against ``pretrained`` took 96 s with torch's
    default 2 threads and 20 s with one, at load 10 on 2 cores. Training sets its own
    (``torch_threads``)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
