"""Expert iteration's value targets and data (issue 28 items 2-3, design D3/D4 of the
strong-agents study): the outcome mixed with the search's value ``q`` (seat-relative), the
replay window of the last games with bounded reuse, held-out early stopping of the value loss,
forced moves out of the rows, and playout-cap randomisation."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import torch

from maya_envs.bots.base import make_bot
from maya_envs.core.errors import ConfigError
from maya_envs.games import DEFAULT_GAME, find_game
from maya_envs.nn.inputs import NetworkInputs
from maya_envs.nn.model import PolicyValueNet, load_network
from tests.helpers.exit import run_exit, synthetic_positions
from training.config import load_config
from training.exit.data import Positions, Recorder, mixed_value_targets, value_targets
from training.exit.learner import Learner
from training.exit.play import BotAgent, SearchAgent, play_games
from training.exit.replay import gather
from training.exit.window import ReplayWindow

GAME = DEFAULT_GAME.key


@pytest.fixture(scope="module")
def rules():
    return find_game(GAME).make_rules({"num_players": 2, "max_turns": 16})


# -- the value target: outcome and search value --------------------------------------------------


def test_value_target_mixes_outcome_and_search_value_seat_relative():
    values = np.array([[1.0, -1.0, -1.0]] * 3, np.float32)  # z, absolute seats
    hooks = np.array([[0.5, 0.0, -0.5]] * 3, np.float32)
    q = np.array([[0.2, 0.4, -0.6], [0.2, 0.4, -0.6], [np.nan] * 3], np.float32)  # row 2: no search
    seats = np.array([0, 2, 1])
    mixed = mixed_value_targets(values, seats, None, 0.0, q, 0.5)
    # seat 0 sees seats (0, 1, 2); seat 2 sees (2, 0, 1); seat 1 sees (1, 2, 0)
    assert mixed[0].tolist() == pytest.approx([0.6, -0.3, -0.8])
    assert mixed[1].tolist() == pytest.approx([-0.8, 0.6, -0.3])
    assert mixed[2].tolist() == pytest.approx([-1.0, -1.0, 1.0])  # no q and no hook: z itself
    # with the hook too: (1 - a - b) z + a h + b q; a row without q takes the hook as its q
    both = mixed_value_targets(values, seats, hooks, 0.25, q, 0.5)
    assert both[0].tolist() == pytest.approx([0.25 * 1 + 0.25 * 0.5 + 0.5 * 0.2, -0.25 + 0.2, -0.25 - 0.125 - 0.3])
    no_q = 0.25 * value_targets(values, seats) + 0.75 * value_targets(hooks, seats)
    assert both[2].tolist() == pytest.approx(no_q[2])
    assert np.array_equal(mixed_value_targets(values, seats, hooks, 0.0, q, 0.0), value_targets(values, seats))
    with pytest.raises(ValueError, match=r"value target weights 0.6 \(hook\) and 0.6 \(q\)"):
        mixed_value_targets(values, seats, hooks, 0.6, q, 0.6)
    with pytest.raises(ConfigError, match=r"exit.value_target_q=1.5; allowed: a number in \[0, 1\]"):
        load_config(f"{GAME}/2p_exit", ["exit.value_target_q=1.5"])
    with pytest.raises(ConfigError, match=r"exit.value_target_hook=0.5 \+ exit.value_target_q=0.75 is above 1"):
        load_config(f"{GAME}/2p_exit", ["exit.value_target_hook=0.5", "exit.value_target_q=0.75"])


class ConstantValues:
    """An evaluator: uniform priors, every seat's value fixed (absolute seat order)."""

    def __init__(self, rules, values):
        self.rules, self.values = rules, np.asarray(values, np.float32)

    def __call__(self, states, seats):
        priors = [np.full(len(self.rules.legal_actions(s)), 1.0 / len(self.rules.legal_actions(s))) for s in states]
        return priors, np.tile(self.values, (len(states), 1))


