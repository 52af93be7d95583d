"""The quarry game's chance: with a drawn first start player, the generator and chance-outcome
paths agree; the chance contract every game keeps is in tests/test_conformance.py."""

from __future__ import annotations

import pytest

from maya_envs.maya_quarry.rules import MayaQuarryRules
from tests.conformance import check_chance_nodes_sum_to_one, check_chance_paths_agree, check_spec_chance

RANDOM_START = [
    {"num_players": 3, "variant": "advanced", "first_start_player": "random"},
    {"num_players": 4, "variant": "advanced", "first_start_player": "random"},
    {"num_players": 5, "variant": "basic", "first_start_player": "random"},
]


@pytest.mark.parametrize("options", RANDOM_START, ids=lambda o: f"{o['num_players']}p-{o['variant']}")
def test_a_drawn_first_start_player_keeps_the_chance_contract(options):
    rules = MayaQuarryRules(options)
    assert check_chance_paths_agree(rules) >= 1
    check_chance_nodes_sum_to_one(rules)
    check_spec_chance(rules)


def test_spec_chance_is_false_where_nothing_is_drawn_after_setup():
    assert not MayaQuarryRules({"num_players": 3, "first_start_player": "random"}).spec.chance
    assert not MayaQuarryRules({"num_players": 5, "variant": "advanced"}).spec.chance  # all 4 markers
