"""The auxiliary score-margin head (issue 28 item 2, design D3 of the strong-agents study):
each game's ``score_margins`` hook and its target (each seat's final score lead over the hook's
scale, seat-relative like the value targets), the network's head (off by default, saved with the
network, old checkpoints unchanged), the learner's ``margin_weight`` loss and its config key."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

import maya_envs
from maya_envs.bots import make_bot
from maya_envs.core.errors import ConfigError
from maya_envs.core.rng import make_rng
from maya_envs.games import DEFAULT_GAME, GAMES, find_game
from maya_envs.nn.inputs import NetworkInputs
from maya_envs.nn.model import PolicyValueNet, load_network, save_network
from tests.helpers.exit import run_exit, synthetic_positions
from training.config import load_config
from training.exit.data import Positions, margin_targets, value_targets
from training.exit.learner import Learner
from training.exit.play import BotAgent, play_games
from training.exit.replay import gather

PRETRAINED = sorted((Path(maya_envs.__file__).parent / "pretrained").glob("*.pt"))


# -- the target ---------------------------------------------------------------------------------


def test_margin_targets_are_seat_relative_exactly_as_the_value_targets():
    margins = np.array([[0.5, -0.25, -0.25], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [np.nan] * 3], np.float32)
    seats = np.array([0, 1, 2, 1])
    got = margin_targets(margins, seats)
    # seat 1 sees seats (1, 2, 0), seat 2 sees (2, 0, 1); a row without a margin stays NaN
    assert got[:3].tolist() == [[0.5, -0.25, -0.25], [2.0, 3.0, 1.0], [3.0, 1.0, 2.0]]
    assert np.isnan(got[3]).all()
    two = np.array([[0.75, -0.75], [0.75, -0.75]], np.float32)
    assert margin_targets(two, np.array([0, 1])).tolist() == [[0.75, -0.75], [-0.75, 0.75]]
    values = np.array([[1.0, -1.0, 0.0]] * 3, np.float32)
    assert np.array_equal(margin_targets(values, seats[:3]), value_targets(values, seats[:3]))


@pytest.mark.parametrize("key", list(GAMES))
def test_recorded_rows_carry_their_games_final_margins(key):
    game = GAMES[key]
    n = game.player_counts[-1]
    rules = game.make_rules({"num_players": n})
    inputs = NetworkInputs(rules)
    rng = np.random.default_rng(0)
    teacher = BotAgent(rules, make_bot("heuristic", rules, rng), record=True, rng=rng)
    played = play_games(rules, [[teacher] * n] * 2, [11, 12], inputs)
    positions = played.positions
    assert positions.margins.shape == (len(positions), n) and positions.margins.dtype == np.float32
    for g in (0, 1):
        rows = positions.margins[positions.games == g]
        assert (rows == rows[0]).all()  # one game, one final margin per seat
        assert rows[0].sum() == pytest.approx(0.0, abs=1e-5)  # leads over the others' mean (or the other team)
        top = np.flatnonzero(rows[0] == rows[0].max())
        if len(top) == 1:  # a unique best margin wins (a tie goes to the game's tie-breaks)
            assert played.values[g][top[0]] == played.values[g].max()
    # concat with rows recorded before margins were: those rows get NaN
    old = dataclasses.replace(positions.select(np.arange(3)), margins=None)
    joined = Positions.concat([old, positions])
    assert np.isnan(joined.margins[:3]).all() and np.array_equal(joined.margins[3:], positions.margins)
    assert np.array_equal(gather(joined, np.array([3, 4])).margins, positions.margins[:2])


# -- the head -------------------------------------------------------------------------------------


def _net(margin_head=False, residual=False, seed=0, n=3):
    torch.manual_seed(seed)
    return PolicyValueNet(7, 3, 10, n, hidden=16, residual=residual, margin_head=margin_head)


def _batch(b=4, a=5, n=3):
    g = torch.Generator().manual_seed(1)
    return (
        torch.randn(b, 7, generator=g), torch.randint(0, 10, (b, a), generator=g), torch.randn(b, a, 3, generator=g),
        torch.ones(b, a, dtype=torch.bool),
    )  # fmt: skip


def test_head_shapes_and_the_outputs_it_adds():
    net = _net(margin_head=True, residual=True)
    batch = _batch()
    logits, values = net(*batch)
    assert logits.shape == (4, 5) and values.shape == (4, 3)
    _, _, margins = net(*batch, margins=True)
    assert margins.shape == (4, 3) and margins.dtype == torch.float32
    estimate = torch.zeros(4, 3)
    _, _, residual, margins_too = net(*batch, estimate, margins=True)
    assert residual.shape == (4, 3) and torch.equal(margins, margins_too)
    assert net.has_margin and not _net().has_margin
    with pytest.raises(ValueError, match="no score-margin head"):
        _net()(*batch, margins=True)
    with pytest.raises(ValueError, match=r"margin_head='yes'; allowed: True or False"):
        PolicyValueNet(7, 3, 10, 3, margin_head="yes")


def test_the_head_leaves_every_other_layer_as_it_was_under_one_seed():
    plain, with_head = _net().state_dict(), _net(margin_head=True).state_dict()
    assert set(with_head) - set(plain) == {k for k in with_head if k.startswith("margin.")} != set()
    for name, tensor in plain.items():
        assert torch.equal(tensor, with_head[name]), name
    assert "margin_head" not in _net().config and _net(margin_head=True).config["margin_head"] is True


@pytest.mark.parametrize("margin_head", [False, True])
def test_save_and_load_round_trip_with_and_without_the_head(tmp_path, margin_head):
    net = _net(margin_head=margin_head)
    path = save_network(net, tmp_path / "net.pt", {"game": "test"})
    loaded, meta = load_network(path)
    assert meta == {"game": "test"} and loaded.has_margin is margin_head and loaded.config == net.config
    net.eval()
    batch = _batch()
    extra = {"margins": True} if margin_head else {}
    for a, b in zip(net(*batch, **extra), loaded(*batch, **extra), strict=True):
        assert torch.equal(a, b)
    raw = torch.load(path, weights_only=True)
    assert ("margin_head" in raw["config"]) is margin_head  # no head: the file is as before the head


@pytest.mark.parametrize("path", PRETRAINED, ids=[p.stem for p in PRETRAINED])
def test_shipped_networks_load_without_the_head_and_play_as_their_weights_say(tmp_path, path):
    raw = torch.load(path, weights_only=True)
    net, meta = load_network(path)
    assert not net.has_margin and "margin_head" not in raw["config"]
    state = net.state_dict()
    assert set(state) == set(raw["state_dict"])  # every weight of the file, nothing added
    for name, tensor in raw["state_dict"].items():
        assert torch.equal(state[name], tensor), name
    # resaved, the file holds the same network: nothing about the head reaches old networks
    again, _ = load_network(save_network(net, tmp_path / "again.pt", meta))
    rules = find_game(meta["game"]).make_rules(meta.get("game_options") or None)
    inputs = NetworkInputs(rules)
    rng = make_rng(3)
    game_state = rules.initial_state(rng)
    for _ in range(6):  # the first positions of a game: both networks score them bit-identically
        seat = rules.current_player(game_state)
        if seat < 0:
            break
        board, actions, features = inputs.encode(game_state, seat)
        args = (
            torch.tensor(np.asarray(board, np.float32))[None], torch.tensor(np.asarray(actions, np.int64))[None],
            torch.tensor(np.asarray(features, np.float32))[None], torch.ones(1, len(actions), dtype=torch.bool),
        )  # fmt: skip
        with torch.no_grad():
            first, second = net(*args), again(*args)
        for a, b in zip(first, second, strict=True):
            assert torch.equal(a, b)
        game_state = rules.apply_action(game_state, int(actions[int(first[0].argmax())]), rng)


# -- the learner and the config --------------------------------------------------------------------


def _rows(n_rows=8, seed=0, margins=True):
    """Synthetic 2-seat rows (:func:`tests.test_exit_targets._positions`) with random margins."""
    rows = synthetic_positions(list(range(n_rows)))
    rng = np.random.default_rng(seed)
    rows.boards = rng.normal(size=(n_rows, 2)).astype(np.float16)
    lead = rng.normal(size=n_rows).astype(np.float32)
    rows.margins = np.stack([lead, -lead], axis=1) if margins else None
    return rows


def _learner(margin_head: bool, margin_weight: float = 0.0, seed: int = 0) -> Learner:
    torch.manual_seed(seed)
    net = PolicyValueNet(2, 1, 2, 2, hidden=8, margin_head=margin_head)
    return Learner(net, 1e-2, 0.0, 1.0, 4, margin_weight=margin_weight)


def test_margin_weight_zero_trains_exactly_as_before_the_head():
    data = _rows()
    order = [np.arange(len(data))] * 3
    before = _learner(False)  # no head, rows without margins: the trainer before this change
    stats_before = before.fit(dataclasses.replace(data, margins=None), order)
    after = _learner(False)  # no head, rows with margins: margins are not read
    stats_after = after.fit(data, order)
    for (name, a), b in zip(before.net.state_dict().items(), after.net.state_dict().values(), strict=True):
        assert torch.equal(a, b), name
    assert stats_before == stats_after and stats_after.margin_loss is None
    # and the trainer builds no head at the default margin_weight 0
    config = load_config(f"{DEFAULT_GAME.key}/2p_exit")
    assert config.exit.margin_weight == 0 and not config.exit.margin_head()


def test_the_margin_loss_is_added_with_its_weight_and_trains_the_head_through_the_trunk():
    data = _rows()
    batch = gather(data, np.arange(len(data)))
    plain, weighted = _learner(True, 0.0), _learner(True, 0.5)
    total0, policy, value, _ = plain.loss(batch)
    total, *_ = weighted.loss(batch)
    margin = weighted.last_margin_loss
    margins = weighted.net(*[torch.from_numpy(x) for x in (batch.board, batch.actions, batch.features)],
                           torch.from_numpy(batch.valid), margins=True)[-1]  # fmt: skip
    wanted = margin_targets(batch.margins, batch.seats)
    assert margin.item() == pytest.approx(float(((margins.detach().numpy() - wanted) ** 2).mean()), rel=1e-5)
    assert total.item() == pytest.approx(total0.item() + 0.5 * margin.item(), rel=1e-5)
    assert total0.item() == pytest.approx(policy.item() + value.item(), rel=1e-5)  # weight 0: measured only
    weighted.optimizer.zero_grad()
    (weighted.margin_weight * margin).backward()
    assert weighted.net.board[0].weight.grad.abs().sum() > 0  # the margin shapes the shared trunk
    learner = _learner(True, 1.0)
    first = learner.measure_all(data).margin_loss
    learner.fit(data, [np.arange(len(data))] * 40)
    assert learner.measure_all(data).margin_loss < first / 2
    # rows without a margin (NaN, recorded before margins were) count 0
    half = dataclasses.replace(data, margins=data.margins.copy())
    half.margins[4:] = np.nan
    learner.loss(gather(half, np.arange(len(data))))
    partial = learner.last_margin_loss.item()
    learner.loss(gather(data, np.arange(4)))
    assert partial == pytest.approx(learner.last_margin_loss.item(), rel=1e-5)


def test_held_out_checks_and_the_stats_report_the_margin_loss():
    learner = _learner(True, 0.5)
    stats = learner.fit(_rows(), [np.arange(8)] * 4, holdout=_rows(4, seed=1), checks=2, stop="value")
    assert len(stats.holdout_margin_losses) == len(stats.holdout_value_losses) >= 2
    assert all(math.isfinite(x) for x in stats.holdout_margin_losses) and stats.margin_loss > 0
    assert _learner(False).fit(_rows(), [np.arange(8)], holdout=_rows(4, seed=1)).holdout_margin_losses is None


def test_a_head_without_margins_or_a_weight_without_a_head_is_a_clear_error():
    with pytest.raises(ValueError, match="margin_weight=0.5 for a network without the score-margin head"):
        _learner(False, 0.5)
    with pytest.raises(ValueError, match=r"needs rows with the final score margins \(Positions.margins\)"):
        _learner(True, 0.5).loss(gather(_rows(margins=False), np.arange(8)))


@pytest.mark.parametrize("value", ["-0.5", ".nan", ".inf", "'big'", "true", "[1]"])
def test_margin_weight_config_errors_name_the_key_and_what_is_allowed(value):
    with pytest.raises(ConfigError, match=r"exit.margin_weight=.*; allowed: a number in \[0, 1e\+06\]"):
        load_config(f"{DEFAULT_GAME.key}/2p_exit", [f"exit.margin_weight={value}"])


def test_a_tiny_run_with_the_head_logs_its_losses_and_saves_it(tmp_path):
    run = run_exit(
        tmp_path, "--set", "exit.margin_weight=0.5", "--set", "exit.holdout_fraction=0.25",
        "--set", "exit.imitation_games=8", "--set", "exit.games_per_iteration=4",
    )  # fmt: skip
    history = json.loads((run / "history.json").read_text())
    assert all(row["margin_loss"] >= 0 and len(row["holdout_margin_losses"]) >= 2 for row in history)
    assert history[1]["new_games_margin_loss"] >= 0 and "new_games_margin_loss" not in history[0]
    net, _ = load_network(run / "model.pt")
    assert net.has_margin
    with pytest.raises(SystemExit):  # a checkpoint with the head under a config without it
        run_exit(tmp_path / "b", "--resume", str(run / "checkpoint.pt"), "--set", "exit.iterations=2")


def test_the_leaf_error_benchmark_fits_the_head_and_measures_saved_networks(tmp_path, capsys):
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "leaf_errors.py"
    spec = importlib.util.spec_from_file_location("leaf_errors", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--train", "2", "--fresh", "2", "--epochs", "1", "--margin-weight", "0.5"]) == 0
    assert "margin weight 0.5" in capsys.readouterr().out
    rules = DEFAULT_GAME.make_rules({"num_players": 2})
    inputs = NetworkInputs(rules)
    net = PolicyValueNet(inputs.board_dim, inputs.feature_dim, inputs.num_actions, 2, hidden=8, margin_head=True)
    saved = save_network(net, tmp_path / "m.pt", inputs.meta({"num_players": 2}))
    assert bench.main(["--fresh", "2", "--models", str(saved)]) == 0
    last = capsys.readouterr().out.splitlines()[-1].split("|")[1:-1]
    assert last[0].strip() == f"{saved} (fresh games)" and last[4].strip() == "-"  # no residual head
    assert all(0 <= float(x) <= 4 for i, x in enumerate(last[1:]) if i != 3)
