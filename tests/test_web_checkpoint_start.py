"""``maya-web --checkpoint NAME=PATH`` reads each file at start with the reader its seat will use
(:func:`maya_envs.web.seats.check_checkpoint_file`): a file no seat can load exits 2 naming the
file and the reason, before anything is served; a loadable one starts the server."""

from __future__ import annotations

from pathlib import Path

import pytest

from maya_envs import pretrained
from tests.crafted_models import zip_with_serialized_entry

pytest.importorskip("sb3_contrib")


def _shipped(kind: str) -> Path:
    name = next(n for n in pretrained.list_pretrained() if pretrained.pretrained_info(n).kind == kind)
    return Path(pretrained.__file__).parent / pretrained.pretrained_info(name).file


class Served(Exception):
    """Raised instead of binding a socket: the server would have started."""


@pytest.fixture
def web_main(monkeypatch):
    import werkzeug.serving

    import maya_envs.players
    from maya_envs.web.__main__ import main

    def serve_nothing(host, port, app, threaded):
        raise Served

    monkeypatch.setattr(werkzeug.serving, "make_server", serve_nothing)
    monkeypatch.setattr(maya_envs.players, "one_torch_thread", lambda: None)
    return main


def _bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n")
    fake_pt = tmp_path / "net.pt"
    fake_pt.write_bytes(b"not a torch file")
    crafted = zip_with_serialized_entry(_shipped("sb3"), tmp_path / "model.zip", tmp_path / "marker", "policy_kwargs")
    return {"text": (text, "not a MaskablePPO zip"), "pt": (fake_pt, "network"), "zip": (crafted, "policy_kwargs")}


@pytest.mark.parametrize("kind", ["text", "pt", "zip"])
def test_a_checkpoint_no_seat_can_load_is_refused_at_start_naming_file_and_reason(kind, tmp_path, web_main, capsys):
    path, reason = _bad_files(tmp_path)[kind]
    assert web_main(["--checkpoint", f"x={path}", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("maya-web: --checkpoint x: ") and path.name in err and reason in err
    assert not (tmp_path / "marker").exists()


@pytest.mark.parametrize("kind", ["sb3", "network"])
def test_a_loadable_checkpoint_starts_the_server(kind, web_main):
    with pytest.raises(Served):
        web_main(["--checkpoint", f"x={_shipped(kind)}", "--port", "0"])
