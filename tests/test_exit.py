"""Expert iteration (``algo: exit``, training/exit/): the lock-step game loop, the replay
buffer's batches, the value targets, gating, a tiny run end to end (its ``model.pt`` plays as
``policy:`` and ``az:`` opponents with no illegal action), resume, and the config's errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from maya_envs.bots.base import make_bot
from maya_envs.core.errors import ConfigError
from maya_envs.evaluation import play_match
from maya_envs.games import DEFAULT_GAME, GAMES
from maya_envs.nn.inputs import NetworkInputs, to_seat_relative
from maya_envs.nn.model import load_network
from tests.conformance import CONFIGS, first_game, shipped_config, turn_cap
from tests.helpers.exit import EXIT, run_exit
from training.config import load_config
from training.exit.data import Recorder
from training.exit.gating import fair_share, match_lineups, score_match
from training.exit.learner import value_targets
from training.exit.loop import opponent_lineups
from training.exit.play import BotAgent, Positions, play_games
from training.exit.replay import ReplayBuffer, gather
from training.train import main

ROOT = Path(__file__).resolve().parent.parent
EXIT_PLAYERS = load_config(EXIT).game_options["num_players"]


@pytest.fixture(scope="module")
def rules():
    return first_game("two players", lambda g: 2 in g.player_counts).make_rules({"num_players": 2})


def test_teacher_games_record_the_bots_choice_and_the_final_values(rules):
    inputs = NetworkInputs(rules)
    teacher = BotAgent(rules, make_bot("heuristic", rules, 0), record=True)
    played = play_games(rules, [[teacher, teacher]] * 3, [1, 2, 3], inputs, in_flight=2)
    data = played.positions
    assert len(data) == played.decisions > 0  # every decision recorded
    assert data.offsets[-1] == len(data.actions) == len(data.policies) == len(data.features)
    for row in range(0, len(data), 17):  # the heuristic's choice from the same position is the one-hot
        a, b = data.offsets[row], data.offsets[row + 1]
        assert data.policies[a:b].sum() == pytest.approx(1.0) and data.policies[a:b].max() == 1.0
    # the heuristic bot is deterministic given its seed, so replaying a game reproduces its values
    again = play_games(rules, [[teacher, teacher]] * 3, [1, 2, 3], inputs, in_flight=3)
    assert set(np.abs(played.values).ravel()) <= {0.0, 1.0}
    assert (played.values.sum(axis=1) == 0).all()  # two-player zero-sum results
    assert again.values.shape == played.values.shape


def test_the_recorder_stores_rows_at_the_positions_dtypes_as_it_records(rules):
    """Rows are float16 from the moment they are recorded (float32 rows held until the games
    ended cost about 2.5x the final arrays: 16 GB for 2,000 quarry 5p imitation games), and the
    positions equal the encoded inputs rounded to float16."""
    inputs = NetworkInputs(rules)
    recorder = Recorder(inputs, 2, inputs.feature_dim, inputs.board_dim)
    state = rules.initial_state(np.random.default_rng(7))
    seat, legal = rules.current_player(state), rules.legal_actions(state)
    recorder.add(0, state, seat, np.full(len(legal), 1 / len(legal), np.float32))
    assert recorder.boards.array.dtype == recorder.features.array.dtype == np.float16
    data = recorder.positions({0: np.zeros(2)})
    expected_board, _, expected_features = inputs.encode(state, seat)
    np.testing.assert_array_equal(data.boards[0], expected_board.astype(np.float16))
    np.testing.assert_array_equal(data.features, expected_features.astype(np.float16))


def test_heuristic_beats_random_in_lock_step_with_seats_rotated(rules):
    heuristic = BotAgent(rules, make_bot("heuristic", rules, 0))
    random = BotAgent(rules, make_bot("random", rules, 1))
    lineups = [[heuristic, random] if g % 2 == 0 else [random, heuristic] for g in range(12)]
    played = play_games(rules, lineups, list(range(12)), in_flight=5)
    match = score_match("random", played.values, fair_share(2, ()))
    assert match.games == 12 and match.win_rate > 0.8
    assert match_lineups("a", "b", 3, 2) == [["a", "b"], ["b", "a"], ["a", "b"]]
    result = match.match_result("heuristic", played.values)
    assert result.games_per_seat == [6, 6] and result.wins + result.draws + result.losses == 12


def test_gating_fair_share_and_parity():
    assert fair_share(4, ((0, 2), (1, 3))) == 0.5 and fair_share(3, ()) == pytest.approx(1 / 3)
    values = np.array([[1.0, -1.0, -1.0], [-1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]])  # candidate seats 0, 1, 2
    match = score_match("heuristic", values, 1 / 3)
    assert (match.wins, match.draws, match.games) == (2, 0, 3)
    assert match.parity_score == pytest.approx((2 / 3) / (2 / 3))


def test_replay_batches_pad_ragged_rows_and_keep_the_last_iterations():
    def chunk(lengths, mark):
        offsets = np.concatenate([[0], np.cumsum(lengths)])
        total = int(offsets[-1])
        return Positions(
            boards=np.full((len(lengths), 2), mark, np.float16),
            actions=np.arange(total, dtype=np.int64) + 10 * mark,
            features=np.arange(total, dtype=np.float16)[:, None],
            policies=np.full(total, 0.5, np.float32),
            offsets=offsets,
            seats=np.arange(len(lengths)) % 2,
            values=np.tile([[1.0, -1.0]], (len(lengths), 1)).astype(np.float32),
        )

    buffer = ReplayBuffer(2)
    for mark in (1, 2, 3):
        buffer.add(chunk([2, 3, 1], mark))
    assert len(buffer) == 6 and set(buffer.positions.boards[:, 0]) == {2.0, 3.0}  # iteration 1 left
    batch = gather(buffer.positions, np.array([4, 1]))
    assert batch.valid.tolist() == [[True, True, True], [True, True, True]]
    assert batch.actions[0].tolist() == [32, 33, 34] and batch.actions[1].tolist() == [22, 23, 24]
    batch = gather(buffer.positions, np.array([5, 3]))
    assert batch.valid.tolist() == [[True, False], [True, True]]
    assert batch.actions[0].tolist() == [35, 0] and batch.policy[0].tolist() == [0.5, 0.0]
    assert batch.actions[1].tolist() == [30, 31]
    assert batch.features.shape == (2, 2, 1) and batch.features[0, 1, 0] == 0
    seen = sorted(int(r) for b in buffer.batches(4, np.random.default_rng(0)) for r in b.actions[:, 0])
    assert seen == [20, 22, 25, 30, 32, 35]  # one pass: every kept row once


def test_value_targets_are_seat_relative():
    values = np.array([[0.1, 0.2, 0.3], [0.1, 0.2, 0.3], [0.1, 0.2, 0.3]], np.float32)
    seats = np.array([0, 1, 2])
    expected = np.stack([to_seat_relative(v, s) for v, s in zip(values, seats, strict=True)])
    assert np.array_equal(value_targets(values, seats), expected)
    assert value_targets(values, seats)[2].tolist() == pytest.approx([0.3, 0.1, 0.2])


def test_measuring_unseen_games_reports_their_losses_and_learns_nothing(rules):
    from maya_envs.nn.model import PolicyValueNet
    from training.exit.learner import Learner

    inputs = NetworkInputs(rules)
    teacher = BotAgent(rules, make_bot("heuristic", rules, 0), record=True)
    data = play_games(rules, [[teacher, teacher]] * 2, [4, 5], inputs, in_flight=2).positions
    torch.manual_seed(0)
    net = PolicyValueNet(inputs.board_dim, inputs.feature_dim, inputs.num_actions, num_values=2, hidden=16)
    learner = Learner(net, 1e-3, 0.0, 1.0, batch_size=7)  # several ragged minibatches
    before = {k: v.clone() for k, v in net.state_dict().items()}
    policy_loss, value_loss = learner.measure(data)
    assert all(torch.equal(before[k], v) for k, v in net.state_dict().items())
    _, whole_policy, whole_value, _ = learner.loss(gather(data, np.arange(len(data))))
    assert policy_loss == pytest.approx(whole_policy.item(), rel=1e-5)
    assert value_loss == pytest.approx(whole_value.item(), rel=1e-5)


def test_a_tiny_run_writes_a_model_that_plays_as_policy_and_az(tmp_path):
    run_dir = run_exit(tmp_path)
    for name in ("config.yaml", "checkpoint.pt", "history.json", "learning_curve.png", "evaluation.json"):
        assert (run_dir / name).is_file(), name
    assert any((run_dir / "tb").iterdir()) and (run_dir / "networks" / "iter_0000.pt").is_file()
    history = json.loads((run_dir / "history.json").read_text())
    assert [row["iteration"] for row in history] == [0, 1]
    assert "last kept" in history[1]["gates"] and history[0]["positions"] > 0
    assert history[1]["new_games_value_loss"] >= 0 and "new_games_value_loss" not in history[0]
    results = json.loads((run_dir / "evaluation.json").read_text())["results"]
    assert [(r["candidate"], r["opponent"]) for r in results] == [
        ("exit (raw)", "random"), ("exit (raw)", "heuristic"), ("exit (+2 sims, leaf=hook)", "random"),
        ("exit (+2 sims, leaf=hook)", "heuristic"),
    ]  # fmt: skip
    net, meta = load_network(run_dir / "model.pt")
    assert meta["game"] == DEFAULT_GAME.key and meta["num_players"] == EXIT_PLAYERS and meta["trainer"] == "exit"
    # exit.leaf_value auto: the leaf is chosen on the new games' own-seat errors and recorded
    assert {"new_games_value_mse_net", "new_games_value_mse_hook", "new_games_value_mse_mix"} <= set(history[1])
    assert meta["leaf_value"] == history[1]["leaf_value"] in ("net", "hook", "mix", "residual")
    assert "new_games_value_mse_residual" in history[1] and net.has_residual  # auto measures the residual head
    options = {"num_players": EXIT_PLAYERS, **turn_cap(DEFAULT_GAME, 16)}
    for spec in (f"policy:{run_dir / 'model.pt'}", f"az:{run_dir / 'model.pt'}:4"):
        result = play_match(lambda: DEFAULT_GAME.make_aec_env(**options), spec, "random", 2, seed=3)
        assert result.games == 2 and result.illegal_actions == 0


def test_eval_games_0_ends_an_exit_run_without_an_evaluation(tmp_path):
    from training.evaluate import NO_EVALUATION

    run_dir = run_exit(tmp_path, "--set", "exit.iterations=0", "--set", "eval_games=0")
    evaluation = json.loads((run_dir / "evaluation.json").read_text())
    assert evaluation["results"] == [] and evaluation["evaluation"] == NO_EVALUATION
    assert evaluation["iterations"] == 0 and evaluation["positions"] > 0 and (run_dir / "model.pt").is_file()


def test_a_refit_with_the_runs_seed_repeats_its_network_and_other_seeds_learn_the_same_rows(tmp_path, capsys):
    from training.exit import refit

    run_dir = run_exit(tmp_path / "run", "--set", "exit.iterations=0", "--set", "eval_games=0")
    same, other = refit.refit(run_dir, [1, 5])  # the run's config has seed 1
    assert same == run_dir / refit.REFITS / "seed_1.pt" and other.name == "seed_5.pt"
    original, meta = load_network(run_dir / "model.pt")
    repeated, repeated_meta = load_network(same)
    for (name, a), b in zip(original.state_dict().items(), repeated.state_dict().values(), strict=True):
        assert torch.equal(a, b), name
    assert repeated_meta["seed"] == 1 and repeated_meta["refit_of"] == str(run_dir)
    assert {k: v for k, v in repeated_meta.items() if k not in ("seed", "refit_of")} == meta
    reseeded, _ = load_network(other)
    assert not torch.equal(reseeded.state_dict()["board.0.weight"], original.state_dict()["board.0.weight"])
    # a run past iteration 0 holds later rows too: refused, as are a missing run and a bad seed
    later = run_exit(tmp_path / "later", "--set", "exit.eval_simulations=0", "--set", "eval_games=0")
    assert refit.main([str(later), "--seeds", "2"]) == 2
    assert "at iteration 1; a refit needs a run stopped after iteration 0" in capsys.readouterr().err
    assert refit.main([str(tmp_path / "none"), "--seeds", "2"]) == 2
    assert "config.yaml' not found: a refit needs an expert-iteration run" in capsys.readouterr().err
    with pytest.raises(ValueError, match="seed=-1; allowed: an int >= 0"):
        refit.refit(run_dir, [-1])


def test_a_refit_sweep_changes_only_learning_settings_and_keeps_its_networks_apart(tmp_path, capsys):
    from training.exit import refit

    run_dir = run_exit(tmp_path / "run", "--set", "exit.iterations=0", "--set", "eval_games=0")
    (swept,) = refit.refit(run_dir, [1], ["exit.imitation_epochs=3"], tag="epochs3")
    assert swept == run_dir / refit.REFITS / "epochs3" / "seed_1.pt"
    original, meta = load_network(run_dir / "model.pt")
    learned, swept_meta = load_network(swept)
    assert swept_meta["overrides"] == ["exit.imitation_epochs=3"] and swept_meta["seed"] == 1
    # the run's own seed with more passes is another network (the run took 1: a refit without --set repeats it)
    assert not torch.equal(learned.state_dict()["board.0.weight"], original.state_dict()["board.0.weight"])
    assert not (run_dir / refit.REFITS / "seed_1.pt").exists()
    # a key that would have changed the games, a bad value, a missing or odd tag: refused by name
    with pytest.raises(ValueError, match="'exit.imitation_games=5'.*allowed keys: learning_rate"):
        refit.refit(run_dir, [1], ["exit.imitation_games=5"], tag="more")
    with pytest.raises(ValueError, match="imitation_epochs"):
        refit.refit(run_dir, [1], ["exit.imitation_epochs=0"], tag="zero")
    with pytest.raises(ValueError, match="override 'learning_rate' must look like key=value"):
        refit.refit(run_dir, [1], ["learning_rate"], tag="bare")
    with pytest.raises(ValueError, match="--set and --tag go together"):
        refit.refit(run_dir, [1], ["learning_rate=0.01"])
    with pytest.raises(ValueError, match="--set and --tag go together"):
        refit.refit(run_dir, [1], [], tag="lonely")
    assert refit.main([str(run_dir), "--seeds", "1", "--set", "batch_size=64", "--tag", "../up"]) == 2
    assert "--tag '../up'; allowed: letters, digits" in capsys.readouterr().err
    assert not (run_dir / "up").exists()


def test_opponent_lineups_seat_the_learner_and_fall_back_to_self_play():
    lineups = opponent_lineups(["self", "heuristic", "older", "random"], 3, ["older0"])
    assert lineups == [
        ["learner"] * 3,
        ["bot:heuristic", "learner", "bot:heuristic"],
        ["search:older0", "search:older0", "learner"],
        ["learner", "bot:random", "bot:random"],
    ]
    assert opponent_lineups(["older"], 2, []) == [["learner", "learner"]]  # no older network yet


def test_resume_continues_to_the_same_network_as_an_uninterrupted_run(tmp_path):
    mix = ["--set", "exit.eval_simulations=0", "--set", "exit.opponents={self: 1, heuristic: 1, older: 1}"]
    straight = run_exit(tmp_path / "a", "--set", "exit.iterations=2", *mix)
    first = run_exit(tmp_path / "b", *mix)
    resumed = run_exit(tmp_path / "b", "--resume", str(first / "checkpoint.pt"), "--set", "exit.iterations=2", *mix)
    assert [row["iteration"] for row in json.loads((resumed / "history.json").read_text())] == [0, 1, 2]
    net_a, _ = load_network(straight / "model.pt")
    net_b, _ = load_network(resumed / "model.pt")
    for (name, a), b in zip(net_a.state_dict().items(), net_b.state_dict().values(), strict=True):
        assert torch.equal(a, b), name


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_player_count_and_variant_has_an_exit_config(key):
    """``<n>p_exit`` for every player count, or ``<n>p_<variant>_exit`` for every variant."""
    game = GAMES[key]
    for n in game.player_counts:
        if (CONFIGS / key / f"{n}p_exit.yaml").is_file():
            expected = {f"{key}/{n}p_exit": {"num_players": n}}
        else:
            variants = game.hook("variants")
            expected = {f"{key}/{n}p_{v}_exit": {"num_players": n, game.variant_option: v} for v in variants}
        for name, options in expected.items():
            config = load_config(name)
            assert config.algo == "exit" and config.env_id == game.gym_id, name
            assert config.game_options == options, name


def test_the_exit_block_needs_algo_exit_and_bad_search_settings_fail_before_a_run(tmp_path, capsys):
    with pytest.raises(ConfigError, match="the exit block needs algo: exit"):
        load_config(shipped_config(DEFAULT_GAME, "quick"), ["exit.iterations=3"])
    with pytest.raises(SystemExit):
        main(
            [
                "--config",
                EXIT,
                "--set",
                "exit.search={selection: best}",
                "--set",
                f"output_dir={tmp_path}",
            ]
        )
    assert "selection='best'" in capsys.readouterr().err and not any(tmp_path.iterdir())


def test_selection_picks_the_best_pooled_score_of_given_match_results():
    from training.exit.selection import pooled_score, select_best

    def row(wins, draws, games):
        return {"wins": wins, "draws": draws, "games": games}

    results = {
        "iter_0005": [row(120, 10, 200), row(40, 0, 200)],  # (125 + 40) / 400 = 0.4125
        "iter_0004": [row(150, 0, 200), row(30, 20, 200)],  # (150 + 40) / 400 = 0.475
        "iter_0003": [row(95, 0, 200)],  # 0.475 on fewer games: the tie goes to iter_0004
    }
    best, summary = select_best(results)
    assert best == "iter_0004" and summary["iter_0005"]["score"] == pytest.approx(0.4125)
    low, high = summary["iter_0004"]["ci95"]
    assert low < 0.475 < high and summary["iter_0004"]["games"] == 400
    assert select_best({"a": [row(1, 0, 2)], "b": [row(1, 0, 2)]})[0] == "a"  # a full tie: the first named
    assert pooled_score([row(3, 2, 10)]) == (0.4, 10)
    with pytest.raises(ValueError, match="at least one candidate"):
        select_best({})
    with pytest.raises(ValueError, match="no games to score"):
        select_best({"a": []})


def test_value_targets_mix_the_outcome_with_the_leaf_estimate_seat_relative():
    from training.exit.data import mixed_value_targets

    values = np.array([[1.0, -1.0, -1.0], [1.0, -1.0, -1.0]], np.float32)
    hooks = np.array([[0.5, 0.0, -0.5], [0.5, 0.0, -0.5]], np.float32)
    seats = np.array([0, 2])
    mixed = mixed_value_targets(values, seats, hooks, 0.5)
    # seat 0 sees (me, next, next-but-one) = seats (0, 1, 2); seat 2 sees seats (2, 0, 1)
    assert mixed[0].tolist() == pytest.approx([0.75, -0.5, -0.75])
    assert mixed[1].tolist() == pytest.approx([-0.75, 0.75, -0.5])
    assert np.array_equal(mixed_value_targets(values, seats, hooks, 0.0), value_targets(values, seats))
    assert np.array_equal(mixed_value_targets(values, seats, None, 0.5), value_targets(values, seats))
    with pytest.raises(ConfigError, match=r"exit.value_target_hook=2; allowed: a number in \[0, 1\]"):
        load_config(EXIT, ["exit.value_target_hook=2"])
