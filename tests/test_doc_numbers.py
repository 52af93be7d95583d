"""Numbers that the docs print and the code defines agree (issue 17 item 9).

Every spec card (the env modules' docstrings) and every game README states action counts, id
ranges, observation sizes and length bounds; each one is rebuilt here from the code (the
action tables and each config's ``GameSpec``) and must appear in the text. The README's env
table is generated from the same specs (``tests/test_env_table.py``). Measured numbers (speed,
mean lengths, win rates) are not derived from code and are not checked here.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import maya_envs.maya2012.actions as M
import maya_envs.maya_quarry.actions as Q
from maya_envs.games import GAMES
from maya_envs.maya2012.observation import Maya2012Observer
from maya_envs.maya2012.rules import Maya2012Rules
from maya_envs.maya_quarry.observation import MayaQuarryObserver
from maya_envs.maya_quarry.rules import MayaQuarryRules
from maya_envs.yaxha.observation import YaxhaObserver
from maya_envs.yaxha.rules import YaxhaRules

ROOT = Path(__file__).resolve().parent.parent


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _assert_says(text: str, expected: list[str], where: str) -> None:
    flat = _flat(text)
    missing = [e for e in expected if _flat(e) not in flat]
    assert not missing, f"{where} does not say (from the code): {missing}"


def _env_module(game: str):
    """The game's current ``<game>_vN`` PettingZoo module (whatever its version)."""
    names = sorted(p.stem for p in (ROOT / "maya_envs").glob(f"{game}_v[0-9]*.py"))
    return importlib.import_module(f"maya_envs.{names[-1]}")


def _card(game: str) -> str:
    return importlib.import_module(f"maya_envs.{game}.env").__doc__


def _shape(rules, **observer_options) -> int:
    observers = {Maya2012Rules: Maya2012Observer, MayaQuarryRules: MayaQuarryObserver, YaxhaRules: YaxhaObserver}
    return observers[type(rules)](rules, **observer_options).layout.size


def _quarry_ranges(kinds: list[str]) -> str:
    table = {name: (base, count) for name, base, count in Q._RANGES}
    base = table[kinds[0]][0]
    last = max(table[k][0] + table[k][1] - 1 for k in kinds)
    return f"{base}-{last}"


def maya2012_expected() -> list[str]:
    size = {n: _shape(Maya2012Rules({"num_players": n, "setup": "random"})) for n in (2, 3, 4)}
    draft = {n: _shape(Maya2012Rules({"num_players": n, "setup": "draft"})) - size[n] for n in (2, 3, 4)}
    assert size[3] == size[4] and len(set(draft.values())) == 1
    return [
        f"``Discrete({M.NUM_ACTIONS})``",
        f"(0-{M.NUM_EXCHANGES - 1} exchanges, {M.MONOLITH_BASE}-{M.MONOLITH_BASE + len(M.PAIRS) - 1} Monolith setup,"
        f" {M.RAVEN_BASE}-{M.RAVEN_BASE + len(M.EXCHANGE_LEVELS) - 1} Raven setup (2p), {M.DECLARE_END} declare end,"
        f" {M.CONTINUE} continue (3-4p), {M.DRAFT_BASE}-{M.NUM_ACTIONS - 1} drafted setup)",
        f"Box(0, 1, ({M.NUM_ACTIONS},), int8)",
        f"N = {size[2]} (2p) or {size[3]} (3-4p), +{draft[2]} with ``setup=\"draft\"``",
        f"an id outside 0..{M.NUM_ACTIONS - 1} always raises",
    ]


def quarry_numbers() -> dict[str, dict[int, int]]:
    out = {}
    for variant in ("basic", "advanced"):
        rules = {n: MayaQuarryRules({"num_players": n, "variant": variant}) for n in (3, 4, 5)}
        out[variant] = {n: _shape(r) for n, r in rules.items()}
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


