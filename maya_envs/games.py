"""The one game table: one :class:`Game` entry per game, and lookups by any of its names.

Everything that needs to find a game's parts reads them here: the Gymnasium registration
(:mod:`maya_envs.registration`), records, the README's env table, reward shaping, the bots'
and the search's hooks, the arena's and RLlib's game names, the policies' feature blocks and
the benchmarks. No other module names a game (``tests/test_games.py`` checks that), so adding
a fourth game means its package plus one entry in :data:`GAMES`.

Hooks are ``"module:attribute"`` strings, imported on first use by :meth:`Game.hook`, so that
importing this module (and ``maya_envs``) imports no game. The table is pure: stdlib only.

Hook names (``None`` where the game has no such part):

=====================  ===================================================================
``rules``              the rules class, ``Rules(config | mapping | None, **options)``
``env``                the AEC env class, ``Env(render_mode, illegal_action,
                       render_observer, **game_options)``
``variants``           the values of :attr:`Game.variant_option`, in table order
``heuristic_bot``      ``HeuristicBot(rules, seed)`` (``make_bot("heuristic", ...)``)
``determinize``        ``determinize(rules, state, observer, rng) -> state`` (IS-MCTS)
``leaf_values``        ``leaf_values(rules, state) -> float array (num_players,)`` (MCTS cut-off)
``score_margins``      ``score_margins(rules, state) -> float array (num_players,)``: each seat's
                       score margin, scaled (the network's score-margin head's target)
``shaping_potential``  ``phi(state, seat) -> float`` (``reward_shaping`` > 0)
``teams``              ``teams(num_players) -> tuple of seat tuples`` sharing one result, or
                       ``()`` where every seat plays for itself
``batched``            ``Engine(num_envs, seed=...)``: many games stepped at once as arrays
``notation``           ``describe_action(rules, state, action, actor, viewer) -> str``
                       (:func:`maya_envs.notation.describe_action`)
``action_targets``     ``action_targets(rules, state, action) -> picture keys`` (the web app)
``render_text``        ``render_text(rules, state, observer) -> str`` (the ``"ansi"`` view)
``public_scores``      ``public_scores(rules, state) -> str``: scores everyone may see during
                       a game (the web app), ``""`` where they depend on hidden information
``max_chance_outcomes`` the largest chance outcome id + 1 (the OpenSpiel adapter)
``legend``             the text view's legend lines (``maya-play``)
``observer``           ``Observer(rules)``: one seat's flat ``float32`` observation with a named
                       layout (:mod:`maya_envs.core.layout`); the network's board input
``features``           ``ActionFeatures(rules)``: ``.names`` (F names) and
                       ``(state, seat, actions) -> float32 (len(actions), F)``, per-action
                       features from what ``seat`` may see (expert iteration)
=====================  ===================================================================
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

HOOKS = (
    "rules",
    "env",
    "variants",
    "heuristic_bot",
    "determinize",
    "leaf_values",
    "score_margins",
    "shaping_potential",
    "teams",
    "batched",
    "notation",
    "action_targets",
    "render_text",
    "public_scores",
    "max_chance_outcomes",
    "legend",
    "observer",
    "features",
)
"""The hook names every entry answers (a ``"module:attribute"`` string or ``None``)."""


#: The one deprecation table: old PettingZoo module name -> (new name, what changed).
RENAMED_ENVS: dict[str, tuple[str, str]] = {
    "maya2012_v0": ("maya2012_v1", "3-4p default: every mover gets the declare step once a declaration is possible"),
    "yaxha_v0": ("yaxha_v1", "Parallel env: a waiting agent has the wait id 0 instead of an all-zero mask"),
    "maya_quarry_v0": ("maya_quarry_v1", "the forced pass is offered beside the free pass"),
}


@dataclass(frozen=True)
class Game:
    """One game of the package.

    Attributes:
        key: the short name (``"maya2012"``); also the game's package ``maya_envs.<key>``.
        title: human title, as in the rules' ``GameSpec.title``.
        short_title: the title in results tables (``"Maya (quarry)"``).
        version: the env version; the PettingZoo module is ``maya_envs.<key>_v<version>``
            and the Gymnasium id ends in ``-v<version>``. Bump it here when behaviour changes.
        gym_name: the Gymnasium id's name, ``maya_envs/<gym_name>-v<version>``.
        variant_option: the game option that selects a variant (one README table row each).
        player_counts: the supported ``num_players`` values.
        aliases: other short names accepted wherever a game is named (``"quarry"``).
        hooks: hook name -> ``"module:attribute"`` (see the module docstring).
        benchmark_variants: non-default variants the speed benchmark measures too,
            ``{value: label}``.
        example_options: game options worth trying, as the web app's hint shows them.
    """

    key: str
    title: str
    short_title: str
    version: int
    gym_name: str
    variant_option: str
    player_counts: tuple[int, ...]
    hooks: Mapping[str, str | None]
    aliases: tuple[str, ...] = ()
    benchmark_variants: Mapping[str, str] = field(default_factory=dict)
    example_options: str = ""

    @property
    def name(self) -> str:
        """The PettingZoo module name, e.g. ``"maya2012_v1"`` (``GameSpec.name``, records' ``game``)."""
        return f"{self.key}_v{self.version}"

    @property
    def identity(self) -> dict[str, Any]:
        """``{"name", "title", "version"}``: the fields of the rules' ``GameSpec`` and the env's
        ``metadata["name"]`` that say which game this is, taken from this entry only."""
        return {"name": self.name, "title": self.title, "version": self.version}

    @property
    def package(self) -> str:
        """The game's package, ``maya_envs.<key>`` (rules, env, observer, ...)."""
        return f"maya_envs.{self.key}"

    @property
    def env_module(self) -> str:
        """The PettingZoo module with ``env()`` and ``raw_env()``."""
        return f"maya_envs.{self.name}"

    @property
    def gym_id(self) -> str:
        """The Gymnasium id of the single-agent view, ``maya_envs/<gym_name>-v<version>``."""
        return f"{self.versionless_gym_id}-v{self.version}"

    @property
    def versionless_gym_id(self) -> str:
        """The Gymnasium id without its version, ``maya_envs/<gym_name>``: what the shipped
        training configs write as ``env_id``, so that a version bump (this entry's ``version``)
        edits no config. It is not registered (Gymnasium refuses a versionless id beside a
        versioned one of the same name); :func:`maya_envs.registration.resolve_env_id` turns it
        into :attr:`gym_id`, and ``gymnasium.make`` itself takes the highest registered version
        for it, with a warning."""
        return f"maya_envs/{self.gym_name}"

    @property
    def names(self) -> tuple[str, ...]:
        """Every name :func:`find_game` accepts for this game."""
        return (self.key, *self.aliases, self.name, self.gym_id, self.versionless_gym_id)

    def hook(self, name: str) -> Any:
        """The hook ``name`` imported (``None`` where the game has none).

        Raises:
            KeyError: ``name`` is not one of :data:`HOOKS`.
        """
        if name not in HOOKS:
            raise KeyError(f"unknown hook {name!r}; known hooks: {list(HOOKS)}")
        target = self.hooks.get(name)
        if target is None:
            return None
        module, _, attribute = target.partition(":")
        return getattr(importlib.import_module(module), attribute)

    def make_rules(self, options: Mapping[str, Any] | None = None):
        """The rules for ``options`` (a mapping of game options)."""
        return self.hook("rules")(options)

    def make_aec_env(self, **kwargs: Any):
        """The AEC env (``render_mode``, ``illegal_action``, ``render_observer`` and game options)."""
        return importlib.import_module(self.env_module).env(**kwargs)

    def public_scores(self, rules: Any, state: Any) -> str:
        """Scores everyone may see during a game (``""`` where the game has no such hook)."""
        scores = self.hook("public_scores")
        return scores(rules, state) if scores is not None else ""

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...]:
        """Seats that share one result at ``num_players`` (``()``: every seat for itself)."""
        teams = self.hook("teams")
        return tuple(teams(num_players)) if teams is not None else ()


