"""The numbers Yaxha's spec card and README print come from the code (issue 17 item 9; the
helpers and every game's card name: tests/test_doc_numbers.py)."""

from __future__ import annotations

from maya_envs.yaxha.rules import YaxhaRules
from tests.helpers import ROOT
from tests.helpers.docs import card, docs_test, shape


def yaxha_numbers():
    out = {}
    for footprint in ("floating", "fixed"):
        for features in (False, True):
            rules = {n: YaxhaRules(num_players=n, footprint=footprint) for n in (2, 3, 4)}
            out[footprint, features] = {n: shape(r, action_features=features) for n, r in rules.items()}
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


test_numbers_in_the_docs_come_from_the_code = docs_test(
    {
        "yaxha spec card": (lambda: card("yaxha"), yaxha_card_expected),
        "yaxha README": (lambda: (ROOT / "maya_envs/yaxha/README.md").read_text(), yaxha_readme_expected),
    }
)
