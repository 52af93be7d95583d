"""Declarative metadata for one game at one player count (OpenSpiel's GameType/GameInfo)."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class GameSpec:
    """What an env, a test loop or the README table needs to know about a game.

    Attributes:
        name: PettingZoo-style module name, ``"<key>_v<version>"``.
        title: human title, e.g. ``"Maya (2012)"``.
        version: env version; bumped whenever behaviour changes.

    The rules take ``name``, ``title`` and ``version`` from their game's entry in
    :data:`maya_envs.games.GAMES` (:attr:`~maya_envs.games.Game.identity`), the one place they are
    written.
        num_players: seats in this instance (agents ``player_0 .. player_{n-1}``).
        num_actions: size of the single ``Discrete`` action space shared by all agents.
        observation_shape: shape of the ``"observation"`` array (float32), filled in on an env's
            ``spec_card`` from its observer's ``layout.shape``; ``None`` on a rules object's
            own spec (the rules do not know their observer).
        max_game_length: upper bound on agent steps in one episode (loops in tests use it).
        reward_range: (min, max) of the final reward of one agent.
        chance: whether the rules draw from the generator after ``initial_state``.
        information: ``"perfect"`` or ``"imperfect"``.
        simultaneous: whether some decisions are simultaneous (collected one agent at a time
            in AEC, hidden until all are in).
    """

    name: str
    title: str
    version: int
    num_players: int
    num_actions: int
    max_game_length: int
    reward_range: tuple[float, float]
    chance: bool
    information: str
    simultaneous: bool = False
    observation_shape: tuple[int, ...] | None = None

    def with_observation(self, shape: tuple[int, ...]) -> GameSpec:
        """This spec with ``observation_shape`` set (what an observer reports)."""
        return replace(self, observation_shape=tuple(shape))

    @property
    def agents(self) -> tuple[str, ...]:
        """Agent names in seat order."""
        return tuple(f"player_{seat}" for seat in range(self.num_players))
