"""Targeted positions for the rare branches of Maya (2012)'s legal-action generation (issue 17
item 5b): the exchange rules (Monolith at every pair and off the board, Raven at every level and
unset, joined colours) on boards with joins, checked with an oracle written from the rule text;
the declare step when eligible and not; a position with no legal exchange (the game is over, as
in the batched engine). Then short random playouts with the oracle.

``scripts/rules_coverage.py`` measures the branch coverage of the rules engines over these and
the other rules tests and prints it per engine in CI.
"""

from __future__ import annotations

import numpy as np
import pytest

from maya_envs.maya2012 import actions as MA
from maya_envs.maya2012.rules import DECLARE, OVER, Maya2012Rules, legal_exchanges
from tests.maya2012.boards import complete_board, multi_state, state_with

# -- Maya (2012): exchanges, the declare step, a stuck position ----------------------------------


def exchange_oracle(towers, monolith: int, raven: int) -> set[int]:
    """Rule text (rules section 4): pair ``(a, b)`` at base level ``k`` (2-5) is legal unless a
    tower of the pair stands next to the Monolith, ``k`` is the Raven's level, or the cut
    splits a joined colour in either tower (``col[k-2] == col[k-1]``)."""
    blocked = set(MA.PAIRS[monolith]) if monolith >= 0 else set()
    out = set()
    for pair, (a, b) in enumerate(MA.PAIRS):
        if blocked & {a, b}:
            continue
        for k in range(2, 6):
            if k == raven:
                continue
            if towers[a][k - 2] == towers[a][k - 1] or towers[b][k - 2] == towers[b][k - 1]:
                continue
            out.add(4 * pair + k - 2)
    return out


JOINED_BOARDS = [
    complete_board({}),
    complete_board({0: (None, 0, 0, None, None), 4: (None, None, 1, 1, 1)}),
    complete_board({1: (None, 2, 2, 2, 2), 3: (None, 3, 3, None, None), 7: (None, None, None, 4, 4)}),
    complete_board({t: (None, 5 + t % 2, 5 + t % 2, None, None) for t in (2, 5, 8)}),
]


@pytest.mark.parametrize("board", range(len(JOINED_BOARDS)))
def test_exchange_rules_match_the_rule_text_oracle(board):
    towers = JOINED_BOARDS[board]
    rules = Maya2012Rules({"setup": "random"})
    for monolith in range(-1, len(MA.PAIRS)):
        for raven in (0, 2, 3, 4, 5):
            assert set(legal_exchanges(towers, monolith, raven)) == exchange_oracle(towers, monolith, raven)
        state = state_with(towers, monolith=monolith, raven=2)
        assert set(rules.legal_actions(state)) == exchange_oracle(towers, monolith, 2)


def test_declare_step_offers_declare_only_when_eligible():
    rules = Maya2012Rules({"num_players": 3, "declare_step": "always"})
    complete = complete_board({4: (8,) * 5, 0: (0,) * 5})  # the centre and the tower of colour 0
    eligible = multi_state(complete, ((0, 1), (2, 3), (4, 5)), (6, 7), phase=DECLARE, to_move=0, turn=1)
    assert rules.legal_actions(eligible) == [MA.DECLARE_END, MA.CONTINUE]
    other = multi_state(complete, ((2, 3), (0, 1), (4, 5)), (6, 7), phase=DECLARE, to_move=0, turn=1)
    assert rules.legal_actions(other) == [MA.CONTINUE]


def test_a_position_without_a_legal_exchange_is_over():
    stuck = tuple((c,) * 5 for c in range(9))  # every tower one colour: every seam joined
    rules = Maya2012Rules({"setup": "random"})
    assert legal_exchanges(stuck, -1, 0) == [] == sorted(exchange_oracle(stuck, -1, 0))
    over = rules._start_exchanges(state_with(stuck))
    assert over.phase == OVER and rules.legal_actions(over) == []
    assert rules.final_info(over)["end"] == "no_legal_exchange" and rules.returns(over).tolist() == [0.0, 0.0]


# -- short random playouts with the oracles (the common branches, for the coverage figure) -------

MAYA_CONFIGS = [
    {"num_players": 2, "max_turns": 80},
    {"num_players": 2, "setup": "random", "max_turns": 80, "at_max_turns": "truncate"},
    {"num_players": 2, "setup": "draft", "max_turns": 40, "reward_scheme": "score_diff"},
    {"num_players": 3, "max_turns": 60, "declare_step": "always", "three_plus_two": "best"},
    {"num_players": 4, "setup": "draft", "max_turns": 40, "reward_scheme": "score_diff"},
]


@pytest.mark.parametrize("options", MAYA_CONFIGS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_maya2012_random_playouts_match_the_rule_text_oracle(options):
    from maya_envs.maya2012.rules import EXCHANGE, may_declare

    rules = Maya2012Rules(options)
    rng = np.random.default_rng(len(options))
    for _ in range(2):
        state = rules.initial_state(rng)
        while rules.current_player(state) >= 0:
            legal = rules.legal_actions(state)
            if state.phase == EXCHANGE:
                assert set(legal) == exchange_oracle(state.towers, state.monolith, state.raven)
            elif state.phase == DECLARE:
                eligible = may_declare(state.towers, state.tasks[state.to_move])
                assert legal == ([MA.DECLARE_END, MA.CONTINUE] if eligible else [MA.CONTINUE])
            state = rules.apply_action(state, int(rng.choice(legal)), rng)
        info = rules.final_info(state)
        assert info["end"] in ("no_legal_exchange", "declared", "max_turns")
        assert abs(rules.returns(state).sum()) < 1e-9
