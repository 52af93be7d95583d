"""The ``exit`` block of a training config (``algo: exit``): :class:`ExitConfig`, which the YAML
fills one to one (:func:`training.config.load_config` reads it; :mod:`training.exit.loop` runs it)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

from maya_envs.bot_kinds import BOT_KINDS
from maya_envs.core.checks import is_int, is_number
from maya_envs.core.errors import ConfigError, listed, shorten
from maya_envs.players import check_player_spec
from training.checks import (
    check_bool,
    check_choice,
    check_int,
    check_names,
    check_number,
    check_search_spec,
    is_search_spec,
)

LEAF_VALUES = ("net", "hook", "mix", "residual", "auto")
""":attr:`ExitConfig.leaf_value` values (all but ``auto``: :data:`maya_envs.bots.guided.LEAVES`)."""
AUTO_NET_MARGIN = 0.01
"""``leaf_value: auto`` switches to ``net`` only when its error is below the hook's by this much."""

MAX_LOSS_WEIGHT = 1e6
"""The largest ``exit.margin_weight`` (any finite weight is allowed in principle; this bound
keeps out weights so large that the loss overflows; infinity and NaN are refused for every
number, :func:`training.checks.check_number`)."""

HOLDOUT_STOPS = ("value", "all")
"""What held-out early stopping stops (:attr:`ExitConfig.holdout_stop`)."""

EXIT_OPPONENTS = ("self", "heuristic", "older", "random")
"""The kinds of game :attr:`ExitConfig.opponents` mixes: ``self`` (the network with search in
every seat), ``heuristic`` / ``random`` (one network seat, the other seats that bot) and
``older`` (one network seat, the others an older kept network, with search)."""


