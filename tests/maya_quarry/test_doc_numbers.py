"""The numbers the quarry game's spec card and README print come from the code (issue 17 item 9;
the helpers and every game's card name: tests/test_doc_numbers.py)."""

from __future__ import annotations

import maya_envs.maya_quarry.actions as Q
from maya_envs.maya_quarry.rules import MayaQuarryRules
from tests.helpers import ROOT
from tests.helpers.docs import card, docs_test, shape


def _quarry_ranges(kinds: list[str]) -> str:
    table = {name: (base, count) for name, base, count in Q._RANGES}
    base = table[kinds[0]][0]
    last = max(table[k][0] + table[k][1] - 1 for k in kinds)
    return f"{base}-{last}"


def quarry_numbers() -> dict[str, dict[int, int]]:
    out = {}
    for variant in ("basic", "advanced"):
        rules = {n: MayaQuarryRules({"num_players": n, "variant": variant}) for n in (3, 4, 5)}
        out[variant] = {n: shape(r) for n, r in rules.items()}
        out[variant + "_len"] = {n: r.spec.max_game_length for n, r in rules.items()}
    return out


def quarry_card_expected() -> list[str]:
    num = quarry_numbers()
    basic, advanced = num["basic"], num["advanced"]
    return [
        f"``Discrete({Q.NUM_ACTIONS})``",
        f"``Discrete({Q.NUM_ACTIONS_ADVANCED})``",
        f"({_quarry_ranges(['worker', 'worker_pass'])} workers, {_quarry_ranges(['minus3', 'minus3_none'])} -3 targets",
        f"{_quarry_ranges(['protect', 'appoint'])} Special Property decisions",
        f"{_quarry_ranges(['place'])} block placements, {_quarry_ranges(['double_pay', 'forced_pass'])} double moves",
        f"({_quarry_ranges(['bid'])} sealed bids 0..{Q.MAX_BID}, {_quarry_ranges(['blue_choose'])} blue marker picks,"
        f" {_quarry_ranges(['plus2', 'plus2_decline'])} +2 quarry points,"
        f" {_quarry_ranges(['joker', 'joker_decline'])} joker)",
        f"Box(0, 1, ({basic[3]}|{basic[4]}|{basic[5]},), float32)",
        f"Box(0, 1, ({Q.NUM_ACTIONS},), int8)",
        f"(advanced: {advanced[3]}|{advanced[4]}|{advanced[5]} and {Q.NUM_ACTIONS_ADVANCED};",
        f"an id outside 0..{Q.NUM_ACTIONS - 1} always raises",
    ]


def quarry_readme_expected() -> list[str]:
    num = quarry_numbers()
    basic, advanced = num["basic"], num["advanced"]
    length, advanced_length = num["basic_len"], num["advanced_len"]
    table = {name: (base, count) for name, base, count in Q._RANGES}
    worker = table["worker"]
    return [
        f"| actions | `Discrete({Q.NUM_ACTIONS})` | same | same |",
        f"| observation | `Box(0,1,({basic[3]},),float32)` | `({basic[4]},)` | `({basic[5]},)` |",
        f"| `max_game_length` (bound) | {length[3]} | {length[4]} | {length[5]} |",
        f"| actions | `Discrete({Q.NUM_ACTIONS_ADVANCED})` | same | same |",
        f"| `max_game_length` (bound) | {advanced_length[3]} | {advanced_length[4]} | {advanced_length[5]} |",
        f"({advanced[3]} / {advanced[4]} / {advanced[5]} values at 3 / 4 / 5 players)",
        f"| {worker[0]}-{worker[0] + worker[1] - 1} | worker:",
        f"| {Q.WORKER_PASS} | pass (worker placement",
        f"| {_quarry_ranges(['place'])} | place a block",
        f"| {_quarry_ranges(['double_pay', 'forced_pass'])} | double move (pay), double move (free), pass (pay),"
        " pass (free), forced pass (+1 gold) |",
        f"| {_quarry_ranges(['bid'])} | advanced: sealed bid 0..{Q.MAX_BID}",
        f"| {_quarry_ranges(['blue_choose'])} | advanced: pick blue marker",
        f"| {_quarry_ranges(['plus2'])} / {Q.PLUS2_DECLINE} | advanced: place the +2 quarry points",
        f"| {_quarry_ranges(['joker'])} / {Q.JOKER_DECLINE} | advanced: joker acts as",
        f"`Discrete({Q.NUM_ACTIONS})`; the advanced variant's ids are appended (`Discrete({Q.NUM_ACTIONS_ADVANCED})`)",
    ]


test_numbers_in_the_docs_come_from_the_code = docs_test(
    {
        "maya_quarry spec card": (lambda: card("maya_quarry"), quarry_card_expected),
        "maya_quarry README": (lambda: (ROOT / "maya_envs/maya_quarry/README.md").read_text(), quarry_readme_expected),
    }
)
