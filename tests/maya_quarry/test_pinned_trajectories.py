"""Pinned seeded trajectories: speed work must keep every Maya (Abacusspiele 2003) env
bit-for-bit identical.

Each case plays one seeded AEC game (actions from a seeded generator over the action mask, or
the heuristic bot) and hashes, step by step, every agent's observation bytes, action mask
bytes, reward, termination, each info, the actions taken and the full rules state
(``rules.state_to_dict``). The digests were taken from the engine before the speed work of
issue 19 (engine and observation as of commit b8f412f); a change to what the env does for the
same options, seed and actions changes a digest and fails here (then either the change is a
bug, or it needs a version bump: README "Versions").
"""

from __future__ import annotations

import pytest

from ..conformance import env_module, pinned_digest

ENV_MODULE = env_module("maya_quarry")

CASES = {
    "3p": ({"num_players": 3}, "random"),
    "4p": ({"num_players": 4}, "random"),
    "5p": ({"num_players": 5}, "random"),
    "adv-3p": ({"num_players": 3, "variant": "advanced"}, "random"),
    "adv-4p": ({"num_players": 4, "variant": "advanced"}, "random"),
    "adv-5p": ({"num_players": 5, "variant": "advanced"}, "random"),
    "4p-heuristic-gold_diff": ({"num_players": 4, "reward_scheme": "gold_diff"}, "heuristic"),
    "adv-5p-heuristic": ({"num_players": 5, "variant": "advanced"}, "heuristic"),
    "3p-options": (
        {
            "num_players": 3,
            "first_start_player": "random",
            "global_level_rule": "ever_filled",
            "bonus_block_recipient": "majority",
            "relocate_unsupported": "cascade",
            "skip_forced": False,
        },
        "random",
    ),
}
DIGESTS = {
    "3p": "6d3e187561a6e949ceca2498a0954ca5ddf3e2328557e392dddd74977832f52c",
    "3p-options": "fd3982b2a071c0844b38c6bf3952aac6d8aab4441165f1f5cd4faf5cc1ed8b64",
    "4p": "a461b16a5c55117eaae3852a715fc1dcde66da58be0168c5bafd5bcafdd78bfc",
    "4p-heuristic-gold_diff": "839d19493a1f18d79752bf6bb38fd2b3f62d2e2cc789528ef05a95d8b211a852",
    "5p": "c51a15960b1dbafd77efe396841400c9f57141c6501a756930858c48d9bbbd2b",
    "adv-3p": "711b6aa34b9cfe05b94f073024fe734fb9ddf1719b5c9122f44d16db610f0735",
    "adv-4p": "3aba4a890bda5ec1b3b3ded5ffd5336f49740ec8a06552ef1a5648ca39cc1a87",
    "adv-5p": "4da74648bc0fcba84e00ca8e78a218841181ddfc73f17f4389695f1bb4a5c02d",
    "adv-5p-heuristic": "6c1c72ad109efcfdeeaff5eb77e2fe223ea81f32f8df57d9a822e1e9852fba33",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_seeded_trajectory_is_unchanged(case):
    options, policy = CASES[case]
    assert pinned_digest(ENV_MODULE.env, options, policy, with_state=True) == DIGESTS[case]
