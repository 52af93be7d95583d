"""The one table of bot kinds: one :class:`BotKind` row per kind, and :func:`make_bot`.

A bot spec is ``kind[:model][:N...][:KEY=VALUE...]`` (one grammar,
:mod:`maya_envs.core.specs`); its first part picks a row of :data:`BOT_KINDS`. Everything that
takes a bot name reads this table: :func:`maya_envs.bots.make_bot` (this module's
:func:`make_bot`), the one player resolver :mod:`maya_envs.players` (gym opponents, the arena,
``maya-play``, ``maya-stats``), ``maya-web``'s allowed seats and their budgets, the trainer's
actors and the training configs' checks, and the help texts (:func:`bot_syntax`). Adding a bot
kind means its module plus one row here.

Like :mod:`maya_envs.games`, the table is pure (stdlib and ``core`` only): factories and
parsers are ``"module:attribute"`` strings imported on first use, so this module sits above
``bots/`` and ``nn/`` in meaning while importing neither (``bots/`` imports it for
``make_bot``; no import runs from ``bots/`` to ``nn/``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from maya_envs.core.errors import did_you_mean, shorten

TRAIN_EXTRA = "pip install 'maya-envs[train]'"
MODEL = "{model}"
"""Where a row's :attr:`BotKind.example` names a model: a shipped network of the game."""


def _load(target: str) -> Any:
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class BotKind:
    """One bot kind.

    Attributes:
        name: the kind, the spec's first part (``"mcts"``).
        syntax: the spec's shape for lists and help texts (``"mcts[:SIMULATIONS][...]"``).
        example: a spec that builds for every game of :data:`maya_envs.games.GAMES`
            (``{model}``: a shipped network of that game; ``tests/test_bot_kinds.py`` builds it);
            a page suggests it (:data:`maya_envs.web.policy.AGENT_SPECS`).
        summary: what the bot plays, in a few words.
        factory: ``"module:attribute"`` of the builder: ``build(spec, rules, seed)`` where the
            kind has a ``parse``, else ``build(rules, seed)`` (the spec is the bare kind).
        parse: ``"module:attribute"`` of ``parse(spec) -> (model or None, settings or None)``,
            raising :class:`ValueError` on a malformed spec; builds nothing and needs no torch.
            ``None``: the spec is the bare kind, with no parts.
        model: ``"module:attribute"`` of ``find(model) -> path`` for kinds that play a network
            named in the spec (they need torch, the ``train`` extra), raising
            :class:`ValueError` for a missing model; ``None`` for the others.
        budget: the settings group a page limits (a key of
            :data:`maya_envs.web.policy.PAGE_LIMITS`); a kind whose group has no limits
            there is not offered to pages. ``None``: nothing to limit.
        training_opponent: may be a PPO training opponent (the rollout searches are too slow:
            evaluation only).
        needs: optional packages the kind imports (``("torch",)`` for a network: the ``train``
            extra); building without one is an :class:`ImportError` naming the extra.
    """

    name: str
    syntax: str
    example: str
    summary: str
    factory: str
    parse: str | None = None
    model: str | None = None
    budget: str | None = None
    training_opponent: bool = True
    needs: tuple[str, ...] = ()

    def read(self, spec: str) -> tuple[str | None, Any]:
        """``(model, settings)`` of ``spec`` (both ``None`` for a kind without parts).

        Raises:
            ValueError: a malformed spec (the message names the bad part and gives the syntax).
        """
        if self.parse is None:
            if spec != self.name:
                raise ValueError(f"bot {shorten(spec)}: {shorten(self.name)} takes no settings; syntax: {self.syntax}")
            return None, None
        return _load(self.parse)(spec)

    def check(self, spec: str) -> None:
        """Refuse a malformed spec or one whose model does not exist, without building it.

        Raises:
            ValueError: the message names the problem.
        """
        model, _ = self.read(spec)
        if self.model is not None:
            _load(self.model)(model)

    def build(self, spec: str, rules: Any, seed: Any = None) -> Any:
        """The bot ``spec`` names, for ``rules``, with its own generator from ``seed``.

        Raises:
            ValueError: a malformed spec, an unknown model or one that does not fit ``rules``.
            ImportError: a network kind without torch (the message names the extra).
        """
        for module in self.needs:
            try:
                importlib.import_module(module)
            except ImportError as error:
                raise ImportError(f"bot {shorten(spec)} needs {module}, from the train extra: {TRAIN_EXTRA}") from error
        if self.parse is None:
            return _load(self.factory)(rules, seed)
        return _load(self.factory)(spec, rules, seed)


