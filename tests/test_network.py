"""The policy-value network (maya_envs.nn): inputs and their batch, the model's shapes and
masking, save/load, the evaluator (one forward pass per call, seat-relative values), the
``policy:``/``az:`` bot specs in gym.make, the arena and maya-play with no illegal action,
shipped-network registry entries, and the message when torch is missing."""

from __future__ import annotations

import json
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import maya_envs  # noqa: E402,F401  (registers the gymnasium ids)
from maya_envs import pretrained  # noqa: E402
from maya_envs.bots import make_bot  # noqa: E402
from maya_envs.bots.guided import AZBot, search_many  # noqa: E402
from maya_envs.games import DEFAULT_GAME, GAMES  # noqa: E402
from maya_envs.nn.agent import NetworkBot, NetworkEvaluator  # noqa: E402
from maya_envs.nn.inputs import NetworkInputs, collate, to_absolute, to_seat_relative  # noqa: E402
from maya_envs.nn.model import PolicyValueNet, load_network, save_network  # noqa: E402
from tests.conformance import FIRST_HIDDEN_CASES, case_id, shipped_config, turn_cap  # noqa: E402

#: Each game at its smallest player count, ``(key, num_players)``: the tiny networks' games.
SMALLEST = [(key, game.player_counts[0]) for key, game in GAMES.items()]


def quick(key) -> dict:
    """Game options of the games played here: a random network seldom ends a game with a turn cap
    on its own, so its games are cut at 12 turns (a cap the rules end the game at)."""
    return turn_cap(GAMES[key], 12)


def _rules(key, n):
    return GAMES[key].make_rules({"num_players": n, **quick(key)})


#: The first of them with hidden information (a determinize hook), and with chance.
HIDDEN = next((key, n) for key, n in SMALLEST if _rules(key, n).spec.information != "perfect")
CHANCE = next((key, n) for key, n in SMALLEST if _rules(key, n).spec.chance)
#: The default game at its smallest player count.
DEFAULT = (DEFAULT_GAME.key, DEFAULT_GAME.player_counts[0])


def _tiny_net(inputs, seed=0):
    torch.manual_seed(seed)
    return PolicyValueNet(inputs.board_dim, inputs.feature_dim, inputs.num_actions, inputs.num_players, hidden=16)


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    """A tiny randomly initialised network per game, saved: ``{(key, n): path}``."""
    root = tmp_path_factory.mktemp("nets")
    paths = {}
    for key, n in SMALLEST:
        inputs = NetworkInputs(_rules(key, n))
        meta = inputs.meta({"num_players": n, **quick(key)})
        paths[key, n] = save_network(_tiny_net(inputs), root / f"{key}_{n}p.pt", meta)
    return paths


def _midgame(rules, steps, seed=0):
    rng = np.random.default_rng(seed)
    state = rules.initial_state(rng)
    for _ in range(steps):
        legal = rules.legal_actions(state)
        state = rules.apply_action(state, legal[int(rng.integers(len(legal)))], rng)
    return state


@pytest.mark.parametrize(("key", "n"), SMALLEST)
def test_inputs_encode_and_collate_shapes(key, n):
    rules = _rules(key, n)
    inputs = NetworkInputs(rules)
    states = [_midgame(rules, k) for k in (0, 3, 7)]
    items = [inputs.encode(s, rules.current_player(s)) for s in states]
    for state, (board, actions, features) in zip(states, items, strict=True):
        assert board.shape == (inputs.board_dim,) and board.dtype == np.float32
        assert actions.dtype == np.int64 and list(actions) == list(rules.legal_actions(state))
        assert features.shape == (len(actions), inputs.feature_dim) and features.dtype == np.float32
        assert np.isfinite(features).all()
    board, actions, features, valid = collate(items)
    amax = max(len(a) for _, a, _ in items)
    assert board.shape == (3, inputs.board_dim) and actions.shape == valid.shape == (3, amax)
    assert features.shape == (3, amax, inputs.feature_dim)
    for i, (_, ids, rows) in enumerate(items):
        assert valid[i].sum() == len(ids) and (actions[i, : len(ids)] == ids).all()
        assert (features[i, : len(ids)] == rows).all() and not features[i, len(ids) :].any()
    with pytest.raises(ValueError, match="empty"):
        collate([])


