"""Every game of the game table as an OpenSpiel entry: short names, parameters and how they build the rules.

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
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from maya_envs.core.errors import ConfigError, shorten
from maya_envs.games import GAMES


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
        determinize: ``determinize(rules, state, seat, rng)`` (the game's hook).
        observer: the game env's observer class (``observer(rules, **observer_options)``, the
            :class:`~maya_envs.core.layout.Observer` whose vector OpenSpiel sees).
        observer_options: parameters that go to the observer, not the rules, with their
            defaults (Yaxha's ``action_features``).
        render: ``render(rules, state, seat_or_None) -> str``, the seat's text view.
        max_chance_outcomes: the largest chance outcome id + 1 (see each rules module).
        simultaneous: whether the game offers the OpenSpiel parameter ``simultaneous`` (the
            rules have ``parallel_seats``, ``legal_actions_for`` and ``wait_action``).
        observer_options: parameters that go to the observer, not the rules, with their
            defaults (Yaxha's ``action_features``).
    """

    short_name: str
    long_name: str
    players: tuple[int, int]
    default_players: int
    config_class: type
    make_rules: Callable[[Any], Any]
    determinize: Callable[[Any, Any, int, Any], Any]
    observer: Callable[..., Any]
    render: Callable[[Any, Any, int | None], str]
    max_chance_outcomes: int
    simultaneous: bool = False
    observer_options: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def parameter_specification(self) -> dict[str, Any]:
        """OpenSpiel parameters and their defaults (``players`` first)."""
        spec: dict[str, Any] = {"players": self.default_players}
        if self.simultaneous:
            spec["simultaneous"] = False
        spec.update(self.observer_options)
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
            if name not in ("players", "simultaneous", *self.observer_options):
                options[name] = _from_param(name, value, defaults[name])
        return self.config_class(**options)


def _to_param(default: Any) -> Any:
    if default is None:
        return ""
    if isinstance(default, (bool, int, float, str)):
        return default
    if isinstance(default, (tuple, list)):
        return ":".join(str(v) for v in default)
    raise TypeError(f"no OpenSpiel parameter type for {shorten(default)}")


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
            raise ConfigError(f"{name}={shorten(value)}: expected colon-separated ints") from None
    return text


def entries() -> tuple[OpenSpielEntry, ...]:
    """One entry per game of the game table (:data:`maya_envs.games.GAMES`)."""
    out = []
    for game in GAMES.values():
        default = game.make_rules({})
        env_class = game.hook("env")
        observer = env_class.observer_class
        defaults = inspect.signature(observer).parameters
        out.append(
            OpenSpielEntry(
                short_name=f"maya_envs_{game.key}",
                long_name=f"maya-envs {game.title}",
                players=(min(game.player_counts), max(game.player_counts)),
                default_players=default.spec.num_players,
                config_class=type(default.config),
                make_rules=game.make_rules,
                determinize=game.hook("determinize"),
                observer=observer,
                observer_options={name: defaults[name].default for name in env_class.observer_options},
                render=game.hook("render_text"),
                max_chance_outcomes=game.hook("max_chance_outcomes"),
                simultaneous=default.spec.simultaneous,
            )
        )
    return tuple(out)
