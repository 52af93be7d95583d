"""OpenSpiel Python games over the maya-envs rules engines (no second rules implementation).

Every game state holds a rules state; every player action is the rules' ``apply_action``,
every chance node a draw of the rules made explicit (:mod:`maya_envs.core.chance`): the
OpenSpiel state keeps the rules state before the action that draws, the action, and the
chance outcomes chosen so far, and replays the action with them until it completes.

Game type, per loaded game (what ``game.get_type()`` says; the registered type, which
``pyspiel.registered_games()`` lists, is sequential with explicit chance and imperfect
information):

* dynamics: sequential; Yaxha optionally simultaneous. Yaxha's simultaneous tile choice and building are, by default, in
  OpenSpiel's turn-based form (as ``pyspiel.convert_to_turn_based`` makes of a simultaneous
  game): the seats decide one at a time in seat order and nobody's information state shows a
  choice before the rules reveal it (OpenSpiel's MCTS and IS-MCTS need this form). With the
  parameter ``simultaneous=True`` Yaxha is a simultaneous-move game: every decision node is a
  simultaneous node whose acting seats are the rules' ``parallel_seats`` (all seats choosing
  tiles; every seat placing one cube; a pending pick's one seat), and an idle seat has the one
  legal action ``wait_action`` (id 0, OpenSpiel's convention), as in the Parallel env.
* chance mode: explicit stochastic when the config draws anything (Maya (2012): always, the
  board; Yaxha: always; the quarry game: ``first_start_player="random"`` or the advanced
  variant with fewer than 5 players), else deterministic.
* information: perfect for Maya (2012) with 2 players, imperfect otherwise.
* utility: zero-sum (every reward scheme of the three games sums to 0 over the seats);
  reward model terminal (rewards are paid once, at the end).
* A truncated game (Maya (2012) ``at_max_turns="truncate"``) is terminal here with returns 0:
  OpenSpiel has no truncation.

Observations: the observation tensor is the rules' per-seat observation (the env's
``"observation"``, the game observer's ``layout.shape``, float32); the observation string is the
seat's text view (``render_text`` with that observer). The information state is perfect
recall: its string is the observation string plus a digest of every observation the seat
has had since the start, one per history step, and the seat's own actions; its tensor is the
current observation (a Markov summary, not perfect recall; documented in the README). Both
are made from what the seat may see only. At a chance node the observations are those of the
state before the drawing action.

Pure Python over ``pyspiel``; importing :mod:`maya_envs.openspiel` registers the games.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pyspiel

from maya_envs.core.chance import ChanceNeeded, OutcomeScript
from maya_envs.core.errors import IllegalActionError
from maya_envs.notation import describe_action
from maya_envs.openspiel.games import OpenSpielEntry

_INITIAL = -1  # "the pending draw is the initial state's"


def registered_type(entry: OpenSpielEntry) -> pyspiel.GameType:
    """The GameType registered for ``entry`` (the most general one)."""
    return _game_type(entry, chance=True, perfect=False)


def _game_type(entry: OpenSpielEntry, chance: bool, perfect: bool, simultaneous: bool = False) -> pyspiel.GameType:
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=entry.short_name,
        long_name=entry.long_name,
        dynamics=dynamics.SIMULTANEOUS if simultaneous else dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if perfect
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=entry.players[1],
        min_num_players=entry.players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=entry.parameter_specification(),
    )


def _load_game(short_name: str, params: dict[str, Any]) -> pyspiel.Game:
    """``pyspiel.load_game(short_name, params)``: how a pickled game is loaded again (importing
    this module registers the games first)."""
    return pyspiel.load_game(short_name, params)


class MayaGame(pyspiel.Game):
    """One maya-envs game at one config as an OpenSpiel game.

    Args:
        entry: the game's :class:`~maya_envs.openspiel.games.OpenSpielEntry`.
        params: OpenSpiel parameters (see :mod:`maya_envs.openspiel.games`).

    Raises:
        ConfigError: an unknown parameter or a bad value.
    """

    def __init__(self, entry: OpenSpielEntry, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.entry = entry
        self.simultaneous = bool(params.get("simultaneous", False))
        self.rules = entry.make_rules(entry.config(params))
        spec = self.rules.spec
        self.perfect = spec.information == "perfect"
        self.has_chance = _has_chance(self.rules)
        self.determinize = entry.determinize
        options = {key: params.get(key, default) for key, default in entry.observer_options.items()}
        self.observer = entry.observer(self.rules, **options)
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_actions,
            max_chance_outcomes=entry.max_chance_outcomes if self.has_chance else 0,
            num_players=spec.num_players,
            min_utility=float(spec.reward_range[0]),
            max_utility=float(spec.reward_range[1]),
            utility_sum=0.0,
            max_game_length=spec.max_game_length,
        )
        full = {**entry.parameter_specification(), **params}
        game_type = _game_type(entry, self.has_chance, self.perfect, self.simultaneous)
        super().__init__(game_type, info, full)
        self._params = params

    def __reduce__(self) -> tuple:
        """Pickled as its name and parameters, loaded again through ``pyspiel.load_game`` (the
        rules, observer and hooks are rebuilt from them; OpenSpiel's default pickling restores
        the C++ game only, without this game's Python attributes)."""
        return (_load_game, (self.entry.short_name, self._params))

    def new_initial_state(self) -> MayaState:
        """The state before the first chance outcome (or the first decision)."""
        return MayaState(self)

    def state_from_rules_state(self, rules_state: Any, like: MayaState | None = None) -> MayaState:
        """An OpenSpiel state at ``rules_state`` (its history is not the game's; the seats'
        recall digests are copied from ``like``, the state whose information set it shares).
        Used to resample a state from an information set (IS-MCTS's ``resampler_cb``)."""
        state = MayaState(self, start=False)
        state._state = rules_state
        if like is not None:
            state._last = like._last
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MayaObserver:
        """An observer: information state with ``perfect_recall``, else the observation.

        Raises:
            ValueError: observer parameters, or an observation type other than a seat's own view
                (public information plus its private information); a public-only or an
                all-players view of a hidden-information game is not offered, since our
                observations hold the seat's private data.
        """
        if params:
            raise ValueError(f"observer parameters are not supported; got {params}")
        if iig_obs_type is not None and not self.perfect:
            own = pyspiel.PrivateInfoType.SINGLE_PLAYER
            if not iig_obs_type.public_info or iig_obs_type.private_info != own:
                raise ValueError(
                    f"{self.entry.short_name}: only a seat's own view (public_info=True, private_info=SINGLE_PLAYER) "
                    f"is offered; got public_info={iig_obs_type.public_info}, private_info={iig_obs_type.private_info}"
                )
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return MayaObserver(self, perfect_recall)


def _has_chance(rules: Any) -> bool:
    """Whether the config draws anything (the initial state or any later step)."""
    try:
        rules.initial_state(OutcomeScript())
    except ChanceNeeded:
        return True
    return bool(rules.spec.chance)


class MayaState(pyspiel.State):
    """An OpenSpiel state over a rules state (see the module docstring)."""

    def __init__(self, game: MayaGame, start: bool = True) -> None:
        super().__init__(game)
        n = game.rules.spec.num_players
        self._box = _Shared(None)  # the rules state (before the pending draw, if any)
        self._action = _INITIAL  # the action whose draws are pending
        self._outcomes: tuple[int, ...] = ()
        self._need: tuple[list[tuple[int, float]], str] | None = None  # (outcomes, label)
        self._last = _Step(None, None, ("start",), n)  # the history, as each seat saw it
        if start:
            self._advance()

    @property
    def _state(self) -> Any:
        return self._box.value

    @_state.setter
    def _state(self, value: Any) -> None:
        self._box = _Shared(value)

    @property
    def _game(self) -> MayaGame:
        return self.get_game()  # not an attribute: clone() deep-copies the attributes

    # -- OpenSpiel API -----------------------------------------------------------------------

    def current_player(self) -> int:
        if self._need is not None:
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self._game.simultaneous:
            return pyspiel.PlayerId.SIMULTANEOUS
        return self._game.rules.current_player(self._state)

    def _legal_actions(self, player: int) -> list[int]:
        if self._need is not None or self.is_terminal():
            return []
        rules = self._game.rules
        if self._game.simultaneous:
            return list(rules.legal_actions_for(self._state, player)) or [rules.wait_action]
        if player != self.current_player():
            return []
        return list(rules.legal_actions(self._state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self._need[0]) if self._need is not None else []

    def _apply_action(self, action: int) -> None:
        action = int(action)
        if self._need is not None:
            self._outcomes += (action,)
            self._record(("c",))
        else:
            self._record(("a", {self.current_player(): action}))
            self._action, self._outcomes = action, ()
        self._advance()

    def _apply_actions(self, actions: list[int]) -> None:
        """A simultaneous node: the acting seats' actions are applied in the rules' order
        (``parallel_seats``; none depends on another's); the others must send the wait id."""
        rules, state = self._game.rules, self._state
        actions = [int(a) for a in actions]
        seats = rules.parallel_seats(state)
        for seat, action in enumerate(actions):
            if seat not in seats and action != rules.wait_action:
                raise IllegalActionError(
                    f"player {seat} waits at this node and chose {action}; its only legal action is {rules.wait_action}"
                )
        self._record(("a", {seat: actions[seat] for seat in seats}))
        for seat in seats[:-1]:
            state = rules.apply_action(state, actions[seat], OutcomeScript())  # no draw before the last
        self._state, self._action, self._outcomes = state, actions[seats[-1]], ()
        self._advance()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            label = self._need[1] if self._need is not None else "outcome"
            return f"chance {label} {action}"
        rules = self._game.rules
        if self._game.simultaneous and player not in rules.parallel_seats(self._state):
            return "wait"
        if 0 <= player < self._game.num_players() and self._state is not None:
            # the move as the actor sees it (the full move), in the games' notation
            return describe_action(self._game.rules, self._state, int(action), actor=player)
        return self._game.rules.action_to_string(int(action))

    def is_terminal(self) -> bool:
        if self._need is not None or self._state is None:
            return False
        rules = self._game.rules
        return bool(rules.is_terminal(self._state) or rules.is_truncated(self._state))

    def returns(self) -> list[float]:
        n = self._game.rules.spec.num_players
        if not self.is_terminal():
            return [0.0] * n
        return [float(r) for r in self._game.rules.returns(self._state)]

    def rules_state(self) -> Any:
        """The rules state (before the pending draw at a chance node; ``None`` before the
        initial state is complete)."""
        return self._state

    def __str__(self) -> str:
        if self._state is None:
            return f"setup: chance outcomes {list(self._outcomes)}"
        return self._game.entry.render(self._game.rules, self._state, None)

    # -- internals ---------------------------------------------------------------------------

    def _advance(self) -> None:
        """Replay the pending action (or the initial state) with the chosen outcomes."""
        rules = self._game.rules
        script = OutcomeScript(self._outcomes)
        try:
            if self._action == _INITIAL:
                new = rules.initial_state(script)
            else:
                new = rules.apply_action(self._state, self._action, script)
        except ChanceNeeded as need:
            self._need = (need.outcomes, need.label)
            return
        if script.used != len(script.outcomes):
            raise RuntimeError(f"chance outcomes {self._outcomes} not all used ({script.used})")
        self._state, self._need, self._outcomes = new, None, ()

    def _record(self, event: tuple) -> None:
        """Append this step to the history: the rules state before it and the event (an
        action with its seat, or a chance outcome, whose value nobody's digest reads)."""
        if not self._game.perfect:
            self._last = _Step(self._last, self._state, event, len(self._last.digests))

    def recall_digest(self, seat: int) -> bytes:
        """Digest of everything ``seat`` has observed since the start: per history step, its
        observation before the step and the action if it was its own (computed on demand and
        kept in the shared history)."""
        pending = []
        step = self._last
        while step.digests[seat] is None:
            pending.append(step)
            step = step.parent
        digest = step.digests[seat]
        observer = self._game.observer
        for step in reversed(pending):
            own = step.event[1].get(seat) if step.event[0] == "a" else None
            h = hashlib.blake2b(digest, digest_size=16)
            h.update(f"own {own}".encode() if own is not None else b"step")
            if step.rules_state is not None:
                h.update(observer.encode(step.rules_state, seat).tobytes())
            digest = step.digests[seat] = h.digest()
        return digest

    def _observation(self, seat: int) -> np.ndarray:
        if self._state is None:
            return np.zeros(self._game.observer.layout.shape, np.float32)
        return self._game.observer.encode(self._state, seat)


class _Shared:
    """A value clones share instead of copying (rules states are never changed in place)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self

    def __reduce__(self) -> tuple:
        return (_Shared, (self.value,))


class _Step(_Shared):
    """One history step, shared by every clone that has it: the rules state before the step,
    the event, and each seat's recall digest up to and including it (``None``: not computed)."""

    __slots__ = ("parent", "rules_state", "event", "digests")

    def __init__(self, parent: _Step | None, rules_state: Any, event: tuple, num_players: int) -> None:
        self.parent = parent
        self.rules_state = rules_state
        self.event = event
        self.digests: list[bytes | None] = [None] * num_players if parent is not None else [b""] * num_players

    def __reduce__(self) -> tuple:
        """Pickled as a flat list (OpenSpiel pickles Python states; a chain of parents as
        deep as the game would exceed the recursion limit)."""
        steps = []
        step: _Step | None = self
        while step is not None:
            steps.append((step.rules_state, step.event))
            step = step.parent
        return (_chain, (steps[::-1], len(self.digests)))


def _chain(steps: list[tuple[Any, tuple]], num_players: int) -> _Step:
    """The :class:`_Step` chain of ``steps`` (root first), digests not computed yet."""
    last = None
    for rules_state, event in steps:
        last = _Step(last, rules_state, event, num_players)
    return last


class MayaObserver:
    """OpenSpiel's PyObserver over the rules' per-seat observation."""

    def __init__(self, game: MayaGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        shape = game.observer.layout.shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: MayaState, player: int) -> None:
        self.tensor[:] = state._observation(player).reshape(-1)

    def string_from(self, state: MayaState, player: int) -> str:
        game = self.game
        if state._state is None:
            text = "setup in progress"
        else:
            text = game.entry.render(game.rules, state._state, player)
        if not self.perfect_recall:
            return text
        if game.perfect:
            return f"{text}\nhistory {' '.join(map(str, state.history()))}"
        return f"{text}\nrecall {state.recall_digest(player).hex()}"


def ismcts_resampler(game: MayaGame, seed: int | None = None):
    """A ``resampler_cb`` for OpenSpiel's ``ISMCTSBot.set_resampler``: a state the player
    cannot tell from the given one, drawn by the game's own determinization
    (``<game>.determinize.determinize``) from the player's point of view."""
    rng = np.random.default_rng(seed)

    def resample(state: MayaState, player: int) -> MayaState:
        world = game.determinize(game.rules, state.rules_state(), player, rng)
        return game.state_from_rules_state(world, like=state)

    return resample


class MayaBot(pyspiel.Bot):
    """One of our bots (``"random"``, ``"heuristic"``, ``"mcts:200"``, ... see
    :func:`maya_envs.bots.base.make_bot`) as an OpenSpiel bot, for ``evaluate_bots`` and the
    like. It reads the rules state, through the bot's own information discipline (a bot reads
    only what the acting seat may know).

    Args:
        game: a loaded maya-envs OpenSpiel game.
        name: the bot's name.
        seed: the bot's own generator seed.
    """

    def __init__(self, game: MayaGame, name: str, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        from maya_envs.bots.base import make_bot

        self._bot = make_bot(name, game.rules, seed=seed)

    def step(self, state: MayaState) -> int:
        return int(self._bot.act(state.rules_state()))

    def restart_at(self, state: MayaState) -> None:
        pass

    def inform_action(self, state: MayaState, player_id: int, action: int) -> None:
        pass
