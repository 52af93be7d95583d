"""Turn an opponent spec (a bot name, a bot, a policy, a callable) into one interface.

Strings are resolved by the one player resolver, :mod:`maya_envs.players` (bot kinds:
:data:`maya_envs.bot_kinds.BOT_KINDS`); this module wraps what it returns.

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
  :func:`maya_envs.players.register_resolver` or from the ``maya_envs.opponents`` entry-point group of any
  installed package (this project's ``training`` package registers ``rllib``: an RLlib
  checkpoint, ``"rllib:<checkpoint path>"``, imported only for such a spec);
* an object with ``choose(env, agent)`` (such as that RLlib agent), asked as is.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.bot_kinds import BOT_NAMES, make_bot
from maya_envs.core.errors import ConfigError, shorten
from maya_envs.players import (  # noqa: F401  (register_resolver, resolver_for, ENTRY_POINT_GROUP: the old import path)
    ENTRY_POINT_GROUP,
    default_observation_shape,
    expand_spec,
    register_resolver,
    resolver_for,
)


class OpponentPolicy:
    """A resolved opponent; see the module docstring for the accepted specs."""

    def __init__(
        self,
        spec: Any,
        rules,
        seed: int | np.random.Generator | None = None,
        observation_shape: tuple[int, ...] | None = None,
        files: bool = False,
    ) -> None:
        shape = tuple(observation_shape) if observation_shape is not None else default_observation_shape(rules)
        named = spec
        spec = expand_spec(spec, rules, shape, files=files)  # the one resolver (maya_envs.players)
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
                where = f"checkpoint {shorten(named)}: " if isinstance(named, str) else ""
                raise ValueError(
                    f"{where}model expects observations of shape {tuple(expects)}, but {rules.spec.name} with "
                    f"{rules.spec.num_players} players and these options gives {shape} "
                    "(a checkpoint of another game, player count or variant?)"
                )
        elif hasattr(spec, "choose"):
            self._kind = "chooser"
        elif callable(spec):
            self._kind = "callable"
        else:
            raise ValueError(
                f"opponent {shorten(spec)} is not usable; allowed: one of {list(BOT_NAMES)}, a bot with "
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
        weights: ``{spec: weight}`` with finite non-negative weights summing to more than 0.

    Raises:
        ValueError: an empty pool; ConfigError (a ValueError): a negative, infinite or NaN weight
            or an all-zero total.
    """

    def __init__(self, weights: dict[Any, float], rules, observation_shape: tuple[int, ...] | None = None) -> None:
        if not weights:
            raise ValueError("an opponent pool needs at least one member")
        values = np.asarray(list(weights.values()), dtype=np.float64)
        if not np.isfinite(values).all() or (values < 0).any() or values.sum() <= 0:
            raise ConfigError(f"opponents={shorten(weights)}; allowed: finite weights >= 0 with a positive sum")
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
    files: bool = False,
) -> OpponentPolicy | OpponentPool:
    """Resolve ``spec`` (see the module docstring) for ``rules``; a model (and a pretrained
    baseline) must take observations of ``observation_shape`` (default: the shape of the
    game's default observer; pass the env's ``spec_card.observation_shape`` where the env's
    observer has options, such as Yaxha's ``action_features``). With ``files`` (command lines,
    never a page) a path names a MaskablePPO checkpoint (:func:`maya_envs.players.load_checkpoint`).

    Raises:
        ValueError: an unknown bot name, an unusable object, or an unknown or unfitting
            pretrained baseline.
    """
    if isinstance(spec, (OpponentPolicy, OpponentPool)):
        return spec
    if isinstance(spec, dict):
        return OpponentPool(spec, rules, observation_shape)
    return OpponentPolicy(spec, rules, seed, observation_shape, files)

