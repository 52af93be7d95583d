"""Every game's observation layout against what its observer writes (issue 31 item 4), read from
the game table: for every game x player count x variant (and the observer's own options), the
layout's parts tile the vector exactly (no gap, no overlap, nothing past the end, so nothing is
written outside a part) and, over seeded random games, every part is written: some state of
some config gives it a value other than the fill, 0. Where an observer gives the layout of one
row of a part made of rows (``observer.rows``: the quarry's seats, quarries, levels), the same
holds for the row's parts.

"Some config", not "every config": a part may be constant in one config by rule (Maya (2012)'s
``team_game`` is 0 at three players; two Yaxha seats that clash leave no pending seat, the last
pick being forced; random quarry play at three and four players never relocates a block).
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from maya_envs.core.errors import ConfigError
from maya_envs.core.layout import Layout
from maya_envs.games import GAMES

GAMES_PER_CONFIG = 2
MAX_STEPS = 600


def _observer_options(observer_class) -> list[dict]:
    """``{}`` and, where the observer takes ``action_features``, that option on."""
    options = [{}]
    if "action_features" in inspect.signature(observer_class).parameters:
        options.append({"action_features": True})
    return options


def _configs(game) -> list[tuple[dict, dict]]:
    """``(game options, observer options)`` of every player count x variant the rules accept."""
    out = []
    for n in game.player_counts:
        for variant in game.hook("variants"):
            options = {"num_players": n, game.variant_option: variant}
            try:
                game.make_rules(options)
            except ConfigError:  # a variant not offered at this count (2012: setup="choose" is 2p only)
                continue
            out += [(options, extra) for extra in _observer_options(game.hook("observer"))]
    return out


def _observations(rules, observer, games: int, seed: int):
    """Every seat's observation of every state of ``games`` seeded random games."""
    n = rules.spec.num_players
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        state = rules.initial_state(rng)
        for _ in range(MAX_STEPS):
            for seat in range(n):
                yield observer.encode(state, seat)
            if rules.is_terminal(state):
                break
            legal = rules.legal_actions(state)
            state = rules.apply_action(state, legal[int(rng.integers(len(legal)))], rng)


def assert_tiles(layout: Layout, size: int) -> None:
    """The parts, in order, cover ``[0, size)`` exactly once with unique names."""
    assert len(set(layout.names)) == len(layout)
    at = 0
    for part in layout:
        assert part.start == at, f"part {part.name!r} starts at {part.start}, the previous part ends at {at}"
        assert part.stop - part.start == int(np.prod(part.shape)) >= 0
        at = part.stop
    assert at == layout.size == size


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_layout_part_is_written_and_the_parts_tile_the_observation(key):
    game = GAMES[key]
    configs = _configs(game)
    assert configs
    names: set[str] = set()
    written: set[str] = set()  # parts seen non-zero, over all configs
    for index, (options, extra) in enumerate(configs):
        rules = game.make_rules(options)
        observer = game.hook("observer")(rules, **extra)
        layout = observer.layout
        rows = getattr(observer, "rows", {})  # part name -> the layout of one of its rows
        for name, row in rows.items():
            assert_tiles(row, layout.part(name).shape[-1])
        names.update(layout.names)
        names.update(f"{name}.{sub}" for name, row in rows.items() for sub in row.names)
        assert_tiles(layout, layout.size)
        for obs in _observations(rules, observer, GAMES_PER_CONFIG, seed=100 * index):
            assert obs.shape == layout.shape and obs.dtype == np.float32
            written.update(part.name for part in layout if obs[part.slice].any())
            for name, row in rows.items():
                values = layout.view(obs, name)
                written.update(f"{name}.{sub.name}" for sub in row if values[..., sub.slice].any())
    assert names - written == set(), f"{key}: parts never written"


def test_the_tiling_check_finds_a_gap_and_a_vector_longer_than_its_parts():
    layout = Layout([("a", 2), ("b", (2, 3))])
    assert_tiles(layout, 8)
    with pytest.raises(AssertionError):
        assert_tiles(layout, 9)
    gapped = Layout([("a", 2), ("b", (2, 3))])
    gapped.parts = (gapped.parts[0], type(gapped.parts[1])("b", 3, (2, 3)))
    with pytest.raises(AssertionError, match="starts at 3"):
        assert_tiles(gapped, 9)


def test_a_layout_gives_part_starts_spans_and_checks_concatenated_pieces():
    layout = Layout([("a", 2), ("b", (2, 3)), ("c", 1)])
    assert dict(layout.starts) == {"a": 0, "b": 2, "c": 8}
    with pytest.raises(TypeError):
        layout.starts["a"] = 5  # read-only
    assert layout.span("a", "b") == slice(0, 8) and layout.span("b", "b") == layout["b"]
    with pytest.raises(ValueError, match="'a' comes before part 'c'"):
        layout.span("c", "a")
    with pytest.raises(KeyError, match="no observation part 'd'"):
        layout.span("a", "d")
    layout.check_pieces([2, 3, 3, 1])  # b in two pieces
    with pytest.raises(ValueError, match="crosses the end of part 'a'"):
        layout.check_pieces([3, 5, 1])
    with pytest.raises(ValueError, match="fill 8 values; the layout has 9"):
        layout.check_pieces([2, 6])


def test_a_layout_survives_pickle_and_deepcopy():
    """Envs are deep-copied (search, branches) and pickled (vector envs in subprocesses)."""
    import copy
    import pickle

    layout = Layout([("a", 2), ("b", (2, 3))])
    for twin in (pickle.loads(pickle.dumps(layout)), copy.deepcopy(layout)):
        assert twin == layout and dict(twin.starts) == dict(layout.starts) and twin.span("a", "b") == slice(0, 8)
