"""The ``az:`` bot name: ``az:<model>[:SIMULATIONS][:KEY=VALUE...]`` (:data:`AZ_SYNTAX`), its
parts (:data:`AZ_GRAMMAR`, read by :mod:`maya_envs.core.specs`) and :func:`parse_az_spec`; the
network part is in :mod:`maya_envs.nn.agent`."""

from __future__ import annotations

from maya_envs.bots.guided.config import TIMED_SIMULATIONS, GuidedConfig
from maya_envs.core.errors import shorten
from maya_envs.core.specs import Grammar, parse_parts, positive_count

AZ_SYNTAX = (
    "az:<model>[:SIMULATIONS][:KEY=VALUE...] with <model> a .pt network checkpoint or a shipped network name, "
    "SIMULATIONS a positive int (default 32) and KEY one of select (gumbel|puct), m (considered actions, "
    "int >= 1), noise (Gumbel scale, >= 0; default 0: no root noise, as a match wants; self-play explores "
    "with 1), c (PUCT constant, >= 0), c_visit and c_scale (Gumbel: sigma(q) = (c_visit + max n) * c_scale * q, "
    "each >= 0; defaults 50 and 0.1), leaf (net|hook|mix|residual: the leaf value, the network's, the game's "
    "leaf_values estimate, their mean, or the estimate plus the network's residual head; default: the leaf the "
    "network was trained with, else net), "
    f"time (seconds per move, > 0: search until it is spent, at most SIMULATIONS or {TIMED_SIMULATIONS} "
    "simulations), reuse (0|1: keep the subtree of the moves played, perfect-information games without chance), "
    "prior_depth (int >= 1, with leaf=hook: nodes this deep get a uniform prior and no network call), "
    "memo (int >= 0: evaluations kept for repeated states, 0 off); "
    "e.g. 'az:runs/x/model.pt:64', 'az:runs/x/model.pt:32:noise=1', 'az:<shipped network>:32:leaf=hook', "
    "'az:<shipped network>:time=0.02:leaf=hook:reuse=1' (an unknown name is refused with the shipped ones listed)"
)


def _zero_or_one(text: str) -> bool:
    """``"0"`` -> False, ``"1"`` -> True (the spec's ``reuse=``); anything else is a ValueError."""
    if text not in ("0", "1"):
        raise ValueError(f"{shorten(text)} is not 0 or 1")
    return text == "1"


AZ_GRAMMAR = Grammar(
    AZ_SYNTAX,
    model="first",
    positional=(("simulations", positive_count("simulations")),),
    options={
        "select": ("selection", str),
        "m": ("max_considered", int),
        "noise": ("gumbel_scale", float),
        "c": ("c_puct", float),
        "c_visit": ("c_visit", float),
        "c_scale": ("c_scale", float),
        "leaf": ("leaf", str),
        "time": ("time_limit", float),
        "reuse": ("reuse", _zero_or_one),
        "prior_depth": ("prior_depth", int),
        "memo": ("memo", int),
    },
    check=lambda values: GuidedConfig(**values),
)
"""The parts of an ``az:`` spec (:mod:`maya_envs.core.specs`); each option is checked by
:class:`GuidedConfig` as it is read."""


def parse_az_spec(name: str) -> tuple[str, GuidedConfig]:
    """Split ``az:<model>[:SIMULATIONS][:KEY=VALUE...]`` into ``(model, config)``
    (syntax: :data:`AZ_SYNTAX`).

    Raises:
        ValueError: a malformed name; the message names the bad part and gives the syntax.
    """
    if name.partition(":")[0] != "az":
        raise ValueError(f"bot {shorten(name)}: expected {AZ_SYNTAX}")
    parts = parse_parts(name, AZ_GRAMMAR, {"gumbel_scale": 0.0})  # a match bot plays without root noise
    values = dict(parts.values)
    if "time_limit" in values and not parts.positional:  # a clock without a count: the clock decides
        values["simulations"] = TIMED_SIMULATIONS
    return parts.model, GuidedConfig(**values)
