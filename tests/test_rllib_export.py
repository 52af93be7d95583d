"""RLlib checkpoints are data (issue 44, item 1): ``rllib:<path>`` reads only the weights-only
export (:mod:`training.rllib_policy`), never Ray's pickles.

A crafted checkpoint whose pickles would create a marker file is refused before any Ray import,
naming the path and the export command; a malformed export is refused naming what is wrong; an
export plays without Ray. Where Ray is installed (``bash scripts/test_compat.sh
tests/test_rllib_export.py``), the export of a real RLModule plays the module's own moves.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from maya_envs.evaluation.arena import play_match
from maya_envs.games import DEFAULT_GAME, make_aec_env
from maya_envs.sb3_zip import UnreadableModel
from tests.crafted_models import pt_with_payload, ray_checkpoint_with_payload
from tests.helpers.rllib import needs_ray
from training.rllib_agent import RLlibAgent, load_rllib_agent
from training.rllib_policy import FORMAT, MaskedPolicyNet, save_net, weight_file

GAME = DEFAULT_GAME.key
MAPPING = {"player_0": "seat_0", "player_1": "seat_1"}


def _spec(env, feature_block=None) -> dict:
    return {
        "observation_size": int(env.observation_space("player_0")["observation"].shape[0]),
        "num_actions": int(env.action_space("player_0").n),
        "hiddens": [16, 8],
        "activation": "tanh",
        "action_feature_block": feature_block,
        "action_feature_gain": 10.0,
    }


def _hand_made_export(checkpoint: Path) -> dict:
    """A checkpoint folder holding only an export of two random networks of the default game
    (one plain, one with the feature head of the default observation's block)."""
    from training.rllib_train import action_feature_block

    env = make_aec_env(GAME, {})
    torch.manual_seed(0)
    block = [int(x) for x in action_feature_block(GAME, {})]
    specs = {"seat_0": _spec(env), "seat_1": _spec(env, block)}
    for module_id, spec in specs.items():
        net = MaskedPolicyNet(spec)
        for parameter in net.parameters():  # the feature head too, which would start at zero
            torch.nn.init.normal_(parameter, std=0.5)
        save_net(checkpoint, module_id, net)
    metadata = {"game": GAME, "game_options": {}, "policy_mapping": "per_seat", "modules": dict(MAPPING)}
    metadata["export"] = {"format": FORMAT, "modules": specs}
    (checkpoint / "maya_rllib.json").write_text(json.dumps(metadata))
    return metadata


@pytest.fixture
def no_ray(monkeypatch):
    """Ray cannot be imported, where it is installed too: ``ray`` and every ``ray.*`` module an
    earlier test imported (a cached submodule would still import) are blocked."""
    for name in [name for name in sys.modules if name == "ray" or name.startswith("ray.")] + ["ray"]:
        monkeypatch.setitem(sys.modules, name, None)


def test_a_ray_checkpoint_without_its_export_is_refused_before_any_pickle(tmp_path, no_ray):
    from maya_envs.wrappers.opponents import make_opponent

    marker = tmp_path / "marker"
    run_dir = tmp_path / "run"
    checkpoint = ray_checkpoint_with_payload(run_dir / "checkpoint", marker, {"game": GAME, "modules": MAPPING})
    load_rllib_agent.cache_clear()
    message = rf"checkpoint '{checkpoint}' is not read: it has no weights-only export.*python -m training\.rllib_export"
    for spec in (f"rllib:{checkpoint}", f"rllib:{run_dir}"):
        with pytest.raises(UnreadableModel, match=message):
            play_match(lambda: make_aec_env(GAME, {}), spec, "random", games=1)
        with pytest.raises(UnreadableModel, match=message):
            make_opponent(spec, DEFAULT_GAME.make_rules(), 0)
    assert not marker.exists()


def test_an_export_plays_in_the_arena_without_ray(tmp_path, no_ray):
    _hand_made_export(tmp_path)
    load_rllib_agent.cache_clear()
    result = play_match(lambda: make_aec_env(GAME, {}), f"rllib:{tmp_path}", "random", games=2)
    assert result.games == 2 and result.illegal_actions == 0
    agent, env = load_rllib_agent(f"rllib:{tmp_path}"), make_aec_env(GAME, {})
    env.reset(seed=3)
    observation = env.observe(env.agent_selection)
    net = agent.modules[MAPPING[env.agent_selection]]
    expected = net(torch.as_tensor(observation["observation"][None]), torch.as_tensor(observation["action_mask"][None]))
    assert np.array_equal(agent.action_logits(observation, env.agent_selection), expected[0].detach().numpy())
    assert agent.modules["seat_1"].action_feature_block is not None


def test_an_export_weight_file_with_a_payload_is_refused_without_running_it(tmp_path):
    marker = tmp_path / "marker"
    _hand_made_export(tmp_path)
    pt_with_payload(weight_file(tmp_path, "seat_1"), marker)
    with pytest.raises(
        UnreadableModel, match=r"'seat_1\.pt' holds more than tensors.*python -m training\.rllib_export"
    ):
        RLlibAgent(tmp_path)
    assert not marker.exists()


def _set(path: list, value):
    def change(metadata, checkpoint):
        target = metadata
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _rename_module(new: str, mapped_as=None):
    """seat_1 exported as ``new``, and mapped as ``mapped_as`` (default ``new``)."""

    def change(metadata, checkpoint):
        metadata["modules"]["player_1"] = new if mapped_as is None else mapped_as
        metadata["export"]["modules"][new] = metadata["export"]["modules"].pop("seat_1")

    return change


def _other_game_version(metadata, checkpoint):
    """seat_0 as a network (weights and description alike) of 7 observation values."""
    spec = {**metadata["export"]["modules"]["seat_0"], "observation_size": 7}
    metadata["export"]["modules"]["seat_0"] = spec
    save_net(checkpoint, "seat_0", MaskedPolicyNet(spec))


MALFORMED = {
    "format": (_set(["export", "format"], "pickle"), "is not of format maya_envs.rllib_export/1"),
    "module id a path": (_rename_module("../../evil"), "module id '../../evil'; allowed: 1 to 64 letters"),
    "module id huge": (_rename_module("x" * 100_000), r"module id 'xxx.*\(100,000 chars\)"),
    "activation": (_set(["export", "modules", "seat_0", "activation"], "os.system"), r"activation='os\.system'"),
    "layer size": (_set(["export", "modules", "seat_0", "hiddens"], [2**40]), r"hiddens=\[1099511627776\]; allowed"),
    "feature block": (
        _set(["export", "modules", "seat_1", "action_feature_block"], [0, 10**6, 1]),
        "action_feature_block",
    ),
    "gain": (_set(["export", "modules", "seat_0", "action_feature_gain"], float("nan")), "action_feature_gain=nan"),
    "weights": (
        _set(["export", "modules", "seat_0", "hiddens"], [16, 9]),
        r"'seat_0\.pt' does not fit its description",
    ),
    "mapping": (_set(["modules", "player_1"], "seat_7"), "mapping .* does not name the exported modules"),
    "game": (_set(["game"], "chess"), "its game and options do not make a game"),
    "options": (_set(["game_options"], []), r"its game_options \[\] are not a JSON object"),
    "module id a number": (_rename_module("1", mapped_as=1), "mapping .* does not name the exported modules"),
    "version": (_other_game_version, r"7 observation values .*another game version"),
    "agents": (
        _set(["modules", "player_2"], "seat_0"),
        r"agents \['player_0', 'player_1', 'player_2'\] are not the game's",
    ),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_export_is_refused_naming_what_is_wrong(tmp_path, case):
    change, match = MALFORMED[case]
    metadata = _hand_made_export(tmp_path)
    change(metadata, tmp_path)
    (tmp_path / "maya_rllib.json").write_text(json.dumps(metadata))
    with pytest.raises(UnreadableModel, match=match) as error:
        RLlibAgent(tmp_path)
    assert str(tmp_path) in str(error.value) and len(str(error.value)) < 1000
    assert not (tmp_path.parent / "evil.pt").exists()


# -- with Ray: the export of a real RLModule plays its moves -------------------------------------


def _ray_checkpoint(checkpoint: Path) -> dict:
    """A checkpoint laid out as training.rllib_train's, without the export: two RLModules of the
    default game (seat_0 a plain MLP, seat_1 with the feature head), weights drawn at random."""
    from training.rllib_env import MayaMultiAgentEnv
    from training.rllib_module import MaskedPPOTorchRLModule
    from training.rllib_train import action_feature_block

    env = MayaMultiAgentEnv({"game": GAME})
    base = {"fcnet_hiddens": [16, 8], "fcnet_activation": "tanh", "vf_share_layers": False}
    configs = {"seat_0": base, "seat_1": {**base, "action_feature_block": list(action_feature_block(GAME, {}))}}
    torch.manual_seed(1)
    for module_id, config in configs.items():
        module = MaskedPPOTorchRLModule(
            observation_space=env.observation_spaces["player_0"], action_space=env.action_spaces["player_0"],
            model_config=config,
        )  # fmt: skip
        for parameter in module.parameters():
            torch.nn.init.normal_(parameter, std=0.5)
        module.save_to_path(str(checkpoint / "learner_group" / "learner" / "rl_module" / module_id))
    metadata = {"game": GAME, "game_options": {}, "policy_mapping": "per_seat", "modules": dict(MAPPING)}
    (checkpoint / "maya_rllib.json").write_text(json.dumps(metadata))
    return metadata


@needs_ray
def test_the_export_plays_the_ray_modules_moves(tmp_path):
    from ray.rllib.core.rl_module.rl_module import RLModule

    from training.rllib_export import main as export_main

    checkpoint = tmp_path / "checkpoint"
    _ray_checkpoint(checkpoint)
    with pytest.raises(UnreadableModel, match="no weights-only export"):
        RLlibAgent(tmp_path)
    assert export_main([str(tmp_path)]) == 0  # a run directory names its checkpoint
    agent = RLlibAgent(tmp_path)
    root = checkpoint / "learner_group" / "learner" / "rl_module"
    ray_modules = {module_id: RLModule.from_checkpoint(str(root / module_id)) for module_id in ("seat_0", "seat_1")}
    env, rng, moves = make_aec_env(GAME, {}), np.random.default_rng(0), 0
    for seed in range(3):
        env.reset(seed=seed)
        for agent_name in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            batch = {key: torch.as_tensor(observation[key][None]) for key in ("observation", "action_mask")}
            with torch.no_grad():
                theirs = ray_modules[MAPPING[agent_name]].forward_inference({"obs": batch})["action_dist_inputs"][0]
            legal = observation["action_mask"].astype(bool)
            ours = agent.action_logits(observation, agent_name)
            assert np.allclose(ours[legal], theirs.numpy()[legal], atol=1e-5)
            assert agent.choose(env, agent_name) == int(np.argmax(np.where(legal, theirs.numpy(), -np.inf)))
            moves += 1
            env.step(int(rng.choice(np.flatnonzero(legal))))
    assert moves > 50


def test_the_export_command_refuses_a_folder_without_a_checkpoint(tmp_path, capsys):
    from training.rllib_export import main as export_main

    with pytest.raises(SystemExit) as exit_info:
        export_main([str(tmp_path)])
    assert exit_info.value.code == 2 and "no RLlib checkpoint of training.rllib_train" in capsys.readouterr().err


def test_the_export_command_without_ray_names_the_extra(tmp_path, capsys, no_ray):
    from training.rllib_export import main as export_main

    marker = tmp_path / "marker"
    ray_checkpoint_with_payload(tmp_path / "checkpoint", marker, {"game": GAME, "modules": dict(MAPPING)})
    with pytest.raises(SystemExit) as exit_info:
        export_main([str(tmp_path)])
    assert exit_info.value.code == 2 and "exporting needs Ray RLlib" in capsys.readouterr().err
    assert not marker.exists()
