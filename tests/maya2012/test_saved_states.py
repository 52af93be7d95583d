"""The Maya (2012) saved-state header; the save/load contract every game keeps is in
tests/test_conformance.py."""

from __future__ import annotations

from maya_envs.maya2012.rules import Maya2012Rules
from tests.conformance import saved_states


def test_the_saved_state_header_is_maya2012_state_version_2():
    """The saved format is pinned: a change to it bumps the version (older saves then refused)."""
    for options in ({"num_players": 2}, {"num_players": 4, "setup": "draft"}):
        data = next(saved_states(Maya2012Rules(options), 0))
        assert (data["schema"], data["version"]) == ("maya2012.state", 2)
