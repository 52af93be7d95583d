"""Yaxha's chance: the first-game bonus cards keep the chance contract, and an impossible scripted
outcome is refused; the chance contract every game keeps is in tests/test_conformance.py."""

from __future__ import annotations

import pytest

from maya_envs.core.chance import OutcomeScript
from maya_envs.core.errors import IllegalActionError
from maya_envs.yaxha.rules import YaxhaRules
from tests.conformance import check_chance_nodes_sum_to_one, check_chance_paths_agree, check_spec_chance


def test_the_first_game_bonus_cards_keep_the_chance_contract():
    rules = YaxhaRules(num_players=2, bonus_cards="first_game")
    assert check_chance_paths_agree(rules) >= 1
    check_chance_nodes_sum_to_one(rules)
    check_spec_chance(rules)


def test_scripted_outcome_that_is_impossible_is_refused():
    rules = YaxhaRules(num_players=2, bonus_cards=(0, 1, 2))
    with pytest.raises(IllegalActionError, match="chance outcome 9 is not possible for this initiative"):
        rules.initial_state(OutcomeScript([9]))
