"""One name per checkpoint in every table (maya_envs.evaluation.checkpoint_name): maya-train's
evaluation, maya-eval, maya-arena and maya-web all call a run's model by the run's exp_name; and
maya-eval on a checkpoint without its run's config.yaml names the --config/--game to pass."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from maya_envs.evaluation import checkpoint_name

pytest.importorskip("sb3_contrib")

from maya_envs import pretrained  # noqa: E402
from maya_envs.evaluation import resolve_agent  # noqa: E402
from maya_envs.games import DEFAULT_GAME, find_game  # noqa: E402
from maya_envs.pretrained import list_pretrained, pretrained_info  # noqa: E402
from maya_envs.web.__main__ import _checkpoint  # noqa: E402
from tests.conformance import default_variant  # noqa: E402
from training.config import load_config  # noqa: E402
from training.evaluate import main as maya_eval  # noqa: E402

#: A shipped MaskablePPO baseline of a game other than the default one (so that maya-eval cannot
#: name its game by guessing the default), the one with the fewest seats (the quickest to play).
MODEL = min(
    (
        info
        for info in map(pretrained_info, list_pretrained())
        if info.kind == "sb3" and find_game(info.game) is not DEFAULT_GAME
    ),
    key=lambda info: info.num_players,
)
GAME = find_game(MODEL.game)
EXP_NAME = f"{GAME.key}_mine"


def shipped_model(name: str, to: Path) -> Path:
    """A shipped MaskablePPO baseline copied to ``to`` (a real checkpoint, no training)."""
    to.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(Path(pretrained.__file__).parent / pretrained_info(name).file, to)
    return to


def fake_run(tmp_path: Path, exp_name: str = EXP_NAME) -> Path:
    """A run directory as maya-train writes it: config.yaml (TrainConfig.to_dict) and model.zip."""
    run = tmp_path / f"{MODEL.env_id.split('/')[-1]}__{exp_name}__1__20260101-000000"
    config = load_config(MODEL.config, [f"exp_name={exp_name}"])
    shipped_model(MODEL.name, run / "model.zip")
    (run / "config.yaml").write_text(yaml.safe_dump(config.to_dict(), sort_keys=False))
    return run


def test_a_run_model_is_named_by_its_exp_name(tmp_path):
    run = fake_run(tmp_path)
    assert checkpoint_name(run / "model.zip") == EXP_NAME  # what maya-train's table says
    shipped_model(MODEL.name, run / "checkpoints" / "model_2048_steps.zip")
    assert checkpoint_name(run / "checkpoints" / "model_2048_steps.zip") == f"{EXP_NAME}/model_2048_steps"
    assert checkpoint_name(tmp_path / "loose" / "model.zip") == "loose/model"  # no config: folder/stem
    (tmp_path / "loose").mkdir()
    (tmp_path / "loose" / "config.yaml").write_text("[not, a, mapping]")
    assert checkpoint_name(tmp_path / "loose" / "model.zip") == "loose/model"


def test_eval_arena_and_web_use_the_same_name(tmp_path, capsys):
    run = fake_run(tmp_path)
    model = run / "model.zip"
    assert maya_eval(["--checkpoint", str(model), "--games", "2", "--opponents", "random"]) == 0
    assert f"| {EXP_NAME} | random | 2 |" in capsys.readouterr().out
    name, _agent = resolve_agent(str(model))
    assert name == EXP_NAME
    assert _checkpoint(str(model)) == (EXP_NAME, str(model))
    assert _checkpoint(f"other={model}") == ("other", str(model))  # a label still wins


def test_eval_without_a_config_names_what_to_pass(tmp_path, capsys):
    model = shipped_model(MODEL.name, tmp_path / "model.zip")
    with pytest.raises(SystemExit):
        maya_eval(["--checkpoint", str(model), "--games", "2"])
    err = capsys.readouterr().err
    assert "no config.yaml beside" in err and "--config" in err
    n = MODEL.num_players
    variant = MODEL.game_options.get(GAME.variant_option, default_variant(GAME, n))
    assert f"--game {GAME.key} --players {n} --set game_options.{GAME.variant_option}={variant}" in err
    assert DEFAULT_GAME.key not in err.split("actions:")[-1]  # no guess of the default game
    # and with what it named, it plays
    assert maya_eval(["--checkpoint", str(model), "--game", GAME.key, "--players", str(n), "--games", "2",
                      "--opponents", "random"]) == 0  # fmt: skip
    assert f"| {tmp_path.name}/model | random | 2 |" in capsys.readouterr().out  # no run: folder/stem
