"""The engine as the phase handlers see it, so the phase modules need not import the engine.

Each phase module (:mod:`.building`, :mod:`.quarry`, :mod:`.auction`) writes its decisions as
handler pairs ``legal(rules, state, seat) -> ids`` and ``apply(rules, state, seat, action,
rng)``; :data:`maya_envs.maya_quarry.rules.engine.HANDLERS` maps each :class:`~.state.Phase` to
one pair and passes the engine in as ``rules``. An ``apply`` mutates a state the engine has
just cloned and hands back to the game flow through the methods below.

Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from maya_envs.maya_quarry.rules.config import Components, MayaQuarryConfig
from maya_envs.maya_quarry.rules.state import MayaQuarryState


class Flow(Protocol):
    """What a phase handler reads of the engine (``MayaQuarryRules`` implements it)."""

    config: MayaQuarryConfig
    components: Components
    num_players: int
    num_quarries: int
    num_pyramids: int

    def next_seat(self, s: MayaQuarryState, eligible: Callable[[int], bool]) -> int: ...

    def begin_round(self, s: MayaQuarryState, round_index: int, rng: Any) -> None: ...

    def begin_placement(self, s: MayaQuarryState) -> None: ...

    def end_placement(self, s: MayaQuarryState, rng: Any) -> None: ...

    def after_plus2(self, s: MayaQuarryState, rng: Any) -> None: ...

    def reveal_next(self, s: MayaQuarryState, rng: Any) -> None: ...

    def finish_quarry(self, s: MayaQuarryState, rng: Any) -> None: ...

    def end_building(self, s: MayaQuarryState, rng: Any) -> None: ...