def test_seat_relative_values_round_trip():
    values = np.array([0.1, 0.2, 0.3, 0.4])
    assert list(to_seat_relative(values, 1)) == [0.2, 0.3, 0.4, 0.1]  # entry 0 is "me"
    for seat in range(4):
        assert (to_absolute(to_seat_relative(values, seat), seat) == values).all()


def test_model_masks_padding_and_bounds_values():
    net = PolicyValueNet(board_dim=5, feature_dim=2, num_actions=7, num_values=3, hidden=8)
    board = torch.randn(2, 5)
    actions = torch.tensor([[1, 4, 6], [2, 0, 0]])
    features = torch.randn(2, 3, 2)
    valid = torch.tensor([[True, True, True], [True, False, False]])
    logits, values = net(board, actions, features, valid)
    assert logits.shape == (2, 3) and values.shape == (2, 3)
    assert torch.isinf(logits[1, 1:]).all() and torch.isfinite(logits[0]).all()
    assert (values.abs() <= 1).all()
    # The per-id bias moves only that id's logit.
    with torch.no_grad():
        net.bias.weight[4] += 2.0
    after, _ = net(board, actions, features, valid)
    assert torch.allclose(after[0] - logits[0], torch.tensor([0.0, 2.0, 0.0]))
    with pytest.raises(ValueError, match="hidden=0"):
        PolicyValueNet(5, 2, 7, 3, hidden=0)


def test_save_and_load_round_trip(tmp_path):
    key, n = CHANCE
    inputs = NetworkInputs(_rules(key, n))
    net = _tiny_net(inputs)
    path = save_network(net, tmp_path / "net.pt", inputs.meta({"num_players": n}))
    loaded, meta = load_network(path)
    assert meta["game"] == key and meta["feature_names"] == list(inputs.feature_names)
    assert meta["board_dim"] == inputs.board_dim and meta["num_players"] == n
    for a, b in zip(net.state_dict().values(), loaded.state_dict().values(), strict=True):
        assert torch.equal(a, b)
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="is not a maya_envs network checkpoint"):
        load_network(tmp_path / "junk.pt")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_network(tmp_path / "missing.pt")


def test_evaluator_is_one_forward_pass_per_call_with_absolute_values():
    key, n = HIDDEN
    rules = _rules(key, n)
    inputs = NetworkInputs(rules)
    net = _tiny_net(inputs)
    forwards = []
    net.register_forward_hook(lambda module, args, output: forwards.append(args[0].shape[0]))
    evaluator = NetworkEvaluator(net, inputs)
    states = [_midgame(rules, k, seed=k) for k in (1, 5, 9, 13)]
    seats = [rules.current_player(s) for s in states]
    priors, values = evaluator(states, seats)
    assert forwards == [4] and evaluator.calls == 1 and evaluator.positions == 4
    assert values.shape == (4, n) and values.dtype == np.float32
    for state, seat, prior, value in zip(states, seats, priors, values, strict=True):
        assert prior.shape == (len(rules.legal_actions(state)),) and prior.sum() == pytest.approx(1, abs=1e-5)
        _, single = evaluator([state], [seat])  # absolute order: the net's entry 0 is the seat's own
        np.testing.assert_allclose(single[0], value, atol=1e-6)
        with torch.no_grad():
            board, actions, features, valid = (torch.from_numpy(x) for x in collate([inputs.encode(state, seat)]))
            raw = net(board, actions, features, valid)[1][0].numpy()
        np.testing.assert_allclose(value[seat], raw[0], atol=1e-6)
    # The guided search asks it once for the roots and once per simulation round.
    search_many(rules, states, seats, evaluator, rng=0)
    assert evaluator.calls == 1 + 4 + 1 + 32
    with pytest.raises(ValueError, match="built for"):
        NetworkEvaluator(net, NetworkInputs(_rules(key, GAMES[key].player_counts[1])))


