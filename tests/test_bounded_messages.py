"""Every message that echoes an input stays a line, whatever the input's size (issue 44 item 3):
a value is shown shortened with its length, a list of names counted past three, and no
"did you mean" search runs over a megabyte name."""

from __future__ import annotations

import dataclasses

import pytest

from maya_envs.core.errors import MAX_SHOWN_CHARS, close_matches, listed, shorten
from maya_envs.core.options import config_from_mapping
from maya_envs.core.state_dict import choice, int_field, int_list
from maya_envs.games import DEFAULT_GAME, find_game

MIB_7 = "x" * (7 * 1024 * 1024)
MANY_KEYS = {f"k{i}": 1 for i in range(600_000)}
LONGEST_LINE = 400
"""No message below may be longer (the known names a message lists included)."""


@pytest.mark.parametrize(
    ("value", "size"),
    [(MIB_7, "(7,340,032 chars)"), (MIB_7.encode(), "(7,340,032 bytes)"), (MANY_KEYS, "(600,000 keys)"),
     (list(range(600_000)), "(600,000 items)"), ([[[[[[["deep"]]]]]]], "(1 items)")],
    ids=["str", "bytes", "dict", "list", "nested"],
)  # fmt: skip
def test_a_long_value_is_shortened_with_its_length(value, size):
    text = shorten(value)
    assert text.endswith(size) and len(text) <= MAX_SHOWN_CHARS + len(size) + 1, text


@pytest.mark.parametrize("value", ["heuristic", 12, None, [1, 2], {"a": 1}, 1.5])
def test_a_short_value_is_its_repr(value):
    assert shorten(value) == repr(value)


def test_an_int_past_pythons_digit_limit_is_described_not_raised():
    assert shorten(10**5000) == f"<an int of {(10**5000).bit_length():,} bits>"


def test_names_past_three_are_counted_not_listed():
    assert listed(MANY_KEYS) == "['k0', 'k1', 'k2'] and 599,997 more"
    assert listed(["a", "b"]) == repr(["a", "b"])
    assert len(listed([MIB_7] * 3)) < 200


def test_a_huge_name_gets_no_did_you_mean_search():
    assert close_matches("heuristik", ["heuristic"]) == ["heuristic"]
    assert close_matches("heuristic" + MIB_7, ["heuristic"]) == []


def _message(call, *args) -> str:
    with pytest.raises(ValueError) as caught:
        call(*args)
    message = str(caught.value)
    assert len(message) <= LONGEST_LINE, message[:500]
    return message


def test_an_unknown_game_of_7_mib_is_named_in_a_line():
    assert "(7,340,032 chars)" in _message(find_game, MIB_7)


def test_unknown_options_and_option_values_are_counted_and_shortened():
    config = type(DEFAULT_GAME.make_rules({}).config)
    assert "599,997 more" in _message(config_from_mapping, config, MANY_KEYS, "Maya")
    field = dataclasses.fields(config)[0].name
    assert "(7,340,032 chars)" in _message(config_from_mapping, config, {field: MIB_7}, "Maya")


@pytest.mark.parametrize(
    ("check", "args"),
    [(int_field, (0, 9)), (int_list, (3, 0, 9)), (choice, (("a", "b"),))],
    ids=["int", "int-list", "choice"],
)
def test_a_saved_states_bad_field_is_shortened(check, args):
    assert "(7,340,032 chars)" in _message(check, "field", MIB_7, *args)


@pytest.mark.parametrize(
    "spec", ["mcts:" + MIB_7, "mcts:" + "9" * 5000, "mcts:8:" + MIB_7 + "=1"],
    ids=["long-part", "5000-digit-count", "long-option"],
)
def test_a_bot_spec_of_megabytes_is_named_in_a_line(spec):
    """The message names the spec (and the bad part) shortened, then the grammar's syntax (a
    fixed text): it fits a maya-web answer uncut (600 characters)."""
    from maya_envs.bot_kinds import BOT_KINDS

    with pytest.raises(ValueError) as caught:
        BOT_KINDS["mcts"].read(spec)
    message = str(caught.value)
    assert f"({len(spec):,} chars)" in message and "Exceeds the limit" not in message, message[:300]
    assert len(message) <= 600, message[:300]
