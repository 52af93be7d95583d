"""The save/load validators of :mod:`maya_envs.core.state_dict` (issue 18). The contract every
game keeps (the header, a JSON round trip, a corrupted field named, every reached state loads
back) is in tests/test_conformance.py; the states a game's rules cannot play are refused in
``tests/<game>/test_saved_states.py``."""

from __future__ import annotations

import pytest

from maya_envs.core import state_dict as V
from maya_envs.core.errors import StateError


def test_validators_name_the_item():
    with pytest.raises(StateError, match=r"^state\.grid\[1\]\[0\]: must be an int in 0\.\.3, got 9$"):
        V.int_grid("grid", [[0, 1], [9, 2]], 2, 2, 0, 3)
    with pytest.raises(StateError, match=r"^state\.flags: must be a list of 2 bools"):
        V.bool_list("flags", [True, 1], 2)
    with pytest.raises(StateError, match=r"^state\.count: must be an int in 0\.\.5, got True$"):
        V.int_field("count", True, 0, 5)
    assert V.int_list("xs", [1, 2], None, 0, 9) == [1, 2]
    assert V.read_header(V.header("g", 2), "g", (1, 2)) == 2