def test_network_bot_plays_the_highest_prior(checkpoints):
    rules = _rules(*CHANCE)
    net, _ = load_network(checkpoints[CHANCE])
    bot = NetworkBot(rules, net)
    state = _midgame(rules, 5)
    priors, _ = bot.evaluator([state], [rules.current_player(state)])
    assert bot.act(state) == rules.legal_actions(state)[int(np.argmax(priors[0]))]
    sampled = {NetworkBot(rules, net, seed=s, deterministic=False).act(state) for s in range(8)}
    assert sampled <= set(rules.legal_actions(state))


@pytest.mark.parametrize(("key", "n"), SMALLEST)
def test_policy_and_az_specs_play_whole_games_in_gym_make(checkpoints, key, n):
    path = checkpoints[key, n]
    options = {"num_players": n, **quick(key)}
    env = gym.make(GAMES[key].gym_id, **options, opponents=[f"az:{path}:2", f"policy:{path}"][: n - 1])
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert info["end"] != "illegal_action"
    env.close()


def test_specs_in_maya_arena_and_maya_play(checkpoints, tmp_path, capsys):
    from maya_envs.cli.play import main as play_main
    from training.arena import main as arena_main

    key, n = DEFAULT
    path = checkpoints[DEFAULT]
    options = [arg for k, v in quick(key).items() for arg in ("--option", f"{k}={v}")]
    out = tmp_path / "arena"
    assert (
        arena_main(
            [
                "--env",
                key,
                *options,
                "--agents",
                f"az:{path}:2",
                f"policy:{path}",
                "--games",
                "2",
            ]
            + ["--out", str(out), "--no-plot", "--seed", "1"]
        )
        == 0
    )
    summary = json.loads((out / "arena.json").read_text())
    assert [(a["games"], a["illegal_actions"]) for a in summary["agents"]] == [(2, 0), (2, 0)]
    record = tmp_path / "game.jsonl"
    assert (
        play_main(
            ["--game", key, *options, "--seats", f"policy:{path},az:{path}:2", "--seed", "3"]
            + ["--record", str(record)]
        )
        == 0
    )
    from maya_envs.records import load_record

    assert load_record(record).end is not None


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("policy:", "expected policy:<model>"),
        ("policy:missing.pt", "'missing.pt' does not exist"),
        ("az:champion", "neither a .pt checkpoint nor a shipped network"),
        ("az:{other}", "does not fit this game"),
    ],
)
def test_bad_network_specs_are_clear_value_errors(checkpoints, spec, message):
    other = next(case for case in SMALLEST if case[0] != DEFAULT[0])  # another game's network
    spec = spec.format(other=checkpoints[other])
    with pytest.raises(ValueError, match=message):
        make_bot(spec, _rules(*DEFAULT), 0)


