"""The numpy forward pass of a frozen network (maya_envs.nn.frozen): the same logits, values and
residual values as the torch network for every game, through the evaluator too; a snapshot that
later weight changes do not reach; what the play bots use."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from maya_envs.bots import make_bot  # noqa: E402
from maya_envs.games import DEFAULT_GAME, GAMES  # noqa: E402
from maya_envs.nn.agent import NetworkBot, NetworkEvaluator  # noqa: E402
from maya_envs.nn.frozen import FrozenNet  # noqa: E402
from maya_envs.nn.inputs import NetworkInputs, collate  # noqa: E402
from maya_envs.nn.model import PolicyValueNet  # noqa: E402

#: Every game at each of its player counts.
CASES = [(key, n) for key, game in GAMES.items() for n in game.player_counts]
#: The default game at its smallest player count: the single-game checks' rules.
SMALLEST_DEFAULT = {"num_players": DEFAULT_GAME.player_counts[0]}
#: float32 arithmetic in another order (numpy's and torch's kernels): equal to rounding.
ATOL = 2e-5


def _states(rules, count, seed):
    """Positions of a random game (unfinished, each with a seat to move)."""
    rng = np.random.default_rng(seed)
    state, found = rules.initial_state(rng), []
    while len(found) < count and rules.current_player(state) >= 0:
        found.append(state)
        legal = rules.legal_actions(state)
        state = rules.apply_action(state, legal[int(rng.integers(len(legal)))], rng)
    return found


def _net(inputs, seed, **kwargs):
    torch.manual_seed(seed)
    net = PolicyValueNet(inputs.board_dim, inputs.feature_dim, inputs.num_actions, inputs.num_players, **kwargs)
    with torch.no_grad():  # a trained network's id bias and residual head are not zero
        for parameter in net.parameters():
            parameter.add_(0.1 * torch.randn_like(parameter))
    return net


@pytest.mark.parametrize(("key", "n"), CASES)
@pytest.mark.parametrize("kwargs", [{"hidden": 32}, {"hidden": 24, "id_bias": False}, {"hidden": 16, "residual": True}])
def test_frozen_forward_equals_torch(key, n, kwargs):
    rules = GAMES[key].make_rules({"num_players": n})
    inputs = NetworkInputs(rules)
    net = _net(inputs, seed=n, **kwargs)
    frozen = FrozenNet(net)
    states = _states(rules, 12, seed=n)
    arrays = list(collate([inputs.encode(s, rules.current_player(s)) for s in states]))
    estimate = None
    if net.has_residual:
        estimate = np.random.default_rng(0).uniform(-1, 1, (len(states), n)).astype(np.float32)
    tensors = [torch.from_numpy(x) for x in arrays] + ([] if estimate is None else [torch.from_numpy(estimate)])
    with torch.inference_mode():
        expected = net(*tensors)
    got = frozen(*arrays, estimate)
    assert len(got) == len(expected)
    for mine, theirs in zip(got, expected, strict=True):
        assert mine.dtype == np.float32 and mine.shape == tuple(theirs.shape)
        np.testing.assert_allclose(mine, theirs.numpy(), atol=ATOL)
    # padding stays masked: -inf exactly where torch has it
    np.testing.assert_array_equal(np.isinf(got[0]), ~arrays[3])


def test_an_estimate_needs_the_residual_head():
    rules = DEFAULT_GAME.make_rules(SMALLEST_DEFAULT)
    inputs = NetworkInputs(rules)
    arrays = collate([inputs.encode(s, rules.current_player(s)) for s in _states(rules, 2, 0)])
    with pytest.raises(ValueError, match="no residual value head"):
        FrozenNet(_net(inputs, 0, hidden=8))(*arrays, np.zeros((2, inputs.num_players), np.float32))


@pytest.mark.parametrize(("key", "n"), [(key, game.player_counts[0]) for key, game in GAMES.items()])
def test_frozen_evaluator_answers_as_the_torch_one(key, n):
    rules = GAMES[key].make_rules({"num_players": n})
    inputs = NetworkInputs(rules)
    net = _net(inputs, seed=1, hidden=32, residual=True)  # every game has the leaf_values hook
    states = _states(rules, 9, seed=4)
    seats = [rules.current_player(s) for s in states]
    plain, frozen = NetworkEvaluator(net, inputs), NetworkEvaluator(net, inputs, frozen=True)
    for ask in ("__call__", "residual_values"):
        (p1, v1), (p2, v2) = getattr(plain, ask)(states, seats), getattr(frozen, ask)(states, seats)
        assert v2.dtype == np.float32 and v2.shape == v1.shape == (len(states), n)
        np.testing.assert_allclose(v2, v1, atol=ATOL)
        for a, b in zip(p1, p2, strict=True):
            assert b.dtype == np.float32 and b.shape == a.shape
            np.testing.assert_allclose(b, a, atol=ATOL)
            assert b.sum() == pytest.approx(1.0, abs=1e-5)


def test_frozen_is_a_snapshot_of_the_weights():
    rules = DEFAULT_GAME.make_rules(SMALLEST_DEFAULT)
    inputs = NetworkInputs(rules)
    net = _net(inputs, seed=2, hidden=16)
    states = _states(rules, 3, seed=2)
    seats = [rules.current_player(s) for s in states]
    frozen = NetworkEvaluator(net, inputs, frozen=True)
    before = frozen(states, seats)[1]
    with torch.no_grad():
        for parameter in net.parameters():
            parameter.mul_(-1.0)
    np.testing.assert_array_equal(frozen(states, seats)[1], before)  # the snapshot keeps its weights
    assert not np.allclose(NetworkEvaluator(net, inputs)(states, seats)[1], before)  # torch sees the change


def test_frozen_computes_on_the_cpu_only():
    rules = DEFAULT_GAME.make_rules(SMALLEST_DEFAULT)
    inputs = NetworkInputs(rules)
    with pytest.raises(ValueError, match="frozen=True computes on the CPU; device='meta'"):
        NetworkEvaluator(_net(inputs, 0, hidden=8), inputs, device="meta", frozen=True)


def test_play_bots_use_the_frozen_network_and_the_torch_one_by_default(tmp_path):
    from maya_envs.nn.model import save_network

    rules = DEFAULT_GAME.make_rules(SMALLEST_DEFAULT)
    inputs = NetworkInputs(rules)
    net = _net(inputs, seed=3, hidden=16)
    path = save_network(net, tmp_path / "net.pt", inputs.meta(SMALLEST_DEFAULT))
    assert make_bot(f"policy:{path}", rules, seed=0).evaluator.frozen is not None
    assert make_bot(f"az:{path}:4:memo=0", rules, seed=0).evaluator.frozen is not None
    assert NetworkBot(rules, net).evaluator.frozen is None  # a caller's network may still learn
    assert NetworkEvaluator(net, inputs).frozen is None
