"""Ray RLlib: the multi-agent adapter, the masking module, a tiny training run per player count, and
loading the checkpoint through the arena (``rllib:<path>``).

Needs the ``rllib`` extra (its own venv: ``bash scripts/test_compat.sh``, which runs the whole suite
there); without Ray these tests are skipped, unless ``MAYA_REQUIRE_RLLIB=1`` (set by that script):
then they run and fail, so a broken Ray install cannot pass as a skip.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from maya_envs.evaluation.arena import play_match
from maya_envs.games import DEFAULT_GAME
from maya_envs.games import GAMES as TABLE
from tests.helpers.rllib import needs_ray


def _one_case_per_game() -> list[tuple[str, dict]]:
    """Every game once, the k-th game of the table at the k-th smallest player count any game
    has (its smallest where it has not that one), so the sweep meets as many counts as games."""
    counts = sorted({n for game in TABLE.values() for n in game.player_counts})
    cases = []
    for k, (key, game) in enumerate(TABLE.items()):
        n = counts[k] if k < len(counts) and counts[k] in game.player_counts else game.player_counts[0]
        cases.append((key, {"num_players": n}))
    return cases


GAMES = _one_case_per_game()
RLLIB_CONFIGS = sorted((Path(__file__).resolve().parents[1] / "configs" / "rllib").glob("*.yaml"))
"""The shipped RLlib configs (``configs/rllib/<key>_<n>p.yaml``)."""


def _rllib_config(wanted: str, where) -> str:
    """The path (from the repository root) of the first shipped RLlib config, in name order, whose
    loaded config satisfies ``where(config)``.

    Raises:
        LookupError: none does (the message says ``wanted``).
    """
    from training.rllib_train import load_rllib_config

    for path in RLLIB_CONFIGS:
        if where(load_rllib_config(f"configs/rllib/{path.name}", [])):
            return f"configs/rllib/{path.name}"
    raise LookupError(f"no config in configs/rllib/ has {wanted}")


def _has_feature_block(config) -> bool:
    from maya_envs.core.errors import ConfigError
    from training.rllib_train import action_feature_block

    try:
        action_feature_block(config.game, config.game_options)
    except ConfigError:
        return False
    return True
TINY = [
    "iterations=2",
    "train_batch_size=200",
    "minibatch_size=100",
    "num_epochs=1",
    "fcnet_hiddens=[32]",
    "num_env_runners=1",
    "eval_games=0",
]


@pytest.fixture(scope="module")
def local_ray():
    """One small local Ray for every training test of this module (started once, not per test)."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False)
    yield
    ray.shutdown()


def test_rllib_spec_without_torch_names_the_extra(monkeypatch):
    """The spec reads a weights-only export (tests/test_rllib_export.py): torch, not Ray."""
    from training.rllib_agent import load_rllib_agent

    make_env = importlib.import_module(DEFAULT_GAME.env_module).env
    load_rllib_agent.cache_clear()
    monkeypatch.setitem(sys.modules, "torch", None)  # as if torch were not installed
    with pytest.raises(ImportError, match=r"pip install 'maya-envs\[train\]'"):
        play_match(make_env, "rllib:/nonexistent", "random", games=1)


@needs_ray
@pytest.mark.parametrize(("game", "options"), GAMES)
def test_adapter_plays_whole_games_with_masked_random_actions(game, options):
    from training.rllib_env import MayaMultiAgentEnv

    env = MayaMultiAgentEnv({"game": game, "game_options": options})
    rng = np.random.default_rng(0)
    for episode in range(2):
        obs, infos = env.reset(seed=episode)
        finals = {}
        for _ in range(5000):
            (agent,) = obs  # one agent to move
            assert agent in env.agents and set(infos) == {agent}
            action = int(rng.choice(np.flatnonzero(obs[agent]["action_mask"])))
            obs, rewards, terminateds, truncateds, infos = env.step({agent: action})
            assert set(obs) == set(rewards) == set(infos) == set(terminateds) - {"__all__"}
            if terminateds["__all__"] or truncateds["__all__"]:
                finals = rewards
                break
        assert set(finals) == set(env.possible_agents) == set(env.agents)
        assert abs(sum(finals.values())) < 1e-9  # every scheme of these games sums to 0
    assert env.illegal_actions == 0


@needs_ray
def test_adapter_counts_an_illegal_action():
    from training.rllib_env import MayaMultiAgentEnv

    env = MayaMultiAgentEnv({"game": DEFAULT_GAME.key})
    obs, _ = env.reset(seed=0)
    (agent,) = obs
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, rewards, terminateds, _, infos = env.step({agent: illegal})
    assert terminateds["__all__"] and env.illegal_actions == 1
    assert infos[agent]["illegal_actions"] == 1 and rewards[agent] == -1.0