STANDARD_HOOKS: dict[str, str] = {
    "heuristic_bot": "bots:HeuristicBot",
    "determinize": "determinize:determinize",
    "leaf_values": "determinize:leaf_values",
    "score_margins": "determinize:score_margins",
    "notation": "notation:describe_action",
    "action_targets": "render_image:action_targets",
    "render_text": "render:render_text",
    "legend": "render:LEGEND",
    "max_chance_outcomes": "rules:MAX_CHANCE_OUTCOMES",
}
"""Hooks every game package answers in the same module (``<package>.bots``, ...); an entry
names only its other hooks, or ``None`` to leave a standard one out."""


def _hooks(package: str, **names: str | None) -> dict[str, str | None]:
    """``{hook: "maya_envs.<package>.<module>:<attribute>"}`` for every hook: the
    :data:`STANDARD_HOOKS` updated by ``hook="module:attribute"`` (or ``None``)."""
    unknown = sorted(set(names) - set(HOOKS))
    if unknown:
        raise KeyError(f"unknown hook(s) {unknown}; known hooks: {list(HOOKS)}")
    targets = {**STANDARD_HOOKS, **names}
    return {hook: None if targets.get(hook) is None else f"maya_envs.{package}.{targets[hook]}" for hook in HOOKS}


GAMES: dict[str, Game] = {
    game.key: game
    for game in (
        Game(
            key="maya2012",
            title="Maya (2012)",
            short_title="Maya (2012)",
            version=1,
            gym_name="Maya2012",
            variant_option="setup",
            player_counts=(2, 3, 4),
            hooks=_hooks(
                "maya2012",
                rules="rules:Maya2012Rules",
                env="env:Maya2012Env",
                variants="rules:SETUP_NAMES",
                shaping_potential="shaping:victory_point_margin",
                teams="rules:teams",
                batched="batched:BatchedMaya2012",
                public_scores="notation:public_scores",
                observer="observation:Maya2012Observer",
                features="features:ActionFeatures",
            ),
            example_options='setup="draft", max_turns=60, three_plus_two="sum"',
        ),
        Game(
            key="maya_quarry",
            title="Maya (Abacusspiele 2003)",
            short_title="Maya (quarry)",
            version=1,
            gym_name="MayaQuarry",
            variant_option="variant",
            player_counts=(3, 4, 5),
            aliases=("quarry",),
            hooks=_hooks(
                "maya_quarry",
                rules="rules:MayaQuarryRules",
                env="env:MayaQuarryEnv",
                variants="rules.config:VARIANTS",
                public_scores="notation:public_scores",
                max_chance_outcomes="rules.engine:MAX_CHANCE_OUTCOMES",
                observer="observation:MayaQuarryObserver",
                features="features:ActionFeatures",
            ),
            benchmark_variants={"advanced": "adv"},
            example_options='variant="advanced", reward_scheme="gold_diff"',
        ),
        Game(
            key="yaxha",
            title="Yaxha",
            short_title="Yaxha",
            version=1,
            gym_name="Yaxha",
            variant_option="footprint",
            player_counts=(2, 3, 4),
            hooks=_hooks(
                "yaxha",
                rules="rules:YaxhaRules",
                env="env:YaxhaEnv",
                variants="actions:FOOTPRINTS",
                observer="observation:YaxhaObserver",
                features="features:ActionFeatures",
            ),
            example_options='footprint="fixed"',
        ),
    )
}
"""Game key -> entry, in the order of the README's tables."""