EXIT_LIMITS = {
    "iterations": 10**5, "actors": 256, "games_per_iteration": 10**6, "games_in_flight": 4096,
    "simulations": 10**5, "eval_simulations": 10**5, "sample_moves": 10**4, "imitation_games": 10**6,
    "imitation_epochs": 1000, "replay_iterations": 1000, "hidden": 4096, "gate_games": 10**6,
    "window_games": 10**7, "max_reuse": 1000, "holdout_checks": 1000,
}  # fmt: skip
"""Upper bounds of the ``exit.*`` ints, far above any run of this project (the shipped configs
use 2 actors, 50 games in flight, 32 simulations): ``exit.actors`` starts that many processes,
``games_in_flight`` and ``hidden`` size memory, the game and simulation counts size the work, so
a typo is refused by ``--dry-run`` instead of exhausting the machine."""


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
    """Stop after the first iteration that ends past this many seconds of wall time of training
    (0: no limit; the final evaluation is not counted). Machine-dependent: on a slower or busier
    machine the run stops after fewer iterations, so the same seed gives another network. The
    shipped configs bound training by work (``iterations``, games) alone."""
    checkpoint: bool = True
    """Write ``checkpoint.pt`` after each iteration: everything ``--resume`` needs, the replay
    data included (Maya (2012) 2p with 3,000 imitation games: about 420 MB). ``false``: no
    checkpoint (the run cannot be resumed; ``model.pt`` and ``networks/`` are written as ever)."""
    actors: int = 2
    """Actors that play the self-play and gating games (one core each)."""
    actor_backend: str = "process"
    """Where the actors run (:data:`training.exit.actors.BACKENDS`): ``process`` (spawned
    processes on this machine) or ``ray`` (Ray actors, one CPU each; needs Ray installed:
    ``pip install 'maya-envs[ray]'``). The learner stays in this process; both backends play
    the same games for the same seeds."""
    ray_address: str | None = None
    """``actor_backend: ray`` only: the cluster to join (``"auto"``: the one ``ray start
    --head`` runs on this machine; ``"ray://<head>:10001"``: Ray Client), whose actors get
    this checkout's ``maya_envs`` and ``training`` shipped; ``null``: start a local Ray
    (:class:`training.exit.actors.RayActors`)."""
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
    eval_search_opponents: list[str] | None = None
    """The bots the network with search (``eval_simulations`` > 0) plays in the final
    evaluation (``null``: ``eval_opponents``), so that an evaluation can leave out its costly,
    uninformative matches (a search against ``random``) while the raw network meets them all."""
    value_target_hook: float = 0.0
    """Weight ``a`` of the game's ``leaf_values`` estimate in the value target ``(1 - a) z + a
    h`` (design D3; 0: the final result ``z`` alone)."""
    value_target_q: float = 0.0
    """Weight ``b`` of the guided search's value of the chosen action (recorded per decision,
    seat-relative; :attr:`maya_envs.bots.guided.SearchResult.value`) in the value target
    ``(1 - a - b) z + a h + b q`` (:func:`training.exit.data.mixed_value_targets`; design D3:
    ``q`` is a function of the position, so memorising a game's result stops paying). A row
    without a search (the teacher's games of iteration 0) uses the hook ``h`` as its ``q``.
    ``value_target_hook + value_target_q`` is at most 1; 0: no search value."""
    margin_weight: float = 0.0
    """Weight of the auxiliary score-margin loss (design D3; KataGo's score head): with > 0 the
    network gets the score-margin head (:class:`maya_envs.nn.model.PolicyValueNet`,
    ``margin_head=True``), which learns each seat's final score margin (the game's
    ``score_margins``: the score lead over the hook's scale, seat-relative), and the learner adds
    ``margin_weight`` times its mean squared error (``margin_loss``, ``new_games_margin_loss``
    and ``holdout_margin_losses`` in ``history.json``). A finite number >= 0; 0 (the default):
    no head, training as before."""
    window_games: int = 0
    """The replay window in games (:class:`training.exit.window.ReplayWindow`): the rows of the
    last ``window_games`` games, each trained on at most ``max_reuse`` times; each iteration
    trains one pass over ``max_reuse`` x its new rows drawn from the rows still below
    ``max_reuse`` uses (``n_epochs`` and ``replay_iterations`` are then unused; iteration 0's
    ``imitation_epochs`` passes each draw its new rows' count, so at most ``max_reuse`` of them
    count). 0: the buffer of the last ``replay_iterations`` iterations, ``n_epochs`` passes."""
    max_reuse: int = 2
    """Times a row of the replay window may be trained on (``window_games`` > 0 only)."""
    holdout_fraction: float = 0.0
    """Share of each iteration's new games held out of its training (at least one game when
    > 0 and the iteration has two): their value loss is measured before training and at
    ``holdout_checks`` points of it, and at the first point where it stops improving the value
    loss leaves the objective for the rest of the iteration (the policy keeps learning; logged
    as ``holdout_value_losses`` / ``value_stopped_after`` in ``history.json``). The held-out
    games join the replay data after the iteration. 0: no held-out games."""
    holdout_checks: int = 4
    """Held-out measurements per iteration's training (``holdout_fraction`` > 0 only)."""
    holdout_stop: str = "all"
    """What stops when the held-out value loss stops improving (:meth:`training.exit.learner.
    Learner.fit`): ``all`` (the iteration's training ends and the network returns to its
    weights at the best held-out measurement) or ``value`` (only the value loss leaves the
    objective; the trunk the two heads share keeps learning the policy, so the frozen value head
    reads features that still move). Measured (Maya (2012) 2p, the iteration-1 learning of a
    short run redone from its iteration-0 network, 2 seeds; own-seat value MSE on 200 fresh
    heuristic games / on the held-out self-play games): no held-out games 0.689 / 0.748 and
    0.675 / 0.512; ``value`` 0.700 / 0.614 and 1.064 / 1.160; ``all`` 0.648 / 0.712 and 0.684 /
    0.547."""
    keep_forced: bool = False
    """Keep the rows of forced moves (one legal action) in the training data. They teach the
    policy nothing (a one-action target has zero cross-entropy whatever the network says) and
    repeat their game's result as correlated value rows (45-48% of the decisions of Maya (2012)
    2p heuristic games, 20 games, 0 and 10% random moves), so by default they are dropped (the
    count is logged as ``forced_rows_dropped``); ``true`` is the behaviour before this key."""
    playout_cap: dict[str, Any] = field(default_factory=dict)
    """Playout-cap randomisation (KataGo; design D4): ``{p: P, small: N}`` (and optionally
    ``value_weight: W``): in self-play each decision of the learner gets the full ``simulations``
    with probability ``P`` and is recorded as a training row; otherwise a cheap search of ``N``
    simulations picks the move, which is played but not recorded for the policy target (with
    ``W`` > 0 it still gives a value row of weight ``W``; default 0: no row, KataGo's
    ``cheapSearchTargetWeight`` 0). Empty (the default): every decision searches fully."""
    leaf_value: str = "auto"
    """The search's leaf value in self-play, the evaluation and the saved network's record
    (:data:`LEAF_VALUES`): ``net`` (the value head), ``hook`` (the game's ``leaf_values``
    estimate), ``mix`` (their mean), ``residual`` (the estimate plus the network's residual
    value head, design D2: an untrained one returns the estimate) or ``auto``: each iteration,
    the one of the four with the lowest own-seat mean squared error on the iteration's new games
    before learning (logged as ``new_games_value_mse_{net,hook,mix,residual}`` in
    ``history.json``), ``net`` only once it beats the hook by :data:`AUTO_NET_MARGIN` on two
    iterations in a row; ``hook`` until the first measurement. With ``residual`` and ``auto``
    the network has the residual head (:meth:`residual_head`). Design D1 of the strong-agents
    study: the learned value was worse than the hook on fresh games in Maya (2012) and Yaxha,
    better in the quarry game."""

    def validate(self) -> None:
        """Raise :class:`ConfigError` naming the ``exit.<key>`` and what is allowed."""
        for name in ("iterations", "sample_moves", "gate_games", "eval_simulations", "imitation_games"):
            check_int(f"exit.{name}", getattr(self, name), minimum=0, maximum=EXIT_LIMITS[name])
        for name in ("actors", "games_per_iteration", "games_in_flight", "simulations", "replay_iterations",
                     "hidden", "imitation_epochs"):  # fmt: skip
            check_int(f"exit.{name}", getattr(self, name), minimum=1, maximum=EXIT_LIMITS[name])
        if self.imitation_games == 0 and self.imitation != "none":  # iteration 0 would learn from no game
            raise ConfigError(
                f"exit.imitation_games=0 with exit.imitation={shorten(self.imitation)}; allowed: an int >= 1, "
                "or exit.imitation: none to start without imitation"
            )
        for name in ("max_seconds", "weight_decay", "value_weight"):
            check_number(f"exit.{name}", getattr(self, name))
        # a finite bound: an infinite weight makes every loss infinite (and NaN weights)
        check_number("exit.margin_weight", self.margin_weight, 0, MAX_LOSS_WEIGHT)
        for name in ("imitation_epsilon", "gate_threshold", "value_target_hook", "value_target_q"):
            check_number(f"exit.{name}", getattr(self, name), 0, 1)
        if self.value_target_hook + self.value_target_q > 1:
            raise ConfigError(
                f"exit.value_target_hook={self.value_target_hook} + exit.value_target_q={self.value_target_q} "
                "is above 1; allowed: weights summing to at most 1 (the rest is the final result's)"
            )
        check_int("exit.window_games", self.window_games, minimum=0, maximum=EXIT_LIMITS["window_games"])
        check_int("exit.max_reuse", self.max_reuse, minimum=1, maximum=EXIT_LIMITS["max_reuse"])
        check_int("exit.holdout_checks", self.holdout_checks, minimum=1, maximum=EXIT_LIMITS["holdout_checks"])
        check_number("exit.holdout_fraction", self.holdout_fraction, 0, 0.5)
        check_choice("exit.holdout_stop", self.holdout_stop, HOLDOUT_STOPS, quote=False)
        check_bool("exit.id_bias", self.id_bias)
        self._check_backend()
        check_bool("exit.keep_forced", self.keep_forced)
        check_bool("exit.checkpoint", self.checkpoint)
        self._check_bots("exit.gate_opponents", self.gate_opponents, empty=True)
        if self.eval_search_opponents is not None:
            self._check_bots("exit.eval_search_opponents", self.eval_search_opponents, empty=False)
        self.playout_cap_settings()
        check_choice("exit.leaf_value", self.leaf_value, LEAF_VALUES, quote=False)
        if not isinstance(self.search, dict):
            raise ConfigError(f"exit.search={shorten(self.search)}; allowed: a mapping of guided-search settings")
        from maya_envs.bots.guided import GuidedConfig

        known = sorted(f.name for f in fields(GuidedConfig) if f.name not in ("simulations", "leaf"))
        unknown = sorted(set(self.search) - set(known), key=repr)
        if unknown:
            raise ConfigError(f"exit.search: unknown setting(s) {listed(unknown)}; known: {known}")
        try:
            self.search_config()
        except ValueError as error:
            raise ConfigError(f"exit.search: {error}") from None
        mix = self.opponents
        if (
            not isinstance(mix, dict)
            or not mix
            or any(not is_number(w, numpy=False) or not math.isfinite(w) or w < 0 for w in mix.values())
            or not sum(mix.values()) > 0
        ):
            raise ConfigError(
                f"exit.opponents={shorten(mix)}; allowed: a mapping of {', '.join(EXIT_OPPONENTS)} -> a finite "
                "weight >= 0, not all 0"
            )
        unknown = sorted(set(mix) - set(EXIT_OPPONENTS), key=repr)
        if unknown:
            raise ConfigError(
                f"exit.opponents: unknown kind(s) {listed(unknown)}; allowed: {', '.join(EXIT_OPPONENTS)}"
            )
        if self.imitation not in ("heuristic", "none") and not is_search_spec(self.imitation):
            raise ConfigError(
                f"exit.imitation={shorten(self.imitation)}; allowed: 'heuristic', 'none' or a search bot "
                + ", ".join(repr(k.syntax) for k in BOT_KINDS.values() if is_search_spec(k.name))
            )
        if is_search_spec(self.imitation):
            check_search_spec("exit.imitation", self.imitation)

    @staticmethod
    def _check_bots(key: str, names: Any, empty: bool) -> None:
        """``names`` is a list (non-empty unless ``empty``) of bots of the table that play
        without a network; else :class:`ConfigError` naming ``key``."""
        check_names(key, names, empty)
        for name in names:
            try:  # bots of the table that play without a network
                check_player_spec(name, shipped=False, models=False)
            except ValueError as error:
                raise ConfigError(f"{key}: {error}") from None

    def _check_backend(self) -> None:
        from training.exit.actors import BACKENDS, import_ray

        check_choice("exit.actor_backend", self.actor_backend, tuple(BACKENDS), quote=False)
        address = self.ray_address
        if address is not None and (not isinstance(address, str) or not address.strip()):
            raise ConfigError(
                f"exit.ray_address={shorten(address)}; allowed: null, 'auto', 'host:port' or 'ray://host:port'"
            )
        if address is not None and self.actor_backend != "ray":
            raise ConfigError(
                f"exit.ray_address={shorten(address)} is only read with exit.actor_backend: ray (it is "
                f"{self.actor_backend!r}); allowed: null here"
            )
        if self.actor_backend == "ray":
            try:
                import_ray()
            except ImportError as error:
                raise ConfigError(f"exit.actor_backend='ray': {error}") from None

    def playout_cap_settings(self) -> tuple[float, int, float] | None:
        """``playout_cap`` as ``(p, small, value_weight)`` for the actors (``None``: off).

        Raises:
            ConfigError: not a mapping, an unknown key, a missing ``p``/``small``, ``p`` outside
                [0, 1], ``small`` not an int in [1, ``simulations``], ``value_weight`` outside [0, 1].
        """
        cap = self.playout_cap
        keys = ("p", "small", "value_weight")
        if not isinstance(cap, dict):
            raise ConfigError(f"exit.playout_cap={shorten(cap)}; allowed: a mapping with keys p, small (value_weight)")
        if not cap:
            return None
        unknown = sorted(set(cap) - set(keys), key=repr)
        missing = [k for k in keys[:2] if k not in cap]
        if unknown or missing:
            raise ConfigError(
                f"exit.playout_cap={shorten(cap)}: unknown key(s) {listed(unknown)}, missing {missing}; "
                "allowed: p, small, value_weight"
            )
        check_number("exit.playout_cap.p", cap["p"], 0, 1)
        small = cap["small"]
        if not is_int(small, numpy=False) or not 1 <= small <= self.simulations:
            raise ConfigError(
                f"exit.playout_cap.small={shorten(small)}; allowed: an int in [1, {self.simulations}] "
                "(exit.simulations)"
            )
        weight = cap.get("value_weight", 0.0)
        check_number("exit.playout_cap.value_weight", weight, 0, 1)
        return float(cap["p"]), int(small), float(weight)

    def search_config(self):
        """The self-play search: a :class:`maya_envs.bots.guided.GuidedConfig` of
        ``simulations`` and the ``search`` settings (built here only; the actors get it whole,
        and the trainer sets its ``leaf`` per iteration)."""
        from maya_envs.bots.guided import GuidedConfig

        return GuidedConfig(simulations=self.simulations, **self.search)

    def residual_head(self) -> bool:
        """Whether the network gets the residual value head: ``leaf_value`` ``residual`` or
        ``auto`` (which then measures it)."""
        return self.leaf_value in ("residual", "auto")

    def margin_head(self) -> bool:
        """Whether the network gets the score-margin head: ``margin_weight`` > 0."""
        return self.margin_weight > 0

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
    "mix"}`` and, for a network with the residual head, ``"residual"`` -> mean squared error on
    its new games) and the previous iteration's (``None``: none): the lowest, except that
    ``net`` needs to beat the hook by :data:`AUTO_NET_MARGIN` in both iterations (else the best
    of the others)."""
    best = min(errors, key=errors.get)
    if best != "net":
        return best
    beats = [e["hook"] - e["net"] >= AUTO_NET_MARGIN for e in (errors, previous) if e]
    if len(beats) == 2 and all(beats):
        return "net"
    return min((name for name in errors if name != "net"), key=errors.get)
