"""Turn an opponent spec (a bot name, a bot, a policy, a callable) into one interface.

An opponent chooses for ``agent`` in an AEC env over a rules engine:
``opponent.choose(env, agent) -> action id``.

Accepted specs:

* ``"random"``, ``"heuristic"``: the game's bots (:func:`maya_envs.bots.make_bot`); they read
  the rules state, restricted by each bot to what its seat may know;
* a bot object (has ``act(state)``);
* an object with ``predict(obs, action_masks=..., deterministic=...)`` such as an SB3
  ``MaskablePPO`` model: it gets the agent's ``"observation"`` array and mask;
* any other callable: ``f(observation_dict) -> int`` where the dict is the agent's
  ``{"observation", "action_mask"}``;
* a dict ``{spec: weight}``: an :class:`OpponentPool` that draws one member per episode;
* ``"pretrained"`` / ``"pretrained:raw"`` / ``"pretrained:<name>"``: an agent shipped in
  :mod:`maya_envs.pretrained` (needs the ``train`` extra): the game's default agent (its
  registry ``default_spec``, e.g. ``"az:maya2012_2p_exit:32:leaf=hook"``), that default's
  network without search, or that entry; a MaskablePPO baseline plays as a model, a shipped
  network as the bot ``"policy:<name>"``;
* ``"policy:<model>"``, ``"az:<model>[:SIMULATIONS][...]"``: a policy-value network, raw or
  guiding a search (bot names of :func:`maya_envs.bots.make_bot`; need torch);
* ``"<prefix>:<text>"`` for a registered prefix: the resolver of that prefix turns the spec
  into one of the objects above. ``pretrained`` is built in; others come from
  :func:`register_resolver` or from the ``maya_envs.opponents`` entry-point group of any
  installed package (this project's ``training`` package registers ``rllib``: an RLlib
  checkpoint, ``"rllib:<checkpoint path>"``, imported only for such a spec);
* an object with ``choose(env, agent)`` (such as that RLlib agent), asked as is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache
from importlib.metadata import entry_points
from typing import Any

import numpy as np

from maya_envs.bots.base import BOT_NAMES, make_bot
from maya_envs.games import game_of_rules
from maya_envs.pretrained import (
    PREFIX,
    default_agent,
    is_pretrained_spec,
    load_pretrained,
    pretrained_info,
    raw_agent,
    resolve_pretrained_spec,
)

Resolver = Callable[[str, Any], Any]
"""``resolver(spec, rules) -> opponent object`` for the specs ``"<prefix>:..."`` of one prefix."""
ENTRY_POINT_GROUP = "maya_envs.opponents"
"""Entry points ``prefix = "module:resolver"`` that installed packages register for specs."""
_RESOLVERS: dict[str, Resolver] = {}


def register_resolver(prefix: str, resolver: Resolver) -> None:
    """Resolve the opponent specs ``"<prefix>"`` and ``"<prefix>:..."`` with ``resolver``."""
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


def _pretrained(spec: str, rules, observation_shape: tuple[int, ...] | None = None) -> Any:
    """The shipped agent ``spec`` names, matched against the game of ``rules`` as a seat
    observing ``observation_shape`` sees it (default: the game's default observer): for
    ``"pretrained"`` the default entry's ``default_spec`` (a bot spec), else an ``sb3``
    entry's MaskablePPO model or a ``network`` entry's bot ``"policy:<name>"``."""
    if not is_pretrained_spec(spec):
        raise ValueError(f"a pretrained spec looks like 'pretrained' or 'pretrained:<name>', got {spec!r}")
    shape = default_observation_shape(rules) if observation_shape is None else tuple(observation_shape)
    name = resolve_pretrained_spec(spec, replace(rules.spec, observation_shape=shape))
    agent = default_agent(name) if spec == PREFIX else raw_agent(name)
    if pretrained_info(name).kind == "sb3" and agent == name:
        return load_pretrained(name)
    return agent


register_resolver("pretrained", _pretrained)


class OpponentPolicy:
    """A resolved opponent; see the module docstring for the accepted specs."""

    def __init__(
        self,
        spec: Any,
        rules,
        seed: int | np.random.Generator | None = None,
        observation_shape: tuple[int, ...] | None = None,
    ) -> None:
        shape = tuple(observation_shape) if observation_shape is not None else default_observation_shape(rules)
        if is_pretrained_spec(spec):  # built in: the baseline must fit the shape this seat observes
            spec = _pretrained(spec, rules, shape)
        elif (resolver := resolver_for(spec)) is not None:
            spec = resolver(spec, rules)
        self.spec = spec
        if isinstance(spec, str):
            self._bot = make_bot(spec, rules, seed)
            self._kind = "bot"
        elif hasattr(spec, "act"):
            self._bot, self._kind = spec, "bot"
        elif hasattr(spec, "predict"):
            self._kind = "model"
            expects = getattr(getattr(spec, "observation_space", None), "shape", None)
            if expects is not None and tuple(expects) != shape:
                raise ValueError(
                    f"model expects observations of shape {tuple(expects)}, but {rules.spec.name} with "
                    f"{rules.spec.num_players} players and these options gives {shape} "
                    "(a checkpoint of another game, player count or variant?)"
                )
        elif hasattr(spec, "choose"):
            self._kind = "chooser"
        elif callable(spec):
            self._kind = "callable"
        else:
            raise ValueError(
                f"opponent {spec!r} is not usable; allowed: one of {list(BOT_NAMES)}, a bot with "
                "act(state), a model with predict(obs, action_masks=...), an object with choose(env, agent), "
                "'pretrained[:<name>]', 'rllib:<checkpoint path>', or a callable(obs_dict)"
            )

    def new_episode(self, seed: int) -> None:
        """Restart the opponent's own generator (bots only; models and callables keep theirs)."""
        if self._kind == "bot" and hasattr(self._bot, "rng"):
            self._bot.rng = np.random.default_rng(seed)

    def choose(self, env, agent: str) -> int:
        if self._kind == "bot":
            return int(self._bot.act(env.game_state))
        if self._kind == "chooser":
            return int(self.spec.choose(env, agent))
        observation = env.observe(agent)
        if self._kind == "model":
            action, _ = self.spec.predict(
                observation["observation"],
                action_masks=observation["action_mask"].astype(bool),
                deterministic=True,
            )
            return int(action)
        return int(self.spec(observation))


class OpponentPool:
    """A weighted mix of opponents; one member plays each whole episode.

    Args:
        weights: ``{spec: weight}`` with non-negative weights summing to more than 0.

    Raises:
        ValueError: an empty pool, a negative weight or an all-zero total.
    """

    def __init__(self, weights: dict[Any, float], rules, observation_shape: tuple[int, ...] | None = None) -> None:
        if not weights:
            raise ValueError("an opponent pool needs at least one member")
        values = np.asarray(list(weights.values()), dtype=np.float64)
        if (values < 0).any() or values.sum() <= 0:
            raise ValueError(f"opponent weights must be >= 0 with a positive sum, got {weights!r}")
        self.members = [OpponentPolicy(spec, rules, observation_shape=observation_shape) for spec in weights]
        self.probabilities = values / values.sum()
        self.current = self.members[0]

    def new_episode(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.current = self.members[rng.choice(len(self.members), p=self.probabilities)]
        self.current.new_episode(seed)

    def choose(self, env, agent: str) -> int:
        return self.current.choose(env, agent)


def make_opponent(
    spec: Any,
    rules,
    seed: int | np.random.Generator | None = None,
    observation_shape: tuple[int, ...] | None = None,
) -> OpponentPolicy | OpponentPool:
    """Resolve ``spec`` (see the module docstring) for ``rules``; a model (and a pretrained
    baseline) must take observations of ``observation_shape`` (default: the shape of the
    game's default observer; pass the env's ``spec_card.observation_shape`` where the env's
    observer has options, such as Yaxha's ``action_features``).

    Raises:
        ValueError: an unknown bot name, an unusable object, or an unknown or unfitting
            pretrained baseline.
    """
    if isinstance(spec, (OpponentPolicy, OpponentPool)):
        return spec
    if isinstance(spec, dict):
        return OpponentPool(spec, rules, observation_shape)
    return OpponentPolicy(spec, rules, seed, observation_shape)


def default_observation_shape(rules) -> tuple[int, ...]:
    """The observation shape of the default observer of ``rules``' game (its env's
    ``observer_class`` with no options)."""
    return game_of_rules(rules).hook("env").observer_class(rules).layout.shape