def test_a_published_network_works_as_pretrained_and_as_a_model_name(checkpoints, monkeypatch, tmp_path):
    from training.publish import publish

    run_dir, package = tmp_path / "run", tmp_path / "package"
    run_dir.mkdir(), package.mkdir()
    key, n = HIDDEN
    game, name = GAMES[key], f"tiny_{key}"
    (run_dir / "model.pt").write_bytes(checkpoints[HIDDEN].read_bytes())
    options = {"num_players": n}
    (run_dir / "config.yaml").write_text(json.dumps({"env_id": game.gym_id, "game_options": options}))
    row = {"candidate": "net", "opponent": "heuristic", "games": 4, "wins": 1, "draws": 0, "losses": 3}
    row |= {"win_rate": 0.25, "win_rate_ci95": [0.05, 0.7], "seat_wins": [1] + [0] * (n - 1)}
    (run_dir / "evaluation.json").write_text(json.dumps({"results": [row], "train_seconds": 12.34, "positions": 99}))
    entry = publish(run_dir, name, shipped_config(game, "exit"), package_dir=package)
    assert json.loads((package / "registry.json").read_text()) == {name: entry}
    assert (package / f"{name}.pt").read_bytes() == (run_dir / "model.pt").read_bytes()
    assert entry["kind"] == "network" and entry["game"] == game.name and entry["num_players"] == n
    assert entry["total_timesteps"] == 99 and entry["train_seconds"] == 12.3 and "seat_wins" not in entry["results"][0]
    # As shipped: the package folder's file (made absolute here; it joins the package folder as itself).
    fields = {**entry, "file": str(package / entry["file"]), "observation_shape": tuple(entry["observation_shape"])}
    info = pretrained.PretrainedInfo(name=name, **fields)
    registry = {**pretrained._registry(), name: info}
    monkeypatch.setattr(pretrained, "_registry", lambda: registry)
    assert pretrained.network_names()[-1] == name  # after the shipped networks, if any
    env = gym.make(game.gym_id, num_players=n, opponents=f"pretrained:{name}")
    assert isinstance(env.unwrapped.opponents[0]._bot, NetworkBot)
    _, info_ = env.reset(seed=1)
    done = False
    while not done:
        _, _, terminated, truncated, info_ = env.step(int(np.flatnonzero(info_["action_mask"])[0]))
        done = terminated or truncated
    env.close()
    rules = _rules(key, n)
    assert isinstance(make_bot(f"az:{name}:2", rules, 0), AZBot)
    assert isinstance(make_bot("pretrained" and f"policy:{name}", rules, 0), NetworkBot)
    with pytest.raises(ValueError, match=f"play it as the bot 'policy:{name}'"):
        pretrained.load_pretrained(name)


def test_publish_takes_another_network_of_the_run_its_match_rows_and_a_default_spec(checkpoints, tmp_path, capsys):
    """``python -m training.publish RUN --model F --matches M --default-spec S``: a refit seed or
    a kept iteration of the run ships with the rows ``training.exit.match --out`` measured."""
    from training.publish import main as publish_main
    from training.publish import publish_network

    run_dir, package = tmp_path / "run", tmp_path / "package"
    (run_dir / "refits").mkdir(parents=True), package.mkdir()
    key, n = DEFAULT
    game = GAMES[key]
    net, meta = load_network(checkpoints[DEFAULT])
    save_network(net, run_dir / "refits" / "seed_7.pt", {**meta, "seed": 7})
    (run_dir / "model.pt").write_bytes(checkpoints[DEFAULT].read_bytes())
    (run_dir / "config.yaml").write_text(json.dumps({"env_id": game.gym_id, "game_options": {"num_players": n}}))
    (run_dir / "evaluation.json").write_text(json.dumps({"results": [], "train_seconds": 5.0, "positions": 99}))
    raw = {"network": "x.pt", "simulations": 0, "leaf": None, "search": None, "pair": False, "opponent": "heuristic"}
    raw |= {"games": 400, "wins": 250, "draws": 14, "win_rate": 0.6425, "win_rate_ci95": [0.59, 0.69]}
    raw |= {"win_rate_convention": "draws_half", "fair_share": 0.5, "seconds": 28.0}
    searched = {**raw, "simulations": 48, "leaf": "hook", "search": "c_scale=0.3", "pair": True}
    (tmp_path / "match.json").write_text(json.dumps([raw, searched]))
    entry = publish_network(
        run_dir, "tiny", shipped_config(game, "exit"), package, run_dir / "refits" / "seed_7.pt", [raw, searched],
        "policy:tiny",
    )  # fmt: skip
    assert json.loads((package / "registry.json").read_text()) == {"tiny": entry}
    assert (package / "tiny.pt").read_bytes() == (run_dir / "refits" / "seed_7.pt").read_bytes()
    assert entry["seed"] == 7 and entry["default_spec"] == "policy:tiny" and entry["total_timesteps"] == 99
    common = {"opponent": "heuristic", "games": 400, "wins": 250, "draws": 14, "losses": 136, "win_rate": 0.6425}
    common |= {"win_rate_ci95": [0.59, 0.69], "win_rate_convention": "draws_half"}
    assert entry["results"] == [
        {"candidate": "tiny (raw)", **common}, {"candidate": "tiny (+48 sims, leaf=hook, c_scale=0.3) (pair)", **common}
    ]
    # the command line: match files that cannot be read or hold other rows are refused, naming them
    args = [str(run_dir), "--name", "tiny", "--config", shipped_config(game, "exit"), "--matches"]
    (tmp_path / "bad.json").write_text(json.dumps([{"opponent": "heuristic"}]))
    refusals = (("bad.json", "a match row without ['simulations', 'games'"), ("missing.json", "missing.json"))
    for path, message in refusals:
        with pytest.raises(SystemExit):
            publish_main([*args, str(tmp_path / path)])
        assert message in capsys.readouterr().err
    with pytest.raises(ValueError, match="default_spec=''; allowed: an agent spec such as 'policy:tiny'"):
        publish_network(run_dir, "tiny", "x", package, default_spec="")


