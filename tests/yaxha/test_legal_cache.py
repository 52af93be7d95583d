"""Yaxha's rules memoise their legal actions in the shared cache (maya_envs.core.legal), moved
from tests/test_signatures.py (issue 31 item 2: a test about one game lives in its folder)."""

from __future__ import annotations

import dataclasses

import numpy as np


def test_yaxha_uses_the_shared_legal_action_cache():
    from maya_envs.core.legal import LegalActionCache
    from maya_envs.yaxha.rules import YaxhaRules

    rules = YaxhaRules({"num_players": 3})
    assert isinstance(rules, LegalActionCache)
    state = rules.initial_state(np.random.default_rng(0))
    legal = rules.legal_actions(state)
    assert state._cache["legal"] == legal and rules.legal_mask(state).sum() == len(legal)
    after = rules.apply_action(state, legal[0], np.random.default_rng(1))
    assert "legal" not in after._cache  # a new state computes its own
    assert rules.legal_actions(after) == rules.legal_actions_for(after, rules.current_player(after))
    assert dataclasses.replace(state)._cache == {}  # a copy starts without the memo
    assert rules.state_from_dict(rules.state_to_dict(state)) == state  # the memo is not saved
