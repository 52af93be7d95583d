"""The numbers Maya (2012)'s spec card and its game README's two-player section print come from the
code (issue 17 item 9; the helpers and every game's card name: tests/test_doc_numbers.py)."""

from __future__ import annotations

import maya_envs.maya2012.actions as M
from maya_envs.maya2012.rules import Maya2012Rules
from tests.helpers import ROOT
from tests.helpers.docs import card, docs_test, shape


def maya2012_expected() -> list[str]:
    size = {n: shape(Maya2012Rules({"num_players": n, "setup": "random"})) for n in (2, 3, 4)}
    draft = {n: shape(Maya2012Rules({"num_players": n, "setup": "draft"})) - size[n] for n in (2, 3, 4)}
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


def readme_maya2012_expected() -> list[str]:
    return [
        f"| actions | `Discrete({M.NUM_ACTIONS})`: 0-{M.NUM_EXCHANGES - 1} exchange of pair",
        f"{M.MONOLITH_BASE}-{M.MONOLITH_BASE + len(M.PAIRS) - 1} Monolith setup on pair `p`;"
        f" {M.RAVEN_BASE}-{M.RAVEN_BASE + len(M.EXCHANGE_LEVELS) - 1} Raven setup at level 2-5;"
        f" {M.DECLARE_END}-{M.NUM_ACTIONS - 1} reserved for the 3-4 player and drafted-setup variants",
        f"| observation | `({shape(Maya2012Rules({'setup': 'choose'}))},)` float32",
    ]


test_numbers_in_the_docs_come_from_the_code = docs_test(
    {
        "the game README's two-player section": (
            lambda: (ROOT / "maya_envs" / "maya2012" / "README.md").read_text(),
            readme_maya2012_expected,
        ),
        "maya2012 spec card": (lambda: card("maya2012"), maya2012_expected),
    }
)
