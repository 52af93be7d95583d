"""Yaxha's per-action feature blocks, pinned (the action-feature policy reads them by name).
Moved from tests/test_policies.py (issue 31 item 2: a game's pinned values live in its folder)."""

from __future__ import annotations

import maya_envs  # noqa: F401  (registers the ids)
from maya_envs.games import GAMES
from tests.helpers.features import check_feature_block

ENV_ID = GAMES["yaxha"].gym_id


def test_the_feature_blocks_are_pinned():
    for options, block in [
        ({"num_players": 2, "action_features": True}, (1326, 3, 632)),
        ({"num_players": 4, "footprint": "fixed", "action_features": True}, (714, 3, 154)),
    ]:
        check_feature_block(ENV_ID, options, block)
