"""The network's sizes are ints >= 1, never a bool (maya_envs.core.checks.is_int): ``True``
passed as ``hidden`` or ``num_values`` built a one-unit layer before (issue 48 item 4)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from maya_envs.nn.model import PolicyValueNet  # noqa: E402

SIZES = {"board_dim": 5, "feature_dim": 2, "num_actions": 7, "num_values": 3, "hidden": 8}


@pytest.mark.parametrize("name", sorted(SIZES))
@pytest.mark.parametrize("bad", [True, 0, 2.0, "8", None])
def test_a_size_that_is_not_an_int_of_at_least_one_is_refused(name, bad):
    with pytest.raises(ValueError, match=f"{name}=.*allowed: an int >= 1"):
        PolicyValueNet(**{**SIZES, name: bad})


def test_good_sizes_build():
    assert PolicyValueNet(**SIZES).config["hidden"] == 8
