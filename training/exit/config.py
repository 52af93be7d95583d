"""The ``exit`` block of a training config (``algo: exit``): :class:`ExitConfig`, which the YAML
fills one to one (:func:`training.config.load_config` reads it; :mod:`training.exit.loop` runs it)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from maya_envs.bot_kinds import BOT_KINDS
from maya_envs.core.errors import ConfigError
from maya_envs.players import check_player_spec
from training.checks import check_bool, check_int, check_number, check_search_spec, is_number, is_search_spec

LEAF_VALUES = ("net", "hook", "mix", "auto")
""":attr:`ExitConfig.leaf_value` values (the first three: :data:`maya_envs.bots.guided.LEAVES`)."""
AUTO_NET_MARGIN = 0.01
"""``leaf_value: auto`` switches to ``net`` only when its error is below the hook's by this much."""

EXIT_OPPONENTS = ("self", "heuristic", "older", "random")
"""The kinds of game :attr:`ExitConfig.opponents` mixes: ``self`` (the network with search in
every seat), ``heuristic`` / ``random`` (one network seat, the other seats that bot) and
``older`` (one network seat, the others an older kept network, with search)."""


@dataclass
class ExitConfig:
    """The ``exit`` block (``algo: exit``): expert iteration (:mod:`training.exit`). Each
    iteration the actors play ``games_per_iteration`` games with the network-guided search,
    the learner fits the network to the search policies and the final returns of the last
    ``replay_iterations`` iterations, and a gate keeps the new network only when it plays at
    least as well as the last kept one."""

    iterations: int = 10
    """Iterations after the imitation start (iteration 0); ``--resume`` counts the
    checkpoint's."""
    max_seconds: float = 0
    """Stop after the first iteration that ends past this many seconds of training (0: no
    limit); the final evaluation is not counted."""
    actors: int = 2
    """Actor processes that play the self-play and gating games (one core each)."""
    games_per_iteration: int = 64
    """Self-play games per iteration (over all actors)."""
    games_in_flight: int = 32
    """Games each actor advances in lock step (their leaves share one forward pass)."""
    simulations: int = 32
    """Guided-search simulations per move in self-play."""
    search: dict[str, Any] = field(default_factory=dict)
    """Further :class:`maya_envs.bots.guided.GuidedConfig` settings of the search
    (``selection``, ``max_considered``, ``gumbel_scale``, ``c_puct``, ...); the evaluation's
    ``az:`` search uses them too, without root noise."""
    sample_moves: int = 8
    """Moves per seat at the start of each self-play game drawn from the search policy
    (exploration); later moves take the search's own choice."""
    opponents: dict[str, float] = field(default_factory=lambda: {"self": 0.75, "heuristic": 0.25})
    """Kind of game -> weight (:data:`EXIT_OPPONENTS`); each game draws one kind."""
    imitation: str = "heuristic"
    """Iteration 0's teacher: ``"heuristic"`` (its action as a one-hot target), a search bot
    (``"mcts:200:depth=2"``: its visit counts as the target) or ``"none"`` (no imitation)."""
    imitation_games: int = 400
    """Games the teacher plays against itself in iteration 0."""
    imitation_epsilon: float = 0.1
    """Share of the teacher's moves replaced by a random legal move in those games (the
    target stays the teacher's choice), so the data covers positions it would not reach."""
    imitation_epochs: int = 4
    """Passes over the imitation data in iteration 0."""
    replay_iterations: int = 4
    """Iterations whose positions the replay buffer keeps (the imitation data counts as one)."""
    hidden: int = 128
    """Hidden width of the policy-value network."""
    id_bias: bool = True
    """A learned bias per action id on top of the feature-scored logits."""
    weight_decay: float = 1e-4
    value_weight: float = 1.0
    """Weight of the value loss (mean squared error) beside the policy cross-entropy."""
    gate_games: int = 100
    """Games of each gating match (seats rotated)."""
    gate_opponents: list[str] = field(default_factory=lambda: ["heuristic"])
    """Bots the new network (raw, no search) plays at each gate for the learning curve; the
    match against the last kept network decides."""
    gate_threshold: float = 0.5
    """The new network is kept when its score (wins + draws / 2) against the last kept one
    reaches this."""
    eval_simulations: int = 32
    """The final evaluation plays the raw network (``policy:``) and, when > 0, the network
    with this many guided simulations (``az:``) against ``eval_opponents``."""
    value_target_hook: float = 0.0
    """Weight ``a`` of the game's ``leaf_values`` estimate in the value target ``(1 - a) z + a
    h`` (design D3; 0: the final result ``z`` alone)."""
    leaf_value: str = "auto"
    """The search's leaf value in self-play, the evaluation and the saved network's record
    (:data:`LEAF_VALUES`): ``net`` (the value head), ``hook`` (the game's ``leaf_values``
    estimate), ``mix`` (their mean) or ``auto``: each iteration, the one of the three with the
    lowest own-seat mean squared error on the iteration's new games before learning (logged as
    ``new_games_value_mse_{net,hook,mix}`` in ``history.json``), ``net`` only once it beats the
    hook by :data:`AUTO_NET_MARGIN` on two iterations in a row; ``hook`` until the first
    measurement. Design D1 of the strong-agents study: the learned value was worse than the hook
    on fresh games in Maya (2012) and Yaxha, better in the quarry game."""

    def validate(self) -> None:
        """Raise :class:`ConfigError` naming the ``exit.<key>`` and what is allowed."""
        for name in ("iterations", "sample_moves", "gate_games", "eval_simulations", "imitation_games"):
            check_int(f"exit.{name}", getattr(self, name), minimum=0)
        for name in ("actors", "games_per_iteration", "games_in_flight", "simulations", "replay_iterations",
                     "hidden", "imitation_epochs"):  # fmt: skip
            check_int(f"exit.{name}", getattr(self, name), minimum=1)
        for name in ("max_seconds", "weight_decay", "value_weight"):
            check_number(f"exit.{name}", getattr(self, name))
        for name in ("imitation_epsilon", "gate_threshold", "value_target_hook"):
            check_number(f"exit.{name}", getattr(self, name), 0, 1)
        check_bool("exit.id_bias", self.id_bias)
        if self.leaf_value not in LEAF_VALUES:
            raise ConfigError(f"exit.leaf_value={self.leaf_value!r}; allowed: {', '.join(LEAF_VALUES)}")
        if not isinstance(self.search, dict):
            raise ConfigError(f"exit.search={self.search!r}; allowed: a mapping of guided-search settings")
        from maya_envs.bots.guided import GuidedConfig

        known = sorted(f.name for f in fields(GuidedConfig) if f.name not in ("simulations", "leaf"))
        unknown = sorted(set(self.search) - set(known))
        if unknown:
            raise ConfigError(f"exit.search: unknown setting(s) {unknown}; known: {known}")
        try:
            self.search_config()
        except ValueError as error:
            raise ConfigError(f"exit.search: {error}") from None
        mix = self.opponents
        if (
            not isinstance(mix, dict)
            or not mix
            or any(not is_number(w) or w < 0 for w in mix.values())
            or not sum(mix.values()) > 0
        ):
            raise ConfigError(
                f"exit.opponents={mix!r}; allowed: a mapping of {', '.join(EXIT_OPPONENTS)} -> weight >= 0, not all 0"
            )
        unknown = sorted(set(mix) - set(EXIT_OPPONENTS))
        if unknown:
            raise ConfigError(f"exit.opponents: unknown kind(s) {unknown}; allowed: {', '.join(EXIT_OPPONENTS)}")
        if self.imitation not in ("heuristic", "none") and not is_search_spec(self.imitation):
            raise ConfigError(
                f"exit.imitation={self.imitation!r}; allowed: 'heuristic', 'none' or a search bot "
                + ", ".join(repr(k.syntax) for k in BOT_KINDS.values() if is_search_spec(k.name))
            )
        if is_search_spec(self.imitation):
            check_search_spec("exit.imitation", self.imitation)
        if not isinstance(self.gate_opponents, list):
            raise ConfigError(f"exit.gate_opponents={self.gate_opponents!r}; allowed: a list of bot names")
        for name in self.gate_opponents:
            try:  # bots of the table that play without a network
                check_player_spec(name, shipped=False, models=False)
            except ValueError as error:
                raise ConfigError(f"exit.gate_opponents: {error}") from None

    def search_config(self):
        """The self-play search: a :class:`maya_envs.bots.guided.GuidedConfig` of
        ``simulations`` and the ``search`` settings (built here only; the actors get it whole,
        and the trainer sets its ``leaf`` per iteration)."""
        from maya_envs.bots.guided import GuidedConfig

        return GuidedConfig(simulations=self.simulations, **self.search)

    def first_leaf(self) -> str:
        """The leaf value before any measurement: ``leaf_value``, ``hook`` for ``auto``."""
        return "hook" if self.leaf_value == "auto" else self.leaf_value

    def eval_search_config(self):
        """The evaluation's search (``az:``): the self-play search at ``eval_simulations``
        (at least 1) without root noise, as the ``az:`` bot spec plays."""
        from dataclasses import replace

        return replace(self.search_config(), simulations=max(self.eval_simulations, 1), gumbel_scale=0.0)


def choose_leaf(errors: dict[str, float], previous: dict[str, float] | None) -> str:
    """``leaf_value: auto``'s choice from one iteration's own-seat errors (``{"net", "hook",
    "mix"}`` -> mean squared error on its new games) and the previous iteration's (``None``:
    none): the lowest of the three, except that ``net`` needs to beat the hook by
    :data:`AUTO_NET_MARGIN` in both iterations (else the better of ``hook`` and ``mix``)."""
    best = min(errors, key=errors.get)
    if best != "net":
        return best
    beats = [e["hook"] - e["net"] >= AUTO_NET_MARGIN for e in (errors, previous) if e]
    if len(beats) == 2 and all(beats):
        return "net"
    return min(("hook", "mix"), key=errors.get)