@needs_ray
def test_masking_module_gives_masked_actions_no_probability():
    import torch

    from training.rllib_env import MayaMultiAgentEnv
    from training.rllib_module import MaskedPPOTorchRLModule

    env = MayaMultiAgentEnv({"game": DEFAULT_GAME.key, "game_options": {"num_players": 3}})
    space = env.observation_spaces["player_0"]
    module = MaskedPPOTorchRLModule(
        observation_space=space, action_space=env.action_spaces["player_0"], model_config={"fcnet_hiddens": [16]}
    )
    obs, _ = env.reset(seed=3)
    (agent,) = obs
    mask = torch.as_tensor(obs[agent]["action_mask"][None])
    batch = {"obs": {"observation": torch.as_tensor(obs[agent]["observation"][None]), "action_mask": mask}}
    for forward in (module.forward_inference, module.forward_exploration, module.forward_train):
        logits = forward(dict(batch))["action_dist_inputs"]
        probs = torch.softmax(logits.detach(), dim=-1)
        assert float(probs[mask == 0].sum()) == 0.0
        assert torch.isclose(probs[mask == 1].sum(), torch.tensor(1.0))
    assert isinstance(batch["obs"], dict)  # the caller's batch is left as it was
    assert module.compute_values(dict(batch)).shape == (1,)


@needs_ray
def test_action_feature_head_scores_every_action_with_one_weight_vector():
    import torch

    from training.rllib_env import MayaMultiAgentEnv
    from training.rllib_module import MaskedPPOTorchRLModule
    from training.rllib_train import action_feature_block

    # the default game's default observation has a per-action feature block
    env = MayaMultiAgentEnv({"game": DEFAULT_GAME.key})
    start, features, actions = block = action_feature_block(DEFAULT_GAME.key, {})
    space, action_space = env.observation_spaces["player_0"], env.action_spaces["player_0"]
    config = {"fcnet_hiddens": [16], "action_feature_block": list(block), "action_feature_gain": 10.0}
    module = MaskedPPOTorchRLModule(observation_space=space, action_space=action_space, model_config=config)
    obs, _ = env.reset(seed=5)
    (agent,) = obs
    observation, mask = obs[agent]["observation"], obs[agent]["action_mask"]
    batch = {"obs": {"observation": torch.as_tensor(observation[None]), "action_mask": torch.as_tensor(mask[None])}}
    before = module.forward_inference(dict(batch))["action_dist_inputs"][0]  # the head starts at zero
    with torch.no_grad():
        module.action_feature_head.weight[:] = torch.tensor([[0.0, 1.0, 0.0]])  # feature 1 of every action
    after = module.forward_inference(dict(batch))["action_dist_inputs"][0]
    legal = np.flatnonzero(mask)
    expected = np.zeros(len(mask), dtype=np.float32)
    expected[:actions] = 10.0 * observation[start + actions : start + 2 * actions]
    assert np.allclose((after - before).detach().numpy()[legal], expected[legal], atol=1e-5)
    assert float(torch.softmax(after.detach(), dim=-1)[torch.as_tensor(mask) == 0].sum()) == 0.0
    with pytest.raises(ValueError, match="does not fit an observation"):
        config = {"fcnet_hiddens": [16], "action_feature_block": [start, features + 1, actions]}
        MaskedPPOTorchRLModule(observation_space=space, action_space=action_space, model_config=config)


def test_rllib_config_rejects_bad_values():
    from maya_envs.core.errors import ConfigError
    from training.rllib_train import load_rllib_config

    path = _rllib_config("a game without a per-action feature block", lambda config: not _has_feature_block(config))
    with pytest.raises(ConfigError, match="needs a per-action feature block"):
        load_rllib_config(path, ["policy=action_features"])
    with pytest.raises(ConfigError, match="policy='cnn'"):
        load_rllib_config(path, ["policy=cnn"])
    with pytest.raises(ConfigError, match=r"unknown RLlib config key\(s\) \['iteration'\]"):
        load_rllib_config(path, ["iteration=3"])
    with pytest.raises(ConfigError, match="must look like key=value"):
        load_rllib_config(path, ["iterations"])


@needs_ray
@pytest.mark.slow
@pytest.mark.rllib
@pytest.mark.xdist_group("ray")
@pytest.mark.parametrize(("mapping", "policy"), [("shared", "action_features"), ("per_seat", "mlp")], ids=["2p", "3p"])
def test_tiny_training_run_samples_no_illegal_action_and_loads_in_the_arena(local_ray, tmp_path, mapping, policy):
    """The first shipped config of two seats whose game has a feature block, one shared policy
    scoring the features; the first of three or more seats, one MLP per seat."""
    from training.rllib_agent import load_rllib_agent
    from training.rllib_train import load_rllib_config, make_aec_env, train

    if policy == "action_features":
        path = _rllib_config(
            "two seats and a per-action feature block",
            lambda c: c.game_options["num_players"] == 2 and _has_feature_block(c),
        )
    else:
        path = _rllib_config("three or more seats", lambda c: c.game_options["num_players"] >= 3)
    overrides = [*TINY, f"policy_mapping={mapping}", f"policy={policy}", f"output_dir={tmp_path}"]
    config = load_rllib_config(path, overrides)
    run_dir = train(config)  # on the module's local Ray
    rows = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and all(row["env_steps_sampled"] >= 200 for row in rows)
    assert sum(row["illegal_actions"] for row in rows) == 0

    agent = load_rllib_agent(f"rllib:{run_dir}")
    n = config.game_options["num_players"]
    assert len(agent.modules) == (1 if mapping == "shared" else n)
    assert all(
        (module.action_feature_block is not None) == (policy == "action_features") for module in agent.modules.values()
    )
    result = play_match(lambda: make_aec_env(config.game, config.game_options), f"rllib:{run_dir}", "random", games=n)
    assert result.games == n and result.illegal_actions == 0 and result.games_per_seat == [1] * n
