"""Which file a network spec's ``<model>`` names (:func:`maya_envs.nn.specs.model_path`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from maya_envs.nn.specs import model_path
from maya_envs.pretrained import network_file, network_names


@pytest.fixture
def shipped_name() -> str:
    names = network_names()
    if not names:
        pytest.skip("no shipped network")
    return names[0]


def test_a_shipped_name_wins_over_a_file_of_that_name_in_the_working_directory(tmp_path, monkeypatch, shipped_name):
    monkeypatch.chdir(tmp_path)
    (tmp_path / shipped_name).write_bytes(b"not a network")
    assert model_path(shipped_name) == network_file(shipped_name)
    assert model_path(f"./{shipped_name}").resolve() == (tmp_path / shipped_name).resolve()


def test_a_name_that_is_a_path_or_a_checkpoint_must_exist(tmp_path, monkeypatch, shipped_name):
    monkeypatch.chdir(tmp_path)
    for missing in (f"./{shipped_name}", "runs/model", "missing.pt"):
        with pytest.raises(ValueError, match=f"network checkpoint {missing!r} does not exist"):
            model_path(missing)
    with pytest.raises(ValueError, match="neither a .pt checkpoint nor a shipped network; shipped: "):
        model_path("no_such_network")
    (tmp_path / "local_net").write_bytes(b"x")
    assert model_path("local_net") == Path("local_net")  # an existing file that is no shipped name