def yaxha_numbers():
    out = {}
    for footprint in ("floating", "fixed"):
        for features in (False, True):
            rules = {n: YaxhaRules(num_players=n, footprint=footprint) for n in (2, 3, 4)}
            out[footprint, features] = {n: _shape(r, action_features=features) for n, r in rules.items()}
            out[footprint, "actions"] = {n: r.spec.num_actions for n, r in rules.items()}
            out[footprint, "length"] = {n: r.spec.max_game_length for n, r in rules.items()}
    cells = {f: (out[f, "actions"][4] - 4 - 5) // 5 for f in ("floating", "fixed")}
    for footprint, c in cells.items():  # num_actions = N + 5C + 5 for every N
        assert all(out[footprint, "actions"][n] == n + 5 * c + 5 for n in (2, 3, 4))
        assert all(out[footprint, "length"][n] == 10 * (n + max(n - 2, 0) + 3 * n) for n in (2, 3, 4))
    return out, cells


def yaxha_card_expected() -> list[str]:
    _, cells = yaxha_numbers()
    return [
        f"``Discrete(N + 5C + 5)`` (C = {cells['floating']} cells floating, {cells['fixed']} fixed)",
        "``max_game_length`` = 10 x (N + max(N-2, 0) + 3N) agent steps",
    ]


def yaxha_readme_expected() -> list[str]:
    out, cells = yaxha_numbers()

    def sizes(key):
        return " / ".join(str(out[key][n]) for n in (2, 3, 4))

    return [
        f"(126 floating: 49+36+25+16; 30 fixed: 16+9+4+1); `num_actions = N + 5C + 5` "
        f"({out['floating', 'actions'][4]} for 4 floating players)".replace("126", str(cells["floating"]), 1),
        f"Sizes: {sizes(('floating', False))} (2/3/4 players, floating), {sizes(('fixed', False))} (fixed); "
        f"with the features {sizes(('floating', True))} and {sizes(('fixed', True))}.",
        "at most 10 x (N + max(N-2, 0) + 3N)",
    ]


def readme_maya2012_expected() -> list[str]:
    return [
        f"| actions | `Discrete({M.NUM_ACTIONS})`: 0-{M.NUM_EXCHANGES - 1} exchange of pair",
        f"{M.MONOLITH_BASE}-{M.MONOLITH_BASE + len(M.PAIRS) - 1} Monolith setup on pair `p`;"
        f" {M.RAVEN_BASE}-{M.RAVEN_BASE + len(M.EXCHANGE_LEVELS) - 1} Raven setup at level 2-5;"
        f" {M.DECLARE_END}-{M.NUM_ACTIONS - 1} reserved for the 3-4 player and drafted-setup variants",
        f"| observation | `({_shape(Maya2012Rules({'setup': 'choose'}))},)` float32",
    ]


DOCS = {
    "README Maya (2012) section": (lambda: (ROOT / "README.md").read_text(), readme_maya2012_expected),
    "maya2012 spec card": (lambda: _card("maya2012"), maya2012_expected),
    "maya_quarry spec card": (lambda: _card("maya_quarry"), quarry_card_expected),
    "maya_quarry README": (lambda: (ROOT / "maya_envs/maya_quarry/README.md").read_text(), quarry_readme_expected),
    "yaxha spec card": (lambda: _card("yaxha"), yaxha_card_expected),
    "yaxha README": (lambda: (ROOT / "maya_envs/yaxha/README.md").read_text(), yaxha_readme_expected),
}


@pytest.mark.parametrize("doc", sorted(DOCS))
def test_numbers_in_the_docs_come_from_the_code(doc):
    text, expected = DOCS[doc]
    _assert_says(text(), expected(), doc)


@pytest.mark.parametrize("game", ["maya2012", "maya_quarry", "yaxha"])
def test_spec_card_names_the_current_module_and_ids(game):
    module = _env_module(game)
    card = _card(game)
    name = module.__name__.rsplit(".", 1)[1]
    key, _, version = name.rpartition("_v")
    # the card names the module without its version (written once, in the game table)
    assert f"from maya_envs import {key}_vN" in card and version == str(GAMES[game].version)
    assert module.raw_env().metadata["name"] == name
