"""A refused .pt/.pth file's message is our one-line reason plus at most torch's fact (which
global the file asked for), never torch's advice to load it with ``weights_only=False``; and the
conversion command (a step that trusts the file) is only for the one who named the file on a
command line, never in what a web page is told."""

from __future__ import annotations

from pathlib import Path

import pytest

from maya_envs import pretrained
from maya_envs.torch_errors import MAX_REASON_CHARS, torch_load_reason
from tests.crafted_models import pt_with_payload, torch_bytes_with_payload, zip_with_member

torch = pytest.importorskip("torch")

ADVICE = ("weights_only", "Re-running", "will likely succeed", "trust the source", "add_safe_globals", "\x1b[")
SB3_NAME = next(n for n in pretrained.list_pretrained() if pretrained.pretrained_info(n).kind == "sb3")
SHIPPED_ZIP = Path(pretrained.__file__).parent / pretrained.pretrained_info(SB3_NAME).file


def _torch_refusal(path: Path) -> Exception:
    try:
        torch.load(path, weights_only=True)
    except Exception as error:  # noqa: BLE001 - whatever torch raises is what the reason reads
        return error
    raise AssertionError("torch read the crafted file")


def _no_advice(message: str) -> None:
    assert not [words for words in ADVICE if words in message], message


def test_the_reason_is_torchs_fact_in_one_short_line(tmp_path):
    error = _torch_refusal(pt_with_payload(tmp_path / "c.pt", tmp_path / "marker"))
    assert len(str(error)) > 500  # torch's own message: many lines of advice
    reason = torch_load_reason(error)
    assert reason.startswith("Unsupported global: GLOBAL io.open was not an allowed global")
    assert "\n" not in reason and len(reason) <= MAX_REASON_CHARS
    _no_advice(reason)


def test_a_reason_without_the_unpickler_line_is_torchs_first_sentence_shortened():
    assert torch_load_reason(RuntimeError("Bad magic. More words.\nsecond line")) == "Bad magic"
    assert len(torch_load_reason(RuntimeError("x" * 5000))) == MAX_REASON_CHARS
    assert torch_load_reason(EOFError()) == "EOFError"


def test_a_crafted_network_file_is_refused_in_one_line_without_advice(tmp_path):
    from maya_envs.nn.model import load_network

    with pytest.raises(ValueError) as caught:
        load_network(pt_with_payload(tmp_path / "net.pt", tmp_path / "marker"))
    message = str(caught.value)
    assert f"{str(tmp_path / 'net.pt')!r} is not a maya_envs network checkpoint (Unsupported global" in message
    assert "\n" not in message and len(message) < 300
    _no_advice(message)


def test_a_crafted_exit_checkpoint_keeps_the_cli_conversion_hint_without_torchs_advice(tmp_path):
    from training.exit.checkpoint import CONVERT, load_checkpoint

    with pytest.raises(ValueError) as caught:
        load_checkpoint(pt_with_payload(tmp_path / "ck.pt", tmp_path / "marker"))
    message = str(caught.value)
    assert "Unsupported global" in message and message.endswith(CONVERT) and "\n" not in message
    _no_advice(message)


def _crafted_zip(tmp_path: Path) -> Path:
    content = torch_bytes_with_payload(tmp_path / "marker")
    return zip_with_member(SHIPPED_ZIP, tmp_path / "model.zip", "policy.pth", content)


def test_a_zip_with_a_crafted_policy_pth_names_the_member_and_the_command_for_the_cli(tmp_path):
    from maya_envs.players import load_checkpoint
    from maya_envs.sb3_zip import CONVERT

    with pytest.raises(ValueError) as caught:
        load_checkpoint(str(_crafted_zip(tmp_path)))
    message = str(caught.value)
    assert "policy.pth holds more than tensors (Unsupported global" in message and CONVERT in message
    assert "\n" not in message
    _no_advice(message)


def test_a_web_page_is_never_told_the_conversion_command(tmp_path):
    from maya_envs.games import find_game
    from maya_envs.web.seats import build_seat

    game = find_game(pretrained.pretrained_info(SB3_NAME).game)
    path = str(_crafted_zip(tmp_path))
    with pytest.raises(ValueError) as caught:
        build_seat("checkpoint:mine", game.make_rules(), 0, {"mine": path})
    message = str(caught.value)
    assert "holds more than tensors" in message and "python -m" not in message and "convert" not in message
    assert path not in message
    _no_advice(message)
    assert not (tmp_path / "marker").exists()
