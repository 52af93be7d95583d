"""Model files are data, and names never become files (issue 44, items 1, 2 and 5).

Each loading path gets a crafted file (:mod:`tests.crafted_models`) that would create a marker
file if the loader ran the pickle inside it: the marker never appears and the error names the
file. A file named like a bot in the working directory never changes what the name means.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from maya_envs import pretrained
from maya_envs.games import find_game
from maya_envs.players import names_checkpoint, resolve_player
from tests.crafted_models import zip_with_serialized_entry

SHIPPED_ZIP = Path(pretrained.__file__).parent / "maya2012_2p.zip"


def _rules():
    return find_game("maya2012").make_rules()


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


@pytest.mark.parametrize("spec", ["policy:runs/x/model.pt", "az:./net.pt:8", "pretrained:maya2012_2p"])
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
