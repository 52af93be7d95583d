"""Batched Maya (2012), two players: N games stepped at once with numpy.

:class:`BatchedMaya2012` is the engine (self-play: every call applies one action in every
game, for whichever seat is to move). :class:`maya_envs.maya2012.vector_env.Maya2012VectorEnv`
puts it behind a ``gymnasium.vector.VectorEnv`` for one learner seat against uniformly random
opponents (this module is pure: numpy, no gymnasium).

The games are those of :mod:`maya_envs.maya2012.rules` (``num_players=2``; ``setup`` is
``"choose"`` or ``"random"``, the drafted setup is not batched): the same legality, ladder
and priest placement, turn limit, scoring, tie-breaks and rewards, and the same
observation vector (:mod:`maya_envs.maya2012.observation`, 610 floats, from the given
seat's view) and ``Discrete(75)`` mask. ``tests/test_batched.py`` replays thousands of
random games through both engines and compares states, masks, observations, rewards and
terminations step by step.

**State**, one row per game: ``towers (N, 9, 5) int8``, ``monolith``, ``raven``,
``ladders (N, 2, 9)``, ``priests (N, 9)``, ``ladders_left (N, 2)``, ``priests_left (N, 2)``,
``to_move``, ``phase`` (the rules' phase ints) and ``turn``; :meth:`BatchedMaya2012.state`
gives one row as a :class:`~maya_envs.maya2012.rules.Maya2012State`.

**Auto-reset.** :meth:`BatchedMaya2012.step` returns each seat's reward for the games that
ended on that step, then starts a new game in their rows (``autoreset=False`` leaves them
over; :meth:`BatchedMaya2012.reset_done` restarts them later).

**Boards.** Every new game's board is exactly uniform over valid boards, as in the single
engine, but drawn faster: a base board from the exact sampler
(:func:`~maya_envs.maya2012.setup.sample_latin_rectangle`) serves up to ``board_reuse``
games (default 64), each time with the towers, the levels and the colours relabelled by
independent uniformly random permutations. Such a relabelling maps valid boards to valid
boards one-to-one, so the uniform law is invariant under it and every game's board is
exactly uniform; boards drawn from one base are not independent of each other (use
``board_reuse=1`` for independent boards, at about 1.5 ms a game). A board on which the
first exchange has no legal move ends the game at once, a 0-0 draw (``end``
``"no_legal_exchange"``), as in the single engine (rules ``_start_exchanges``). A valid board
drawn at setup always has one (no tower repeats a colour, so every seam is open, and the
Monolith blocks at most 6 of the 12 pairs), so this only happens in a constructed position:
the row is over (all-zero mask, :meth:`BatchedMaya2012.sample_legal` gives -1) and the next
:meth:`~BatchedMaya2012.step` that includes it takes no action from it, reports it done with
its returns (0, 0) and, when auto-resetting, starts a new game.

**Backends.** ``backend="auto"`` (default) uses compiled loops (:mod:`._batched_numba`)
when numba is installed (the ``fast`` extra), else numpy array operations; ``"numpy"`` and
``"numba"`` force one. Both play the same games and draw the same random numbers.

**Illegal actions** raise :class:`~maya_envs.core.errors.IllegalActionError` (rows named)
and change nothing.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from maya_envs.core.errors import ConfigError, IllegalActionError
from maya_envs.core.rng import make_rng
from maya_envs.maya2012 import actions as A
from maya_envs.maya2012 import observation as O
from maya_envs.maya2012 import state as S
from maya_envs.maya2012.rules import END_REASONS, Maya2012Config, Maya2012State
from maya_envs.maya2012.setup import sample_latin_rectangle

N_EX = A.NUM_EXCHANGES
_PA = np.array([a for a, _ in A.PAIRS], np.intp)
_PB = np.array([b for _, b in A.PAIRS], np.intp)
# Per exchange id x: its towers a, b and its seam j = x % 4 (levels j+1 | j+2, 0-based j | j+1).
_XA = np.repeat(_PA, 4)
_XB = np.repeat(_PB, 4)
_XJ = np.tile(np.arange(4), len(A.PAIRS))
# _BLOCKED[m + 1, p]: pair p touches a tower next to the Monolith at pair m (m = -1: none).
_BLOCKED = np.zeros((len(A.PAIRS) + 1, len(A.PAIRS)), bool)
for _m, (_a, _b) in enumerate(A.PAIRS):
    _BLOCKED[_m + 1] = np.isin(_PA, (_a, _b)) | np.isin(_PB, (_a, _b))
# _RAVEN_OK[r, j]: base level j + 2 may be exchanged with the Raven at level r (0: not set).
_RAVEN_OK = np.ones((6, 4), bool)
for _r in range(2, 6):
    _RAVEN_OK[_r, _r - 2] = False
_LEVEL = np.arange(A.NUM_LEVELS)
# Observation value of a VP swing s (index s + 2), computed as observation.py does.
_SWING = np.array([min(max((s + 2) / 6, 0.0), 1.0) for s in range(-2, 7)], np.float32)
# The observation's named parts (two players, no draft), which both backends write by name.
_LAYOUT = O.observation_layout(Maya2012Config())
_AT = _LAYOUT.starts
OBS_SIZE = _LAYOUT.size
_END_STUCK, _END_LIMIT = END_REASONS.index("no_legal_exchange"), END_REASONS.index("max_turns")


class BatchStep(NamedTuple):
    """What one :meth:`BatchedMaya2012.step` returns (arrays over the N games).

    Attributes:
        rewards: ``(N, 2) float32``: each seat's reward, non-zero only on a game's last step.
        terminated: ``(N,) bool``: the game ended by the rules (no legal exchange, turn limit
            with ``at_max_turns="score"``).
        truncated: ``(N,) bool``: the turn limit with ``at_max_turns="truncate"``.
        done: ``terminated | truncated`` (those rows hold a new game when auto-resetting).
        end: ``(N,) int8``: which end a finished game had, an index into
            :data:`~maya_envs.maya2012.rules.END_REASONS` (``"no_legal_exchange"`` wins over
            ``"max_turns"`` when both happen on the step, as in the single engine); -1 for a
            game still running.
    """

    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    done: np.ndarray
    end: np.ndarray


class BatchedMaya2012:
    """N two-player Maya (2012) games in numpy arrays.

    Args:
        num_envs: number of games N (>= 1).
        seed: seed of the engine's generator (boards, random setup, :meth:`sample_legal` if
            given no generator); ``None`` for OS entropy.
        board_reuse: games per exactly sampled base board (see the module docstring; >= 1).
        **game_options: fields of :class:`~maya_envs.maya2012.rules.Maya2012Config`
            (``num_players`` must be 2, ``setup`` ``"choose"`` or ``"random"``).
        backend: ``"auto"``, ``"numpy"`` or ``"numba"`` (module docstring).

    Raises:
        ConfigError: a bad option, ``num_players != 2`` or ``setup="draft"``.
        ValueError: ``num_envs`` or ``board_reuse`` below 1, an unknown backend.
        ImportError: ``backend="numba"`` without numba.
    """

    def __init__(
        self, num_envs: int, seed: int | None = None, board_reuse: int = 64, backend: str = "auto", **game_options: Any
    ) -> None:
        self.backend, self._nb = _load_backend(backend)
        if self._nb is not None:  # the compiled observe takes the layout's part starts
            self._obs_starts = np.array([_AT[name] for name in self._nb.OBS_STARTS], np.intp)
        config = Maya2012Config.from_mapping(game_options)
        if config.num_players != 2:
            raise ConfigError(f"num_players={config.num_players} is not batched; allowed: [2]")
        if config.setup not in ("choose", "random"):
            raise ConfigError(f"setup={config.setup!r} is not batched; allowed: ['choose', 'random']")
        if int(num_envs) < 1 or int(board_reuse) < 1:
            raise ValueError(f"num_envs and board_reuse must be >= 1, got {num_envs} and {board_reuse}")
        self.config = config
        self.num_envs = n = int(num_envs)
        self.board_reuse = int(board_reuse)
        self._rng = make_rng(seed)
        self._rows = np.arange(n)
        self._spaces = np.asarray(config.ladder_spaces, np.int8)
        self._limit_phase = S.OVER if config.at_max_turns == "score" else S.TRUNCATED
        self.towers = np.zeros((n, A.NUM_TOWERS, A.NUM_LEVELS), np.int8)
        self.monolith = np.full(n, -1, np.int8)
        self.raven = np.zeros(n, np.int8)
        self.ladders = np.zeros((n, 2, A.NUM_TOWERS), np.int8)
        self.priests = np.full((n, A.NUM_TOWERS), S.NO_PRIEST, np.int8)
        self.ladders_left = np.zeros((n, 2), np.int16)
        self.priests_left = np.zeros((n, 2), np.int16)
        self.to_move = np.zeros(n, np.int8)
        self.phase = np.full(n, S.OVER, np.int8)
        self.turn = np.zeros(n, np.int32)
        self.mask = np.zeros((n, A.NUM_ACTIONS), np.int8)
        self._ended_at_start = np.zeros(n, bool)
        self._base: np.ndarray | None = None
        self._base_uses = 0

    # -- public API -------------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> None:
        """Start a new game in every row (``seed``: reseed the engine's generator first)."""
        if seed is not None:
            self._rng = make_rng(seed)
            self._base = None
        self._new_games(self._rows)

    def step(self, actions: Any, autoreset: bool = True) -> BatchStep:
        """Apply ``actions[i]`` for the seat to move in game ``i``, for every game.

        Raises:
            IllegalActionError: some action is not legal in its game (nothing changes).
            ValueError: ``actions`` is not N integer ids.
        """
        return self._step(None, actions, autoreset)

    def step_rows(self, rows: Any, actions: Any, autoreset: bool = False) -> BatchStep:
        """Apply ``actions[k]`` in game ``rows[k]`` only (distinct live rows); the other
        games do not move. The returned arrays are over ``rows``.

        Raises:
            IllegalActionError, ValueError: as :meth:`step`.
        """
        return self._step(np.asarray(rows, np.intp), actions, autoreset)

    def _step(self, rows: np.ndarray | None, actions: Any, autoreset: bool) -> BatchStep:
        idx = self._rows if rows is None else rows
        n = idx.size
        actions = np.asarray(actions)
        if actions.shape != (n,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {n} integer ids, got shape {actions.shape} {actions.dtype}")
        ended = self._ended_at_start[idx]
        if ended.any():  # games over before their first move: reported now, their actions unused
            live = ~ended
            if live.any():
                self._apply(idx[live], actions[live])
            self._ended_at_start[idx] = False
        else:
            self._apply(rows, actions)
        return self._finish(idx, autoreset)

    def _apply(self, rows: np.ndarray | None, actions: np.ndarray) -> None:
        """Check and apply ``actions`` in the live games ``rows`` (``None``: all)."""
        idx = self._rows if rows is None else rows
        if self._nb is not None:
            return self._apply_compiled(idx, actions.astype(np.intp))
        in_range = (actions >= 0) & (actions < A.NUM_ACTIONS)
        legal = in_range & (self.mask[idx, np.where(in_range, actions, 0)] == 1)
        if not legal.all():
            bad = np.flatnonzero(~legal)
            raise IllegalActionError(
                f"illegal actions in {bad.size} game(s): rows {idx[bad[:10]].tolist()}, actions "
                f"{actions[bad[:10]].tolist()} (see BatchedMaya2012.mask)"
            )
        actions = actions.astype(np.intp)
        phase = self.phase[idx]
        exchange = phase == S.EXCHANGE
        if exchange.all():
            self._exchange(idx, actions)
        else:
            monolith, raven = phase == S.SETUP_MONOLITH, phase == S.SETUP_RAVEN
            if exchange.any():
                self._exchange(idx[exchange], actions[exchange])
            if monolith.any():
                sub = idx[monolith]
                self.monolith[sub] = actions[monolith] - A.MONOLITH_BASE
                self.phase[sub] = S.SETUP_RAVEN
            if raven.any():
                sub = idx[raven]
                self.raven[sub] = actions[raven] - A.RAVEN_BASE + 2
                self.to_move[sub] = S.WHITE
                self.phase[sub] = S.EXCHANGE
        self._update_mask(rows)

    def _apply_compiled(self, idx: np.ndarray, actions: np.ndarray) -> None:
        nb = self._nb
        bad = nb.check_actions(idx, actions, self.mask)
        if bad >= 0:
            raise IllegalActionError(
                f"illegal action in game row {int(idx[bad])}: action {int(actions[bad])} (see BatchedMaya2012.mask)"
            )
        nb.step_rows(idx, actions, *self._state_arrays(), self.mask, self._spaces, self.config.max_turns,
                     self._limit_phase, _PA, _PB, _BLOCKED)  # fmt: skip

    def _state_arrays(self) -> tuple[np.ndarray, ...]:
        return (self.towers, self.monolith, self.raven, self.ladders, self.priests, self.ladders_left,
                self.priests_left, self.to_move, self.phase, self.turn)  # fmt: skip

    def _finish(self, idx: np.ndarray, autoreset: bool) -> BatchStep:
        """Flags and rewards of ``idx`` after a step; auto-reset of the finished games."""
        n = idx.size
        phase = self.phase[idx]
        terminated = phase == S.OVER
        truncated = phase == S.TRUNCATED
        done = terminated | truncated
        rewards = np.zeros((n, 2), np.float32)
        end = np.full(n, -1, np.int8)
        if done.any():
            end[done] = self.end_codes(idx[done])
            if terminated.any():
                rewards[terminated] = self.returns(idx[terminated])
            if autoreset:
                self._new_games(idx[done])
        return BatchStep(rewards, terminated, truncated, done, end)

    def end_codes(self, rows: np.ndarray) -> np.ndarray:
        """``(len(rows),) int8``: for finished games, the index into
        :data:`~maya_envs.maya2012.rules.END_REASONS` of their end (rules ``end_reason``)."""
        stuck = ~self._exchange_legality(rows).any(axis=1)
        return np.where(stuck, _END_STUCK, _END_LIMIT).astype(np.int8)

    def reset_done(self) -> np.ndarray:
        """Start a new game in every row whose game is over; returns those rows."""
        rows = np.flatnonzero(self.phase >= S.OVER)
        if rows.size:
            self._new_games(rows)
        return rows

    def observe(self, seats: Any = None, rows: np.ndarray | None = None) -> np.ndarray:
        """Observations ``(len(rows), 610) float32`` of :mod:`~maya_envs.maya2012.observation`
        for ``seats`` (default: the seat to move in each game) of ``rows`` (default all)."""
        if rows is None:
            rows = self._rows
        n = len(rows)
        me = self.to_move[rows].astype(np.intp) if seats is None else np.broadcast_to(np.asarray(seats, np.intp), (n,))
        if self._nb is not None:
            obs = np.zeros((n, OBS_SIZE), np.float32)
            cfg = self.config
            self._nb.observe(
                np.asarray(rows, np.intp), np.ascontiguousarray(me), obs, self.towers, self.monolith, self.raven,
                self.ladders, self.priests, self.ladders_left, self.priests_left, self.phase, self.turn, self.mask,
                self._spaces, cfg.ladders_per_player, cfg.priests_per_player, cfg.max_turns, _PA, _PB, _SWING,
                self._obs_starts,
            )  # fmt: skip
            return obs
        towers = self.towers[rows]
        opp = 1 - me
        local = np.arange(n)
        obs = np.zeros((n, OBS_SIZE), np.float32)
        flat = obs.reshape(-1)
        base = local * OBS_SIZE
        flat[(base[:, None] + (_AT["towers"] + O._SLOT_BASE) + towers.reshape(n, -1)).ravel()] = 1.0
        monolith = self.monolith[rows].astype(np.intp)
        placed = monolith >= 0
        flat[base[placed] + _AT["monolith"] + monolith[placed]] = 1.0
        raven = self.raven[rows].astype(np.intp)
        placed = raven > 0
        flat[base[placed] + _AT["raven"] + raven[placed] - 2] = 1.0
        ladders = self.ladders[rows]
        mine, theirs = ladders[local, me], ladders[local, opp]
        obs[:, _LAYOUT["my_ladders"]] = mine / np.float32(O.MAX_LADDER_SPACES)
        obs[:, _LAYOUT["opponent_ladders"]] = theirs / np.float32(O.MAX_LADDER_SPACES)
        priests = self.priests[rows]
        obs[:, _LAYOUT["my_priests"]] = priests == me[:, None]
        obs[:, _LAYOUT["opponent_priests"]] = priests == opp[:, None]
        cfg = self.config
        ladders_left, priests_left = self.ladders_left[rows], self.priests_left[rows]
        for k, (counts, seat, total) in enumerate(
            (
                (ladders_left, me, cfg.ladders_per_player),
                (ladders_left, opp, cfg.ladders_per_player),
                (priests_left, me, cfg.priests_per_player),
                (priests_left, opp, cfg.priests_per_player),
            )
        ):
            if total:
                obs[:, _AT["pieces"] + k] = counts[local, seat] / total
        phase = self.phase[rows].astype(np.intp)
        live = phase <= S.EXCHANGE
        flat[base[live] + _AT["phase"] + phase[live]] = 1.0
        obs[:, _AT["turn"]] = np.minimum(self.turn[rows] / cfg.max_turns, 1.0)
        obs[:, _AT["seat"]] = me == 0
        legal = self.mask[rows, :N_EX].astype(bool)
        if legal.any():
            self._action_features(obs, towers, mine, theirs, ladders_left[local, me], priests_left[local, me], legal)
        return obs

    def returns(self, rows: np.ndarray) -> np.ndarray:
        """``(len(rows), 2)`` rewards of finished games (rules ``returns``, 2p)."""
        ladders = self.ladders[rows].astype(np.int16)
        priests = self.priests[rows]
        own = np.stack([(priests == seat).sum(axis=1) for seat in (S.WHITE, S.BLACK)], axis=1)
        majority = np.stack(
            [(ladders[:, 0] > ladders[:, 1]).sum(axis=1), (ladders[:, 1] > ladders[:, 0]).sum(axis=1)], axis=1
        )
        vp = own + majority
        if self.config.reward_scheme == "score_diff":
            return np.stack([vp[:, 0] - vp[:, 1], vp[:, 1] - vp[:, 0]], axis=1).astype(np.float32)
        total = ladders.sum(axis=2)
        # Compare (vp, priests, ladders on the board) lexicographically: rules.winner.
        key = (vp * 64 + own) * 256 + total
        sign = np.sign(key[:, 0] - key[:, 1]).astype(np.float32)
        return np.stack([sign, -sign], axis=1)

    def sample_legal(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """A uniformly random legal action per game (``(N,) int64``; -1 in a game that is
        over)."""
        rng = self._rng if rng is None else rng
        if self._nb is not None:
            out = np.zeros(self.num_envs, np.int64)
            self._nb.sample_legal(self.mask, rng.random(self.num_envs), out)
            return out
        weights = self.mask.cumsum(axis=1, dtype=np.int16)
        counts = weights[:, -1]
        picks = (rng.random(self.num_envs) * counts).astype(np.int16)
        return np.where(counts > 0, (weights <= picks[:, None]).sum(axis=1), -1)

    def state(self, row: int) -> Maya2012State:
        """Game ``row`` as a :class:`~maya_envs.maya2012.rules.Maya2012State`."""
        return Maya2012State(
            towers=tuple(tuple(int(c) for c in tower) for tower in self.towers[row]),
            monolith=int(self.monolith[row]),
            raven=int(self.raven[row]),
            ladders=tuple(tuple(int(v) for v in seat) for seat in self.ladders[row]),
            priests=tuple(int(p) for p in self.priests[row]),
            ladders_left=tuple(int(v) for v in self.ladders_left[row]),
            priests_left=tuple(int(v) for v in self.priests_left[row]),
            to_move=int(self.to_move[row]),
            phase=int(self.phase[row]),
            turn=int(self.turn[row]),
        )

    def nbytes(self) -> int:
        """Bytes of the engine's per-game arrays (state and mask)."""
        arrays = (self.towers, self.monolith, self.raven, self.ladders, self.priests, self.ladders_left)
        arrays += (self.priests_left, self.to_move, self.phase, self.turn, self.mask)
        return sum(a.nbytes for a in arrays)

    # -- internals --------------------------------------------------------------------------

    def _exchange(self, rows: np.ndarray, actions: np.ndarray) -> None:
        """Two-player exchange in ``rows`` (rules ``_exchange``): swap, place ladders and
        priests for the mover, move the Monolith and the Raven, pass the turn."""
        pair = actions >> 2
        i = (actions & 3) + 1  # first moved slot (base level i + 1)
        a, b = _PA[pair], _PB[pair]
        towers = self.towers
        col_a, col_b = towers[rows, a], towers[rows, b]
        moved = _LEVEL >= i[:, None]
        new_a = np.where(moved, col_b, col_a)
        new_b = np.where(moved, col_a, col_b)
        towers[rows, a] = new_a
        towers[rows, b] = new_b
        mover = self.to_move[rows].astype(np.intp)
        local = np.arange(rows.size)
        for tower, column in ((a, new_a), (b, new_b)):
            joined = column[local, i - 1] == column[local, i]
            if not joined.any():
                continue
            ladders = self.ladders[rows, :, tower]  # (n, 2)
            left = self.ladders_left[rows, mover]
            place = joined & (left > 0) & (ladders.sum(axis=1) < self._spaces[tower])
            if place.any():
                r, s, t = rows[place], mover[place], tower[place]
                self.ladders[r, s, t] += 1
                self.ladders_left[r, s] -= 1
            complete = joined & (column == column[:, :1]).all(axis=1) & (self.priests_left[rows, mover] > 0)
            if complete.any():
                r, s = rows[complete], mover[complete]
                self.priests[r, tower[complete]] = s
                self.priests_left[r, s] -= 1
        self.monolith[rows] = pair
        self.raven[rows] = i + 1
        self.to_move[rows] = 1 - mover
        self.turn[rows] += 1

    def _update_mask(self, rows: np.ndarray | None = None) -> None:
        """Rebuild the mask of ``rows`` (default all) from their phase; an exchange phase
        without a legal exchange ends the game, and otherwise the turn limit does (rules
        ``_start_exchanges``: the real end is checked first)."""
        if self._nb is not None:
            self._nb.update_mask(self._rows if rows is None else rows, self.towers, self.monolith, self.raven,
                                 self.phase, self.turn, self.mask, self.config.max_turns, self._limit_phase,
                                 _PA, _PB, _BLOCKED)  # fmt: skip
            return
        if rows is None:
            rows = self._rows
            towers, phase, turn = self.towers, self.phase, self.turn
            monolith, raven = self.monolith, self.raven
        else:
            towers, phase, turn = self.towers[rows], self.phase[rows], self.turn[rows]
            monolith, raven = self.monolith[rows], self.raven[rows]
        legal = _exchange_legality(towers, monolith, raven)
        exchange = phase == S.EXCHANGE
        legal &= exchange[:, None]
        stuck = exchange & ~legal.any(axis=1)
        capped = exchange & ~stuck & (turn >= self.config.max_turns)
        legal &= ~capped[:, None]
        mask = np.zeros((len(rows), A.NUM_ACTIONS), np.int8)
        mask[:, :N_EX] = legal
        setup = phase == S.SETUP_MONOLITH
        if setup.any():
            mask[setup, A.MONOLITH_BASE : A.MONOLITH_BASE + len(A.PAIRS)] = 1
        setup = phase == S.SETUP_RAVEN
        if setup.any():
            mask[setup, A.RAVEN_BASE : A.RAVEN_BASE + 4] = 1
        self.mask[rows] = mask
        if stuck.any():
            self.phase[rows[stuck]] = S.OVER
        if capped.any():
            self.phase[rows[capped]] = self._limit_phase

    def _exchange_legality(self, rows: np.ndarray) -> np.ndarray:
        return _exchange_legality(self.towers[rows], self.monolith[rows], self.raven[rows])

    def _boards(self, count: int) -> np.ndarray:
        """``count`` exactly uniform boards ``(count, 9, 5)`` (module docstring, "Boards")."""
        rng = self._rng
        bases = np.empty((count, A.NUM_TOWERS, A.NUM_LEVELS), np.int8)
        for k in range(count):
            if self._base is None or self._base_uses >= self.board_reuse:
                self._base = sample_latin_rectangle(A.NUM_TOWERS, A.NUM_LEVELS, rng).T.astype(np.int8)
                self._base_uses = 0
            bases[k] = self._base
            self._base_uses += 1
        tower_perm = np.argsort(rng.random((count, A.NUM_TOWERS)), axis=1)
        level_perm = np.argsort(rng.random((count, A.NUM_LEVELS)), axis=1)
        colour_perm = np.argsort(rng.random((count, 9)), axis=1).astype(np.int8)
        k = np.arange(count)[:, None, None]
        boards = bases[k, tower_perm[:, :, None], level_perm[:, None, :]]
        return colour_perm[k, boards]

    def _new_games(self, rows: np.ndarray) -> None:
        """Set up new games in ``rows`` (rules ``initial_state`` for 2p)."""
        cfg = self.config
        self.towers[rows] = self._boards(rows.size)
        self.ladders[rows] = 0
        self.priests[rows] = S.NO_PRIEST
        self.ladders_left[rows] = cfg.ladders_per_player
        self.priests_left[rows] = cfg.priests_per_player
        self.turn[rows] = 0
        if cfg.setup == "choose":
            self.monolith[rows] = -1
            self.raven[rows] = 0
            self.to_move[rows] = S.BLACK
            self.phase[rows] = S.SETUP_MONOLITH
        else:
            self.monolith[rows] = self._rng.integers(len(A.PAIRS), size=rows.size)
            self.raven[rows] = self._rng.integers(2, 6, size=rows.size)
            self.to_move[rows] = S.WHITE
            self.phase[rows] = S.EXCHANGE
        self._update_mask(rows)
        # No legal first exchange (setup="random"): the game is over before any move, a
        # 0-0 draw as in the single engine; the next step reports it.
        self._ended_at_start[rows] = self.phase[rows] == S.OVER

    def _action_features(self, obs, towers, mine, theirs, my_ladders_left, my_priests_left, legal) -> None:
        """The ``action_features`` part of the observation: ``exchange_consequences`` of every legal
        exchange for the observing seat, all at once."""
        j = _XJ
        # Seam after the swap: new a = a[:j+1] + b[j+1:], so its seam compares a[j] and b[j+1].
        a_lo, a_hi = towers[:, _XA, j], towers[:, _XA, j + 1]
        b_lo, b_hi = towers[:, _XB, j], towers[:, _XB, j + 1]
        joined_a = a_lo == b_hi
        joined_b = b_lo == a_hi
        # Leading run (from the base) and trailing run (to the top) of every tower.
        same_up = towers[:, :, 1:] == towers[:, :, :-1]  # (n, 9, 4)
        lead = 1 + np.cumprod(same_up, axis=2).sum(axis=2)
        trail = 1 + np.cumprod(same_up[:, :, ::-1], axis=2).sum(axis=2)
        top, bottom = towers[:, :, 4], towers[:, :, 0]
        i = j + 1
        complete_a = (lead[:, _XA] >= i) & (trail[:, _XB] >= 5 - i) & (top[:, _XB] == bottom[:, _XA])
        complete_b = (lead[:, _XB] >= i) & (trail[:, _XA] >= 5 - i) & (top[:, _XA] == bottom[:, _XB])
        spaces = self._spaces
        left = my_ladders_left[:, None]
        mine_a, theirs_a = mine[:, _XA], theirs[:, _XA]
        mine_b, theirs_b = mine[:, _XB], theirs[:, _XB]
        place_a = joined_a & (left > 0) & (mine_a + theirs_a < spaces[_XA])
        place_b = joined_b & (left - place_a > 0) & (mine_b + theirs_b < spaces[_XB])
        # Gain of one more ladder for me: +1 on a tie (I take the majority), +1 when the
        # opponent led by one (its majority goes); zero otherwise.
        gain_a = (mine_a == theirs_a).astype(np.int8) + (theirs_a == mine_a + 1)
        gain_b = (mine_b == theirs_b).astype(np.int8) + (theirs_b == mine_b + 1)
        priest = (my_priests_left > 0)[:, None]
        completes_a, completes_b = complete_a & priest, complete_b & priest
        swing = place_a * gain_a + place_b * gain_b + completes_a + completes_b
        placed = place_a.astype(np.float32) + place_b
        features = _LAYOUT.view(obs, "action_features")  # (n, 3, 48): ladders placed, completes, swing
        features[:, 0] = np.where(legal, placed * np.float32(0.5), 0)
        features[:, 1] = legal & (completes_a | completes_b)
        features[:, 2] = np.where(legal, _SWING[swing + 2], 0)


def _exchange_legality(towers: np.ndarray, monolith: np.ndarray, raven: np.ndarray) -> np.ndarray:
    """``(n, 48) bool``: the exchanges the Monolith, Raven and no-split rules allow in each
    game (rules ``legal_exchanges``), whatever the phase."""
    seam = towers[:, :, :4] != towers[:, :, 1:]
    legal = seam[:, _PA] & seam[:, _PB]
    legal &= _RAVEN_OK[raven][:, None, :]
    legal &= ~_BLOCKED[monolith.astype(np.intp) + 1][:, :, None]
    return legal.reshape(len(towers), N_EX)


def _load_backend(name: str) -> tuple[str, Any]:
    """``("numba", kernels module)`` or ``("numpy", None)`` for ``name`` (``"auto"``: numba
    when it imports)."""
    if name not in BACKENDS:
        raise ValueError(f"backend={name!r}; allowed: {list(BACKENDS)}")
    if name == "numpy":
        return "numpy", None
    try:
        from maya_envs.maya2012 import _batched_numba
    except ImportError:
        if name == "numba":
            raise ImportError("backend='numba' needs numba: pip install 'maya-envs[fast]'") from None
        return "numpy", None
    return "numba", _batched_numba


BACKENDS = ("auto", "numpy", "numba")
