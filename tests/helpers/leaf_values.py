"""Leaf-value test helpers (torch needed): random states, an untrained network and its evaluator,
and the per-game checks of a fitted leaf scale and of a root that reads no hidden information."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from maya_envs.bots.guided import GuidedConfig, search_many  # noqa: E402
from maya_envs.bots.search_common import game_hook  # noqa: E402
from maya_envs.games import GAMES  # noqa: E402
from maya_envs.nn.agent import NetworkEvaluator  # noqa: E402
from maya_envs.nn.inputs import NetworkInputs  # noqa: E402
from maya_envs.nn.model import PolicyValueNet  # noqa: E402
from tests.helpers import ROOT  # noqa: E402


def random_game_states(rules, count, seed=0):
    """``count`` unfinished states of one random game (each seen by its seat to move)."""
    rng = np.random.default_rng(seed)
    state, states = rules.initial_state(rng), []
    while rules.current_player(state) >= 0 and len(states) < count:
        states.append(state)
        legal = rules.legal_actions(state)
        state = rules.apply_action(state, legal[int(rng.integers(len(legal)))], rng)
    return states


def untrained_network(rules, seed=0, residual=False):
    inputs = NetworkInputs(rules)
    torch.manual_seed(seed)
    net = PolicyValueNet(
        inputs.board_dim, inputs.feature_dim, inputs.num_actions, inputs.num_players, hidden=16, residual=residual
    )
    return net, NetworkEvaluator(net, inputs)


def check_fitted_scale(case, pinned) -> None:
    """``case`` = (game key, options as pairs, seeded games), ``pinned`` = (hand-set scale before
    the fit, the MSE measured with the fitted ``LEAF_SCALES`` on these games + a small margin),
    as each game's ``tests/<key>/test_leaf_values.py`` pins them (seeds 100.. of
    benchmarks/fit_leaf_scales.py's heuristic self-play; the fit used seeds 0..199): the fitted
    scale's error is within the bound and below the hand-set one's, and the game's leaf hook is
    ``tanh(lead / scale)``."""
    import importlib
    import importlib.util

    path = ROOT / "benchmarks" / "fit_leaf_scales.py"
    spec = importlib.util.spec_from_file_location("fit_leaf_scales", path)
    fit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fit)
    leads_and_results, mse = fit.leads_and_results, fit.mse
    key, options, games = case
    options = dict(options)
    old_scale, bound = pinned
    leads, results = leads_and_results(key, options, games, seed=100)
    determinize = importlib.import_module(f"{GAMES[key].package}.determinize")
    scale = determinize.LEAF_SCALES[options["num_players"]]
    fitted, before = mse(leads, results, scale), mse(leads, results, old_scale)
    assert fitted <= bound and fitted < before, (fitted, before)
    # and the hook is tanh(lead / scale): the value the searches back up
    rules = GAMES[key].make_rules(options)
    state = random_game_states(rules, 40)[-1]
    hook = game_hook(rules, "leaf_values")(rules, state)
    lead = determinize.leaf_leads(rules, state)
    assert np.allclose(hook, np.tanh(lead / scale))


def check_root_reads_no_hidden_information(key, n) -> None:
    """Resampling: two roots the acting seat cannot tell apart (the true state and a
    determinization of it, where the game's estimates differ between them) search alike with the
    same seed, whatever the leaf (the root is evaluated in a sampled world, as every leaf is).
    Each game whose leaf estimate reads hidden information runs this at the player counts where
    it does (``tests/<key>/test_leaf_values.py``)."""
    rules = GAMES[key].make_rules({"num_players": n})
    _, base = untrained_network(rules, residual=True)
    determinize, hook = game_hook(rules, "determinize"), game_hook(rules, "leaf_values")
    compared = 0
    for root in random_game_states(rules, 60)[10::10]:
        if compared == 2:
            break
        seat = rules.current_player(root)
        other = determinize(rules, root, seat, np.random.default_rng(5))
        if np.allclose(hook(rules, root), hook(rules, other)) or len(rules.legal_actions(root)) < 2:
            continue
        compared += 1
        for leaf in ("hook", "mix", "residual"):
            config = GuidedConfig(simulations=3, leaf=leaf)
            a, b = (search_many(rules, [s], [seat], base, config, rng=3)[0] for s in (root, other))
            assert a.action == b.action and np.array_equal(a.policy, b.policy) and np.array_equal(a.value, b.value)
    assert compared == 2