DEFAULT_GAME = GAMES["maya2012"]
"""The game a command line or a config uses when none is named."""

_BY_NAME: dict[str, Game] = {name: game for game in GAMES.values() for name in game.names}


def game_names() -> list[str]:
    """Every name :func:`find_game` accepts, sorted (keys, aliases, module names, Gymnasium ids)."""
    return sorted(_BY_NAME)


def find_game(name: str) -> Game:
    """The entry named ``name``: a key (``"maya2012"``), an alias (``"quarry"``), a PettingZoo
    module name (:attr:`Game.name`), a Gymnasium id (:attr:`Game.gym_id`) or that id without its
    version (:attr:`Game.versionless_gym_id`, ``"maya_envs/Maya2012"``).

    Raises:
        ValueError: an unknown name (the message lists the known ones), or an old name in
            :data:`maya_envs.RENAMED_ENVS` (the message names the new one).
    """
    game = _BY_NAME.get(name) if isinstance(name, str) else None
    if game is None:
        from maya_envs.core.errors import shorten  # here: the table itself imports nothing of the package

        raise ValueError(f"unknown game {shorten(name)}{renamed_note(name)}; known: {game_names()}")
    return game


def renamed_to(old: str) -> tuple[str, str]:
    """``(the current module name, what changed)`` of an old module name in :data:`RENAMED_ENVS`,
    following the renamings (``<key>_v0`` -> ``<key>_v1`` -> ``<key>_v2`` names ``<key>_v2``: after
    a bump, the rows written for the bumps before it still name the current env); ``what changed``
    is the change of the first renaming after ``old``.

    Raises:
        KeyError: ``old`` is not a renamed name.
    """
    new, change = RENAMED_ENVS[old]
    seen = {old}
    while new in RENAMED_ENVS and new not in seen:  # a loop in the table ends at its last new name
        seen.add(new)
        new = RENAMED_ENVS[new][0]
    return new, change


def renamed_note(name: Any) -> str:
    """`` (renamed 'maya2012_v1': ...)`` for an old name in :data:`maya_envs.RENAMED_ENVS`, else ``""``."""
    if name not in RENAMED_ENVS:
        return ""
    new, change = renamed_to(name)
    return f" (renamed {new!r}: {change})"


def game_of_module(module: str) -> Game:
    """The entry whose package holds the module named ``module`` (``maya_envs.<key>`` or a module
    inside it): how a game's own modules (its rules' ``GameSpec``, its env's metadata) read their
    identity from the table instead of writing it again.

    Raises:
        ValueError: ``module`` is in no game's package.
    """
    for game in GAMES.values():
        if module == game.package or module.startswith(game.package + "."):
            return game
    raise ValueError(f"module {module!r} is in no game's package; packages: {[g.package for g in GAMES.values()]}")


def game_of_rules(rules: Any) -> Game:
    """The entry whose ``rules`` hook is the class of ``rules`` (or one of its bases), wherever the
    class is defined inside the game's package (the hook may name a re-export).

    Raises:
        ValueError: ``rules`` is no game's rules object.
    """
    for cls in type(rules).__mro__:
        for game in GAMES.values():
            if cls.__module__.startswith(game.package + ".") and game.hook("rules") is cls:
                return game
    raise ValueError(f"{type(rules).__name__} is not the rules class of any game in maya_envs.games.GAMES")


def make_aec_env(game: str, game_options: Mapping[str, Any] | None = None):
    """The AEC env of ``game`` (any name :func:`find_game` accepts) with ``game_options``.

    Raises:
        ValueError: an unknown game; ConfigError: a bad game option.
    """
    return find_game(game).make_aec_env(**dict(game_options or {}))
