"""Pinned seeded trajectories: speed work must keep every Yaxha env bit-for-bit identical.

Each case plays one seeded AEC game (actions from a seeded generator over the action mask,
the heuristic bot, or the IS-MCTS bot with random rollouts, which pins ``determinize`` and
``leaf_values`` as well) and hashes, step by step, every agent's observation bytes, action mask
bytes, reward, termination, the actions taken and each info. The digests were
taken from the engine before the speed work of issue 19 (commit b8f412f); a change to what
the env does for the same options, seed and actions changes a digest and fails here (then
either the change is a bug, or it needs a version bump: README "Versions").
"""

from __future__ import annotations

import pytest

from tests.conformance import env_module, pinned_digest

ENV_MODULE = env_module("yaxha")

CASES = {
    "2p": ({"num_players": 2}, "random"),
    "3p": ({"num_players": 3}, "random"),
    "4p": ({"num_players": 4}, "random"),
    "3p-fixed-score_diff": ({"num_players": 3, "footprint": "fixed", "reward_scheme": "score_diff"}, "random"),
    "2p-features": ({"num_players": 2, "action_features": True}, "random"),
    "4p-features-heuristic": ({"num_players": 4, "action_features": True}, "heuristic"),
    "3p-heuristic": ({"num_players": 3, "bonus_cards": [12, 15, 16]}, "heuristic"),
    "2p-ismcts": ({"num_players": 2, "bonus_cards": [11, 13, 15]}, "mcts:4"),
}
DIGESTS = {
    # the IS-MCTS bot's rollouts end in leaf_values: retaken when LEAF_SCALES[2] went 10 -> 31
    # (fitted, issue 28; with the scale set back to 10 the old digest 3f79632e... still holds)
    "2p-ismcts": "9739e1c71a4572912910604031a945ffe058172ae99b5d5d219b5d1a65e98ce0",
    "2p": "d1001506f62fd612e6460730827ff87f57d16bb6f6aaf1f2b1e2fe73661cf648",
    "2p-features": "07bcb7f13bf66baf7ff9ead62aacc64b9eb04cdcd02197ae5dc6fed11c3ff95a",
    "3p": "253b3a4759ccec33e4f2f65b86222fdf8eb5a6e6d17f291fc55a49f7248526bf",
    "3p-fixed-score_diff": "00374676f5aa98d8b63c9cc9df0d65555d1465e58a4562ae2cefd58d2bca205c",
    "3p-heuristic": "cc0eeb12d9ada52f0cfcb0aaa355ce64c694ddf21c54495489ddc1760f9bb403",
    "4p": "e39ade2d725a10086c00efc4ceec97825e86a08dfed58ba57bf64c6d07edaefb",
    "4p-features-heuristic": "adefc31c66d4a8114308f741a6e0688985b95dc387e15e7233d6def4d76c71f4",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_seeded_trajectory_is_unchanged(case):
    options, policy = CASES[case]
    assert pinned_digest(ENV_MODULE.env, options, policy) == DIGESTS[case]
