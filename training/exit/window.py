"""The replay window (``exit.window_games``): the recorded positions of the last ``W`` games,
each row trained on at most ``R`` times (``exit.max_reuse``) over its time in the window.

Design D3 of the strong-agents study (``../shared/design/strong_agents.md``): the old buffer
kept the few hundred games of the last iterations and reused each row 8-10 times, which let the
value head memorise its games; the anchors keep thousands of games and reuse each position 1-3
times (OpenSpiel's ``replay_buffer_reuse`` 3, Pgx 1). Here an iteration's training is one pass
over a draw of distinct rows, uniform among the rows used fewer than ``R`` times, so no row is
ever seen more than ``R`` times and the oldest games leave first.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from maya_envs.core.checks import is_int
from training.exit.data import Positions


class ReplayWindow:
    """Positions of the ``games`` most recent games, with a use count per row.

    Args:
        games: games kept (``W`` >= 1); a game counts once it has a recorded row.
        max_reuse: times a row may be drawn (``R`` >= 1).

    Raises:
        ValueError: a bad ``games`` or ``max_reuse``; :meth:`add` of rows without game ids.
    """

    def __init__(self, games: int, max_reuse: int) -> None:
        for name, value in (("games", games), ("max_reuse", max_reuse)):
            if not is_int(value, numpy=False) or value < 1:
                raise ValueError(f"{name}={value!r}; allowed: an int >= 1")
        self.games, self.max_reuse = games, max_reuse
        self.data: Positions | None = None
        self.uses = np.zeros(0, np.int64)
        self.next_game = 0  # the id the next added game gets (ids grow with age: oldest lowest)

    def __len__(self) -> int:
        return 0 if self.data is None else len(self.data)

    @property
    def positions(self) -> Positions:
        """The kept rows (what :meth:`draw`'s indices point into)."""
        if self.data is None:
            raise ValueError("the replay window is empty")
        return self.data

    def game_ids(self) -> np.ndarray:
        """``int64 (N,)`` each kept row's game id (consecutive in the order games were added)."""
        return np.zeros(0, np.int64) if self.data is None else self.data.games

    def add(self, positions: Positions) -> None:
        """Add the rows of new games (``positions.games`` tells them apart; their order there is
        their age), unused; then drop the oldest games beyond ``games``."""
        if positions.games is None:
            raise ValueError("the replay window needs each row's game (Positions.games)")
        if not len(positions):
            if self.data is None:
                self.data = positions
            return
        _, dense = np.unique(positions.games, return_inverse=True)
        relabelled = Positions(**{**vars(positions), "games": (self.next_game + dense).astype(np.int64)})
        self.next_game += int(dense.max()) + 1
        ids = np.concatenate([self.game_ids(), relabelled.games])
        self.data = relabelled if self.data is None else Positions.concat([self.data, relabelled])
        self.data.games = ids  # concat shifts the new part's games; the window's ids are global
        self.uses = np.concatenate([self.uses, np.zeros(len(relabelled), np.int64)])
        kept = np.unique(self.data.games)
        if len(kept) > self.games:
            keep = np.flatnonzero(self.data.games >= kept[-self.games])
            self.data, self.uses = self.data.select(keep), self.uses[keep]

    def extend(self, positions: Positions) -> None:
        """:meth:`add` (the held-out games of an iteration join after its training)."""
        self.add(positions)

    def draw(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """Up to ``count`` distinct row indices (into :attr:`positions`), uniformly among the
        rows drawn fewer than ``max_reuse`` times, in random order; each drawn row's use count
        goes up by one. Fewer when fewer rows are left (none when the window is empty)."""
        eligible = np.flatnonzero(self.uses < self.max_reuse)
        take = min(int(count), len(eligible))
        rows = rng.choice(eligible, size=take, replace=False) if take else np.zeros(0, np.int64)
        self.uses[rows] += 1
        return rows.astype(np.int64)

    def state_dict(self) -> dict[str, Any]:
        """Everything :meth:`load_state_dict` needs (for the trainer's checkpoint)."""
        return {
            "games": self.games,
            "max_reuse": self.max_reuse,
            "next_game": self.next_game,
            "uses": self.uses,
            "data": None if self.data is None else vars(self.data),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.next_game = int(state["next_game"])
        self.uses = np.asarray(state["uses"], np.int64)
        self.data = None if state["data"] is None else Positions(**state["data"])
