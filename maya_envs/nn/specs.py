"""The ``policy:<model>`` and ``az:<model>[...]`` bot specs, checked without torch.

:func:`check_network_spec` lets a training config or a command line refuse a malformed spec or
a missing model before anything runs; :func:`model_path` finds the checkpoint a ``<model>``
names. Building the bot needs torch (:func:`maya_envs.nn.agent.make_network_bot`).
"""

from __future__ import annotations

from pathlib import Path

from maya_envs.bots.guided import GuidedConfig, parse_az_spec
from maya_envs.core.errors import shorten
from maya_envs.core.paths import names_a_file, shown_path
from maya_envs.core.specs import Grammar, parse_parts
from maya_envs.pretrained import network_file, network_names

POLICY_SYNTAX = "policy:<model> with <model> a .pt network checkpoint or a shipped network name"
POLICY_GRAMMAR = Grammar(POLICY_SYNTAX, model="rest")
"""A ``policy:`` spec: the model is everything after ``policy:`` (:mod:`maya_envs.core.specs`)."""


def parse_network_spec(name: str) -> tuple[str, str, GuidedConfig | None]:
    """``(kind, model, config)`` of a ``policy:``/``az:`` spec (``config`` is ``None`` for
    ``policy``; syntax: :data:`POLICY_SYNTAX`, :data:`maya_envs.bots.guided.AZ_SYNTAX`).

    Raises:
        ValueError: not such a spec, or a malformed one (the message gives the syntax).
    """
    kind = name.partition(":")[0]
    if kind == "policy":
        return kind, parse_parts(name, POLICY_GRAMMAR).model, None
    if kind == "az":
        model, config = parse_az_spec(name)
        return kind, model, config
    raise ValueError(f"bot {shorten(name)} is not a network bot (policy:<model> or az:<model>[...])")


def read_policy_spec(name: str) -> tuple[str, None]:
    """``(model, None)`` of a ``policy:<model>`` spec: the row parser of
    :data:`maya_envs.bot_kinds.BOT_KINDS` (the raw network has no settings).

    Raises:
        ValueError: not a ``policy:`` spec, or one without a model.
    """
    kind, model, _ = parse_network_spec(name)
    if kind != "policy":
        raise ValueError(f"bot {shorten(name)}: expected {POLICY_SYNTAX}")
    return model, None


def model_path(model: str) -> Path:
    """The checkpoint file ``<model>`` names: a shipped network's name, or a path (a ``.pt``, a
    name with a directory part such as ``./net`` or ``runs/x/model``, or any other existing file).

    A shipped name wins over a file of the same name in the working directory: ``az:<name>``
    must play the network the registry names, whatever folder the command runs in (write
    ``./<name>`` for the local file).

    Raises:
        ValueError: no such file, or no shipped network of that name (the message lists them).
    """
    looks_like_path = model.endswith(".pt") or Path(model).name != model
    if not looks_like_path and model in network_names():
        return network_file(model)
    if looks_like_path or names_a_file(model):
        path = Path(model)
        if not names_a_file(path):
            raise ValueError(f"network checkpoint {shown_path(model)} does not exist")
        return path
    raise ValueError(
        f"model {shorten(model)} is neither a .pt checkpoint nor a shipped network; shipped: {network_names()}"
    )


def check_network_spec(name: str) -> None:
    """Refuse a malformed ``policy:``/``az:`` spec or one whose model does not exist.

    Raises:
        ValueError: the message names the problem.
    """
    model_path(parse_network_spec(name)[1])
