"""No shared mutable lists or arrays in any rules engine or env (issue 17 item 5a).

The quarry game once lost its forced pass because the legal-action builder appended to the
list of placements it then tested for emptiness. The kind: a mutable list or array reachable
from two owners. For every game and player count, along random games:

* consecutive states share no mutable object (list, dict, set, ndarray), and ``apply_action``
  leaves its input equal to a deep copy taken before;
* mutating what ``legal_actions``, ``legal_mask``, ``observe``, ``returns`` and
  ``final_info`` return changes neither the state nor the next answer;
* the env's final ``info`` dicts share no list between agents.
"""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest

from maya_envs.maya2012.observation import Maya2012Observer
from maya_envs.maya2012.rules import Maya2012Rules
from maya_envs.maya_quarry.observation import MayaQuarryObserver
from maya_envs.maya_quarry.rules import MayaQuarryRules
from maya_envs.yaxha.observation import YaxhaObserver
from maya_envs.yaxha.rules import YaxhaRules

RULES = [
    (Maya2012Rules, {"num_players": 2, "max_turns": 40}),
    (Maya2012Rules, {"num_players": 4, "max_turns": 40}),
    (Maya2012Rules, {"num_players": 3, "setup": "draft", "max_turns": 10}),
    (MayaQuarryRules, {"num_players": 3}),
    (MayaQuarryRules, {"num_players": 5, "variant": "advanced"}),
    (YaxhaRules, {"num_players": 2}),
    (YaxhaRules, {"num_players": 4}),
]
IDS = [f"{cls.__name__}-{opts}" for cls, opts in RULES]
MUTABLE = (list, dict, set, bytearray, np.ndarray)


def _mutable_ids(obj, out: set[int]) -> set[int]:
    if isinstance(obj, MUTABLE):
        out.add(id(obj))
    if isinstance(obj, dict):
        for value in obj.values():
            _mutable_ids(value, out)
    elif isinstance(obj, (list, tuple, set)):
        for value in obj:
            _mutable_ids(value, out)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            if f.name != "_cache":  # each state's own memo (a fresh dict per state)
                _mutable_ids(getattr(obj, f.name), out)
    return out


def _spoil(value) -> None:
    """Change a returned container in place (what a careless caller might do)."""
    if isinstance(value, np.ndarray) and value.size:
        value[...] = 7
    elif isinstance(value, list):
        value.append(-99)
    elif isinstance(value, dict):
        for item in list(value.values()):
            _spoil(item)
        value["spoiled"] = True


@pytest.mark.parametrize("index", range(len(RULES)), ids=IDS)
def test_no_state_or_answer_shares_a_mutable_object(index):
    cls, options = RULES[index]
    rules = cls(**options) if cls is YaxhaRules else cls(options)
    observers = {Maya2012Rules: Maya2012Observer, MayaQuarryRules: MayaQuarryObserver, YaxhaRules: YaxhaObserver}
    observer = observers[cls](rules)
    n = rules.spec.num_players
    for seed in range(1):
        rng = np.random.default_rng(seed)
        state = rules.initial_state(rng)
        for _ in range(rules.spec.max_game_length + 1):
            before = copy.deepcopy(state)
            answers = [
                lambda state=state: rules.legal_actions(state),
                lambda state=state: rules.legal_mask(state),
                lambda state=state: rules.returns(state),
                lambda state=state: rules.final_info(state),
                *[lambda seat=seat, state=state: observer.encode(state, seat) for seat in range(n)],
            ]
            for answer in answers:
                first = answer()
                expected = copy.deepcopy(first)
                _spoil(first)
                again = answer()
                if isinstance(expected, np.ndarray):
                    np.testing.assert_array_equal(again, expected)
                else:
                    assert again == expected
            assert state == before
            if rules.current_player(state) < 0:
                break
            action = int(rng.choice(rules.legal_actions(state)))
            nxt = rules.apply_action(state, action, rng)
            assert state == before, "apply_action changed its input"
            shared = _mutable_ids(state, set()) & _mutable_ids(nxt, set())
            assert not shared, f"consecutive states share {len(shared)} mutable object(s) after action {action}"
            state = nxt
        else:
            raise AssertionError("game did not end")


@pytest.mark.parametrize("game", ["maya2012_v1", "maya_quarry_v1", "yaxha_v1"])
def test_final_infos_share_no_list_between_agents(game):
    import importlib

    module = importlib.import_module(f"maya_envs.{game}")
    env = module.env(**({"max_turns": 20} if game.startswith("maya2012") else {}))
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
    infos = list(env.infos.values())
    owners = [_mutable_ids(info, set()) - {id(info)} for info in infos]
    for i in range(len(owners)):
        for j in range(i):
            assert not owners[i] & owners[j]
