"""Shared PettingZoo AEC bookkeeping for every game, written once.

A game env is this class plus a rules object, its observer (``<game>.observation``) and a
renderer. The base owns:

* the agent <-> seat mapping (``player_<seat>``), with ``agent_selection`` derived from
  ``rules.current_player`` after every step (turn order need not be cyclic);
* the seeded generator (Gymnasium semantics: ``reset(seed=s)`` reseeds, ``reset()`` continues
  the stream, ``seed=0`` is a seed like any other);
* the observation dict ``{"observation": float32, "action_mask": int8}``, the observation
  from the observer (its ``layout`` names the parts; ``spec_card.observation_shape`` is its
  shape); ``int8`` (1 =
  legal) is the one mask dtype of every surface (AEC, Parallel, single-agent
  ``action_masks()``, the batched ``VectorEnv``, ``info["action_mask"]``): the dtype
  ``gymnasium.spaces.Discrete.sample(mask=...)`` requires, and sb3-contrib accepts it;
* rewards: ``rules.returns`` paid once, on the step that ends the game, to every agent;
  ``rewards`` and ``_cumulative_rewards`` hold Python ``float`` values at every step;
  termination vs truncation from ``rules.is_terminal`` / ``rules.is_truncated`` (a game
  that is over right after ``reset``, e.g. a Maya (2012) board with no legal first
  exchange, is reported by ``reset``: every agent terminated, the returns in ``rewards``);
* the misuses PettingZoo's ``OrderEnforcingWrapper`` catches, raised by the env itself (so
  ``env()`` needs no wrapper): every public call that needs a game (``step``, ``observe``,
  ``last``, ``agent_iter``, ``action_mask``, ``render``) before ``reset()``, and ``step`` or
  ``last`` after every agent has stepped ``None``, raise
  :class:`~maya_envs.core.errors.ResetNeededError` saying to call ``reset()``; reading
  ``rewards``, ``terminations``, ``truncations``, ``infos`` or ``agent_selection`` before
  ``reset()`` raises an ``AttributeError`` saying so; a loop over ``agent_iter()`` whose body
  does not call ``step()`` raises :class:`~maya_envs.core.errors.CallOrderError` on its next
  pass instead of selecting the same agent for ever;
* one observation space and one action space object per agent (seeding one never re-seeds
  another);
* dead steps after the end, so ``observe`` and ``last()`` keep working until every agent has
  stepped ``None``;
* the illegal-action policy (see :class:`RulesAECEnv`);
* rendering: text from the game's ``renderer``; ``render_mode="rgb_array"`` (Pillow, imported
  only when a picture is drawn) and ``"svg"`` (standard library) from one layout, the game's
  optional ``picture`` (a :class:`~maya_envs.drawing.Canvas` of shapes).
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable, AECIterator

from maya_envs.core.checks import is_int
from maya_envs.core.errors import CallOrderError, ConfigError, IllegalActionError, ResetNeededError, shorten
from maya_envs.core.layout import Observer
from maya_envs.core.legal import check_action_id
from maya_envs.core.protocol import Rules
from maya_envs.core.rng import make_rng

ILLEGAL_ACTION_POLICIES = ("terminate", "raise")

Renderer = Callable[[Any, "int | None"], str]
#: ``picture(state, observer_seat_or_None) -> Canvas``: the game's layout (``<game>.render_image.draw``).
PictureRenderer = Callable[[Any, "int | None"], Any]
PICTURE_MODES = ("rgb_array", "svg")


class RulesAECEnv(AECEnv):
    """PettingZoo AEC env over a :class:`~maya_envs.core.protocol.Rules` object.

    Args:
        rules: the game's rules at one config.
        renderer: ``renderer(state, observer_seat_or_None) -> str``, used by ``render``.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the text), ``"human"``
            (prints it), ``"rgb_array"`` (``render()`` returns an ``(H, W, 3)`` uint8 array) or
            ``"svg"`` (``render()`` returns the SVG text, a ``str`` that notebooks display as a
            picture); the last two need ``picture`` and the mode in the class's render modes.
        illegal_action: what a legal-range but illegal action does.
            ``"terminate"`` (default, as PettingZoo's ``TerminateIllegalWrapper``): a warning
            names the action and the legal ids, the game ends, the offender's team (the
            offender alone, or both partners in a team game: ``rules.team_of``) gets
            ``illegal_reward`` and everyone else 0, and every ``info`` holds
            ``"illegal_action"``, ``"offender"`` and ``"end": "illegal_action"``.
            ``"raise"``: :class:`IllegalActionError` and no change.
            An id outside ``[0, num_actions)`` always raises ``IllegalActionError`` (a ``ValueError``).
        illegal_reward: the offender's reward under ``"terminate"``.
        render_observer: seat (``0 .. n-1``) or agent name (``"player_1"``) whose view ``render``
            shows; ``None`` shows everything. Anything else raises ``ConfigError`` (also when
            assigned later).
        picture: ``picture(state, observer_seat_or_None) -> Canvas``, the game's picture,
            drawn by ``render`` in ``"rgb_array"`` and ``"svg"`` modes and by :meth:`picture`.
        observer: the game's :class:`~maya_envs.core.layout.Observer` over ``rules`` (encodes
            ``"observation"``; required).

    Raises:
        ConfigError: an unknown ``render_mode`` or ``illegal_action`` (a ``ValueError``).
        ConfigError: no ``observer``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        rules: Rules,
        renderer: Renderer,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        render_observer: int | None = None,
        picture: PictureRenderer | None = None,
        observer: Observer | None = None,
    ) -> None:
        super().__init__()
        if render_mode in PICTURE_MODES and picture is None:
            raise ConfigError(f"render_mode={shorten(render_mode)} needs a picture renderer; this game has none")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"render_mode={shorten(render_mode)} is not supported; allowed: None, "
                + ", ".join(repr(m) for m in self.metadata["render_modes"])
            )
        if illegal_action not in ILLEGAL_ACTION_POLICIES:
            raise ConfigError(f"illegal_action={shorten(illegal_action)}; allowed: {ILLEGAL_ACTION_POLICIES}")
        self.rules = rules
        if observer is None:
            raise ConfigError(f"{type(rules).__name__}: an env needs observer= (the game's observation encoder)")
        self.observer = observer
        self._over = False
        self.spec_card = spec = rules.spec.with_observation(observer.layout.shape)
        self._renderer = renderer
        self._picture = picture
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = list(spec.agents)
        self.agents = []
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.render_observer = render_observer
        # One space object per agent (a shared one would re-seed every agent's sampling).
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, spec.observation_shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (spec.num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(spec.num_actions) for agent in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self.game_state: Any = None
        self._calls = 0  # reset() and step() calls, so agent_iter() can tell a pass without a step

    # -- PettingZoo API -------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = make_rng(seed)
        self.game_state = self.rules.initial_state(self._rng)
        self._calls += 1
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._over = False
        self._after_move()  # a game can be over before its first decision
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 spec.observation_shape, "action_mask": int8
        (num_actions,)}`` for ``agent``.

        Raises:
            ResetNeededError: before the first :meth:`reset`.
        """
        self._check_reset("observe")
        return {
            "observation": self.observer.encode(self.game_state, self._seat[agent]),
            "action_mask": self.action_mask(agent),
        }

    def action_mask(self, agent: str) -> np.ndarray:
        """``int8`` array ``(num_actions,)``: ``agent``'s legal actions now; all 0 when it is not
        to move or the game is over. The ``"action_mask"`` of :meth:`observe`, without encoding
        the observation.

        Raises:
            ResetNeededError: before the first :meth:`reset`.
        """
        self._check_reset("action_mask")
        state = self.game_state
        to_move = not self._over and self.rules.current_player(state) == self._seat[agent]
        return self.rules.legal_mask(state) if to_move else np.zeros(self.spec_card.num_actions, np.int8)

    def last(self, observe: bool = True):
        """PettingZoo's ``last``.

        Raises:
            ResetNeededError: before the first :meth:`reset`, or after the episode ended (every
                agent has stepped ``None``).
        """
        self._check_reset("last")
        self._check_agents_left("last")
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        """PettingZoo's ``agent_iter``, with ``OrderEnforcingWrapper``'s check: each pass of the
        loop must call :meth:`step` (or :meth:`reset`); the next pass raises otherwise.

        Raises:
            ResetNeededError: before the first :meth:`reset`.
            CallOrderError: (from the iterator) a pass whose body did not call ``step()``.
        """
        self._check_reset("agent_iter")
        return _StepCheckedIterable(self, max_iter)

    def step(self, action: Any) -> None:
        """Apply ``action`` for ``agent_selection`` (``None`` for a finished agent).

        Raises:
            ResetNeededError: before the first :meth:`reset`, or after the episode ended (every
                agent has stepped ``None``).
            IllegalActionError: an id that is not an int in ``[0, num_actions)`` (always), or
                an illegal id with ``illegal_action="raise"``.
            ValueError: an action other than ``None`` for a finished agent.
        """
        self._check_reset("step")
        self._calls += 1
        self._check_agents_left("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = check_action_id(action, self.spec_card.num_actions)
        state = self.game_state
        legal = self.rules.legal_actions(state)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if action not in legal:
            message = (
                f"{agent} chose illegal action {action} ({self.rules.action_to_string(action)}); legal ids: {legal}"
            )
            if self.illegal_action == "raise":
                raise IllegalActionError(message)
            warnings.warn(message + "; the game ends with the illegal-action penalty", stacklevel=2)
            self._end_for_illegal_action(agent, message)
        else:
            self.game_state = self.rules.apply_action(state, action, self._rng)
            self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    @property
    def render_observer(self) -> int | None:
        """The seat whose view ``render`` shows (``None``: everything)."""
        return self._render_observer

    @render_observer.setter
    def render_observer(self, observer: int | str | None) -> None:
        if isinstance(observer, str) and observer in self._seat:
            observer = self._seat[observer]
        valid = observer is None or (is_int(observer) and 0 <= observer < len(self.possible_agents))
        if not valid:
            raise ConfigError(
                f"render_observer={shorten(observer)}; allowed: None, a seat 0..{len(self.possible_agents) - 1} "
                f"or an agent name {self.possible_agents}"
            )
        self._render_observer = None if observer is None else int(observer)

    def render(self) -> str | np.ndarray | None:
        """The game drawn as ``render_mode`` says (see the class docstring).

        Raises:
            ResetNeededError: before the first :meth:`reset` (with a ``render_mode``).
        """
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'", stacklevel=2)
            return None
        self._check_reset("render")
        if self.render_mode == "rgb_array":
            return self.picture().array()
        if self.render_mode == "svg":
            return self.picture().svg()
        text = self._renderer(self.game_state, self.render_observer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def picture(self, caption: Sequence[str] = ()):
        """The current state as ``render_observer`` may see it, as a
        :class:`~maya_envs.drawing.Canvas` (``.array()``: the ``rgb_array`` frame, ``.svg()``:
        the SVG text), with ``caption`` lines in a band below it (a replay's move and result).

        Raises:
            ValueError: the game has no picture renderer.
        """
        if self._picture is None:
            raise ValueError("this game has no picture renderer")
        canvas = self._picture(self.game_state, self.render_observer)
        canvas.caption(caption)
        return canvas

    def close(self) -> None:
        pass

    # -- bookkeeping ----------------------------------------------------------------------

    def seat_of(self, agent: str) -> int:
        """Seat index of ``agent`` (``player_<seat>``)."""
        return self._seat[agent]

    def team_of(self, agent: str) -> list[str]:
        """``agent`` and its partners (``rules.team_of``; just ``[agent]`` without teams)."""
        return [self.possible_agents[seat] for seat in self.rules.team_of(self._seat[agent])]

    def _check_reset(self, call: str) -> None:
        if self.game_state is None:
            raise ResetNeededError(f"{call}() before reset(): call reset() first")

    def _check_agents_left(self, call: str) -> None:
        if not self.agents:
            raise ResetNeededError(
                f"{call}() after the episode ended (every agent has stepped None, agents is empty): "
                "call reset() to start a new game"
            )

    #: Attributes that exist from the first ``reset()`` on (OrderEnforcingWrapper's list).
    _SET_BY_RESET = frozenset(
        {"rewards", "_cumulative_rewards", "terminations", "truncations", "infos", "agent_selection"}
    )

    def __getattr__(self, name: str) -> Any:
        # Only reached for a missing attribute: name the misuse instead of a bare AttributeError.
        if name in RulesAECEnv._SET_BY_RESET:
            raise AttributeError(f"{name} before reset(): call reset() first")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _clear_rewards(self) -> None:
        # PettingZoo's sets int 0; every reward here is a Python float.
        for agent in self.rewards:
            self.rewards[agent] = 0.0

    def _after_move(self) -> None:
        rules, state = self.rules, self.game_state
        terminated = rules.is_terminal(state)
        truncated = not terminated and rules.is_truncated(state)
        if terminated or truncated:
            self._over = True
            returns = rules.returns(state)
            info = rules.final_info(state)
            for agent in self.agents:
                self.rewards[agent] = float(returns[self._seat[agent]])
                self.terminations[agent] = terminated
                self.truncations[agent] = truncated
                self.infos[agent] = copy.deepcopy(info)  # no list shared between agents
            # Any agent may be selected once the game is over; keep seat order from the mover.
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[rules.current_player(state)]

    def _end_for_illegal_action(self, offender: str, message: str) -> None:
        team = self.team_of(offender)
        for agent in self.agents:
            self.rewards[agent] = self.illegal_reward if agent in team else 0.0
            self.terminations[agent] = True
            self.infos[agent] = {"illegal_action": message, "offender": offender, "end": "illegal_action"}
        self._over = True


class _StepCheckedIterator(AECIterator):
    """PettingZoo's ``AECIterator`` that refuses a pass whose body did not step the env (the
    loop would otherwise select the same agent for ever)."""

    def __init__(self, env: RulesAECEnv, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._calls: int | None = None

    def __next__(self) -> str:
        agent = super().__next__()  # StopIteration first: a finished loop has nothing to check
        env = self.env
        if self._calls is not None and env._calls == self._calls:
            raise CallOrderError(
                f"agent_iter(): the loop body did not call step() for {agent}; every pass must "
                "step the selected agent (step(None) once it is done), else the loop selects it for ever"
            )
        self._calls = env._calls
        return agent


class _StepCheckedIterable(AECIterable):
    def __iter__(self) -> _StepCheckedIterator:
        return _StepCheckedIterator(self.env, self.max_iter)


class GameAECEnv(RulesAECEnv):
    """The AEC env of one game, built the same way in every game:
    ``Env(render_mode, illegal_action, render_observer, **game_options)``.

    A game's env class only names its parts: ``rules_class`` (built as
    ``rules_class(game_options)``), ``observer_class`` (built as ``observer_class(rules,
    **options)`` with the game options named in ``observer_options``, which the rules never
    see: Yaxha's ``action_features``), ``text_view(rules, state, observer) -> str`` and
    ``picture_view(rules, state, observer) -> Canvas`` (as static methods), and its
    ``metadata`` (:func:`game_metadata`).

    Raises:
        ConfigError: an unknown game option, a bad value, or an unknown ``render_mode`` or
            ``illegal_action``.
    """

    rules_class: Callable[[Any], Rules]
    observer_class: Callable[..., Observer]
    observer_options: tuple[str, ...] = ()
    text_view: Callable[[Rules, Any, int | None], str]
    picture_view: Callable[[Rules, Any, int | None], Any] | None = None

    def __init__(
        self,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        render_observer: int | None = None,
        **game_options: Any,
    ) -> None:
        options = {key: game_options.pop(key) for key in type(self).observer_options if key in game_options}
        rules = type(self).rules_class(game_options)
        picture = type(self).picture_view
        super().__init__(
            rules,
            partial(type(self).text_view, rules),
            render_mode=render_mode,
            illegal_action=illegal_action,
            render_observer=render_observer,
            picture=None if picture is None else partial(picture, rules),
            observer=type(self).observer_class(rules, **options),
        )


def game_metadata(name: str) -> dict[str, Any]:
    """PettingZoo ``metadata`` of a game's AEC env: its module ``name`` (``<key>_v<N>``, from the
    game table), every render mode (text: ``"ansi"``, ``"human"``; pictures: :data:`PICTURE_MODES`), and
    ``is_parallelizable=False`` (a game with a Parallel view builds it itself, as Yaxha does).
    A new dict each call, so no env class shares another's."""
    return {"render_modes": ["ansi", "human", *PICTURE_MODES], "name": name, "is_parallelizable": False}


def env_functions(env_class: type[GameAECEnv]) -> tuple[Callable[..., GameAECEnv], Callable[..., GameAECEnv]]:
    """A game module's ``raw_env`` and ``env`` (keyword arguments as ``env_class``).

    ``env`` adds no ``OrderEnforcingWrapper``, unlike PettingZoo's classic games: the base
    class itself raises clear errors for every misuse that wrapper catches (calls and
    attributes before ``reset()``, a loop over ``agent_iter()`` that never steps, ``step``
    after the episode ended; see the module docstring), and the raw env keeps attribute access
    (``env.rules``, ``env.game_state``) direct.
    """

    def raw_env(**kwargs: Any) -> GameAECEnv:
        return env_class(**kwargs)

    def env(**kwargs: Any) -> GameAECEnv:
        return env_class(**kwargs)

    raw_env.__doc__ = f"The unwrapped AEC env (keyword arguments as :class:`{env_class.__name__}`)."
    env.__doc__ = f"The AEC env (keyword arguments as :class:`{env_class.__name__}`; no OrderEnforcingWrapper)."
    for function in (raw_env, env):  # found by name in the game's env module (pickle, docs)
        function.__module__, function.__qualname__ = env_class.__module__, function.__name__
    return raw_env, env