def test_the_search_records_its_value_and_the_learner_fits_it_seat_relative(rules):
    """Every evaluated value is (0.3, -0.3), so early in a game (no simulation reaches its end)
    the recorded q is exactly that, in absolute seats; a teacher's rows have none (NaN); the
    learner's target with value_target_q 1 is q seen from the row's seat."""
    from maya_envs.bots.guided import GuidedConfig

    inputs = NetworkInputs(rules)
    search = SearchAgent(rules, ConstantValues(rules, [0.3, -0.3]), GuidedConfig(simulations=3), record=True, rng=0)
    teacher = BotAgent(rules, make_bot("heuristic", rules, 0), record=True)
    data = play_games(rules, [[search, teacher], [teacher, search]], [1, 2], inputs, in_flight=2).positions
    searched = np.flatnonzero(np.isfinite(data.root_values).all(axis=1))
    assert 0 < len(searched) < len(data) and np.isnan(np.delete(data.root_values, searched, axis=0)).all()
    q = data.root_values[searched]
    assert np.allclose(q[:8], [0.3, -0.3])  # the first decisions of both games
    assert np.allclose(q[:, 0], -q[:, 1]) and (np.abs(q) <= 1).all()  # later ones may back up a result
    assert set(data.seats[searched]) == {0, 1}  # the search played both seats
    net = PolicyValueNet(inputs.board_dim, inputs.feature_dim, inputs.num_actions, num_values=2, hidden=8)
    learner = Learner(net, 1e-3, 0.0, 1.0, batch_size=64, value_target_q=1.0)
    _, _, value_loss, _, out, _residual = learner.loss(gather(data, searched), with_values=True)
    wanted = np.where(data.seats[searched, None] == 0, q, q[:, ::-1])  # (me, the other)
    assert value_loss.item() == pytest.approx(float(((out.detach().numpy() - wanted) ** 2).mean()), rel=1e-5)


