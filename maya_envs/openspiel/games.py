"""The three games as OpenSpiel entries: short names, parameters and how they build the rules.

Parameters are OpenSpiel's typed scalars (int, float, bool, str), one per rules config field
plus ``players``. A field whose value is not a scalar is a string: ``""`` for the field's
``None`` default (Maya (2012)'s per-player-count ``setup``, the quarry game's shipped
``components``), colon-separated ints for a list (``ladder_spaces="2:3:2:3:4:3:2:3:2"``,
``bonus_cards="0:4:10"``; OpenSpiel game strings reserve commas), and the quarry game's
``first_start_player`` is a seat or ``-1`` for ``"random"`` (a string of digits would come back
as an int from a game string). Yaxha also takes ``simultaneous`` (default ``False``): see
:mod:`maya_envs.openspiel.adapter`.

Pure: standard library only (no pyspiel here, so the table is importable without OpenSpiel).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from maya_envs.core.errors import ConfigError


@dataclass(frozen=True)
class OpenSpielEntry:
    """One game as OpenSpiel sees it.

    Attributes:
        short_name: the name ``pyspiel.load_game`` takes, ``"maya_envs_<game>"``.
        long_name: OpenSpiel's long name.
        players: (min, max) player count.
        default_players: the ``players`` parameter's default.
        config_class: the rules config dataclass (its fields are the other parameters).
        make_rules: builds the rules from a config.
        determinize_module: module with ``determinize(rules, state, seat, rng)``.
        render: ``render(rules, state, seat_or_None) -> str``, the seat's text view.
        max_chance_outcomes: the largest chance outcome id + 1 (see each rules module).
        simultaneous: whether the game offers the OpenSpiel parameter ``simultaneous`` (the
            rules have ``parallel_seats``, ``legal_actions_for`` and ``wait_action``).
    """

    short_name: str
    long_name: str
    players: tuple[int, int]
    default_players: int
    config_class: type
    make_rules: Callable[[Any], Any]
    determinize_module: str
    render: Callable[[Any, Any, int | None], str]
    max_chance_outcomes: int
    simultaneous: bool = False

    def parameter_specification(self) -> dict[str, Any]:
        """OpenSpiel parameters and their defaults (``players`` first)."""
        spec: dict[str, Any] = {"players": self.default_players}
        if self.simultaneous:
            spec["simultaneous"] = False
        for f in dataclasses.fields(self.config_class):
            if f.name == "num_players":
                continue
            spec[f.name] = _to_param(f.default)
        return spec

    def config(self, params: Mapping[str, Any]) -> Any:
        """The rules config for OpenSpiel ``params`` (missing ones take their defaults).

        Raises:
            ConfigError: an unknown parameter (the message lists the known ones) or a bad value.
        """
        spec = self.parameter_specification()
        unknown = sorted(set(params) - set(spec))
        if unknown:
            raise ConfigError(f"{self.short_name}: unknown parameter(s) {unknown}; known: {sorted(spec)}")
        defaults = {f.name: f.default for f in dataclasses.fields(self.config_class)}
        options: dict[str, Any] = {"num_players": params.get("players", self.default_players)}
        for name, value in params.items():
            if name not in ("players", "simultaneous"):
                options[name] = _from_param(name, value, defaults[name])
        return self.config_class(**options)


def _to_param(default: Any) -> Any:
    if default is None:
        return ""
    if isinstance(default, (bool, int, float, str)):
        return default
    if isinstance(default, (tuple, list)):
        return ":".join(str(v) for v in default)
    raise TypeError(f"no OpenSpiel parameter type for {default!r}")


def _from_param(name: str, value: Any, default: Any) -> Any:
    """A parameter value back into the config field's type (strings for lists and ``None``)."""
    if name == "first_start_player" and value == -1:
        return "random"
    if isinstance(default, str) and name != "bonus_cards" or not isinstance(value, str):
        return value
    text = value.strip()
    if text == "":
        return None
    if ":" in text or isinstance(default, (tuple, list)):
        try:
            return tuple(int(v) for v in text.split(":"))
        except ValueError:
            raise ConfigError(f"{name}={value!r}: expected colon-separated ints") from None
    return text


def _maya2012_rules(config: Any) -> Any:
    from maya_envs.maya2012.rules import Maya2012Rules

    return Maya2012Rules(config)


def _quarry_rules(config: Any) -> Any:
    from maya_envs.maya_quarry.rules import MayaQuarryRules

    return MayaQuarryRules(config)


def _yaxha_rules(config: Any) -> Any:
    from maya_envs.yaxha.rules import YaxhaRules

    return YaxhaRules(config)


def _maya2012_text(rules: Any, state: Any, seat: int | None) -> str:
    from maya_envs.maya2012.render import render_text

    return render_text(state, seat, rules.config.ladder_spaces, rules.config.three_plus_two)


def _quarry_text(rules: Any, state: Any, seat: int | None) -> str:
    from maya_envs.maya_quarry.render import render_text

    return render_text(rules, state, seat)


def _yaxha_text(rules: Any, state: Any, seat: int | None) -> str:
    from maya_envs.yaxha.render import render_text

    return render_text(rules, state, seat)


def entries() -> tuple[OpenSpielEntry, ...]:
    """The three games' entries."""
    from maya_envs.maya2012.rules import Maya2012Config
    from maya_envs.maya_quarry.actions import NUM_BLUE
    from maya_envs.maya_quarry.rules.config import MayaQuarryConfig
    from maya_envs.yaxha.rules import YaxhaConfig
    from maya_envs.yaxha.scoring import NUM_BONUS_CARDS

    return (
        OpenSpielEntry(
            short_name="maya_envs_maya2012",
            long_name="maya-envs Maya (2012)",
            players=(2, 4),
            default_players=2,
            config_class=Maya2012Config,
            make_rules=_maya2012_rules,
            determinize_module="maya_envs.maya2012.determinize",
            render=_maya2012_text,
            max_chance_outcomes=12,  # colours 0-8, Monolith pairs 0-11, Raven levels 2-5
        ),
        OpenSpielEntry(
            short_name="maya_envs_maya_quarry",
            long_name="maya-envs Maya (Abacusspiele 2003)",
            players=(3, 5),
            default_players=3,
            config_class=MayaQuarryConfig,
            make_rules=_quarry_rules,
            determinize_module="maya_envs.maya_quarry.determinize",
            render=_quarry_text,
            max_chance_outcomes=max(5, NUM_BLUE),  # start seat, blue markers
        ),
        OpenSpielEntry(
            short_name="maya_envs_yaxha",
            long_name="maya-envs Yaxha",
            players=(2, 4),
            default_players=2,
            config_class=YaxhaConfig,
            make_rules=_yaxha_rules,
            determinize_module="maya_envs.yaxha.determinize",
            render=_yaxha_text,
            max_chance_outcomes=NUM_BONUS_CARDS,  # bonus cards; initiative 0-3, cube colours 0-4
            simultaneous=True,
        ),
    )