def test_without_torch_a_network_spec_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    with pytest.raises(ImportError, match=r"needs torch, from the train extra: pip install 'maya-envs\[train\]'"):
        make_bot("az:net.pt:8", _rules(*DEFAULT), 0)


def test_importing_the_package_and_the_bots_imports_no_torch():
    code = "import sys, maya_envs, maya_envs.bots, maya_envs.nn, maya_envs.bots.guided; print('torch' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


def test_training_configs_take_network_specs_as_opponents(checkpoints):
    from maya_envs.core.errors import ConfigError
    from training.config import load_config

    path = checkpoints[DEFAULT]
    quick_config = shipped_config(DEFAULT_GAME, "quick")  # its smallest player count, as DEFAULT
    config = load_config(quick_config, [f"opponents={{'az:{path}:4': 1.0}}", f"eval_opponents=['policy:{path}']"])
    assert list(config.opponents) == [f"az:{path}:4"] and config.eval_opponents == [f"policy:{path}"]
    for spec, message in (("az:missing.pt:4", "'missing.pt' does not exist"), (f"az:{path}:0", "'0'")):
        with pytest.raises(ConfigError, match=message):
            load_config(quick_config, [f"eval_opponents=['{spec}']"])


@pytest.mark.parametrize("case", FIRST_HIDDEN_CASES, ids=case_id)
def test_the_network_sees_only_what_the_acting_seat_may_see(case):
    # Resample everything the seat to move cannot see: the inputs, the priors and the values
    # the evaluator gives for that seat do not change.
    key, options = case
    game = GAMES[key]
    rules = game.make_rules({**options, **quick(key)})
    inputs = NetworkInputs(rules)
    evaluator = NetworkEvaluator(_tiny_net(inputs), inputs)
    determinize = game.hook("determinize")
    rng = np.random.default_rng(3)
    for steps in (1, 4, 7):
        state = _midgame(rules, steps, seed=steps)
        seat = rules.current_player(state)
        priors, values = evaluator([state], [seat])
        for _ in range(3):
            other = determinize(rules, state, seat, rng)
            for a, b in zip(inputs.encode(state, seat), inputs.encode(other, seat), strict=True):
                np.testing.assert_array_equal(a, b)
            again_priors, again_values = evaluator([other], [seat])
            np.testing.assert_array_equal(again_priors[0], priors[0])
            np.testing.assert_array_equal(again_values, values)