class _RowsRecorder(Recorder):
    """The recorder as it was before it wrote into growing arrays: one tuple of small arrays per
    row, joined when the games end (the reference of the test below)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.rows: list[tuple] = []

    def add(self, game, state, seat, target, root_value=None, policy_weight=1.0, value_weight=1.0) -> None:
        board, actions, features = self.inputs.encode(state, seat)
        board, features = board.astype(np.float16), features.astype(np.float16)
        hooked = self.hook(self.inputs.rules, state) if self.hook is not None else np.zeros(self.num_players)
        q = np.full(self.num_players, np.nan) if root_value is None else np.asarray(root_value, np.float64)
        actions = np.asarray(actions, np.int64)
        self.rows.append((game, board, actions, features, target, seat, hooked, q, policy_weight, value_weight))

    def positions(self, values_by_game, margins_by_game=None) -> Positions:
        rows, n = self.rows, self.num_players
        margins = None
        if margins_by_game is not None:
            margins = np.array([margins_by_game[r[0]] for r in rows], np.float32).reshape(len(rows), n)
        return Positions(
            boards=np.array([r[1] for r in rows], np.float16).reshape(len(rows), self.board_dim),
            actions=np.concatenate([r[2] for r in rows]) if rows else np.zeros(0, np.int64),
            features=np.concatenate([r[3] for r in rows]) if rows else np.zeros((0, self.feature_dim), np.float16),
            policies=np.concatenate([r[4] for r in rows]).astype(np.float32) if rows else np.zeros(0, np.float32),
            offsets=np.concatenate([[0], np.cumsum([len(r[2]) for r in rows])]).astype(np.int64),
            seats=np.array([r[5] for r in rows], np.int64),
            values=np.array([values_by_game[r[0]] for r in rows], np.float32).reshape(len(rows), n),
            hooks=np.array([r[6] for r in rows], np.float32).reshape(len(rows), n),
            root_values=np.array([r[7] for r in rows], np.float32).reshape(len(rows), n),
            games=np.array([r[0] for r in rows], np.int64),
            policy_weights=np.array([r[8] for r in rows], np.float32),
            value_weights=np.array([r[9] for r in rows], np.float32),
            margins=margins,
        )


def test_the_recorder_gives_the_rows_of_the_row_by_row_recorder(rules, monkeypatch):
    """The recorder writes each row into growing arrays and hands them out as they are; the
    rows equal those of the row-by-row recorder (values, dtypes, shapes): teacher rows with
    random moves, search rows with the search's value and playout-cap weights, and the margins.
    Recording after :meth:`Recorder.positions` leaves the rows handed out as they were."""
    from maya_envs.bots.guided import GuidedConfig
    from training.exit import play as play_module

    inputs = NetworkInputs(rules)

    def play(recorder_class) -> Positions:
        monkeypatch.setattr(play_module, "Recorder", recorder_class)
        evaluator, config = ConstantValues(rules, [0.3, -0.3]), GuidedConfig(simulations=3)
        search = SearchAgent(rules, evaluator, config, True, 2, 0, (0.5, 2, 0.25))
        teacher = BotAgent(rules, make_bot("heuristic", rules, 0), True, 0.3, 1)
        lineups = [[search, teacher], [teacher, search], [teacher, teacher]]
        return play_games(rules, lineups, [1, 2, 3], inputs, in_flight=2).positions

    got, wanted = play(Recorder), play(_RowsRecorder)
    assert len(got) > 20 and got.margins is not None and np.isfinite(got.root_values).any()
    assert (got.policy_weights == 0).any() and np.isnan(got.root_values).any()
    _assert_same_rows(got, wanted)
    for name, value in vars(wanted).items():
        assert getattr(got, name).shape == value.shape, name
    dims = (inputs, 2, inputs.feature_dim, inputs.board_dim)
    recorder = Recorder(*dims)
    _assert_same_rows(recorder.positions({}, {}), _RowsRecorder(*dims).positions({}, {}))  # no rows
    state = rules.initial_state(np.random.default_rng(3))
    legal = rules.legal_actions(state)
    recorder.add(0, state, 0, np.full(len(legal), 1.0 / len(legal)))
    first = recorder.positions({0: np.array([1.0, -1.0])})
    kept = copy.deepcopy(first)
    for game in range(1, 40):  # enough rows to grow every array
        recorder.add(game, state, 1, np.full(len(legal), 1.0 / len(legal)), np.array([0.5, -0.5]), 0.0, 0.5)
    _assert_same_rows(first, kept)
    again = recorder.positions({g: np.array([1.0, -1.0]) for g in range(40)})
    assert len(again) == 40 and again.seats.tolist() == [0] + [1] * 39 and again.offsets[-1] == 40 * len(legal)
    _assert_same_rows(again.select(np.array([0])), kept)


# -- the replay window -------------------------------------------------------------------------


def test_window_keeps_the_last_games_and_no_row_is_drawn_more_than_max_reuse():
    window = ReplayWindow(games=3, max_reuse=2)
    window.add(synthetic_positions([5, 5, 7]))  # two games (ids 0 and 1 in the window)
    window.add(synthetic_positions([0, 1, 1, 1]))  # two more (ids 2, 3): the oldest (first) game leaves
    assert window.game_ids().tolist() == [1, 2, 3, 3, 3] and len(window) == 5
    assert window.positions.boards[:, 0].tolist() == [2, 0, 1, 2, 3]  # the rows of the kept games
    rng = np.random.default_rng(0)
    first = window.draw(rng, 3)
    assert len(first) == len(set(first.tolist())) == 3  # distinct rows in one pass
    drawn = [first, window.draw(rng, 10), window.draw(rng, 10)]
    counts = np.bincount(np.concatenate(drawn), minlength=len(window))
    assert counts.tolist() == [2] * 5 and window.uses.tolist() == [2] * 5  # exactly R uses, no more
    assert len(drawn[1]) == 5 and len(drawn[2]) == 2  # the second pass had all 5; the third what was left
    assert len(window.draw(rng, 10)) == 0  # every row spent
    window.add(synthetic_positions([9]))  # a new game's row is fresh; the window keeps 3 games
    assert window.game_ids().tolist() == [2, 3, 3, 3, 4] and window.uses.tolist() == [2, 2, 2, 2, 0]
    assert window.draw(rng, 10).tolist() == [4]


def test_window_draws_are_deterministic_under_a_seed_and_survive_a_checkpoint():
    def filled():
        window = ReplayWindow(games=50, max_reuse=3)
        for start in range(0, 60, 10):
            window.add(synthetic_positions(list(np.repeat(np.arange(start, start + 10), 3))))
        return window

    a, b = filled(), filled()
    assert len(a) == 150 and len(set(a.game_ids().tolist())) == 50  # 60 games added, 50 kept
    draws_a = [a.draw(np.random.default_rng(7), 40) for _ in range(3)]
    draws_b = [b.draw(np.random.default_rng(7), 40) for _ in range(3)]
    assert all(np.array_equal(x, y) for x, y in zip(draws_a, draws_b, strict=True))
    restored = ReplayWindow(games=50, max_reuse=3)
    restored.load_state_dict(copy.deepcopy(a.state_dict()))
    rng_a, rng_r = np.random.default_rng(3), np.random.default_rng(3)
    assert np.array_equal(a.draw(rng_a, 500), restored.draw(rng_r, 500))
    assert a.uses.max() == 3 and np.array_equal(a.uses, restored.uses)
    with pytest.raises(ValueError, match="needs each row's game"):
        ReplayWindow(2, 1).add(Positions(**{**vars(synthetic_positions([0])), "games": None}))
    with pytest.raises(ValueError, match=r"max_reuse=0; allowed: an int >= 1"):
        ReplayWindow(2, 0)


def test_positions_keep_games_apart_when_joined_and_select_rows():
    joined = Positions.concat([synthetic_positions([0, 0, 1]), synthetic_positions([0, 2])])
    assert joined.games.tolist() == [0, 0, 1, 2, 4]  # the second part's games shifted past the first's
    assert joined.root_values is None and joined.policy_weights is None
    picked = joined.select(np.array([4, 1]))
    assert picked.boards[:, 0].tolist() == [1, 1] and picked.games.tolist() == [4, 0]
    assert picked.offsets.tolist() == [0, 2, 4] and len(picked.actions) == 4
    weighted = Positions(**{**vars(synthetic_positions([0])), "policy_weights": np.zeros(1, np.float32)})
    assert Positions.concat([synthetic_positions([0]), weighted]).policy_weights.tolist() == [1.0, 0.0]


def _select_by_loop(data: Positions, rows: np.ndarray) -> Positions:
    """:meth:`Positions.select` as it was written before it was vectorised: one ``arange`` of
    action indices per picked row, joined (the reference for the vectorised one)."""
    starts, ends = data.offsets[rows], data.offsets[rows + 1]
    spans = np.concatenate([np.arange(a, b) for a, b in zip(starts, ends, strict=True)]) if len(rows) else []
    spans = np.asarray(spans, np.int64)
    fields = {name: None if value is None else value[rows] for name, value in vars(data).items()}
    return Positions(**{
        **fields, "actions": data.actions[spans], "features": data.features[spans], "policies": data.policies[spans],
        "offsets": np.concatenate([[0], np.cumsum(ends - starts)]).astype(np.int64),
    })  # fmt: skip


def test_select_equals_the_row_by_row_selection_on_ragged_rows():
    rng = np.random.default_rng(5)
    lengths = np.array([3, 1, 0, 5, 2, 1, 4, 0, 2])  # ragged, two rows without actions
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    n, total = len(lengths), int(offsets[-1])
    data = Positions(
        boards=rng.normal(size=(n, 3)).astype(np.float16), actions=rng.integers(0, 50, total),
        features=rng.normal(size=(total, 2)).astype(np.float16), policies=rng.random(total).astype(np.float32),
        offsets=offsets, seats=rng.integers(0, 3, n), values=rng.normal(size=(n, 3)).astype(np.float32),
        hooks=rng.normal(size=(n, 3)).astype(np.float32), root_values=None, games=np.arange(n) // 2,
        policy_weights=rng.random(n).astype(np.float32), value_weights=None,
        margins=rng.normal(size=(n, 3)).astype(np.float32),
    )  # fmt: skip
    selections = [
        [], [0], [3], [2], [8], [2, 7], list(range(n)), [8, 0, 3, 3, 1], [4, 2, 6, 0],
        np.flatnonzero(~data.forced()), np.flatnonzero(data.forced()), rng.permutation(n),
    ]  # fmt: skip
    for rows in selections:
        rows = np.asarray(rows, np.int64)
        picked, wanted = data.select(rows), _select_by_loop(data, rows)
        for name, value in vars(wanted).items():
            got = getattr(picked, name)
            assert (got is None) == (value is None), name
            if value is not None:
                assert got.dtype == value.dtype and got.shape == value.shape, (name, rows)
                assert np.array_equal(got, value), (name, rows)
        assert len(picked) == len(rows) and picked.offsets[-1] == len(picked.actions)


# -- held-out early stopping ---------------------------------------------------------------------


def _disagreeing_held_out() -> tuple[Positions, Positions, PolicyValueNet]:
    """64 training rows where seat 0 wins, 16 held-out rows (the same boards) where it loses,
    and a small seeded network."""
    train = synthetic_positions(list(range(64)), values=(1.0, -1.0))
    held = synthetic_positions(list(range(16)), values=(-1.0, 1.0))
    train.seats[:] = held.seats[:] = 0
    torch.manual_seed(0)
    return train, held, PolicyValueNet(board_dim=2, feature_dim=1, num_actions=2, num_values=2, hidden=8)


def test_held_out_value_loss_that_stops_improving_stops_the_value_head():
    """The training rows say seat 0 wins, the held-out rows (same boards) say it loses: learning
    the training rows raises the held-out value loss, so at the first check the value loss
    leaves the objective; from there the value head stays exactly where it was (a twin trained
    on the first quarter alone has the same value head), while the policy keeps learning."""
    train, held, net = _disagreeing_held_out()
    twin = copy.deepcopy(net)
    learner = Learner(net, 1e-2, 1e-4, 1.0, batch_size=8)
    order = np.random.default_rng(0).permutation(64)
    stats = learner.fit(train, [order, order], held, checks=4, stop="value")  # checks after batches 4, 8, 12, 16
    assert stats.value_stopped_after == 32 and stats.rows_trained == 128
    assert len(stats.holdout_value_losses) == 2 and stats.holdout_value_losses[1] > stats.holdout_value_losses[0]
    Learner(twin, 1e-2, 1e-4, 1.0, batch_size=8).fit(train, [order[:32]])
    for (name, a), b in zip(net.value.state_dict().items(), twin.value.state_dict().values(), strict=True):
        assert torch.equal(a, b), name
    assert not torch.equal(net.board[0].weight, twin.board[0].weight)  # the trunk kept learning
    # held-out rows that agree with the training rows keep improving: no stop
    agree = synthetic_positions(list(range(16)), values=(1.0, -1.0))
    agree.seats[:] = 0
    again = Learner(copy.deepcopy(twin), 1e-2, 0.0, 1.0, batch_size=8).fit(train, [order], agree, checks=2)
    assert again.value_stopped_after is None and len(again.holdout_value_losses) == 3


def test_held_out_stop_all_ends_the_training_at_the_best_weights():
    """``stop="all"`` (the default): the first check is worse than the start, so training ends
    there and the network is back at its starting weights (the best measurement)."""
    train, held, net = _disagreeing_held_out()
    start = copy.deepcopy(net.state_dict())
    order = np.random.default_rng(0).permutation(64)
    stats = Learner(net, 1e-2, 1e-4, 1.0, batch_size=8).fit(train, [order, order], held, checks=4)
    assert stats.value_stopped_after == stats.rows_trained == 32 and len(stats.holdout_value_losses) == 2
    assert all(torch.equal(v, start[k]) for k, v in net.state_dict().items())
    with pytest.raises(ValueError, match=r"stop='heads'; allowed: value, all"):
        Learner(net, 1e-2, 0.0, 1.0, batch_size=8).fit(train, [order], held, stop="heads")


# -- forced moves and playout caps ---------------------------------------------------------------


def test_forced_moves_leave_the_training_rows_unless_kept():
    from training.exit.loop import ExitTrainer

    rules = find_game(GAME).make_rules({"num_players": 2})  # whole games: forced moves come late
    teacher = BotAgent(rules, make_bot("heuristic", rules, 0), record=True)
    data = play_games(rules, [[teacher, teacher]] * 4, [1, 2, 3, 4], NetworkInputs(rules), in_flight=4).positions
    forced = int(data.forced().sum())
    assert 0 < forced < len(data)  # Maya (2012) has forced moves
    dropped = ExitTrainer(load_config(f"{GAME}/2p_exit"))._usable(data)
    assert len(dropped) == len(data) - forced and not dropped.forced().any()
    kept = ExitTrainer(load_config(f"{GAME}/2p_exit", ["exit.keep_forced=true"]))._usable(data)
    assert len(kept) == len(data)


class _RecordedActors:
    """Stands in for :class:`training.exit.actors.Actors`: every ``play`` call answers with a
    fresh :class:`~training.exit.play.Played` around ``rows`` (the seeds are ignored)."""

    def __init__(self, rows: Positions) -> None:
        self.rows, self.played = rows, []

    def play(self, lineups, seeds, weights, seed, leaf=None):
        from training.exit.play import Played

        self.played.append(Played(np.zeros((len(lineups), 2), np.float32), self.rows, len(self.rows), 1.0))
        return self.played[-1]


def _assert_same_rows(got: Positions, wanted: Positions) -> None:
    for name, value in vars(wanted).items():
        other = getattr(got, name)
        assert (other is None) == (value is None), name
        if value is not None:
            assert other.dtype == value.dtype and np.array_equal(other, value, equal_nan=True), name


def test_iteration_0_learns_the_recorded_rows_in_order_without_the_forced_ones_and_copies_none_else():
    """What iteration 0 adds to the replay buffer: the recorded rows without the forced ones,
    in their order (the row-by-row selection of before); the recorded rows themselves, not a
    copy, when there is none to drop or ``keep_forced``; the trainer lets go of the recorded
    rows once it has its own (``Played.positions`` None), and the history counts them."""
    from training.exit.loop import ExitTrainer

    rules = find_game(GAME).make_rules({"num_players": 2})  # whole games: forced moves come late
    teacher = BotAgent(rules, make_bot("heuristic", rules, 0), record=True)
    data = play_games(rules, [[teacher, teacher]] * 3, [1, 2, 3], NetworkInputs(rules), in_flight=3).positions
    forced = data.forced()
    assert 0 < forced.sum() < len(data)
    unforced = _select_by_loop(data, np.flatnonzero(~forced))
    settings = ["exit.imitation_games=3", "exit.imitation_epochs=1", "exit.hidden=16"]
    cases = (([], data, unforced), ([], unforced, unforced), (["exit.keep_forced=true"], data, data))
    for extra, rows, learned in cases:
        trainer = ExitTrainer(load_config(f"{GAME}/2p_exit", settings + extra))
        actors = _RecordedActors(rows)
        history = trainer._imitate(actors)
        (chunk,) = trainer.replay.chunks
        _assert_same_rows(chunk, learned)
        assert (chunk is rows) == (len(learned) == len(rows))  # nothing dropped: no copy
        assert trainer.replay.positions is chunk and actors.played[0].positions is None
        assert history["positions"] == len(rows) and history["forced_rows_dropped"] == len(rows) - len(learned)
        assert history["rows_trained"] == len(learned)


def test_the_replay_buffer_joins_its_iterations_on_each_call_and_keeps_one_as_it_is():
    from training.exit.replay import ReplayBuffer

    buffer = ReplayBuffer(2)
    first, second, third = synthetic_positions([0, 0, 1]), synthetic_positions([0, 2], actions_per_row=3), synthetic_positions([5])
    buffer.add(first)
    assert buffer.positions is first and len(buffer) == 3
    buffer.add(second)
    _assert_same_rows(buffer.positions, Positions.concat([first, second]))
    assert buffer.positions is not buffer.positions  # joined afresh: no second copy kept between calls
    buffer.add(third)  # the first iteration leaves
    _assert_same_rows(buffer.positions, Positions.concat([second, third]))
    assert len(buffer) == 3 and buffer.positions.games.tolist() == [0, 2, 8]  # shifted past the first part's


def test_the_checkpoint_writes_the_replay_rows_outside_its_pickle_and_gives_them_back_as_they_were(tmp_path):
    """The checkpoint's arrays are tensors written as they are, outside its pickle (protocol 2
    pickling them took 5x the rows' memory, the peak of a large iteration 0; issue 44: and a
    pickle of plain data is what weights_only=True reads), and resuming from it gives back the
    same rows, writable."""
    import zipfile

    from training.exit.loop import ExitTrainer

    config = load_config(f"{GAME}/2p_exit", ["exit.hidden=16"])
    trainer = ExitTrainer(config)
    rows = synthetic_positions([0, 0, 1, 3], actions_per_row=3)
    rows.root_values = np.array([[0.5, -0.5], [np.nan, np.nan]] * 2, np.float32)
    trainer.replay.add(rows)
    trainer._save(tmp_path / "checkpoint.pt")
    with zipfile.ZipFile(tmp_path / "checkpoint.pt") as archive:
        (pickled,) = [name for name in archive.namelist() if name.endswith("/data.pkl")]
        assert rows.boards.tobytes() not in archive.read(pickled)
    (chunk,) = ExitTrainer(config, resume=tmp_path / "checkpoint.pt").replay.chunks
    _assert_same_rows(chunk, rows)
    assert all(value.flags.writeable for value in vars(chunk).values() if value is not None)


def test_playout_caps_record_only_the_full_searches(rules, monkeypatch):
    import maya_envs.bots.guided as guided
    from maya_envs.bots.guided import GuidedConfig

    searched: list[tuple[int, int]] = []  # (simulations, roots) of each search_many call
    real = guided.search_many

    def counting(rules_, roots, seats, evaluator, config, rng, *trees):
        searched.append((config.simulations, len(roots)))
        return real(rules_, roots, seats, evaluator, config, rng, *trees)

    monkeypatch.setattr(guided, "search_many", counting)
    inputs = NetworkInputs(rules)
    evaluator = ConstantValues(rules, [0.0, 0.0])

    def play(cap):
        searched.clear()
        agent = SearchAgent(rules, evaluator, GuidedConfig(simulations=4), True, 0, 5, playout_cap=cap)
        return play_games(rules, [[agent, agent]] * 3, [1, 2, 3], inputs, in_flight=3)

    played = play((0.5, 2, 0.0))
    full = sum(r for s, r in searched if s == 4)
    cheap = sum(r for s, r in searched if s == 2)
    assert full + cheap == played.decisions and 0 < full < played.decisions
    assert len(played.positions) == full and played.positions.policy_weights.tolist() == [1.0] * full
    played = play((0.5, 2, 0.25))  # cheap decisions give value rows of weight 0.25, no policy weight
    cheap = sum(r for s, r in searched if s == 2)
    assert len(played.positions) == played.decisions
    assert (played.positions.policy_weights == 0).sum() == cheap
    assert set(played.positions.value_weights[played.positions.policy_weights == 0]) == {0.25}
    played = play((0.0, 2, 0.0))
    assert {s for s, _ in searched} == {2} and played.positions is not None and len(played.positions) == 0
    played = play(None)
    assert {s for s, _ in searched} == {4} and len(played.positions) == played.decisions


NEW = [
    "--set", "exit.window_games=6", "--set", "exit.max_reuse=2", "--set", "exit.holdout_fraction=0.25",
    "--set", "exit.value_target_q=0.5", "--set", "exit.playout_cap={p: 0.5, small: 2}",
    "--set", "exit.imitation_epochs=2", "--set", "exit.games_per_iteration=4",
]  # fmt: skip


def test_a_tiny_run_with_the_window_holdout_q_and_playout_caps_logs_them_and_resumes_exactly(tmp_path):
    straight = run_exit(tmp_path / "a", *NEW, "--set", "exit.iterations=2")
    history = json.loads((straight / "history.json").read_text())
    assert [row["holdout_rows"] > 0 for row in history] == [True, True, True]
    assert all(len(row["holdout_value_losses"]) >= 2 for row in history)
    assert all(isinstance(row["forced_rows_dropped"], int) for row in history)
    # imitation: 2 passes over the non-held-out rows; each later iteration at most 2 x its new rows
    assert history[0]["rows_trained"] == 2 * (history[0]["positions"] - history[0]["forced_rows_dropped"]
                                              - history[0]["holdout_rows"])  # fmt: skip
    first = run_exit(tmp_path / "b", *NEW)
    resumed = run_exit(tmp_path / "b", *NEW, "--resume", str(first / "checkpoint.pt"), "--set", "exit.iterations=2")
    net_a, _ = load_network(straight / "model.pt")
    net_b, _ = load_network(resumed / "model.pt")
    for (name, a), b in zip(net_a.state_dict().items(), net_b.state_dict().values(), strict=True):
        assert torch.equal(a, b), name
    with pytest.raises(SystemExit):  # a window checkpoint under a config without the window
        run_exit(tmp_path / "c", "--resume", str(first / "checkpoint.pt"), "--set", "exit.iterations=2")
