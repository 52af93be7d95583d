"""Model files are data, and names never become files (issue 44, items 1, 2 and 5).

Each loading path gets a crafted file (:mod:`tests.crafted_models`) that would create a marker
file if the loader ran the pickle inside it: the marker never appears and the error names the
file. A file named like a bot in the working directory never changes what the name means.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from maya_envs import pretrained
from maya_envs.games import find_game
from maya_envs.players import names_checkpoint, resolve_player
from tests.conformance import shipped_config
from tests.crafted_models import zip_with_serialized_entry

SB3_NAME = next(n for n in pretrained.list_pretrained() if pretrained.pretrained_info(n).kind == "sb3")
"""A shipped MaskablePPO baseline (the first of the registry), the template of the crafted zips."""
SB3_GAME = find_game(pretrained.pretrained_info(SB3_NAME).game)
SHIPPED_ZIP = Path(pretrained.__file__).parent / pretrained.pretrained_info(SB3_NAME).file


def _rules():
    return SB3_GAME.make_rules()


@pytest.fixture
def crafted_cwd(tmp_path, monkeypatch):
    """A working directory holding a text file ``heuristic`` and a crafted MaskablePPO zip
    named ``random``; returns the marker its payload would create."""
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "marker"
    (tmp_path / "heuristic").write_text("not a model")
    zip_with_serialized_entry(SHIPPED_ZIP, tmp_path / "random", marker)
    return marker


@pytest.mark.parametrize("word", ["heuristic", "random", "human", "pretrained", "model", "mcts"])
def test_a_bare_word_never_names_a_file(word):
    assert not names_checkpoint(word)


@pytest.mark.parametrize(
    "spec", ["checkpoint:model", "./random", "runs/x/model.zip", "model.zip", "net.pt", Path("random")]
)
def test_an_explicit_file_names_a_file(spec):
    assert names_checkpoint(spec)


@pytest.mark.parametrize("spec", ["policy:runs/x/model.pt", "az:./net.pt:8", f"pretrained:{SB3_NAME}"])
def test_a_bot_or_shipped_spec_with_a_path_inside_is_no_file(spec):
    assert not names_checkpoint(spec)


def _bot_type(player):
    """The bot class of an opponent (``OpponentPolicy``) or of a bot."""
    return type(getattr(player, "_bot", player))


@pytest.mark.parametrize("word", ["heuristic", "random"])
def test_a_file_named_like_a_bot_never_changes_the_seat(crafted_cwd, word):
    """maya-play --seats and maya-stats --lineup (load_seat), gym opponents and the resolver
    with files allowed, and maya-arena --agents: the name stays the bot."""
    from maya_envs.bot_kinds import make_bot
    from maya_envs.cli.play import load_seat
    from maya_envs.evaluation.arena import resolve_agent
    from maya_envs.wrappers.opponents import make_opponent

    rules = _rules()
    expected = type(make_bot(word, rules, 0))
    assert _bot_type(load_seat(word, rules, seed=0)) is expected
    assert _bot_type(make_opponent(word, rules, 0, files=True)) is expected
    assert _bot_type(resolve_player(word, rules, 0, files=True)) is expected
    assert resolve_agent(word) == (word, word)
    assert not crafted_cwd.exists()


def test_a_bare_word_file_is_an_unknown_bot_and_checkpoint_prefix_names_it(crafted_cwd):
    from maya_envs.cli.play import load_seat

    shutil.copy(SHIPPED_ZIP, "mymodel")
    with pytest.raises(ValueError, match="unknown bot 'mymodel'"):
        load_seat("mymodel", _rules(), seed=0)
    assert load_seat("checkpoint:mymodel", _rules(), seed=0)._kind == "model"


# -- model files are data: a crafted file per loading path -------------------------------------

CRAFTED_ZIPS = ("extra_entry", "policy_class", "policy.pth")


@pytest.fixture(params=CRAFTED_ZIPS)
def crafted_zip(request, tmp_path):
    """``(zip, marker)``: the shipped 2p MaskablePPO zip with a payload in its ``data`` JSON (an
    extra pickled entry, or the pickled policy class replaced) or in its ``policy.pth``; the
    marker is named after the variant."""
    from tests.crafted_models import torch_bytes_with_payload, zip_with_member

    marker = tmp_path / request.param
    target = tmp_path / "crafted.zip"
    if request.param == "policy.pth":
        zip_with_member(SHIPPED_ZIP, target, "policy.pth", torch_bytes_with_payload(marker))
    else:
        zip_with_serialized_entry(SHIPPED_ZIP, target, marker, key=request.param)
    return target, marker


def test_load_checkpoint_refuses_a_crafted_zip_without_running_it(crafted_zip):
    from maya_envs.players import load_checkpoint

    path, marker = crafted_zip
    if marker.name == "policy_class":  # the pickled class is never read: its readable name is
        assert type(load_checkpoint(str(path)).policy).__name__ == "ActionFeaturePolicy"
    else:
        with pytest.raises(ValueError, match=r"crafted\.zip' is not read: .*python -m maya_envs\.sb3_zip"):
            load_checkpoint(str(path))
    assert not marker.exists()


def test_every_command_refuses_a_crafted_zip_without_running_it(tmp_path, capsys):
    """maya-eval --checkpoint, maya-arena --agents NAME=x.zip, maya-stats --lineup x.zip and
    maya-play --seats x.zip (load_seat), maya-web --checkpoint (a files=True opponent),
    maya-train --resume x.zip (before the budget check), self-play snapshots, publish."""
    from maya_envs.cli.play import load_seat
    from maya_envs.evaluation.arena import resolve_agent
    from maya_envs.wrappers.opponents import make_opponent
    from training.evaluate import main as maya_eval
    from training.publish import publish
    from training.self_play import load_snapshot
    from training.train import main as maya_train

    marker = tmp_path / "marker"
    path = zip_with_serialized_entry(SHIPPED_ZIP, tmp_path / "model.zip", marker)
    for command in (
        lambda: maya_eval(["--checkpoint", str(path), "--game", SB3_GAME.key]),
        lambda: maya_train(["--config", shipped_config(SB3_GAME, "quick"), "--resume", str(path)]),
    ):
        with pytest.raises(SystemExit):
            command()
        assert "is not read" in capsys.readouterr().err
    for load in (
        lambda: resolve_agent(f"x={path}"),
        lambda: load_seat(str(path), _rules(), seed=0),
        lambda: make_opponent(str(path), _rules(), 0, files=True),
        lambda: load_snapshot(str(path)),
    ):
        with pytest.raises(ValueError, match="is not read"):
            load()
    (tmp_path / "config.yaml").write_text("{}")
    (tmp_path / "evaluation.json").write_text("{}")
    with pytest.raises(ValueError, match="is not read"):
        publish(tmp_path, "crafted", shipped_config(SB3_GAME, "quick"), package_dir=tmp_path)
    assert not marker.exists()


def test_the_safe_loader_plays_every_shipped_zip_as_sb3_itself_loads_it():
    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO

    from maya_envs.sb3_zip import load_maskable_ppo

    for name in pretrained.list_pretrained():
        info = pretrained.pretrained_info(name)
        if info.kind != "sb3":
            continue
        path = Path(pretrained.__file__).parent / info.file
        theirs, ours = MaskablePPO.load(path, device="cpu"), load_maskable_ppo(path)
        assert type(ours.policy) is type(theirs.policy) and ours.num_timesteps == theirs.num_timesteps
        mine, other = ours.policy.state_dict(), theirs.policy.state_dict()
        assert mine.keys() == other.keys() and all(torch.equal(mine[k], other[k]) for k in mine)
        rng = np.random.default_rng(0)
        observations = rng.random((32, *info.observation_shape)).astype(np.float32)
        masks = rng.random((32, info.num_actions)) < 0.3
        masks[:, 0] = True
        assert np.array_equal(
            ours.predict(observations, action_masks=masks, deterministic=True)[0],
            theirs.predict(observations, action_masks=masks, deterministic=True)[0],
        )


def test_a_crafted_network_pt_is_refused_as_a_policy_seat(tmp_path):
    from maya_envs.bot_kinds import make_bot
    from tests.crafted_models import pt_with_payload

    marker = tmp_path / "marker"
    path = pt_with_payload(tmp_path / "net.pt", marker, {"format": "maya_envs.policy_value_net"})
    for spec in (f"policy:{path}", f"az:{path}:4"):
        with pytest.raises(ValueError, match="is not a maya_envs network checkpoint"):
            make_bot(spec, _rules(), 0)
    with pytest.raises(ValueError, match="is not a maya_envs network checkpoint"):
        resolve_player(str(path), _rules(), 0, files=True)
    assert not marker.exists()


def test_an_exit_checkpoint_with_a_payload_is_refused_by_resume_and_refit(tmp_path, capsys):
    from tests.crafted_models import pt_with_payload
    from training.exit.checkpoint import FORMAT
    from training.exit.refit import refit
    from training.train import main as maya_train

    marker = tmp_path / "marker"
    run = tmp_path / "run"
    run.mkdir()
    path = pt_with_payload(run / "checkpoint.pt", marker, {"format": FORMAT, "iteration": 0})
    (run / "config.yaml").write_text("algo: exit\n")
    with pytest.raises(SystemExit):
        maya_train(["--config", shipped_config(SB3_GAME, "exit"), "--resume", str(path), "--set", f"output_dir={tmp_path}"])
    assert "holds more than tensors and plain data" in capsys.readouterr().err
    with pytest.raises(ValueError, match="holds more than tensors and plain data"):
        refit(run, [1])
    assert not marker.exists()


def test_an_exit_checkpoint_of_format_1_is_refused_with_the_conversion_and_converts(tmp_path):
    import numpy as np
    import torch

    from training.exit.checkpoint import CONVERT, OLD_FORMAT, convert, load_checkpoint

    old = tmp_path / "old.pt"
    torch.save({"format": OLD_FORMAT, "replay": [{"boards": np.ones((2, 3), np.float16)}], "step": np.int64(4)}, old)
    with pytest.raises(ValueError, match=re.escape(CONVERT)):
        load_checkpoint(old)
    data = load_checkpoint(convert(old, tmp_path / "new.pt"))
    assert data["step"] == 4 and data["replay"][0]["boards"].dtype == np.float16
    assert np.array_equal(data["replay"][0]["boards"], np.ones((2, 3)))


def test_the_conversion_command_rewrites_a_trusted_zip_that_the_safe_loader_reads(tmp_path, capsys):
    from maya_envs.sb3_zip import load_maskable_ppo, main

    assert main([str(SHIPPED_ZIP), str(tmp_path / "new.zip")]) == 0
    assert "written:" in capsys.readouterr().out
    assert load_maskable_ppo(tmp_path / "new.zip").num_timesteps == load_maskable_ppo(SHIPPED_ZIP).num_timesteps


# -- the manifest of the shipped models --------------------------------------------------------


@pytest.mark.parametrize("name", pretrained.list_pretrained())
def test_every_shipped_file_matches_its_manifest_entry(name):
    """Fails when a shipped file is replaced, or a game's version or shapes change, without
    the entry rewritten (python -m training.publish --refresh NAME, or republishing)."""
    from dataclasses import asdict

    from maya_envs.pretrained.manifest import differences

    info = pretrained.pretrained_info(name)
    assert info.sha256 and info.training_command.startswith("maya-train --config ")
    assert differences(asdict(info), Path(pretrained.__file__).parent / info.file) == []


def _shipped(kind: str) -> pretrained.PretrainedInfo:
    return next(
        pretrained.pretrained_info(n)
        for n in pretrained.list_pretrained()
        if pretrained.pretrained_info(n).kind == kind
    )


def _with_entry(monkeypatch, info: pretrained.PretrainedInfo) -> None:
    registry = {**pretrained._registry(), info.name: info}
    monkeypatch.setattr(pretrained, "_registry", lambda: registry)


def test_a_replaced_shipped_file_is_refused_saying_the_hash_differs(tmp_path, monkeypatch):
    from dataclasses import replace

    from maya_envs.bot_kinds import make_bot

    network, baseline = _shipped("network"), _shipped("sb3")
    package = Path(pretrained.__file__).parent
    other = next(n for n in pretrained.network_names() if n != network.name)
    swapped = tmp_path / "swapped.pt"
    shutil.copy(package / pretrained.pretrained_info(other).file, swapped)
    _with_entry(monkeypatch, replace(network, name="swapped_net", file=str(swapped)))
    with pytest.raises(ValueError, match=r"shipped model 'swapped_net' \(swapped.pt\) does not match .*SHA-256"):
        make_bot("policy:swapped_net", find_game(network.env_id).make_rules(network.game_options), 0)
    zipped = tmp_path / "swapped.zip"
    zip_with_serialized_entry(package / baseline.file, zipped, tmp_path / "marker")
    _with_entry(monkeypatch, replace(baseline, name="swapped_zip", file=str(zipped)))
    with pytest.raises(
        ValueError, match=r"'swapped_zip' \(swapped.zip\) does not match its manifest entry: the file's SHA"
    ):
        pretrained.load_pretrained("swapped_zip")
    assert not (tmp_path / "marker").exists()


def test_a_game_version_bump_refuses_its_shipped_models_saying_both_versions(monkeypatch):
    from dataclasses import replace

    from maya_envs import games

    network = _shipped("network")
    game = games.find_game(network.env_id)
    bumped_game = replace(game, version=game.version + 1)
    monkeypatch.setitem(games.GAMES, game.key, bumped_game)
    by_name = {name: bumped_game if entry.key == game.key else entry for name, entry in games._BY_NAME.items()}
    monkeypatch.setattr(games, "_BY_NAME", by_name)
    bumped = f"{game.key}_v{game.version + 1}"
    with pytest.raises(ValueError, match=rf"game '{network.game}' in the manifest, '{bumped}' in this maya-envs"):
        pretrained.network_file(network.name)


def test_a_manifest_entry_of_other_shapes_is_refused_saying_both(monkeypatch):
    from dataclasses import replace

    network = _shipped("network")
    wrong = (network.observation_shape[0] + 1,)
    _with_entry(monkeypatch, replace(network, name="reshaped", observation_shape=wrong))
    with pytest.raises(ValueError, match=rf"observation_shape \[{wrong[0]}\] in the manifest, \[{wrong[0] - 1}\]"):
        pretrained.network_file("reshaped")


def test_refresh_rewrites_the_manifest_of_a_deliberately_replaced_file(tmp_path):
    import json

    from training.publish import refresh

    network = _shipped("network")
    package = Path(pretrained.__file__).parent
    registry = json.loads((package / "registry.json").read_text())
    (tmp_path / "registry.json").write_text(json.dumps({network.name: registry[network.name]}))
    from maya_envs.nn.model import load_network, save_network
    from maya_envs.pretrained.manifest import differences, file_sha256

    net, meta = load_network(package / network.file)
    save_network(net, tmp_path / network.file, {**meta, "note": "retouched"})
    entry = refresh(network.name, tmp_path)
    assert entry["sha256"] == file_sha256(tmp_path / network.file) != network.sha256
    assert differences(entry, tmp_path / network.file) == []


def test_a_web_checkpoint_named_like_a_bot_plays_the_file(crafted_cwd):
    """maya-web --checkpoint x=heuristic (a file of that name): the page's checkpoint:x seat is
    that file, read as data (this one is crafted: refused, its payload never run)."""
    from maya_envs.web.seats import resolve_seat

    with pytest.raises(ValueError, match="is not read"):
        resolve_seat("checkpoint:x", _rules(), 0, {"x": "random"})
    shutil.copy(SHIPPED_ZIP, "heuristic")
    assert resolve_seat("checkpoint:x", _rules(), 0, {"x": "heuristic"})._kind == "model"
    assert not crafted_cwd.exists()


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("n_steps", 10**9, "n_steps x n_envs x observation size is"),
        ("n_envs", -1, "not positive ints"),
        ("policy_kwargs", {"net_arch": [10**6]}, "net_arch"),
        ("policy_kwargs", {"net_arch": [64], "action_feature_block": [0, 10**7, 48]}, "past the observation"),
    ],
)
def test_a_zip_asking_for_unbounded_sizes_is_refused_before_anything_is_built(tmp_path, key, value, message):
    import json
    import zipfile

    from maya_envs.sb3_zip import load_maskable_ppo
    from tests.crafted_models import zip_with_member

    data = json.loads(zipfile.ZipFile(SHIPPED_ZIP).read("data"))
    path = zip_with_member(SHIPPED_ZIP, tmp_path / "big.zip", "data", json.dumps({**data, key: value}).encode())
    with pytest.raises(ValueError, match=rf"big\.zip' is not read: .*{message}"):
        load_maskable_ppo(path)