_SEARCH = "mcts[:SIMULATIONS][:ROLLOUT][:KEY=VALUE...]"
BOT_KINDS: dict[str, BotKind] = {
    kind.name: kind
    for kind in (
        BotKind("random", "random", "random", "uniform over the legal actions", "maya_envs.bots.random_bot:RandomBot"),
        BotKind(
            "heuristic", "heuristic", "heuristic", "the game's rule-of-thumb bot", "maya_envs.bots.heuristic:heuristic_bot"
        ),
        BotKind(
            "mcts",
            _SEARCH,
            "mcts:20",
            "UCT (IS-MCTS where the game hides information)",
            "maya_envs.bots.mcts:make_search_bot",
            parse="maya_envs.bots.mcts:read_spec",
            budget="mcts",
            training_opponent=False,
        ),
        BotKind(
            "ismcts",
            "ismcts" + _SEARCH.removeprefix("mcts"),
            "ismcts:20",
            "information-set MCTS, always determinizing",
            "maya_envs.bots.mcts:make_search_bot",
            parse="maya_envs.bots.mcts:read_spec",
            budget="mcts",
            training_opponent=False,
        ),
        BotKind(
            "policy",
            "policy:<model>",
            f"policy:{MODEL}",
            "a policy-value network's best prior, no search",
            "maya_envs.nn.agent:make_network_bot",
            parse="maya_envs.nn.specs:read_policy_spec",
            model="maya_envs.nn.specs:model_path",
            needs=("torch",),
        ),
        BotKind(
            "az",
            "az:<model>[:SIMULATIONS][:KEY=VALUE...]",
            f"az:{MODEL}:8",
            "a network guiding a Gumbel/PUCT search",
            "maya_envs.nn.agent:make_network_bot",
            parse="maya_envs.bots.guided:parse_az_spec",
            model="maya_envs.nn.specs:model_path",
            budget="az",
            needs=("torch",),
        ),
    )
}
"""Every bot kind, by name (see :class:`BotKind`)."""

BOT_NAMES = tuple(kind.syntax for kind in BOT_KINDS.values())
"""The spec shapes of every kind, in table order (error messages and help texts)."""
NETWORK_BOTS = tuple(name for name, kind in BOT_KINDS.items() if kind.model is not None)
"""The kinds played by a policy-value network named in the spec (they need torch)."""


def bot_syntax(model: str = "<model>") -> str:
    """``"random, heuristic, mcts[:SIMULATIONS]..., policy:<model>, ..."``: every kind's
    syntax, ``<model>`` written as ``model`` (a page says ``<shipped network>``)."""
    return ", ".join(name.replace("<model>", model) for name in BOT_NAMES)


def bot_kind(name: Any) -> BotKind:
    """The row of bot spec ``name``.

    Raises:
        ValueError: not a known kind, or a bare kind with parts (the message lists the known
            bots and suggests the closest: ``"mtcs:200"`` -> ``'mcts:200'``).
    """
    kind = BOT_KINDS.get(name.split(":", 1)[0]) if isinstance(name, str) else None
    if kind is None or (kind.parse is None and name != kind.name):
        raise ValueError(f"unknown bot {shorten(name)}{_near_bot(name)}; known bots: {', '.join(BOT_NAMES)}")
    return kind


def is_bot_spec(name: Any) -> bool:
    """Whether ``name``'s first part is a bot kind (it may still be malformed)."""
    return isinstance(name, str) and name.split(":", 1)[0] in BOT_KINDS


def make_bot(name: str, rules: Any, seed: Any = None) -> Any:
    """Build the bot called ``name`` for ``rules`` (a :class:`~maya_envs.bots.base.Bot`).

    ``"random"`` works for every game; ``"heuristic"`` is the game's ``heuristic_bot`` hook in
    :mod:`maya_envs.games`; ``"mcts..."``/``"ismcts..."`` a
    :class:`~maya_envs.bots.mcts.MCTSBot` (:data:`maya_envs.bots.mcts.SPEC_SYNTAX`; ``"mcts"``
    determinizes exactly when the game has hidden information, ``"ismcts"`` always);
    ``"policy:<model>"`` (the raw network) and ``"az:<model>[:SIMULATIONS][:KEY=VALUE...]"``
    (network-guided search, :data:`maya_envs.bots.guided.AZ_SYNTAX`) play a policy-value
    network, ``<model>`` a ``.pt`` checkpoint or a shipped network name (need torch). The
    kinds are the rows of :data:`BOT_KINDS`.

    Raises:
        ValueError: an unknown name (the message lists the known names) or a malformed
            spec (the message names the bad part and gives the syntax), an unknown
            model or one that does not fit ``rules``.
        ImportError: a network bot without torch installed (the message names the extra).
    """
    return bot_kind(name).build(name, rules, seed)


def _near_bot(name: object) -> str:
    """A suggestion for a mistyped bot spec: its kind corrected, the rest kept
    (``"mtcs:200"`` -> `` (did you mean 'mcts:200'?)``), or ``""``."""
    if not isinstance(name, str) or name.partition(":")[0] in BOT_KINDS:
        return ""
    kind, sep, rest = name.partition(":")
    return did_you_mean(kind.lower(), tuple(BOT_KINDS), lambda match: f"{match}{sep}{rest}")
