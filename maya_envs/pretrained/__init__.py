"""Pretrained agents shipped inside the package: MaskablePPO baselines and policy-value networks.

``registry.json`` (next to this file) lists each one: its file, its ``kind`` (``"sb3"``, the
default: a MaskablePPO ``.zip``; ``"network"``: a :mod:`maya_envs.nn` policy-value network
``.pt``), the game it plays (spec name, player count, action-space size, observation shape),
how it was trained (config name, steps, seed, seconds, the command) and its measured strength
(the evaluation of its training run). The registry is also the manifest of the shipped files
(:mod:`maya_envs.pretrained.manifest`): each entry's ``sha256`` and game version are checked
before its file is loaded, and a file is read as data only (a network with
``torch.load(weights_only=True)``, a MaskablePPO zip by :mod:`maya_envs.sb3_zip`).
``training/publish.py`` writes an entry from a finished run directory (``python -m
training.publish runs/<run> --name <name> --config <config>``: a run with ``model.zip`` gives an
``sb3`` entry, one with ``model.pt`` a ``network`` entry).

Use one as an opponent anywhere a spec is taken (``gym.make(..., opponents="pretrained")``,
``maya-arena --agents pretrained:maya2012_2p``, ``maya-play --seats human,pretrained``):

* ``"pretrained"``: the default agent of the game being played: the ``default_spec`` of the
  registry entry that has one and whose game, player count, action space and observation shape
  match (the strongest shipped agent whose move costs at most about 50 ms on one core, with the
  search settings it was measured with, e.g. ``"az:maya2012_2p_exit:32:leaf=hook"``; its
  ``results`` hold those measurements); where no entry has one, the first matching entry;
* ``"pretrained:raw"``: that default entry's network without search (``policy:<name>``), or its
  MaskablePPO model;
* ``"pretrained:<name>"``: that baseline (refused if it was trained on another game or size).

A ``network`` entry plays as a bot with ``act(state)`` (the raw network,
:class:`maya_envs.nn.agent.NetworkBot`): it reads the rules state through its own observer and
features, so only its game, player count and action space must match (not the env's
observation shape). Its name also works as the ``<model>`` of the ``policy:<model>`` and
``az:<model>`` bot specs.

Loading needs the ``train`` extra (``sb3-contrib`` and ``torch``); listing does not.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from maya_envs.core.errors import shorten
from maya_envs.pretrained.manifest import check_shipped

PREFIX = "pretrained"
RAW = "pretrained:raw"
"""The default entry of the game without its search (module docstring)."""
KINDS = ("sb3", "network")


@dataclass(frozen=True)
class PretrainedInfo:
    """One registry entry; see the module docstring.

    Attributes:
        name: registry name (``pretrained:<name>``).
        file: the ``.zip`` (``sb3``) or ``.pt`` (``network``) file name inside this package.
        game: spec name of the game it was trained on (``GameSpec.name``, ``"<key>_v<version>"``).
        num_players, num_actions, observation_shape: the spec it was trained on.
        env_id, game_options: the Gymnasium id and options of its training env.
        config: the config it was trained from (a name under ``configs/``).
        total_timesteps, seed, train_seconds: how it was trained.
        results: its evaluation (one dict per opponent bot: games, wins, draws, losses,
            win_rate, win_rate_ci95 and win_rate_convention: ``"wins"``, draws count as no
            win, or ``"draws_half"``, a draw counts half;
            :data:`maya_envs.evaluation.stats.WIN_RATE_CONVENTIONS`).
        kind: ``"sb3"`` or ``"network"`` (see the module docstring).
        leaf_value: ``network`` entries: the leaf value its ``az:`` search plays with
            (``net``, ``hook``, ``mix``, ``residual``; :func:`maya_envs.nn.agent.recorded_leaf`); ``None``:
            the file's own record, else ``net``.
        default_spec: the spec ``pretrained`` plays for this entry's game, player count and
            variant (``"az:<name>:32:leaf=hook"``, ``"policy:<name>"``; ``None``: this entry is
            not the default). Its ``results`` hold what that spec measured.
        sha256: the SHA-256 of ``file`` (the manifest: checked before loading; ``None``: an entry
            without one, refused at load).
        training_command: the command that trains it again (``maya-train --config ... --set
            seed=...``; written by ``training.publish``).
    """

    name: str
    file: str
    game: str
    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]
    env_id: str
    config: str
    total_timesteps: int
    seed: int
    train_seconds: float
    game_options: dict[str, Any] = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)
    kind: str = "sb3"
    leaf_value: str | None = None
    default_spec: str | None = None
    sha256: str | None = None
    training_command: str = ""

    def fits(self, spec) -> bool:
        """Whether this baseline plays the game of ``spec`` (a :class:`~maya_envs.core.spec.GameSpec`):
        name, player count, action count, and the observation shape where ``spec`` has one (an
        env's ``spec_card``; a rules object's own spec has none, see ``GameSpec``). A network's
        shape is its board input (``board_dim``), the env's observation: so the quarry's basic
        and advanced 3p networks (612 / 679) and a drafted Maya (2012) setup (620) tell apart."""
        shape = self.observation_shape if spec.observation_shape is None else tuple(spec.observation_shape)
        return (self.game, self.num_players, self.num_actions, self.observation_shape) == (
            spec.name,
            spec.num_players,
            spec.num_actions,
            shape,
        )


@cache
def _registry() -> dict[str, PretrainedInfo]:
    raw = json.loads(resources.files(__name__).joinpath("registry.json").read_text())
    registry = {
        name: PretrainedInfo(name=name, **{**entry, "observation_shape": tuple(entry["observation_shape"])})
        for name, entry in raw.items()
    }
    for info in registry.values():
        if info.kind not in KINDS:
            raise ValueError(f"registry entry {shorten(info.name)}: kind {shorten(info.kind)}; allowed: {list(KINDS)}")
    return registry


def network_names() -> list[str]:
    """Names of the shipped ``network`` entries (usable as ``policy:<name>`` / ``az:<name>``)."""
    return [name for name, info in _registry().items() if info.kind == "network"]


def network_file(name: str) -> Path:
    """The ``.pt`` file of the shipped network ``name``.

    Raises:
        ValueError: no ``network`` entry of that name (the message lists them).
        ManifestMismatch: the file or the game does not match the entry (the message says what
            differs; :func:`maya_envs.pretrained.manifest.check_shipped`).
    """
    info = _registry().get(name)
    if info is None or info.kind != "network":
        raise ValueError(f"no shipped network named {shorten(name)}; known: {network_names()}")
    path = Path(str(resources.files(__name__).joinpath(info.file)))
    check_shipped(name, asdict(info), path)
    return path


def list_pretrained() -> list[str]:
    """Names of the shipped baselines, in registry order."""
    return list(_registry())


def pretrained_info(name: str) -> PretrainedInfo:
    """The registry entry of ``name``.

    Raises:
        ValueError: an unknown name (the message lists the known ones).
    """
    registry = _registry()
    if name not in registry:
        raise ValueError(f"no pretrained baseline named {shorten(name)}; known: {list(registry)}")
    return registry[name]


def pretrained_for(spec) -> str:
    """The name of the default baseline for the game of ``spec``: the matching entry with a
    ``default_spec``, else the first matching entry.

    Raises:
        ValueError: no shipped baseline plays this game at this size (the message lists them).
    """
    fitting = [info for info in _registry().values() if info.fits(spec)]
    for info in fitting:
        if info.default_spec is not None:
            return info.name
    for info in fitting:
        return info.name
    shipped = [
        f"{i.name} ({i.game}, {i.num_players}p, {i.num_actions} actions, observation {i.observation_shape})"
        for i in _registry().values()
    ]
    raise ValueError(
        f"no pretrained baseline for {spec.name} with {spec.num_players} players, {spec.num_actions} actions and "
        f"observation shape {spec.observation_shape}; shipped: {shipped}"
    )


def default_agent(name: str) -> str:
    """What the spec ``pretrained`` plays for entry ``name``: its ``default_spec``, else the raw
    agent (:func:`raw_agent`)."""
    return pretrained_info(name).default_spec or raw_agent(name)


def raw_agent(name: str) -> str:
    """Entry ``name`` without search: ``"policy:<name>"`` for a network, the name itself (the
    MaskablePPO model, :func:`load_pretrained`) for an ``sb3`` entry."""
    return f"policy:{name}" if pretrained_info(name).kind == "network" else name


def resolve_pretrained_spec(text: str, spec) -> str:
    """The baseline name an opponent spec ``"pretrained"`` / ``"pretrained:raw"`` /
    ``"pretrained:<name>"`` means for ``spec``.

    Raises:
        ValueError: an unknown name, or a baseline trained on another game or size.
    """
    if text in (PREFIX, RAW):
        return pretrained_for(spec)
    name = text.removeprefix(PREFIX + ":")
    info = pretrained_info(name)
    if not info.fits(spec):
        raise ValueError(
            f"pretrained baseline {shorten(name)} plays {info.game} with {info.num_players} players "
            f"({info.num_actions} actions, observation {info.observation_shape}); this game is {spec.name} with "
            f"{spec.num_players} players ({spec.num_actions} actions, observation {spec.observation_shape})"
        )
    return name


def is_pretrained_spec(value: Any) -> bool:
    """Whether ``value`` is ``"pretrained"`` or ``"pretrained:<name>"``."""
    return isinstance(value, str) and (value == PREFIX or value.startswith(PREFIX + ":"))


@cache
def load_pretrained(name: str, device: str = "cpu"):
    """Load the ``sb3`` baseline ``name`` as an ``sb3_contrib.MaskablePPO`` (cached: one object
    per name and device); a ``network`` entry plays as ``make_bot("policy:<name>", rules)``.

    Raises:
        ValueError: an unknown name, or a ``network`` entry; a file that does not match its
            manifest entry (:class:`~maya_envs.pretrained.manifest.ManifestMismatch`).
        ImportError: the ``train`` extra is missing (the message says how to install it).
    """
    info = pretrained_info(name)
    if info.kind != "sb3":
        raise ValueError(f"pretrained {shorten(name)} is a {info.kind} entry; play it as the bot 'policy:{name}'")
    try:
        import sb3_contrib  # noqa: F401  (the train extra)
    except ImportError as error:  # pragma: no cover - depends on the install
        message = "loading a pretrained baseline needs the train extra: pip install 'maya-envs[train]'"
        raise ImportError(message) from error
    from maya_envs.sb3_zip import load_maskable_ppo

    with resources.as_file(resources.files(__name__).joinpath(info.file)) as path:
        check_shipped(name, asdict(info), path)
        return load_maskable_ppo(path, device=device)
