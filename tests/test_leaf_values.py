"""Leaf values of the guided search chosen by measurement (issue 28 item 1, designs D1/D2): the
``LeafValueEvaluator`` modes, the residual value head (an untrained one is the game's estimate),
the ``leaf=`` option of ``az:`` specs, the choice recorded with a network (save/load, the
registry) and played by ``az:<network>``, ``leaf_value: auto``, and the fitted scales' errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")


from maya_envs.bots import make_bot  # noqa: E402
from maya_envs.bots.guided import MIX_WEIGHT, GuidedConfig, parse_az_spec, search_many  # noqa: E402
from maya_envs.bots.search_common import game_hook  # noqa: E402
from maya_envs.games import DEFAULT_GAME, GAMES  # noqa: E402
from maya_envs.nn.agent import LeafValueEvaluator, recorded_leaf  # noqa: E402
from maya_envs.nn.inputs import NetworkInputs  # noqa: E402
from maya_envs.nn.model import save_network  # noqa: E402
from maya_envs.pretrained import network_names, pretrained_info  # noqa: E402
from tests.conformance import shipped_config  # noqa: E402
from tests.helpers.leaf_values import random_game_states, untrained_network  # noqa: E402
from training.exit.config import AUTO_NET_MARGIN, choose_leaf  # noqa: E402

#: The default game at its smallest player count (the exit configs' first), for the tests of one game.
N = DEFAULT_GAME.player_counts[0]


def default_rules():
    """The default game's rules at :data:`N` players."""
    return DEFAULT_GAME.make_rules({"num_players": N})


@pytest.mark.parametrize(("key", "n"), [(key, n) for key, game in GAMES.items() for n in game.player_counts])
def test_an_untrained_residual_network_returns_the_estimate_exactly(key, n):
    rules = GAMES[key].make_rules({"num_players": n})
    net, base = untrained_network(rules, residual=True)
    states = random_game_states(rules, 12)
    seats = [rules.current_player(s) for s in states]
    hook = game_hook(rules, "leaf_values")
    wanted = np.stack([hook(rules, s) for s in states]).astype(np.float32)
    plain_priors, plain = base(states, seats)
    priors, values = LeafValueEvaluator(base, rules, "residual")(states, seats)
    assert values.dtype == np.float32 and values.shape == (len(states), n)
    assert np.array_equal(values, wanted)  # exactly, in the evaluator's float32
    assert not np.allclose(plain, wanted, atol=1e-3)  # the plain value head is something else
    assert all(np.allclose(a, b, atol=1e-7) for a, b in zip(priors, plain_priors, strict=True))
    # and the search backs it up: one simulation's chosen child has the estimate of the state it reaches
    root, seat = states[-1], seats[-1]
    result = search_many(rules, [root], [seat], base, GuidedConfig(simulations=1, leaf="residual"), rng=1)[0]
    child = rules.apply_action(root, result.action, np.random.default_rng(0))
    if rules.current_player(child) >= 0 and rules.spec.information == "perfect" and len(result.policy.nonzero()[0]) > 1:
        assert np.allclose(result.value, hook(rules, child), atol=1e-6)


def test_the_residual_combination_is_tanh_of_the_pre_tanh_sum_and_stays_in_range():
    from maya_envs.nn.model import combine

    e = torch.tensor([-1.0, -0.999, -0.5, 0.0, 0.3, 0.999, 1.0], dtype=torch.float64)
    assert torch.equal(combine(e, torch.zeros_like(e)), e)  # r = 0: the estimate, even at +-1
    r = torch.tensor([0.7, -2.0, 1.5, -0.4, 3.0, -1.0, -0.2], dtype=torch.float64)
    inner = e.abs() < 1
    assert torch.allclose(combine(e, r)[inner], torch.tanh(torch.atanh(e[inner]) + r[inner]), atol=1e-12)
    assert torch.equal(combine(e, r)[~inner], e[~inner])  # a certain estimate stays certain
    huge = combine(torch.tensor([1.0, -1.0, 0.2]), torch.tensor([-50.0, 50.0, 50.0]))
    assert torch.isfinite(huge).all() and (huge.abs() <= 1).all()


