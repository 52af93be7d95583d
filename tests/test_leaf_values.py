"""Leaf values of the guided search chosen by measurement (issue 28 item 1, design D1): the
``LeafValueEvaluator`` modes, the ``leaf=`` option of ``az:`` specs, the choice recorded with a
network (save/load, the registry) and played by ``az:<network>``, and ``leaf_value: auto``."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from maya_envs.bots import make_bot  # noqa: E402
from maya_envs.bots.guided import MIX_WEIGHT, GuidedConfig, parse_az_spec, search_many  # noqa: E402
from maya_envs.bots.search_common import game_hook  # noqa: E402
from maya_envs.games import GAMES  # noqa: E402
from maya_envs.nn.agent import LeafValueEvaluator, NetworkEvaluator, recorded_leaf  # noqa: E402
from maya_envs.nn.inputs import NetworkInputs  # noqa: E402
from maya_envs.nn.model import PolicyValueNet, save_network  # noqa: E402
from maya_envs.pretrained import network_names, pretrained_info  # noqa: E402
from training.exit.config import AUTO_NET_MARGIN, choose_leaf  # noqa: E402


def _states(rules, count, seed=0):
    """``count`` unfinished states of one random game (each seen by its seat to move)."""
    rng = np.random.default_rng(seed)
    state, states = rules.initial_state(rng), []
    while rules.current_player(state) >= 0 and len(states) < count:
        states.append(state)
        legal = rules.legal_actions(state)
        state = rules.apply_action(state, legal[int(rng.integers(len(legal)))], rng)
    return states


def _untrained(rules, seed=0):
    inputs = NetworkInputs(rules)
    torch.manual_seed(seed)
    net = PolicyValueNet(inputs.board_dim, inputs.feature_dim, inputs.num_actions, inputs.num_players, hidden=16)
    return net, NetworkEvaluator(net, inputs)


@pytest.mark.parametrize(("key", "n"), [(key, n) for key, game in GAMES.items() for n in game.player_counts[:2]])
def test_an_untrained_network_with_leaf_hook_returns_the_hooks_values_and_the_networks_priors(key, n):
    rules = GAMES[key].make_rules({"num_players": n})
    _, base = _untrained(rules)
    states = _states(rules, 12)
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
    rules = GAMES["maya2012"].make_rules({"num_players": 2})
    _, base = _untrained(rules)
    root = _states(rules, 30)[-1]
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
    [("az:net.pt", None), ("az:net.pt:32:leaf=hook", "hook"), ("az:maya2012_2p_exit:8:leaf=mix", "mix"),
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


def test_the_leaf_survives_save_and_load_and_az_plays_it(tmp_path):
    rules = GAMES["maya2012"].make_rules({"num_players": 2})
    net, _ = _untrained(rules)
    inputs = NetworkInputs(rules)
    recorded = save_network(net, tmp_path / "hook.pt", {**inputs.meta({"num_players": 2}), "leaf_value": "hook"})
    plain = save_network(net, tmp_path / "plain.pt", inputs.meta({"num_players": 2}))
    assert recorded_leaf(str(recorded)) == "hook" and recorded_leaf(str(plain)) == "net"
    assert make_bot(f"az:{recorded}:4", rules, 0).config.leaf == "hook"  # the recorded leaf
    assert make_bot(f"az:{recorded}:4:leaf=mix", rules, 0).config.leaf == "mix"  # the spec wins
    assert make_bot(f"az:{plain}:4", rules, 0).config.leaf == "net"
    bad = save_network(net, tmp_path / "bad.pt", {**inputs.meta({"num_players": 2}), "leaf_value": "oracle"})
    with pytest.raises(ValueError, match="records leaf_value='oracle'; allowed: net, hook, mix"):
        recorded_leaf(str(bad))


def test_a_shipped_network_plays_the_leaf_its_registry_entry_records():
    recorded = {name: pretrained_info(name).leaf_value for name in network_names()}
    assert set(recorded.values()) <= {None, "net", "hook", "mix"}
    assert recorded["maya2012_2p_exit"] == "hook"
    rules = GAMES["maya2012"].make_rules({"num_players": 2})
    for name, leaf in recorded.items():
        assert recorded_leaf(name) == (leaf or "net")
    assert make_bot("az:maya2012_2p_exit:4", rules, 0).config.leaf == "hook"


def test_auto_picks_the_lowest_error_and_net_only_after_two_clear_wins():
    assert choose_leaf({"net": 0.9, "hook": 0.7, "mix": 0.75}, None) == "hook"
    assert choose_leaf({"net": 0.9, "hook": 0.8, "mix": 0.75}, None) == "mix"
    clear = {"net": 0.5, "hook": 0.5 + 2 * AUTO_NET_MARGIN, "mix": 0.6}
    assert choose_leaf(clear, None) == "hook"  # one iteration is not enough
    assert choose_leaf(clear, clear) == "net"
    narrow = {"net": 0.5, "hook": 0.5 + AUTO_NET_MARGIN / 2, "mix": 0.55}
    assert choose_leaf(narrow, clear) == "hook"


#: (game, options, seeded games) -> (hand-set scale before the fit, the MSE measured with the
#: fitted LEAF_SCALES on these games + a small margin). Seeds 100.. of
#: benchmarks/fit_leaf_scales.py's heuristic self-play (the fit used seeds 0..199).
PINNED = {
    ("maya2012", (("num_players", 3),), 8): (5.0, 0.410),
    ("maya2012", (("num_players", 4),), 8): (5.0, 0.426),
    ("maya_quarry", (("num_players", 3), ("variant", "basic")), 3): (15.0, 0.506),
    ("maya_quarry", (("num_players", 4), ("variant", "basic")), 3): (15.0, 0.200),
}


@pytest.mark.parametrize(("case", "pinned"), PINNED.items(), ids=lambda x: str(x))
def test_each_fitted_leaf_scale_pins_its_error_below_the_hand_set_one(case, pinned):
    import importlib
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "fit_leaf_scales.py"
    spec = importlib.util.spec_from_file_location("fit_leaf_scales", path)
    fit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fit)
    leads_and_results, mse = fit.leads_and_results, fit.mse
    key, options, games = case
    options = dict(options)
    old_scale, bound = pinned
    leads, results = leads_and_results(key, options, games, seed=100)
    scale = importlib.import_module(f"maya_envs.{key}.determinize").LEAF_SCALES[options["num_players"]]
    fitted, before = mse(leads, results, scale), mse(leads, results, old_scale)
    assert fitted <= bound and fitted < before, (fitted, before)
    # and the hook is tanh(lead / scale): the value the searches back up
    rules = GAMES[key].make_rules(options)
    state = _states(rules, 40)[-1]
    hook = game_hook(rules, "leaf_values")(rules, state)
    lead = importlib.import_module(f"maya_envs.{key}.determinize").leaf_leads(rules, state)
    assert np.allclose(hook, np.tanh(lead / scale))