@pytest.fixture
def one_thread():
    """torch on one thread (on a loaded 2-core machine two threads make a tiny net 15x slower)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_the_residual_head_learns_target_minus_estimate_where_the_data_says_so(one_thread):
    from training.exit.learner import Learner
    from training.exit.play import BotAgent, play_games
    from training.exit.replay import ReplayBuffer

    rules = default_rules()
    inputs = NetworkInputs(rules)
    teacher = BotAgent(rules, make_bot("heuristic", rules, 0), record=True)
    data = play_games(rules, [[teacher, teacher]] * 3, [4, 5, 6], inputs, in_flight=3).positions
    net, _ = untrained_network(rules, residual=True)
    learner = Learner(net, 1e-2, 0.0, 1.0, batch_size=128)
    _, _, before = learner.measure_values(data)
    assert set(before) == {"net", "hook", "mix", "residual"}
    assert before["residual"] == pytest.approx(before["hook"], abs=1e-6)  # untrained: the estimate
    buffer = ReplayBuffer(1)
    buffer.add(data)
    stats = learner.train(buffer, 3, np.random.default_rng(0))
    _, _, after = learner.measure_values(data)
    assert stats.residual_value_loss is not None
    assert after["residual"] < before["residual"] - 0.05, (before, after)  # it fits its games' results
    rows = learner.loss(next(iter(buffer.batches(8, np.random.default_rng(1)))), with_values=True)
    assert rows[-1] is not None and rows[-1].shape == (8, N)
    data.hooks = None
    with pytest.raises(ValueError, match="needs rows with the leaf estimate"):
        learner.measure_values(data)


@pytest.mark.parametrize(("key", "n"), [(key, n) for key, game in GAMES.items() for n in game.player_counts[:2]])
def test_an_untrained_network_with_leaf_hook_returns_the_hooks_values_and_the_networks_priors(key, n):
    rules = GAMES[key].make_rules({"num_players": n})
    _, base = untrained_network(rules)
    states = random_game_states(rules, 12)
    seats = [rules.current_player(s) for s in states]
    net_priors, net_values = base(states, seats)
    hook = game_hook(rules, "leaf_values")
    wanted = np.stack([hook(rules, s) for s in states])
    priors, values = LeafValueEvaluator(base, rules, "hook")(states, seats)
    assert values.shape == (len(states), n) and np.allclose(values, wanted, atol=1e-6)
    assert not np.allclose(net_values, wanted, atol=1e-3)  # the network's own values are something else
    assert all(np.array_equal(a, b) for a, b in zip(priors, net_priors, strict=True))
    _, mixed = LeafValueEvaluator(base, rules, "mix")(states, seats)
    assert np.allclose(mixed, MIX_WEIGHT * net_values + (1 - MIX_WEIGHT) * wanted, atol=1e-6)
    assert np.array_equal(LeafValueEvaluator(base, rules, "net")(states, seats)[1], net_values)
    with pytest.raises(ValueError, match="leaf='best'; allowed: net, hook, mix"):
        LeafValueEvaluator(base, rules, "best")


def test_the_search_backs_up_the_leaf_it_is_given():
    rules = default_rules()
    _, base = untrained_network(rules)
    root = random_game_states(rules, 30)[-1]
    seat = rules.current_player(root)
    hook = game_hook(rules, "leaf_values")
    results = {
        leaf: search_many(rules, [root], [seat], base, GuidedConfig(simulations=1, leaf=leaf), rng=1)[0]
        for leaf in ("net", "hook")
    }
    # one simulation: the chosen child's value is the leaf value of the state it reaches
    child = rules.apply_action(root, results["hook"].action, np.random.default_rng(0))
    if rules.current_player(child) >= 0 and rules.spec.information == "perfect":
        assert np.allclose(results["hook"].value, hook(rules, child), atol=1e-5)
    assert not np.allclose(results["net"].value, results["hook"].value)


@pytest.mark.parametrize(
    ("name", "leaf"),
    [("az:net.pt", None), ("az:net.pt:32:leaf=hook", "hook"), (f"az:{network_names()[0]}:8:leaf=mix", "mix"),
     ("az:net.pt:leaf=net", "net")],
)  # fmt: skip
def test_az_specs_take_a_leaf(name, leaf):
    assert parse_az_spec(name)[1].leaf == leaf


@pytest.mark.parametrize("name", ["az:net.pt:32:leaf=best", "az:net.pt:leaf=", "az:net.pt:leaf=HOOK"])
def test_bad_leaf_values_are_clear_errors(name):
    with pytest.raises(ValueError, match=r"bad value .* for 'leaf'; syntax: az:<model>.*leaf \(net\|hook\|mix"):
        parse_az_spec(name)
    with pytest.raises(ValueError, match="leaf='x'; allowed: net, hook, mix"):
        GuidedConfig(leaf="x")


def test_residual_needs_a_residual_head_and_survives_save_load_and_the_registry(tmp_path, monkeypatch):
    from maya_envs import pretrained
    from maya_envs.nn.model import load_network
    from training.publish import publish

    rules = default_rules()
    net, base = untrained_network(rules, residual=True)
    _, plain = untrained_network(rules)
    with pytest.raises(ValueError, match="leaf='residual': the evaluator has no residual value head"):
        LeafValueEvaluator(plain, rules, "residual")
    inputs = NetworkInputs(rules)
    meta = {**inputs.meta({"num_players": N}), "leaf_value": "residual"}
    path = save_network(net, tmp_path / "run" / "model.pt", meta)
    loaded, meta = load_network(path)
    assert loaded.has_residual and meta["leaf_value"] == "residual"
    assert all(torch.equal(v, loaded.state_dict()[k]) for k, v in net.state_dict().items())
    assert recorded_leaf(str(path)) == "residual"
    bot = make_bot(f"az:{path}:4", rules, 0)
    assert bot.config.leaf == "residual"
    state = random_game_states(rules, 5)[-1]
    assert bot.act(state) in rules.legal_actions(state)
    assert bot.last_result.simulations == 4
    plain_path = save_network(untrained_network(rules)[0], tmp_path / "plain.pt", inputs.meta({"num_players": N}))
    with pytest.raises(ValueError, match="no residual value head"):
        make_bot(f"az:{plain_path}:4:leaf=residual", rules, 0)
    # published: the registry entry records the leaf, and az:<name> plays it
    run_dir, package = path.parent, tmp_path / "package"
    package.mkdir()
    config = {"env_id": DEFAULT_GAME.gym_id, "game_options": {"num_players": N}}
    (run_dir / "config.yaml").write_text(json.dumps(config))
    (run_dir / "evaluation.json").write_text('{"results": [], "positions": 1}')
    entry = publish(run_dir, "tiny_residual", shipped_config(DEFAULT_GAME, "exit"), package_dir=package)
    assert entry["leaf_value"] == "residual"
    fields = {**entry, "file": str(package / entry["file"]), "observation_shape": tuple(entry["observation_shape"])}
    registry = {**pretrained._registry(), "tiny_residual": pretrained.PretrainedInfo(name="tiny_residual", **fields)}
    monkeypatch.setattr(pretrained, "_registry", lambda: registry)
    assert recorded_leaf("tiny_residual") == "residual"
    assert make_bot("az:tiny_residual:4", rules, 0).config.leaf == "residual"


def test_the_leaf_survives_save_and_load_and_az_plays_it(tmp_path):
    rules = default_rules()
    net, _ = untrained_network(rules)
    inputs = NetworkInputs(rules)
    recorded = save_network(net, tmp_path / "hook.pt", {**inputs.meta({"num_players": N}), "leaf_value": "hook"})
    plain = save_network(net, tmp_path / "plain.pt", inputs.meta({"num_players": N}))
    assert recorded_leaf(str(recorded)) == "hook" and recorded_leaf(str(plain)) == "net"
    assert make_bot(f"az:{recorded}:4", rules, 0).config.leaf == "hook"  # the recorded leaf
    assert make_bot(f"az:{recorded}:4:leaf=mix", rules, 0).config.leaf == "mix"  # the spec wins
    assert make_bot(f"az:{plain}:4", rules, 0).config.leaf == "net"
    bad = save_network(net, tmp_path / "bad.pt", {**inputs.meta({"num_players": N}), "leaf_value": "oracle"})
    with pytest.raises(ValueError, match="records leaf_value='oracle'; allowed: net, hook, mix"):
        recorded_leaf(str(bad))


def test_a_shipped_network_plays_the_leaf_its_registry_entry_records():
    recorded = {name: pretrained_info(name).leaf_value for name in network_names()}
    assert set(recorded.values()) <= {None, "net", "hook", "mix"}
    for name, leaf in recorded.items():
        assert recorded_leaf(name) == (leaf or "net")


def test_auto_picks_the_lowest_error_and_net_only_after_two_clear_wins():
    assert choose_leaf({"net": 0.9, "hook": 0.7, "mix": 0.75}, None) == "hook"
    assert choose_leaf({"net": 0.9, "hook": 0.8, "mix": 0.75}, None) == "mix"
    clear = {"net": 0.5, "hook": 0.5 + 2 * AUTO_NET_MARGIN, "mix": 0.6}
    assert choose_leaf(clear, None) == "hook"  # one iteration is not enough
    assert choose_leaf(clear, clear) == "net"
    narrow = {"net": 0.5, "hook": 0.5 + AUTO_NET_MARGIN / 2, "mix": 0.55}
    assert choose_leaf(narrow, clear) == "hook"


def test_auto_picks_the_residual_head_when_its_error_is_the_lowest():
    assert choose_leaf({"net": 0.9, "hook": 0.70, "mix": 0.75, "residual": 0.66}, None) == "residual"
    assert choose_leaf({"net": 0.9, "hook": 0.70, "mix": 0.75, "residual": 0.72}, None) == "hook"
    # net wins one iteration only: the best of the others, here the residual head
    assert choose_leaf({"net": 0.60, "hook": 0.70, "mix": 0.66, "residual": 0.64}, None) == "residual"
    clear = {"net": 0.5, "hook": 0.5 + 2 * AUTO_NET_MARGIN, "mix": 0.6, "residual": 0.51}
    assert choose_leaf(clear, clear) == "net"


def test_exit_leaf_value_residual_validates_and_gives_the_network_the_head():
    from training.exit.config import LEAF_VALUES, ExitConfig

    assert set(LEAF_VALUES) == {*("net", "hook", "mix", "residual"), "auto"}
    for leaf, head in (("residual", True), ("auto", True), ("hook", False), ("net", False)):
        config = ExitConfig(leaf_value=leaf)
        config.validate()
        assert config.residual_head() is head


def test_the_leaf_error_benchmark_prints_each_leafs_error_on_fresh_games(capsys, one_thread):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "leaf_errors.py"
    spec = importlib.util.spec_from_file_location("leaf_errors", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--train", "2", "--fresh", "2", "--epochs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "| positions | net | hook | mix | residual | 0 |"
    fresh = lines[-1].split("|")[2:-1]
    assert lines[-1].startswith("| fresh games") and len(fresh) == 5 and all(0 <= float(x) <= 4 for x in fresh)


def test_the_residual_head_leaves_the_rest_of_the_networks_training_unchanged(one_thread):
    from training.exit.learner import Learner
    from training.exit.play import BotAgent, play_games
    from training.exit.replay import ReplayBuffer

    rules = default_rules()
    inputs = NetworkInputs(rules)
    teacher = BotAgent(rules, make_bot("heuristic", rules, 0), record=True)
    buffer = ReplayBuffer(1)
    buffer.add(play_games(rules, [[teacher, teacher]] * 2, [7, 8], inputs, in_flight=2).positions)
    trained = {}
    for residual in (False, True):
        net, _ = untrained_network(rules, residual=residual)  # the same seed: the shared layers start equal
        Learner(net, 1e-2, 1e-4, 1.0, batch_size=64).train(buffer, 1, np.random.default_rng(0))
        trained[residual] = net.state_dict()
    assert set(trained[True]) - set(trained[False]) == {k for k in trained[True] if k.startswith("residual.")}
    for key, value in trained[False].items():
        assert torch.allclose(value, trained[True][key], atol=1e-6), key
    assert not torch.equal(trained[True]["residual.2.weight"], torch.zeros_like(trained[True]["residual.2.weight"]))


def test_the_evaluation_memo_answers_residual_values_as_its_base_and_keeps_them_apart():
    """``az:...:leaf=residual:memo=N``: the memo wraps the network, so it must pass the residual
    head on (it did not: the search refused the residual leaf) and not mix its values with the
    plain value head's for the same state."""
    from maya_envs.bots.guided import EvaluationMemo

    rules = default_rules()
    _net, base = untrained_network(rules, residual=True)
    states = random_game_states(rules, 6)
    seats = [rules.current_player(s) for s in states]
    memo = EvaluationMemo(base, 100)
    assert memo.has_residual
    plain = memo(states, seats)[1]
    for _ in range(2):  # the second pass is answered from memory
        priors, values = LeafValueEvaluator(memo, rules, "residual")(states, seats)
        wanted_priors, wanted = LeafValueEvaluator(base, rules, "residual")(states, seats)
        assert np.array_equal(values, wanted) and not np.allclose(values, plain, atol=1e-3)
        assert all(np.array_equal(a, b) for a, b in zip(priors, wanted_priors, strict=True))
    assert memo.hits == len(states) and memo.misses == 2 * len(states)
